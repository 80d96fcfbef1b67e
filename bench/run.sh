#!/usr/bin/env bash
# cmdbench against the reference tools on TCP loopback, in one run.
# Prints a comparison table and writes the raw figures as JSON; see --help
# and bench/README.md for exactly what is compared with what.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: bench/run.sh [--quick] [-o FILE] [--reps N] [--build-dir DIR] [--no-build] [--keep]

Measures, on 127.0.0.1, cmdbench's tcp tests against Debian's rstream -T s
(rdmacm-utils), sockperf, iperf3 and a plain C stream, prints the ratios to
the best peer, and
times one histogram record (Google Benchmark). Exit status 0 whether or not
a target is met (this is a measurement; missed targets print MISSED, and
NOISE where the median misses but the 90% bootstrap interval of the ratio
reaches the target); 2 for
a bad command line or a missing tool or build failure.

Options:
  --quick          few iterations and 1 repetition: a smoke test, not figures
  -o FILE          write the JSON here (default bench/results/<UTC time>.json)
  --reps N         repetitions of every measurement (default 5; --quick: 1)
  --build-dir DIR  host build tree to build and use (default <repo>/build-bench,
                   configured with default options and tests off if new; an
                   existing tree is only built, never reconfigured)
  --no-build       use the binaries already in the build tree
  --keep           keep the raw tool outputs (path printed at the end)
  -h, --help       this text

What is compared (every figure: the median of the repetitions, for every
tool alike; the JSON keeps them all):

  Latency, 64 B and 4 KiB ping-pong, as HALF a round trip in microseconds
  (what rstream's usec/xfer and sockperf's "latency" are):
    half-RTT median, blocking  cmdbench pingpong blocking=true rtt p50 / 2
                               vs sockperf ping-pong --tcp percentile 50
                               (blocking recvfrom, its default). rstream
                               prints no median, so it has no figure here.
    half-RTT avg, blocking     cmdbench usec/xfer (blocking=true) vs
                               rstream -T s -T b usec/xfer and sockperf
                               avg-latency.
    half-RTT avg, busy-poll    cmdbench usec/xfer (default non-blocking
                               busy polling) vs rstream -T s usec/xfer (its
                               default, also busy polling). sockperf has no
                               like mode, so no figure.
    Target (64 B only): cmdbench / best peer <= 1.05.

  Bandwidth, 64 KiB and 1 MiB per send, decimal Gb/s:
    one-way, both modes        cmdbench throughput (receiver's one-way rate,
                               512 KiB buffers as rstream's) vs stream_loop
                               (bench/stream_loop.c: the same socket calls in
                               plain C, same buffers and mode).
    one-way, autotuned bufs    cmdbench throughput blocking=true
                               buffer_size=0 vs iperf3 (no -w, so autotuned
                               too; end.sum_received).
    rstream method, both modes cmdbench pingpong transfer_count=0 (rstream's
                               count rule: 1000 x 64 KiB, 100 x 1 MiB per
                               burst) vs rstream -T s [-T b] with the same
                               -C and -I: the exact same computation.
    rstream's Gb/sec counts the bytes of both directions, but its two
    directions take turns (client sends the whole burst, then the server
    sends its burst back): a rate of bursts with turn-arounds, which on
    loopback runs well above a one-way stream of any tool, so it is
    compared with cmdbench's identical computation only.
    Target (all bandwidth rows): cmdbench / best peer >= 0.95.

  Recording cost: ns per Histogram::record and per call through the host's
  services table (hist_record), median of repetitions of thread CPU time;
  target < 20 ns, judged on the worst (host/mixed) case.
EOF
}

die() { echo "bench/run.sh: $*" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench=$root/bench
quick=0 out="" reps="" build_dir=$root/build-bench build=1 keep=0
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=1 ;;
        -o) [ $# -ge 2 ] || die "-o needs a file"; out=$2; shift ;;
        --reps) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"
                reps=$2; shift ;;
        --build-dir) [ $# -ge 2 ] || die "--build-dir needs a directory"; build_dir=$2; shift ;;
        --no-build) build=0 ;;
        --keep) keep=1 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
    shift
done
build_dir=$(realpath -m "$build_dir")

# Sizes and lengths. Full runs use rstream's own counts (count rule) for the
# latency iterations and the bandwidth bursts; streaming tests run for a time.
if [ $quick = 1 ]; then
    : "${reps:=1}"
    declare -A lat_iters=([64]=3000 [4096]=1000)
    bw_iters=2 stream_secs=1 client_timeout=120
else
    : "${reps:=5}"
    declare -A lat_iters=([64]=100000 [4096]=10000)
    bw_iters=20 stream_secs=5 client_timeout=600
fi
lat_sizes=(64 4096)
bw_sizes=(65536 1048576)
declare -A bw_count=([65536]=1000 [1048576]=100) # rstream's count rule

for tool in python3 cmake timeout ss realpath; do
    command -v $tool >/dev/null || die "$tool not found (tools/install-deps.sh)"
done
# A missing peer is not fatal: its columns read n/a.
declare -A have
for tool in rstream sockperf iperf3; do
    if command -v $tool >/dev/null; then have[$tool]=1; else
        have[$tool]=0; echo "warning: $tool not found; its figures will be n/a" >&2
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/cmdbench-bench.XXXXXX")
servers=() # pids of `timeout` wrappers, each the leader of its own group
client=""  # the same for the client running now

stop_server() { # pid: the server's group, then reap it
    kill -TERM -- "-$1" 2>/dev/null || kill -TERM "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}
cleanup() {
    local pid
    [ -z "$client" ] || stop_server "$client"
    for pid in "${servers[@]}"; do stop_server "$pid"; done
    if [ $keep = 1 ]; then echo "raw outputs kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'echo "interrupted" >&2; exit 130' INT TERM

log() { printf '%s\n' "$*" >&2; }

# A free loopback port: bind port 0 and let the kernel choose. The tiny race
# until the server binds it is acceptable on a benchmark box.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_server LOG CMD...: run CMD in the background under `timeout` (which
# makes itself a process group leader, so one kill reaches the server) and
# remember it for the exit trap. Sets $server_pid.
start_server() {
    local logf=$1; shift
    timeout "$((client_timeout + 60))" "$@" >"$logf" 2>&1 &
    server_pid=$!
    servers+=("$server_pid")
}

# Wait until something listens on the port. Never probe by connecting:
# rstream and iperf3 -1 would take the probe for their one client.
wait_listen() { # port pid
    local i
    for ((i = 0; i < 200; i++)); do
        ss -Hltn "sport = :$1" | grep -q . && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}

# Forget a server that ended (or is ended now).
finish_server() { # pid
    stop_server "$1"
    local kept=() p
    for p in "${servers[@]}"; do [ "$p" = "$1" ] || kept+=("$p"); done
    servers=("${kept[@]+"${kept[@]}"}")
}

# bounded SECS OUT ERR CMD...: CMD under `timeout`, its status in $rc. In
# the background and waited for, so that a signal to this script runs the
# trap at once instead of after the client (which `timeout` puts in a process
# group of its own, out of reach of the terminal's Ctrl-C).
bounded() {
    local secs=$1 o=$2 e=$3; shift 3
    timeout "$secs" "$@" >"$o" 2>"$e" &
    client=$!
    rc=0
    wait "$client" || rc=$?
    client=""
}

# run_client NAME CMD...: run a client bounded by the timeout, output in
# $work/raw/NAME.out; on failure say so and show the end of its output.
run_client() {
    local name=$1; shift
    bounded "$client_timeout" "$work/raw/$name.out" "$work/raw/$name.err" "$@"
    [ $rc = 0 ] && return 0
    log "  FAILED ($([ $rc = 124 ] && echo "timed out after ${client_timeout}s" || echo "exit $rc")): $*"
    tail -n 3 "$work/raw/$name.err" "$work/raw/$name.out" 2>/dev/null | sed 's/^/    /' >&2
    return 0 # a failed measurement reads n/a; the others still run
}

# ---------------------------------------------------------------- build ----
mkdir -p "$work/raw"
if [ $build = 1 ]; then
    log "== building the host in $build_dir"
    if [ ! -f "$build_dir/CMakeCache.txt" ]; then
        cmake -S "$root" -B "$build_dir" -DCMDBENCH_TESTS=OFF >"$work/build.log" 2>&1 ||
            { tail -n 20 "$work/build.log" >&2; die "configuring $build_dir failed"; }
    fi
    cmake --build "$build_dir" -j2 >>"$work/build.log" 2>&1 ||
        { tail -n 20 "$work/build.log" >&2; die "building $build_dir failed"; }
    log "== building the record-cost microbenchmark"
    cmake -S "$bench" -B "$build_dir/record_cost" -DCMDBENCH_BUILD_DIR="$build_dir" \
        >>"$work/build.log" 2>&1 &&
        cmake --build "$build_dir/record_cost" -j2 >>"$work/build.log" 2>&1 ||
        { tail -n 20 "$work/build.log" >&2; die "building the microbenchmark failed"; }
fi
cmdbench=$build_dir/bin/cmdbench
record_cost=$build_dir/record_cost/record_cost
stream_loop=$build_dir/record_cost/stream_loop
[ -x "$cmdbench" ] || die "$cmdbench not found (build it, or drop --no-build)"
[ -x "$record_cost" ] || die "$record_cost not found (build it, or drop --no-build)"
[ -x "$stream_loop" ] || die "$stream_loop not found (build it, or drop --no-build)"

# ------------------------------------------------------------- cmdbench ----
# One scenario holds every cmdbench measurement of a repetition; one run per
# size and mode, so a failure costs only its own figure.
write_scenario() {
    local f=$1 size mode blocking
    {
        echo '[defaults]'
        echo 'transport = "tcp"'
        echo "timeout = $client_timeout"
        for mode in nb b; do
            blocking=$([ $mode = b ] && echo true || echo false)
            for size in "${lat_sizes[@]}"; do
                printf '[[run]]\nname = "lat-%s-%s"\ntest = "pingpong"\nsizes = [%s]\n' $mode $size $size
                printf 'iterations = %s\ntransfer_count = 1\nblocking = %s\n' "${lat_iters[$size]}" $blocking
            done
            for size in "${bw_sizes[@]}"; do
                printf '[[run]]\nname = "ppbw-%s-%s"\ntest = "pingpong"\nsizes = [%s]\n' $mode $size $size
                printf 'iterations = %s\ntransfer_count = 0\nblocking = %s\n' $bw_iters $blocking
                printf '[[run]]\nname = "tp-%s-%s"\ntest = "throughput"\nsizes = [%s]\n' $mode $size $size
                printf 'duration = %s\nblocking = %s\n' $stream_secs $blocking
            done
        done
        for size in "${bw_sizes[@]}"; do
            printf '[[run]]\nname = "tp-auto-b-%s"\ntest = "throughput"\nsizes = [%s]\n' $size $size
            printf 'duration = %s\nblocking = true\nbuffer_size = 0\n' $stream_secs
        done
    } >"$f"
}
write_scenario "$work/scenario.toml"

measure_cmdbench() { # rep
    log "  cmdbench (its own server, ephemeral ports)"
    # Exit status 1 means some run failed; the JSON still holds the others.
    bounded "$((client_timeout * 12))" "$work/raw/cmdbench.$1.json" "$work/raw/cmdbench.$1.err" \
        "$cmdbench" run "$work/scenario.toml" --format json -q
    [ $rc = 0 ] ||
        { log "  cmdbench: not every run succeeded:"; tail -n 5 "$work/raw/cmdbench.$1.err" | sed 's/^/    /' >&2; }
}

# -------------------------------------------------------------- rstream ----
# Custom mode (-S/-C/-I), identical on both sides as rstream requires.
rstream_one() { # rep name mode(nb|b) size count iters
    local rep=$1 name=$2 mode=$3 size=$4 count=$5 iters=$6 port
    local -a opts=(-T s)
    [ "$mode" = b ] && opts+=(-T b)
    opts+=(-S "$size" -C "$count" -I "$iters")
    port=$(free_port)
    start_server "$work/raw/rstream-server.$name.$rep.log" rstream "${opts[@]}" -b 127.0.0.1 -p "$port"
    local pid=$server_pid
    if wait_listen "$port" "$pid"; then
        run_client "rstream.$name.$rep" rstream "${opts[@]}" -s 127.0.0.1 -p "$port"
    else
        log "  rstream server did not listen on $port"
    fi
    finish_server "$pid"
}

measure_rstream() { # rep
    [ "${have[rstream]}" = 1 ] || return 0
    local mode size
    log "  rstream -T s"
    for mode in nb b; do
        for size in "${lat_sizes[@]}"; do
            rstream_one "$1" "lat-$mode-$size" $mode "$size" 1 "${lat_iters[$size]}"
        done
        for size in "${bw_sizes[@]}"; do
            rstream_one "$1" "bw-$mode-$size" $mode "$size" "${bw_count[$size]}" $bw_iters
        done
    done
}

# ------------------------------------------------------------- sockperf ----
measure_sockperf() { # rep
    [ "${have[sockperf]}" = 1 ] || return 0
    local size port pid
    log "  sockperf ping-pong --tcp"
    for size in "${lat_sizes[@]}"; do
        port=$(free_port)
        start_server "$work/raw/sockperf-server.$size.$1.log" \
            sockperf server --tcp -i 127.0.0.1 -p "$port"
        pid=$server_pid
        if wait_listen "$port" "$pid"; then
            run_client "sockperf.lat-b-$size.$1" \
                sockperf ping-pong --tcp -i 127.0.0.1 -p "$port" -m "$size" -t $stream_secs
        else
            log "  sockperf server did not listen on $port"
        fi
        finish_server "$pid" # it serves forever otherwise
    done
}

# ---------------------------------------------------------- stream_loop ----
measure_stream_loop() { # rep
    local size mode
    log "  stream_loop (plain C one-way stream)"
    for mode in nb b; do
        for size in "${bw_sizes[@]}"; do
            run_client "loop.tp-$mode-$size.$1" "$stream_loop" "$size" $stream_secs 524288 $mode
        done
    done
}

# --------------------------------------------------------------- iperf3 ----
measure_iperf3() { # rep
    [ "${have[iperf3]}" = 1 ] || return 0
    local size port pid
    log "  iperf3"
    for size in "${bw_sizes[@]}"; do
        port=$(free_port)
        start_server "$work/raw/iperf3-server.$size.$1.log" iperf3 -s -1 -B 127.0.0.1 -p "$port"
        pid=$server_pid
        if wait_listen "$port" "$pid"; then
            run_client "iperf3.tp-auto-b-$size.$1" \
                iperf3 -c 127.0.0.1 -p "$port" -l "$size" -t $stream_secs -J
        else
            log "  iperf3 server did not listen on $port"
        fi
        finish_server "$pid"
    done
}

# ---------------------------------------------------------- record cost ----
measure_record_cost() {
    local min_time=0.5 nrep=10
    [ $quick = 0 ] || { min_time=0.1; nrep=3; }
    log "== record cost (Google Benchmark, ${nrep} repetitions)"
    run_client record_cost "$record_cost" --benchmark_min_time=$min_time \
        --benchmark_repetitions=$nrep --benchmark_format=json
}

# ------------------------------------------------------------------ run ----
# Repetitions go round the tools, so slow drift of the machine's load hits
# every tool alike instead of one tool's whole set.
for ((rep = 1; rep <= reps; rep++)); do
    log "== repetition $rep of $reps"
    measure_cmdbench $rep
    measure_rstream $rep
    measure_sockperf $rep
    measure_iperf3 $rep
    measure_stream_loop $rep
done
measure_record_cost

if [ -z "$out" ]; then
    mkdir -p "$bench/results"
    out=$bench/results/$(date -u +%Y-%m-%dT%H%M%SZ).json
fi
python3 "$bench/report.py" --raw "$work/raw" --out "$out" --reps "$reps" --quick "$quick" \
    --lat-iters "64=${lat_iters[64]},4096=${lat_iters[4096]}" --bw-iters "$bw_iters" \
    --stream-secs "$stream_secs" --cmdbench "$cmdbench"
exit 0
