#!/usr/bin/env bash
# `make bench`: the stub server against nginx (1 worker) serving the same body from a file,
# and against nginx's fastest path, `return 200` with the body as a literal in its config (the
# `vs return` column: the reference that a cached `file` and a `text` answer should both meet),
# measured in the same run on 127.0.0.1 with wrk (keep-alive, 50 connections), alternating
# stub, nginx, stub, nginx… so both see the same machine noise. Rows: a `text` response, a
# `file` response, a template response, a 10,000-stub configuration, the DesignerNews
# sample (`Stubs/settings.json`) answering its stories page, and the `text` stub with the
# per-request log line on (`text logged`: what `stubserver start` does without -q, its stdout
# to a file). Reports req/s, p50, p99, the ratio
# to nginx in the same round, startup (spawn to first 200), the time to load 10,000 stubs and
# peak RSS.
#
# Pinned by default, the per-core comparison: the servers (stubserver and nginx's one worker)
# on CPU 0, wrk on CPU 1; stubserver then runs one event loop. BENCH_PIN=0 runs everything
# unpinned (stubserver uses one loop per core, nginx still one worker).
#
# Knobs (environment): BENCH_DURATION seconds per wrk run (default 5), BENCH_ROUNDS rounds
# (default 3, at least 3 for a median), BENCH_STARTS startup samples (default 9), BENCH_PIN
# (default 1), BENCH_STATIC (default 1: the Swift runtime linked statically, as `make stub`
# builds; 0 for a dynamic build), BENCH_CONFIGS (default "text file template tenk designernews logged"),
# BENCH_HTTPS (default 1: also the `text` stub over HTTPS against plain HTTP, keep-alive, same
# build, alternating rounds; needs the openssl command for the test certificate).
set -euo pipefail
# Extra release flags, as the Makefile passes them (SWIFT_RELEASE_FLAGS).
RELEASE_FLAGS=(${SWIFT_RELEASE_FLAGS-})

cd "$(dirname "$0")/.."
REPO="$(pwd)"
DURATION="${BENCH_DURATION:-5}"
ROUNDS="${BENCH_ROUNDS:-3}"
STARTS="${BENCH_STARTS:-9}"
PIN="${BENCH_PIN:-1}"
CONFIGS=(${BENCH_CONFIGS:-text file template tenk designernews logged})
CONNECTIONS=50
STUB_PORT="${BENCH_STUB_PORT:-18306}"
NGINX_PORT="${BENCH_NGINX_PORT:-18307}"

say() { printf '%s\n' "$*" >&2; }

# --- tools -------------------------------------------------------------------------------
command -v wrk >/dev/null 2>&1 || { say "wrk is missing: run 'make bench-tools' (apt-get install wrk)"; exit 1; }
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$NGINX" ] || { say "nginx is missing: run 'make bench-tools' (apt-get install nginx-light)"; exit 1; }

SERVER_CPU=() CLIENT_CPU=() THREADS=2 PINNING="unpinned"
if [ "$PIN" != 0 ]; then
    if command -v taskset >/dev/null 2>&1 && [ "$(nproc --all)" -ge 2 ]; then
        SERVER_CPU=(taskset -c 0) CLIENT_CPU=(taskset -c 1) THREADS=1
        PINNING="pinned: servers on CPU 0, wrk on CPU 1"
    else
        say "cannot pin (needs taskset and 2 CPUs); running unpinned"
    fi
fi

# Built as `make stub` builds it: on Linux the Swift runtime and Foundation linked statically
# (STUB_LINK_FLAGS, set by the Makefile). BENCH_STATIC=0 measures a dynamically linked build.
if [ "${BENCH_STATIC:-1}" != 0 ]; then
    LINK_FLAGS=(${STUB_LINK_FLAGS-$([ "$(uname -s)" = Linux ] && echo --static-swift-stdlib --scratch-path .build/static)})
else
    LINK_FLAGS=()
fi
BUILD=(swift build -c release "${RELEASE_FLAGS[@]}" "${LINK_FLAGS[@]}")
case " ${LINK_FLAGS[*]} " in
    *" --static-swift-stdlib "*) LINKING="Swift runtime and Foundation linked statically" ;;
    *) LINKING="Swift runtime linked dynamically" ;;
esac
say "building stubserver (release, $LINKING)"
"${BUILD[@]}" --product stubserver >/dev/null
STUBSERVER="$("${BUILD[@]}" --show-bin-path)/stubserver"

# --- fixtures ----------------------------------------------------------------------------
WORK="$(mktemp -d "${TMPDIR:-/tmp}/stubserver-bench.XXXXXX")"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]:-}"; do
        [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

BODY='{"id":1,"title":"Rehearsal benchmarks its stub server against nginx","url":"https://example.com/stories/1","points":42,"comments":7}'
mkdir -p "$WORK/www/api/v1" "$WORK/nginx/logs"
printf '%s' "$BODY" > "$WORK/www/bench"
# The template renders to the same bytes as nginx's file (`GET` and the query are the request's).
printf '%s' "${BODY%\}},\"method\":\"GET\",\"page\":\"7\"}" > "$WORK/www/template"
cp Stubs/stories.json "$WORK/www/api/v1/stories"
# nginx started as root serves from an unprivileged worker, which must be able to read the body.
chmod -R a+rX "$WORK"
# Old enough that the file cache keeps it (files changed in the last 2 s are re-read).
touch -d '1 minute ago' "$WORK/www/bench"
json_string() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
HIT='{"request":{"method":"get","uri":"/bench"},"response":{"status":200,"headers":{"Content-Type":"application/json"},"text":'"$(json_string "$BODY")"'}}'
TEMPLATE_SOURCE="${BODY%\}},\"method\":\"\${req.method}\",\"page\":\"\${req.queries['page']}\"}"

printf '[%s]\n' "$HIT" > "$WORK/text.json"
printf '[{"request":{"method":"get","uri":"/bench"},"response":{"status":200,"headers":{"Content-Type":"application/json"},"file":"www/bench"}}]\n' > "$WORK/file.json"
printf '[{"request":{"method":"get","uri":"/template"},"response":{"headers":{"Content-Type":"application/json"},"text":{"template":%s}}}]\n' "$(json_string "$TEMPLATE_SOURCE")" > "$WORK/template.json"

# 10,000 sessions; the one the load hits comes last in file order, so only a route index keeps
# it cheap. Like a real stub file: mostly exact paths (with methods, queries, headers and forms
# mixed in), 300 `path` templates under the same prefixes and 100 `startsWith` paths.
write_tenk() {
    printf '[\n'
    for ((i = 0; i < 9999; i++)); do
        case $((i % 100)) in
            0) printf '{"request":{"uri":{"startsWith":"/static/%d/"}},"response":{"text":"static %d"}},\n' "$i" "$i" ;;
            50) printf '{"request":{"method":"get","uri":{"path":"/api/v1/items/{id}/r%d"}},"response":{"text":"template %d"}},\n' "$i" "$i" ;;
            51) printf '{"request":{"method":"get","uri":{"path":"/api/v1/users/{user}/items/%d"}},"response":{"text":"template %d"}},\n' "$i" "$i" ;;
            52) printf '{"request":{"method":"get","uri":{"path":"/api/v2/r%d/{id}"}},"response":{"text":"template %d"}},\n' "$i" "$i" ;;
            1) printf '{"request":{"method":"post","uri":"/api/v1/items/%d","forms":{"name":"n%d"}},"response":{"status":201,"text":"created %d"}},\n' "$i" "$i" "$i" ;;
            2) printf '{"request":{"method":"get","uri":"/api/v1/items/%d","queries":{"page":"%d"}},"response":{"json":{"page":%d}}},\n' "$i" "$i" "$i" ;;
            3) printf '{"request":{"method":"delete","uri":"/api/v1/items/%d","headers":{"Authorization":"Bearer %d"}},"response":{"status":204}},\n' "$i" "$i" ;;
            *) printf '{"request":{"method":"get","uri":"/api/v1/items/%d"},"response":{"headers":{"Content-Type":"application/json"},"text":"{\\"id\\":%d}"}},\n' "$i" "$i" ;;
        esac
    done
    printf '%s\n]\n' "$HIT"
}
write_tenk > "$WORK/tenk.json"

declare -A CONFIG_FILE URL_PATH LABEL QUIET
CONFIG_FILE=([text]="$WORK/text.json" [file]="$WORK/file.json" [template]="$WORK/template.json" [tenk]="$WORK/tenk.json" [designernews]="$REPO/Stubs/settings.json" [logged]="$WORK/text.json")
URL_PATH=([text]=/bench [file]=/bench [template]='/template?page=7' [tenk]=/bench [designernews]='/api/v1/stories?client_id=bench' [logged]=/bench)
LABEL=([text]="text" [file]="file" [template]="template" [tenk]="10k stubs" [designernews]="DN stories" [logged]="text logged")
# -q everywhere but `logged`, which keeps the default request log (to its log file).
QUIET=([text]=-q [file]=-q [template]=-q [tenk]=-q [designernews]=-q [logged]=)

cat > "$WORK/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $WORK/nginx/client_body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $WORK/www;
        default_type application/json;
        # nginx's fastest path: no file, no lookup, the body from the config.
        location = /literal { return 200 '$BODY'; }
    }
}
CONF

# --- helpers -----------------------------------------------------------------------------

# Polls GET `path` over bash's /dev/tcp until it answers 200: no subshell or process per try,
# so the poll itself adds little to the startup it measures.
wait_for_200() {
    local port=$1 path=$2 tries=0 status
    while true; do
        status=""
        if { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null; then
            printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$path" >&3
            IFS=' ' read -r _ status _ <&3 || true
            exec 3>&- 3<&-
        fi
        [ "$status" = 200 ] && return 0
        tries=$((tries + 1))
        if [ $tries -gt 20000 ]; then
            say "server on $port never answered 200 for $path"
            cat "$WORK/nginx/logs/error.log" "$WORK"/stub-*.log >&2 2>/dev/null || true
            return 1
        fi
    done
}

stop_pid() {
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# CPU time (user and kernel, in clock ticks) a process has used so far; "0 0" without a pid.
CLOCK_TICKS="$(getconf CLK_TCK 2>/dev/null || echo 100)"
cpu_ticks() { if [ -n "${1:-}" ] && [ -r "/proc/$1/stat" ]; then awk '{ print $14, $15 }' "/proc/$1/stat"; else echo "0 0"; fi; }

# wrk → "req/s p50_ms p99_ms non2xx user_us kernel_us": the last two are the server's CPU per
# request during the run (its pid as $4; "- -" without one), read from /proc before and after.
load() {
    local before after
    before="$(cpu_ticks "${4:-}")"
    "${CLIENT_CPU[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "${3:-http}://127.0.0.1:$1$2" > "$WORK/wrk.out"
    after="$(cpu_ticks "${4:-}")"
    awk -v before="$before" -v after="$after" -v hz="$CLOCK_TICKS" -v pid="${4:-}" '
        function ms(v) {
            if (v ~ /us$/) { sub(/us$/, "", v); return v / 1000 }
            if (v ~ /ms$/) { sub(/ms$/, "", v); return v + 0 }
            if (v ~ /s$/)  { sub(/s$/, "", v);  return v * 1000 }
            return v
        }
        /Requests\/sec:/ { rps = $2 }
        / requests in / { requests = $1 }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        /Non-2xx or 3xx responses/ { bad = $NF }
        END {
            split(before, b, " "); split(after, a, " ")
            if (pid == "" || requests == 0) { user = "-"; kernel = "-" }
            else { user = sprintf("%.2f", (a[1] - b[1]) * 1e6 / hz / requests); kernel = sprintf("%.2f", (a[2] - b[2]) * 1e6 / hz / requests) }
            printf "%.0f %.3f %.3f %s %s %s\n", rps, p50, p99, (bad == "" ? 0 : bad), user, kernel
        }' "$WORK/wrk.out"
}

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

peak_rss_mib() { awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo "?"; }

# --- run ---------------------------------------------------------------------------------
"${SERVER_CPU[@]}" "$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/logs/error.log" &
NGINX_PID=$!
PIDS+=("$NGINX_PID")
wait_for_200 "$NGINX_PORT" /bench
[ "$(curl -s "http://127.0.0.1:$NGINX_PORT/literal")" = "$BODY" ] || { say "nginx's return 200 body differs from the file's"; exit 1; }
NGINX_WORKER="$(pgrep -P "$NGINX_PID" | head -n 1 || true)"

# The machine's own floor: a busy loop pinned to each CPU, nothing else running, notes every
# gap in its clock reads longer than 50 µs (the hypervisor or host taking the CPU away). A
# gap on either core stalls every request in flight, so no server's p99 drops below what
# these gaps allow; the report prints them next to the latencies.
GAP_SECONDS="${BENCH_GAP_SECONDS:-5}"
gap_probe() {  # $1: cpu → "lost_percent gaps_over_250us gaps_over_1ms longest_ms"
    taskset -c "$1" python3 - "$GAP_SECONDS" <<'PROBE'
import sys, time
end = time.perf_counter_ns() + int(float(sys.argv[1]) * 1e9)
last = time.perf_counter_ns(); lost = over250 = over1ms = longest = 0
while last < end:
    now = time.perf_counter_ns(); gap = now - last; last = now
    if gap > 50_000:
        lost += gap; longest = max(longest, gap)
        over250 += gap > 250_000; over1ms += gap > 1_000_000
print(f"{lost * 100 / (float(sys.argv[1]) * 1e9):.2f} {over250} {over1ms} {longest / 1e6:.2f}")
PROBE
}
GAPS=()
if [ "$PIN" != 0 ] && command -v python3 >/dev/null 2>&1 && [ ${#SERVER_CPU[@]} -gt 0 ]; then
    say "probing scheduling gaps on CPU 0 and CPU 1 (${GAP_SECONDS} s)"
    gap_probe 0 > "$WORK/gaps0" & gap_pid=$!
    gap_probe 1 > "$WORK/gaps1"
    wait "$gap_pid"
    GAPS=("$(cat "$WORK/gaps0")" "$(cat "$WORK/gaps1")")
fi

RESULTS="$WORK/results"
: > "$RESULTS"
declare -A RSS PORT PID LOOPS
# Every configuration serves at once (an idle server costs nothing), so each round runs
# stub(text), nginx, stub(file), nginx, … back to back and every ratio compares runs seconds
# apart, not phases minutes apart on a shared machine.
next_port=$STUB_PORT
for config in "${CONFIGS[@]}"; do
    [ "$next_port" = "$NGINX_PORT" ] && next_port=$((next_port + 1))
    PORT[$config]=$next_port
    next_port=$((next_port + 1))
    "${SERVER_CPU[@]}" "$STUBSERVER" start ${QUIET[$config]} -p "${PORT[$config]}" -c "${CONFIG_FILE[$config]}" >"$WORK/stub-$config.log" 2>&1 &
    PID[$config]=$!
    PIDS+=("${PID[$config]}")
    wait_for_200 "${PORT[$config]}" "${URL_PATH[$config]}"
    for ((tries = 0; tries < 500; tries++)); do grep -q '^Event loops:' "$WORK/stub-$config.log" && break; sleep 0.01; done
    LOOPS[$config]="$(awk '/^Event loops:/ { print $3 }' "$WORK/stub-$config.log")"
    stub_body="$(curl -s "http://127.0.0.1:${PORT[$config]}${URL_PATH[$config]}")"
    nginx_body="$(curl -s "http://127.0.0.1:$NGINX_PORT${URL_PATH[$config]}")"
    [ "$stub_body" = "$nginx_body" ] || { say "$config: bodies differ: stub '${stub_body:0:200}' nginx '${nginx_body:0:200}'"; exit 1; }
    "${CLIENT_CPU[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d1s "http://127.0.0.1:${PORT[$config]}${URL_PATH[$config]}" >/dev/null # warm-up
done
"${CLIENT_CPU[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d1s "http://127.0.0.1:$NGINX_PORT/bench" >/dev/null
for ((round = 1; round <= ROUNDS; round++)); do
    for config in "${CONFIGS[@]}"; do
        say "  round $round/$ROUNDS: stubserver (${LABEL[$config]}), then nginx"
        echo "$config stub $(load "${PORT[$config]}" "${URL_PATH[$config]}" http "${PID[$config]}")" >> "$RESULTS"
        echo "$config nginx $(load "$NGINX_PORT" "${URL_PATH[$config]}" http "$NGINX_WORKER")" >> "$RESULTS"
    done
    say "  round $round/$ROUNDS: nginx return 200 (literal)"
    echo "literal nginx $(load "$NGINX_PORT" /literal http "$NGINX_WORKER")" >> "$RESULTS"
done
for config in "${CONFIGS[@]}"; do
    RSS[$config]="$(peak_rss_mib "${PID[$config]}")"
    stop_pid "${PID[$config]}"
done
NGINX_RSS=""
for worker in $(pgrep -P "$NGINX_PID" || true); do NGINX_RSS="$(peak_rss_mib "$worker")"; done

# HTTPS keep-alive against plain HTTP: the `text` stub served both ways by the same build,
# alternating rounds. Keep-alive amortises the handshakes, so this is the cost of TLS records.
TLS_ROW=0
if [ "${BENCH_HTTPS:-1}" != 0 ]; then
    if command -v openssl >/dev/null 2>&1; then
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$WORK/key.pem" -out "$WORK/cert.pem" \
            -days 2 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 >/dev/null 2>&1
        [ "$next_port" = "$NGINX_PORT" ] && next_port=$((next_port + 1))
        TLS_HTTP_PORT=$next_port
        TLS_HTTPS_PORT=$((next_port + 1))
        [ "$TLS_HTTPS_PORT" = "$NGINX_PORT" ] && TLS_HTTPS_PORT=$((TLS_HTTPS_PORT + 1))
        "${SERVER_CPU[@]}" "$STUBSERVER" start -q -p "$TLS_HTTP_PORT" -c "$WORK/text.json" >"$WORK/stub-tls-http.log" 2>&1 &
        TLS_HTTP_PID=$!
        PIDS+=("$TLS_HTTP_PID")
        "${SERVER_CPU[@]}" "$STUBSERVER" start -q --https --certificate "$WORK/cert.pem" --private-key "$WORK/key.pem" \
            -p "$TLS_HTTPS_PORT" -c "$WORK/text.json" >"$WORK/stub-tls-https.log" 2>&1 &
        TLS_HTTPS_PID=$!
        PIDS+=("$TLS_HTTPS_PID")
        wait_for_200 "$TLS_HTTP_PORT" /bench
        for ((tries = 0; tries < 500; tries++)); do
            [ "$(curl -s --cacert "$WORK/cert.pem" "https://localhost:$TLS_HTTPS_PORT/bench")" = "$BODY" ] && break
            sleep 0.02
        done
        [ "$(curl -s --cacert "$WORK/cert.pem" "https://localhost:$TLS_HTTPS_PORT/bench")" = "$BODY" ] \
            || { say "the https stub never answered"; cat "$WORK/stub-tls-https.log" >&2; exit 1; }
        "${CLIENT_CPU[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d1s "https://127.0.0.1:$TLS_HTTPS_PORT/bench" >/dev/null # warm-up
        "${CLIENT_CPU[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d1s "http://127.0.0.1:$TLS_HTTP_PORT/bench" >/dev/null
        for ((round = 1; round <= ROUNDS; round++)); do
            say "  round $round/$ROUNDS: stubserver text over https, then over http"
            echo "tls https $(load "$TLS_HTTPS_PORT" /bench https)" >> "$RESULTS"
            echo "tls http $(load "$TLS_HTTP_PORT" /bench)" >> "$RESULTS"
        done
        TLS_LOOPS="$(awk '/^Event loops:/ { print $3 }' "$WORK/stub-tls-https.log")"
        stop_pid "$TLS_HTTPS_PID"
        stop_pid "$TLS_HTTP_PID"
        TLS_ROW=1
    else
        say "no openssl command: skipping the https row"
    fi
fi

# Startup: spawn to first 200, several samples, median.
startup_samples() {  # $1 config file, $2 path, $3 samples
    local t0 t1 pid
    for ((i = 0; i < $3; i++)); do
        t0=${EPOCHREALTIME/./}
        "${SERVER_CPU[@]}" "$STUBSERVER" start -q -p "$STUB_PORT" -c "$1" >/dev/null 2>&1 &
        pid=$!
        wait_for_200 "$STUB_PORT" "$2"
        t1=${EPOCHREALTIME/./}
        stop_pid "$pid"
        awk -v d="$((t1 - t0))" 'BEGIN { printf "%.2f\n", d / 1000 }'
    done
}
startup=$(startup_samples "$WORK/text.json" /bench "$STARTS" | median)
startup_tenk=$(startup_samples "$WORK/tenk.json" /bench 3 | median)

# Loading alone: `stubserver validate` reads, checks and compiles the file, then exits.
validate_tenk=$(for ((i = 0; i < STARTS; i++)); do
    t0=${EPOCHREALTIME/./}
    "${SERVER_CPU[@]}" "$STUBSERVER" validate -c "$WORK/tenk.json" >/dev/null
    t1=${EPOCHREALTIME/./}
    awk -v d="$((t1 - t0))" 'BEGIN { printf "%.2f\n", d / 1000 }'
done | median)

# --- report ------------------------------------------------------------------------------
field() { awk -v c="$1" -v s="$2" -v f="$3" '$1 == c && $2 == s { print $f }' "$RESULTS" | median; }
bad() { awk -v c="$1" -v s="$2" '$1 == c && $2 == s { n += $6 } END { print n + 0 }' "$RESULTS"; }
# The ratio to nginx per round, then the median of those ratios.
ratio() { awk -v c="$1" '$1 == c && $2 == "stub" { s[++n] = $3 } $1 == c && $2 == "nginx" { g[++m] = $3 } END { for (i = 1; i <= n; i++) printf "%.3f\n", s[i] / g[i] }' "$RESULTS" | median; }
# The ratio to nginx's `return 200` of the same round, then the median.
ratio_literal() { awk -v c="$1" '$1 == c && $2 == "stub" { s[++n] = $3 } $1 == "literal" { g[++m] = $3 } END { for (i = 1; i <= n; i++) printf "%.3f\n", s[i] / g[i] }' "$RESULTS" | median; }
# One stub configuration against another, round by round (file against text).
ratio_between() { awk -v a="$1" -v b="$2" '$1 == a && $2 == "stub" { s[++n] = $3 } $1 == b && $2 == "stub" { g[++m] = $3 } END { for (i = 1; i <= n; i++) printf "%.3f\n", s[i] / g[i] }' "$RESULTS" | median; }

echo
echo "stubserver vs nginx (1 worker), $PINNING; wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s, keep-alive, 127.0.0.1; median of $ROUNDS alternating rounds"
printf '%-11s %-13s %6s %10s %8s %8s %7s %9s %10s\n' config server loops "req/s" "p50 ms" "p99 ms" errors "vs nginx" "vs return"
for config in "${CONFIGS[@]}"; do
    printf '%-11s %-13s %6s %10s %8s %8s %7s %9s %10s\n' "${LABEL[$config]}" stubserver "${LOOPS[$config]:-?}" \
        "$(field "$config" stub 3)" "$(field "$config" stub 4)" "$(field "$config" stub 5)" "$(bad "$config" stub)" "$(ratio "$config")x" \
        "$(ratio_literal "$config")x"
    printf '%-11s %-13s %6s %10s %8s %8s %7s %9s %10s\n' "" "nginx (file)" 1 \
        "$(field "$config" nginx 3)" "$(field "$config" nginx 4)" "$(field "$config" nginx 5)" "$(bad "$config" nginx)" "1.00x" ""
done
printf '%-11s %-13s %6s %10s %8s %8s %7s %9s %10s\n' "literal" "nginx return" 1 \
    "$(field literal nginx 3)" "$(field literal nginx 4)" "$(field literal nginx 5)" "$(bad literal nginx)" "" "1.00x"
# Where a request's time goes on the server core: user space is ours to cut; the kernel part
# (loopback TCP, epoll) is the same for every server and bounds what any of them reaches.
echo
echo "server CPU per request on its core, µs (median of $ROUNDS rounds): user + kernel"
cpu_row() { printf '  %-24s %6s + %6s\n' "$1" "$(field "$2" "$3" 7)" "$(field "$2" "$3" 8)"; }
for config in "${CONFIGS[@]}"; do cpu_row "stubserver ${LABEL[$config]}" "$config" stub; done
cpu_row "nginx (file)" "${CONFIGS[0]}" nginx
cpu_row "nginx return 200" literal nginx
if [ ${#GAPS[@]} = 2 ]; then
    echo "machine floor: a busy loop pinned to each CPU loses this much time to scheduling gaps > 50 µs in ${GAP_SECONDS} s"
    for cpu in 0 1; do
        read -r lost over250 over1ms longest <<< "${GAPS[$cpu]}"
        echo "  CPU $cpu: ${lost}% of the time; $over250 gaps > 250 µs, $over1ms > 1 ms, the longest $longest ms"
    done
fi
if [ "$TLS_ROW" = 1 ]; then
    tls_ratio=$(awk '$1 == "tls" && $2 == "https" { s[++n] = $3 } $1 == "tls" && $2 == "http" { g[++m] = $3 } END { for (i = 1; i <= n; i++) printf "%.3f\n", s[i] / g[i] }' "$RESULTS" | median)
    echo
    echo "HTTPS keep-alive vs plain HTTP, the text stub, same build ($PINNING; median of $ROUNDS alternating rounds)"
    printf '%-11s %-11s %6s %10s %8s %8s %7s %9s\n' config server loops "req/s" "p50 ms" "p99 ms" errors "vs http"
    printf '%-11s %-11s %6s %10s %8s %8s %7s %9s\n' "text https" stubserver "${TLS_LOOPS:-?}" \
        "$(field tls https 3)" "$(field tls https 4)" "$(field tls https 5)" "$(bad tls https)" "${tls_ratio}x"
    printf '%-11s %-11s %6s %10s %8s %8s %7s %9s\n' "text http" stubserver "${TLS_LOOPS:-?}" \
        "$(field tls http 3)" "$(field tls http 4)" "$(field tls http 5)" "$(bad tls http)" "1.00x"
fi
echo
echo "bodies: text/file/10k $(printf '%s' "$BODY" | wc -c) bytes, template $(wc -c < "$WORK/www/template") bytes, DN stories $(wc -c < "$WORK/www/api/v1/stories") bytes (Stubs/settings.json, GET /api/v1/stories?client_id=…)"
[[ " ${CONFIGS[*]} " == *" tenk "* ]] && echo "10k stubs = 9,599 exact paths (methods, queries, headers, forms) + 300 path templates + 100 startsWith + the hit last"
echo "startup, spawn to first 200 ($LINKING; median of $STARTS): ${startup} ms with 1 stub; ${startup_tenk} ms with 10,000 stubs (median of 3)"
echo "load 10,000 stubs (stubserver validate, spawn to exit, median of $STARTS): ${validate_tenk} ms"
rss_line="peak RSS:"
for config in "${CONFIGS[@]}"; do rss_line+=" ${LABEL[$config]} ${RSS[$config]} MiB,"; done
echo "$rss_line nginx worker ${NGINX_RSS:-?} MiB"
echo
verdict() { if awk "BEGIN { exit !($1) }"; then echo "met"; else echo "MISSED"; fi; }
has() { [[ " ${CONFIGS[*]} " == *" $1 "* ]]; }
if [ "$PINNING" != unpinned ]; then
    echo "targets (issue 9, pinned):"
    if has text; then
        r=$(ratio text); p=$(field text stub 5)
        echo "  text  >= 0.9x nginx, p99 < 2 ms:   $(verdict "$r >= 0.9 && $p < 2") (${r}x, p99 $p ms)"
    fi
    if has file; then
        r=$(ratio file); p=$(field file stub 5)
        echo "  file  >= 0.8x nginx, p99 < 2 ms:   $(verdict "$r >= 0.8 && $p < 2") (${r}x, p99 $p ms)"
    fi
    if has text && has file; then
        r=$(ratio_between file text); pf=$(field file stub 5); pt=$(field text stub 5)
        echo "  file  >= 0.9x text (issue 23):     $(verdict "$r >= 0.9") (${r}x, the median of the per-round ratios)"
        # nginx's literal p99 in the same rounds says whether this machine allows the line at all.
        echo "  p99s < 1 ms at c$CONNECTIONS (issue 23):     $(verdict "$pf < 1 && $pt < 1") (file $pf ms, text $pt ms; nginx return 200: $(field literal nginx 5) ms)"
    fi
    if has designernews; then
        r=$(ratio designernews)
        echo "  DN stories page >= 0.7x nginx:     $(verdict "$r >= 0.7") (${r}x)"
    fi
    if has text && has logged; then
        # The request log is on by default: it should cost little next to the answer itself.
        r=$(ratio_between logged text)
        echo "  text logged >= 0.8x text (-q):     $(verdict "$r >= 0.8") (${r}x)"
    fi
else
    has text && echo "unpinned: stubserver (${LOOPS[text]} loops) vs nginx (1 worker), text: $(ratio text)x, file: $(has file && ratio file || echo -)x"
fi
if has text && has tenk; then
    echo "  10,000 stubs within 20% of 1 stub: $(verdict "$(field tenk stub 3) >= 0.8 * $(field text stub 3)") ($(awk -v a="$(field tenk stub 3)" -v b="$(field text stub 3)" 'BEGIN { printf "%.2f", a / b }'))"
fi
echo "  startup < 20 ms:                   $(verdict "$startup < 20") ($startup ms)"
