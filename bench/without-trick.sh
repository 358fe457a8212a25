#!/bin/bash
# A copy of this build without one performance trick of docs/adr/0013 (its "how to remove it", made in dist/),
# for bench/ab.mjs: the trick's gain measured as the table's row says, in one sitting. The copy is a git
# worktree of HEAD with this folder's dist/ (bench/build-copy.sh); remove it with `git worktree remove --force DIR`.
#   bench/without-trick.sh DIR interceptor|buffer-pool|set|plain-client|generic-walk
#   node bench/ab.mjs --a . --b DIR --scenario prepare2,replay --rounds 6 --duration 6
set -euo pipefail
. "$(dirname "$0")/build-copy.sh"
dir=${1:?usage: bench/without-trick.sh DIR TRICK}
trick=${2:?interceptor, buffer-pool, set, plain-client or generic-walk}
copy_build "$dir"
d="$dir/dist/src"
# edit FILE SED-EXPRESSION: the line must have been found, else a build whose lines moved is not measured
edit() {
  local before
  before=$(md5sum "$1")
  sed -i "$2" "$1"
  [ "$(md5sum "$1")" != "$before" ] || { echo "$trick: the line to change was not found in $1" >&2; exit 1; }
}
case $trick in
  # 2: a global interceptor that taps the handler's result, as the table says, instead of the res.json patch
  interceptor)
    edit "$d/bootstrap.js" 's|^        (0, answer_observation_1.observeJsonAnswers)(app.getHttpAdapter().getInstance());|        app.useGlobalInterceptors({ intercept: (ctx, next) => { const http = ctx.switchToHttp(); const req = http.getRequest(); const res = http.getResponse(); return next.handle().pipe(require("rxjs").tap((body) => { if (body !== null \&\& typeof body === "object") { if (typeof body.operation_id === "string") req.operationId = body.operation_id; if (body.replayed === true) res.locals.replayed = true; } })); } }); /* without trick */|'
    ;;
  # 3: Node's default Buffer.poolSize (64 KiB)
  buffer-pool) edit "$d/main.js" 's|^require("./shared/performance/small-buffer-pool");|/* without trick */|' ;;
  # 4: a Set behind LiveSet's interface (add, then () => set.delete(item))
  set)
    cat > "$d/shared/performance/live-set.js" <<'EOF'
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
/* without trick: a Set */
class LiveSet {
    constructor() { this.set = new Set(); }
    get size() { return this.set.size; }
    add(item) { this.set.add(item); return () => { this.set.delete(item); }; }
    [Symbol.iterator]() { return this.set.values(); }
}
exports.LiveSet = LiveSet;
EOF
    ;;
  # 5: pg's Client (unnamed statements; its own Query config copy)
  plain-client) edit "$d/shared/performance/named-statement-client.js" 's|^exports.NamedStatementClient = NamedStatementClient;|exports.NamedStatementClient = require("pg").Client; /* without trick */|' ;;
  # 6: the generic walk for every DTO class, no generated validator
  generic-walk) edit "$d/shared/http/validation/body-validation.pipe.js" 's|^        const generated = compiled ? .*|        const generated = null; /* without trick */|' ;;
  *) echo "unknown trick: $trick" >&2; exit 2 ;;
esac
echo "$dir: this build without the trick $trick"
