#!/bin/bash
# A copy of this build with bench/one-pass-probe.cjs installed after the envelope (issue 37's decision: what Nest's
# route machinery costs on a 2-line prepare). A git worktree of HEAD with this folder's dist/.
#   bench/with-one-pass-probe.sh DIR && node bench/ab.mjs --a . --b DIR --scenario prepare2 --rounds 6 --duration 6
set -euo pipefail
. "$(dirname "$0")/build-copy.sh"
dir=${1:?usage: bench/with-one-pass-probe.sh DIR}
copy_build "$dir"
cp "$here/bench/one-pass-probe.cjs" "$dir/dist/one-pass-probe.cjs"
boot="$dir/dist/src/bootstrap.js"
grep -qxF "$HOOK_LINE" "$boot" || { echo "the completion hook's line was not found in dist/" >&2; exit 1; }
sed -i "s|^${HOOK_LINE}\$|&\n    if (listener === 'partner') require('../one-pass-probe.cjs')(app, require('node:path').join(__dirname, '..'));|" "$boot"
echo "$dir: this build with the one-pass probe"
