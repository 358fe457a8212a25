#!/bin/bash
# A copy of this build without the envelope (issue 37: "the service with and without it"), for bench/ab.mjs:
# no security headers, no completion hook (log line, metrics, request log), no JSON answer observation and no
# rate-limit headers (the limiter still counts). The copy is a git worktree of HEAD with this folder's dist/.
#   bench/without-envelope.sh DIR && node bench/ab.mjs --a DIR --b . --scenario prepare2,replay --rounds 6 --duration 6
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: bench/without-envelope.sh DIR}
git -C "$here" worktree remove --force "$dir" 2>/dev/null || rm -rf "$dir"
git -C "$here" worktree add -q --detach "$dir" HEAD
ln -s "$here/node_modules" "$dir/node_modules"
cp -r "$here/dist" "$dir/dist"
boot="$dir/dist/src/bootstrap.js" guard="$dir/dist/src/modules/auth/access/api/partner-auth.guard.js"
sed -i 's|^    app.use((0, security_headers_1.securityHeaders)());|    /* no envelope */|' "$boot"
sed -i 's|^    app.use((0, http_logger_1.httpLogger)(deps.logger, listener, completed));|    /* no envelope */|' "$boot"
sed -i 's|^        (0, answer_observation_1.observeJsonAnswers)(app.getHttpAdapter().getInstance());|        /* no envelope */;|' "$boot"
sed -i "s|^                res.setHeader('RateLimit-Policy', outcome.headers\['RateLimit-Policy'\]);|                /* no envelope */|; s|^                res.setHeader('RateLimit', outcome.headers.RateLimit);|                /* no envelope */|" "$guard"
# all five lines must have been found: a build whose lines moved fails here rather than measuring the envelope
[ "$(grep -c 'no envelope' "$boot")" = 3 ] && [ "$(grep -c 'no envelope' "$guard")" = 2 ] || { echo "the envelope's lines were not all found in dist/" >&2; exit 1; }
echo "$dir: this build without the envelope"
