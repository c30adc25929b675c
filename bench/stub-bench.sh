#!/usr/bin/env bash
# `make bench`: the stub server against nginx (1 worker) serving the same body, measured in the
# same run on 127.0.0.1 with wrk (keep-alive, 50 connections, 2 threads), alternating A B A B so
# both see the same machine noise. Reports req/s, p50, p99, the ratio to nginx and to the 1-stub
# configuration for a 1-stub and two 10,000-stub configurations (realistic mix; exact paths only),
# startup time (spawn to first 200), the time to load 10,000 stubs (`validate`) and peak RSS.
#
# Knobs (environment): BENCH_DURATION seconds per wrk run (default 5), BENCH_ROUNDS runs per
# server and configuration (default 3), BENCH_STARTS startup samples (default 9).
set -euo pipefail

cd "$(dirname "$0")/.."
DURATION="${BENCH_DURATION:-5}"
ROUNDS="${BENCH_ROUNDS:-3}"
STARTS="${BENCH_STARTS:-9}"
CONNECTIONS=50
THREADS=2
STUB_PORT="${BENCH_STUB_PORT:-18306}"
NGINX_PORT="${BENCH_NGINX_PORT:-18307}"

say() { printf '%s\n' "$*" >&2; }

# --- tools -------------------------------------------------------------------------------
install_missing() {
    local missing=()
    command -v wrk >/dev/null 2>&1 || missing+=(wrk)
    command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
    [ ${#missing[@]} -eq 0 ] && return
    say "installing ${missing[*]} with apt-get"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}
install_missing
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"

say "building stubserver (release)"
swift build -c release --product stubserver >/dev/null
STUBSERVER="$(swift build -c release --show-bin-path)/stubserver"

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
mkdir -p "$WORK/www" "$WORK/nginx/logs"
printf '%s' "$BODY" > "$WORK/www/bench"
# nginx started as root serves from an unprivileged worker, which must be able to read the body.
chmod 755 "$WORK" "$WORK/www"
chmod 644 "$WORK/www/bench"
# The body as a JSON string literal for the stub's "text".
BODY_JSON="\"$(printf '%s' "$BODY" | sed 's/\\/\\\\/g; s/"/\\"/g')\""
HIT='{"request":{"method":"get","uri":"/bench"},"response":{"status":200,"headers":{"Content-Type":"application/json"},"text":'"$BODY_JSON"'}}'

printf '[%s]\n' "$HIT" > "$WORK/one.json"

# 10,000 sessions; the one the load hits comes last in file order, so only a route index keeps
# it cheap. Like a real stub file: mostly exact paths (with methods, queries, headers and forms
# mixed in), 300 `path` templates under the same prefixes and 100 `startsWith` paths. The
# second file is the same with every path exact: it isolates what non-literal routes cost.
write_tenk() {  # $1: mixed | exact
    local exact=$1
    printf '[\n'
    for ((i = 0; i < 9999; i++)); do
        case $((i % 100)) in
            0)
                if [ "$exact" = exact ]; then uri="\"/static/$i/index.html\""; else uri="{\"startsWith\":\"/static/$i/\"}"; fi
                printf '{"request":{"uri":%s},"response":{"text":"static %d"}},\n' "$uri" "$i" ;;
            50 | 51 | 52)
                case $((i % 100)) in
                    50) template="/api/v1/items/{id}/r$i"; literal="/api/v1/items/7/r$i" ;;
                    51) template="/api/v1/users/{user}/items/$i"; literal="/api/v1/users/u7/items/$i" ;;
                    *) template="/api/v2/r$i/{id}"; literal="/api/v2/r$i/7" ;;
                esac
                if [ "$exact" = exact ]; then uri="\"$literal\""; else uri="{\"path\":\"$template\"}"; fi
                printf '{"request":{"method":"get","uri":%s},"response":{"text":"template %d"}},\n' "$uri" "$i" ;;
            1) printf '{"request":{"method":"post","uri":"/api/v1/items/%d","forms":{"name":"n%d"}},"response":{"status":201,"text":"created %d"}},\n' "$i" "$i" "$i" ;;
            2) printf '{"request":{"method":"get","uri":"/api/v1/items/%d","queries":{"page":"%d"}},"response":{"json":{"page":%d}}},\n' "$i" "$i" "$i" ;;
            3) printf '{"request":{"method":"delete","uri":"/api/v1/items/%d","headers":{"Authorization":"Bearer %d"}},"response":{"status":204}},\n' "$i" "$i" ;;
            *) printf '{"request":{"method":"get","uri":"/api/v1/items/%d"},"response":{"headers":{"Content-Type":"application/json"},"text":"{\\"id\\":%d}"}},\n' "$i" "$i" ;;
        esac
    done
    printf '%s\n]\n' "$HIT"
}
write_tenk mixed > "$WORK/tenk.json"
write_tenk exact > "$WORK/tenk-exact.json"

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
        location = /bench { default_type application/json; }
    }
}
CONF

# --- helpers -----------------------------------------------------------------------------
now_ns() { date +%s%N; }

# One GET over bash's /dev/tcp; prints the status code (nothing if the port is closed).
http_status() {
    local port=$1 path=$2 line
    { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 1
    printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$path" >&3
    IFS=' ' read -r _ line _ <&3 || true
    exec 3>&- 3<&-
    printf '%s' "$line"
}

wait_for_200() {
    local port=$1 path=$2 tries=0
    until [ "$(http_status "$port" "$path" 2>/dev/null)" = "200" ]; do
        tries=$((tries + 1))
        if [ $tries -gt 20000 ]; then
            say "server on $port never answered 200"
            cat "$WORK/nginx/logs/error.log" "$WORK/stub.log" >&2 2>/dev/null || true
            return 1
        fi
    done
}


stop_pid() {
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# wrk → "req/s p50_ms p99_ms"
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

peak_rss_mib() { awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo "?"; }

# --- run ---------------------------------------------------------------------------------
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/logs/error.log" &
NGINX_PID=$!
PIDS+=("$NGINX_PID")
wait_for_200 "$NGINX_PORT" /bench

RESULTS="$WORK/results"
: > "$RESULTS"
declare -A RSS PORT PID
# All three configurations serve at once (an idle server costs nothing), so each round runs
# stub(1), nginx, stub(10k mixed), nginx, stub(10k exact), nginx back to back and every ratio
# compares runs seconds apart, not phases minutes apart on a shared machine.
next_port=$STUB_PORT
for config in one tenk tenk-exact; do
    [ "$next_port" = "$NGINX_PORT" ] && next_port=$((next_port + 1))
    PORT[$config]=$next_port
    next_port=$((next_port + 1))
    "$STUBSERVER" start -q -p "${PORT[$config]}" -c "$WORK/$config.json" >"$WORK/stub-$config.log" 2>&1 &
    PID[$config]=$!
    PIDS+=("${PID[$config]}")
    wait_for_200 "${PORT[$config]}" /bench
    stub_body="$(curl -s "http://127.0.0.1:${PORT[$config]}/bench")"
    nginx_body="$(curl -s "http://127.0.0.1:$NGINX_PORT/bench")"
    [ "$stub_body" = "$nginx_body" ] || { say "bodies differ: stub '$stub_body' nginx '$nginx_body'"; exit 1; }
    wrk -t"$THREADS" -c"$CONNECTIONS" -d1s "http://127.0.0.1:${PORT[$config]}/bench" >/dev/null # warm-up
done
wrk -t"$THREADS" -c"$CONNECTIONS" -d1s "http://127.0.0.1:$NGINX_PORT/bench" >/dev/null
for ((round = 1; round <= ROUNDS; round++)); do
    for config in one tenk tenk-exact; do
        say "  round $round/$ROUNDS: stubserver ($config), then nginx"
        echo "$config stub $(load "${PORT[$config]}")" >> "$RESULTS"
        echo "$config nginx $(load "$NGINX_PORT")" >> "$RESULTS"
    done
done
for config in one tenk tenk-exact; do
    RSS[$config]="$(peak_rss_mib "${PID[$config]}")"
    stop_pid "${PID[$config]}"
done
NGINX_RSS=""
for worker in $(pgrep -P "$NGINX_PID" || true); do NGINX_RSS="$(peak_rss_mib "$worker")"; done

# Startup: spawn to first 200, several samples, median.
STARTUP="$WORK/startup"
: > "$STARTUP"
for ((i = 0; i < STARTS; i++)); do
    t0=$(now_ns)
    "$STUBSERVER" start -q -p "$STUB_PORT" -c "$WORK/one.json" >/dev/null 2>&1 &
    pid=$!
    wait_for_200 "$STUB_PORT" /bench
    t1=$(now_ns)
    stop_pid "$pid"
    echo "$(( (t1 - t0) / 1000 ))" | awk '{ printf "%.2f\n", $1 / 1000 }' >> "$STARTUP"
done
STARTUP_TENK="$WORK/startup-tenk"
: > "$STARTUP_TENK"
for ((i = 0; i < 3; i++)); do
    t0=$(now_ns)
    "$STUBSERVER" start -q -p "$STUB_PORT" -c "$WORK/tenk.json" >/dev/null 2>&1 &
    pid=$!
    wait_for_200 "$STUB_PORT" /bench
    t1=$(now_ns)
    stop_pid "$pid"
    echo "$(( (t1 - t0) / 1000 ))" | awk '{ printf "%.2f\n", $1 / 1000 }' >> "$STARTUP_TENK"
done

# Loading alone: `stubserver validate` reads, checks and compiles the file, then exits.
VALIDATE="$WORK/validate"
: > "$VALIDATE"
for ((i = 0; i < STARTS; i++)); do
    t0=$(now_ns)
    "$STUBSERVER" validate -c "$WORK/tenk.json" >/dev/null
    t1=$(now_ns)
    echo "$(( (t1 - t0) / 1000 ))" | awk '{ printf "%.2f\n", $1 / 1000 }' >> "$VALIDATE"
done
validate_tenk=$(median < "$VALIDATE")

# --- report ------------------------------------------------------------------------------
field() { awk -v c="$1" -v s="$2" -v f="$3" '$1 == c && $2 == s { print $f }' "$RESULTS" | median; }
bad() { awk -v c="$1" -v s="$2" '$1 == c && $2 == s { n += $6 } END { print n + 0 }' "$RESULTS"; }

echo
echo "stubserver vs nginx (1 worker): wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s, keep-alive, 127.0.0.1, median of $ROUNDS alternating runs"
printf '%-12s %-11s %12s %10s %10s %8s %10s %10s\n' config server "req/s" "p50 ms" "p99 ms" errors "vs nginx" "vs 1 stub"
one_stub_rps=$(field one stub 3)
for config in one tenk tenk-exact; do
    case $config in
        one) label="1 stub" ;;
        tenk) label="10k mixed" ;;
        *) label="10k exact" ;;
    esac
    nginx_rps=$(field "$config" nginx 3)
    for server in stub nginx; do
        rps=$(field "$config" "$server" 3)
        ratio=$(awk -v a="$rps" -v b="$nginx_rps" 'BEGIN { printf "%.2fx", a / b }')
        vs_one="-"
        [ "$server" = stub ] && vs_one=$(awk -v a="$rps" -v b="$one_stub_rps" 'BEGIN { printf "%.2fx", a / b }')
        printf '%-12s %-11s %12s %10s %10s %8s %10s %10s\n' "$label" "$([ $server = stub ] && echo stubserver || echo nginx)" \
            "$rps" "$(field "$config" "$server" 4)" "$(field "$config" "$server" 5)" "$(bad "$config" "$server")" "$ratio" "$vs_one"
    done
done
one_rps=$(field one stub 3)
tenk_rps=$(field tenk stub 3)
one_ratio=$(awk -v a="$one_rps" -v b="$(field one nginx 3)" 'BEGIN { printf "%.2f", a / b }')
tenk_vs_one=$(awk -v a="$tenk_rps" -v b="$one_rps" 'BEGIN { printf "%.2f", a / b }')
startup=$(median < "$STARTUP")
startup_tenk=$(median < "$STARTUP_TENK")
echo
tenk_ratio=$(awk -v a="$tenk_rps" -v b="$(field tenk nginx 3)" 'BEGIN { printf "%.2f", a / b }')
normalized=$(awk -v a="$tenk_ratio" -v b="$one_ratio" 'BEGIN { printf "%.2f", a / b }')
exact_rps=$(field tenk-exact stub 3)
exact_vs_one=$(awk -v a="$exact_rps" -v b="$one_rps" 'BEGIN { printf "%.2f", a / b }')
exact_normalized=$(awk -v a="$exact_rps" -v b="$(field tenk-exact nginx 3)" -v c="$one_ratio" 'BEGIN { printf "%.2f", a / b / c }')
echo "10k mixed = 9,599 exact paths + 300 path templates + 100 startsWith paths + the hit last; 10k exact = the same with exact paths only"
echo "10k mixed / 1 stub throughput: $tenk_vs_one (relative to nginx in its own runs: $normalized)"
echo "10k exact / 1 stub throughput: $exact_vs_one (relative to nginx in its own runs: $exact_normalized)"
echo "startup, spawn to first 200 (median of $STARTS): ${startup} ms with 1 stub; ${startup_tenk} ms with 10,000 stubs (median of 3)"
echo "load 10,000 stubs (stubserver validate -c 10k mixed, spawn to exit, median of $STARTS): ${validate_tenk} ms"
echo "peak RSS: stubserver ${RSS[one]} MiB (1 stub), ${RSS[tenk]} MiB (10k mixed), ${RSS[tenk-exact]} MiB (10k exact); nginx worker: ${NGINX_RSS:-?} MiB"
echo
verdict() { if awk "BEGIN { exit !($1) }"; then echo "met"; else echo "MISSED"; fi; }
echo "targets: keep-alive throughput >= 0.5x nginx: $(verdict "$one_ratio >= 0.5") ($one_ratio)"
echo "         10,000 stubs within 20% of 1 stub:  $(verdict "$tenk_vs_one >= 0.8") ($tenk_vs_one mixed; $exact_vs_one exact paths only)"
echo "         startup < 100 ms:                    $(verdict "$startup < 100") ($startup ms)"
