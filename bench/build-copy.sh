# Sourced by the bench scripts that measure a changed copy of this build (without-envelope.sh, with-one-pass-probe.sh).
# copy_build DIR: DIR becomes a git worktree of HEAD with this folder's node_modules (linked) and dist/ (copied).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# the completion hook's line in dist/src/bootstrap.js, which both scripts edit
HOOK_LINE='    app.use((0, http_logger_1.httpLogger)(deps.logger, listener, completed));'
copy_build() {
  git -C "$here" worktree remove --force "$1" 2>/dev/null || rm -rf "$1"
  git -C "$here" worktree add -q --detach "$1" HEAD
  ln -s "$here/node_modules" "$1/node_modules"
  cp -r "$here/dist" "$1/dist"
}
