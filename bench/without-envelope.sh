#!/bin/bash
# A copy of this build without the envelope (issue 37: "the service with and without it"), for bench/ab.mjs:
# no security headers, no completion hook (log line, metrics, request log), no JSON answer observation and no
# rate-limit headers (the limiter still counts). The copy is a git worktree of HEAD with this folder's dist/.
# PARTS (comma-separated, default all) removes only some: headers, hook, observe, ratelimit.
#   bench/without-envelope.sh DIR [PARTS] && node bench/ab.mjs --a DIR --b . --scenario prepare2,replay --rounds 6 --duration 6
set -euo pipefail
. "$(dirname "$0")/build-copy.sh"
dir=${1:?usage: bench/without-envelope.sh DIR [headers,hook,observe,ratelimit]}
parts=,${2:-headers,hook,observe,ratelimit},
has() { [[ $parts == *,$1,* ]]; }
for p in ${parts//,/ }; do case $p in headers|hook|observe|ratelimit) ;; *) echo "unknown part: $p (headers, hook, observe, ratelimit)" >&2; exit 2 ;; esac; done
copy_build "$dir"
boot="$dir/dist/src/bootstrap.js" guard="$dir/dist/src/modules/auth/access/api/partner-auth.guard.js"
want_boot=0 want_guard=0
if has headers; then sed -i 's|^    app.use((0, security_headers_1.securityHeaders)());|    /* no envelope */|' "$boot"; want_boot=$((want_boot + 1)); fi
if has hook; then sed -i "s|^${HOOK_LINE}\$|    /* no envelope */|" "$boot"; want_boot=$((want_boot + 1)); fi
if has observe; then sed -i 's|^        (0, answer_observation_1.observeJsonAnswers)(app.getHttpAdapter().getInstance());|        /* no envelope */;|' "$boot"; want_boot=$((want_boot + 1)); fi
if has ratelimit; then
  sed -i "s|^                res.setHeader('RateLimit-Policy', outcome.headers\['RateLimit-Policy'\]);|                /* no envelope */|; s|^                res.setHeader('RateLimit', outcome.headers.RateLimit);|                /* no envelope */|" "$guard"
  want_guard=2
fi
# every line asked for must have been found: a build whose lines moved fails here rather than measuring the envelope
[ "$(grep -c 'no envelope' "$boot" || true)" = $want_boot ] && [ "$(grep -c 'no envelope' "$guard" || true)" = $want_guard ] || { echo "the envelope's lines were not all found in dist/" >&2; exit 1; }
echo "$dir: this build without ${parts:1:-1}"
