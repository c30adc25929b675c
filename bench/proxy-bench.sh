#!/usr/bin/env bash
# `make bench-proxy`: what a proxy stub costs over calling the upstream directly. Two release
# stubservers on 127.0.0.1: the upstream answers /bench, the proxy forwards /bench to it.
# wrk (keep-alive, 50 connections, 2 threads) alternates direct and proxied runs so both see the
# same machine noise; prints req/s and p50/p99 per run, the medians and the ratios. Then
# UpstreamClientBench compares the upstream client with URLSession on the same upstream.
#
# Knobs (environment): BENCH_DURATION seconds per wrk run (default 5), BENCH_ROUNDS (default 3).
set -euo pipefail
# Extra release flags, as the Makefile passes them (SWIFT_RELEASE_FLAGS).
RELEASE_FLAGS=(${SWIFT_RELEASE_FLAGS-})

cd "$(dirname "$0")/.."
DURATION="${BENCH_DURATION:-5}"
ROUNDS="${BENCH_ROUNDS:-3}"
CONNECTIONS=50
THREADS=2

say() { printf '%s\n' "$*" >&2; }

if ! command -v wrk >/dev/null 2>&1; then
    say "installing wrk with apt-get"
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq wrk >/dev/null
fi

say "building stubserver and UpstreamClientBench (release)"
swift build -c release "${RELEASE_FLAGS[@]}" --product stubserver >/dev/null
swift build -c release "${RELEASE_FLAGS[@]}" --product UpstreamClientBench >/dev/null
BIN="$(swift build -c release "${RELEASE_FLAGS[@]}" --show-bin-path)"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/stubserver-proxy-bench.XXXXXX")"
PIDS=()
cleanup() {
    # `start` runs in a command substitution (a subshell), so its servers' pids are in files.
    for pid in "${PIDS[@]:-}" $(cat "$WORK"/*.pid 2>/dev/null); do
        [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

BODY='{"id":1,"title":"Rehearsal measures what a proxy stub costs","url":"https://example.com/stories/1","points":42}'
BODY_JSON="\"$(printf '%s' "$BODY" | sed 's/\\/\\\\/g; s/"/\\"/g')\""
printf '[{"request":{"uri":"/bench"},"response":{"headers":{"Content-Type":"application/json"},"text":%s}}]\n' "$BODY_JSON" > "$WORK/upstream.json"

# Starts a stubserver on a free port; prints the port.
start() {  # $1: config, $2: log file
    "$BIN/stubserver" start -p 0 -q -c "$1" > "$2" 2>&1 &
    echo $! > "$2.pid"
    for _ in $(seq 1 200); do
        port=$(sed -n 's/^Server is started at \([0-9]*\).*/\1/p' "$2")
        [ -n "$port" ] && { echo "$port"; return; }
        sleep 0.05
    done
    say "stubserver did not start: $(cat "$2")"; exit 1
}

UPSTREAM_PORT=$(start "$WORK/upstream.json" "$WORK/upstream.log")
printf '[{"request":{"uri":"/bench"},"response":{"proxy":"http://127.0.0.1:%s/bench"}}]\n' "$UPSTREAM_PORT" > "$WORK/proxy.json"
PROXY_PORT=$(start "$WORK/proxy.json" "$WORK/proxy.log")
curl -fsS "http://127.0.0.1:$PROXY_PORT/bench" >/dev/null || { say "the proxy does not answer"; exit 1; }

# wrk → "req/s p50_ms p99_ms non2xx"
load() {
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "http://127.0.0.1:$1/bench" | awk '
        function ms(v) {
            if (v ~ /us$/) { sub(/us$/, "", v); return v / 1000 }
            if (v ~ /ms$/) { sub(/ms$/, "", v); return v + 0 }
            if (v ~ /s$/)  { sub(/s$/, "", v);  return v * 1000 }
            return v
        }
        /Requests\/sec:/ { rps = $2 }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        /Non-2xx or 3xx responses/ { bad = $NF }
        END { printf "%.0f %.3f %.3f %s\n", rps, p50, p99, (bad == "" ? 0 : bad) }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

wrk -t"$THREADS" -c"$CONNECTIONS" -d1s "http://127.0.0.1:$PROXY_PORT/bench" >/dev/null  # warm-up
: > "$WORK/direct"; : > "$WORK/proxied"
for ((round = 1; round <= ROUNDS; round++)); do
    for kind in direct proxied; do
        port=$UPSTREAM_PORT; [ "$kind" = proxied ] && port=$PROXY_PORT
        result=$(load "$port")
        echo "$result" >> "$WORK/$kind"
        read -r rps p50 p99 bad <<< "$result"
        printf 'round %d %-8s %8s req/s  p50 %7s ms  p99 %7s ms  non-2xx %s\n' "$round" "$kind" "$rps" "$p50" "$p99" "$bad"
    done
done
direct_rps=$(cut -d' ' -f1 "$WORK/direct" | median); proxied_rps=$(cut -d' ' -f1 "$WORK/proxied" | median)
direct_p50=$(cut -d' ' -f2 "$WORK/direct" | median); proxied_p50=$(cut -d' ' -f2 "$WORK/proxied" | median)
echo
printf 'median direct   %8s req/s  p50 %7s ms\n' "$direct_rps" "$direct_p50"
printf 'median proxied  %8s req/s  p50 %7s ms\n' "$proxied_rps" "$proxied_p50"
awk -v d="$direct_rps" -v p="$proxied_rps" -v dl="$direct_p50" -v pl="$proxied_p50" \
    'BEGIN { printf "proxied/direct: throughput %.2fx, p50 %.2fx (+%.3f ms)\n", p / d, pl / dl, pl - dl }'
echo
"$BIN/UpstreamClientBench" "$UPSTREAM_PORT"
