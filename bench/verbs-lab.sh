#!/usr/bin/env bash
# cmdbench's verbs tests against Debian's perftest, inside the RDMA lab, in
# one run. Prints a comparison table and writes the raw figures as JSON.
set -uo pipefail

usage() {
    cat <<'EOF'
Usage: tools/rdma-lab --timeout 1800 -- bench/verbs-lab.sh [--reps N] [--quick]
           [--defaults] [--ops LIST] [--build-dir DIR] [-o FILE] [--keep]

Inside the lab (Soft-RoCE rxe0), for 64 B, 4 KiB and 64 KiB, the same
measurement by both tools, alternating which goes first, every repetition:

  latency    cmdbench verbs-lat op=send|write|read  vs  ib_send_lat,
             ib_write_lat, ib_read_lat -R (rdma_cm)
  bandwidth  cmdbench verbs-bw op=write|send|read   vs  ib_write_bw,
             ib_send_bw, ib_read_bw -R --report_gbits

Same iterations, no warm-up (perftest's latency tests have none), no inline
data (perftest turns it off on rxe), tx depth 128, CQ moderation 100 up to
8 KiB and 1 above (perftest's own rule, passed to both explicitly), busy
polling (perftest's default). Compared like with like:

  median      send/write: cmdbench rtt p50 / 2 vs t_typical (perftest halves
              its round trips); read: rtt p50 vs t_typical (one READ is the
              whole round trip, neither halves it)
  average     cmdbench usec/xfer vs t_avg (perftest drops its 2 largest
              samples from the average, cmdbench keeps every sample)
  bandwidth   cmdbench Gb/sec vs BW average[Gb/sec], both at the sender

Every figure is the median of the repetitions; the 90% interval of each ratio
cmdbench / perftest is bench/report.py's bootstrap. Targets: latency ratio
<= 1.02, bandwidth ratio >= 0.98. Soft-RoCE under emulation is 100-1000x
slower than hardware and swings between repetitions: read the ratios.

--defaults: both tools at their own defaults instead, what a user running
each without options sees, over perftest's whole ground. Neither gets a
tuning flag (no -t, -Q, -I, no tx_depth, cq_mod, inline_size, warmup or
mode): only the op, size, iterations, QPs, event mode and QP type each case
needs. Cases (name: perftest | cmdbench, iterations; --quick fewer):

  bw-write-1048576       ib_write_bw -s 1M | verbs-bw op=write, 200
  bw-write-65536-q2      ib_write_bw -q 2 | qps = 2, 1000 per QP
  bw-write-2, bw-send-2  ib_write_bw / ib_send_bw -s 2, 5000 (message rate)
  bw-fetch_add-8         ib_atomic_bw | op = "fetch_add", 5000
  bw-send-MTU-ud         ib_send_bw -c UD -s MTU | op = "send",
                         qp_type = "ud", 5000 (MTU: rxe0's active MTU,
                         the size perftest picks for UD by itself)
  lat-send-2-event, lat-send-4096-event
                         ib_send_lat -e | mode = "event", 1000
  lat-write-2            ib_write_lat, 1000
  lat-fetch_add-8        ib_atomic_lat | verbs-lat op = "fetch_add", 1000
  lat-send-2-ud          ib_send_lat -c UD | op = "send", qp_type = "ud", 1000
  lat-read-64            ib_read_lat -s 64 | op = "read", 2000
  bw-write-65536-bidir   ib_write_bw -b | bidirectional = true, 2000
                         (perftest's figure is the sum of both sides'
                         rates, each over its own window: compared with
                         the sum of cmdbench's c2s and s2c rows)
  (lat-send-4096-event and lat-fetch_add-8 run 2000 too)

Groups for --only/--skip: base (the five headline cases: the two
WRITE bandwidths and the three event/poll latencies), rate (the 2 B
bandwidths), atomic (fetch_add), ud, more (READ latency, bidirectional
WRITE), gaps (lat-read-64, lat-fetch_add-8, lat-send-4096-event,
bw-write-65536-bidir: --only gaps --reps 8 takes 4-6 minutes). Figures compared: latency median,
average and p99.9 (perftest's `99.9% percentile`, against cmdbench's rtt
p99_9, halved for send/write as perftest halves them, whole for READs and
atomics; 1000 samples are needed); bandwidth (perftest's BW average, printed
in MiB/s without --report_gbits) and message rate (MsgRate[Mpps] against
cmdbench's msgs/sec), each figure from whichever printed value keeps more
digits. Targets there: latency ratios (median, average, p99.9) <= 1.00,
bandwidth and message rate >= 1.00. A case cmdbench refuses (exit 2, e.g. an
op this build lacks) is not run again in later repetitions; its rows say
`cmdbench failed: <its first line>` and the rest goes on.

Exit status 0 whether or not a target is met (a measurement: missed targets
print `*** MISSED`, misses within the interval `*** not met, within the
noise`); 2 for a bad option, outside the lab, or a missing tool.

Options:
  --reps N         repetitions of every measurement, 1..99 (default 3; --quick: 1)
  --quick          fewer iterations and 1 repetition: a smoke test, not figures
  --defaults       the cases above, both tools at their defaults (--ops unused)
  --only LIST      with --defaults: only these cases or groups (comma-separated)
  --skip LIST      with --defaults: all cases but these cases or groups
  --ops LIST       comma-separated subset of send,write,read (default all three)
  --build-dir DIR  build tree with bin/cmdbench (default $CMDBENCH_BINARY_DIR,
                   else <repo>/build)
  -o FILE          write the JSON here (default bench/results/verbs-<UTC time>.json)
  --keep           keep the raw outputs next to the JSON (FILE without .json,
                   plus .raw/)
  --cmdbench-key 'KEY = VALUE'
                   one more key in every cmdbench run (repeatable), e.g.
                   'connect = "exchange"': to test what a setting does to a
                   gap; recorded in the JSON's settings as cmdbench_keys
  -h, --help       this text
EOF
}

die() { echo "bench/verbs-lab.sh: $*" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
reps="" quick=0 defaults=0 out="" keep=0 ops_arg=send,write,read only="" skip=""
extra_keys=()
build=${CMDBENCH_BINARY_DIR:-$root/build}
while [ $# -gt 0 ]; do
    case $1 in
        --reps) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]?$ ]] || die "--reps needs a number in [1, 99], got '${2:-}'"
                reps=$2; shift ;;
        --quick) quick=1 ;;
        --defaults) defaults=1 ;;
        --ops) [ $# -ge 2 ] && [[ $2 =~ ^(send|write|read)(,(send|write|read))*$ ]] ||
                   die "--ops needs a comma-separated list of send, write, read; got '${2:-}'"
               ops_arg=$2; shift ;;
        --only|--skip) [ $# -ge 2 ] && [[ $2 =~ ^[a-z0-9_-]+(,[a-z0-9_-]+)*$ ]] ||
                   die "$1 needs a comma-separated list of --defaults cases or groups; got '${2:-}'"
               if [ "$1" = --only ]; then only=$2; else skip=$2; fi; shift ;;
        --build-dir) [ $# -ge 2 ] || die "--build-dir needs a directory"; build=$2; shift ;;
        -o) [ $# -ge 2 ] || die "-o needs a file"; out=$2; shift ;;
        --keep) keep=1 ;;
        --cmdbench-key) [ $# -ge 2 ] && [[ $2 =~ ^[a-z_]+\ =\ [^=]+$ ]] ||
                   die "--cmdbench-key needs 'KEY = VALUE' (a scenario key of verbs-lat and verbs-bw); got '${2:-}'"
               extra_keys+=("$2"); shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "bench/verbs-lab.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
IFS=, read -r -a ops <<< "$ops_arg"
[ $defaults = 1 ] || [ -z "$only$skip" ] || die "--only and --skip select --defaults cases: add --defaults"
addr=${CMDBENCH_RDMA_ADDR:-}
[ -n "$addr" ] || die "run me inside the lab: tools/rdma-lab --timeout 1800 -- $0"
cb=$(realpath -m "$build")/bin/cmdbench
[ -x "$cb" ] || die "no $cb (build first or pass --build-dir)"
for tool in python3 timeout rdma ib_send_lat ib_write_lat ib_read_lat ib_write_bw ib_send_bw ib_read_bw \
            $( [ $defaults = 0 ] || echo ib_atomic_lat ib_atomic_bw ibv_devinfo); do
    command -v $tool > /dev/null || die "$tool not found (tools/install-deps.sh: perftest, iproute2)"
done
dev=$(rdma link show 2>/dev/null | awk '{split($2, a, "/"); print a[1]; exit}')
[ -n "$dev" ] || die "no RDMA device (rdma link show lists none)"

sizes=(64 4096 65536)
if [ $quick = 1 ]; then
    : "${reps:=1}"
    declare -A lat_iters=([64]=100 [4096]=100 [65536]=50)
    declare -A bw_iters=([64]=500 [4096]=300 [65536]=100)
    client_timeout=120
else
    : "${reps:=3}"
    # Under emulation a run's setup (~3 s) costs as much as its messages:
    # 3 repetitions take ~20 minutes.
    declare -A lat_iters=([64]=300 [4096]=300 [65536]=100)
    declare -A bw_iters=([64]=1000 [4096]=500 [65536]=200)
    client_timeout=300
fi
cq_mod() { if [ "$1" -le 8192 ]; then echo 100; else echo 1; fi; } # perftest's rule
tx_depth=128

work=$(mktemp -d "${TMPDIR:-/tmp}/verbs-lab.XXXXXX")
mkdir -p "$work/raw"
server="" client=""
stop() { # pid: its group (timeout leads one), then reap it
    kill -TERM -- "-$1" 2>/dev/null || kill -TERM "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}
cleanup() {
    [ -z "$client" ] || stop "$client"
    [ -z "$server" ] || stop "$server"
    if [ $keep = 1 ] && [ -n "$out" ]; then
        rm -rf "${out%.json}.raw"; mv "$work/raw" "${out%.json}.raw" &&
            echo "raw outputs kept in ${out%.json}.raw" >&2
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'echo "interrupted" >&2; exit 130' INT TERM
log() { printf '%s\n' "$*" >&2; }

# bounded SECS OUT CMD...: CMD under timeout, stdout and stderr to OUT (or
# stderr to $errout when set), its status in $rc; waited for in the
# background so a signal reaches the trap.
errout=""
bounded() {
    local secs=$1 o=$2; shift 2
    timeout "$secs" "$@" > "$o" 2> "${errout:-$o}" &
    client=$!
    rc=0
    wait "$client" || rc=$?
    client=""
}

# An rdma_cm listener shows up in `rdma resource show cm_id`; waiting for it
# never takes the one client perftest's server serves.
wait_cm_listen() { # port pid
    local i
    for ((i = 0; i < 300; i++)); do
        rdma resource show cm_id 2>/dev/null | grep -q "state LISTEN .*:$1 *\$" && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

port=18500
# perftest_one NAME TOOL ARGS...: one server (bound to every address: perftest
# has no bind option for its -R server) and one client to $addr. Under
# emulation a connect is now and then rejected, or the client crashes after
# it and leaves its server waiting for good: up to 3 tries, each with a
# fresh server on a fresh port.
perftest_one() {
    local name=$1 tool=$2; shift 2
    local -a args=(-d "$dev" -R -F "$@")
    local o=$work/raw/perftest.$name.out try i
    rc=1
    for try in 1 2 3; do
        port=$((port + 1))
        timeout "$((client_timeout + 60))" "$tool" "${args[@]}" -p "$port" > "$work/server.log" 2>&1 &
        server=$!
        if ! wait_cm_listen "$port" "$server"; then
            log "  $tool server did not listen on port $port (try $try)"
            tail -n 3 "$work/server.log" >&2
        else
            bounded "$client_timeout" "$o" "$tool" "${args[@]}" -p "$port" "$addr"
            [ $rc = 0 ] || log "  $tool client failed (exit $rc, try $try)"
        fi
        # The server ends with its client; give it a moment, then end it.
        for ((i = 0; i < 100; i++)); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
        stop "$server"; server=""
        [ $rc = 0 ] && break
        [ $rc = 124 ] && break # a hang, not a refused connect: no retry
        sleep 1
    done
    echo "$rc" > "$work/raw/perftest.$name.rc"
    [ $rc = 0 ] && return
    log "  FAILED: $tool ${args[*]}"; tail -n 4 "$o" 2>/dev/null | sed 's/^/    /' >&2
}

# cmdbench_one NAME TEST OP SIZE ITERS [KEY=VALUE...]: one scenario, one run,
# `cmdbench run` with its own server; bind_address puts the QPs on the lab's
# device (the local server itself meets on loopback). JSON on stdout.
cmdbench_one() {
    local name=$1 test=$2 op=$3 size=$4 iters=$5; shift 5
    local f=$work/$name.toml kv
    {
        printf '[defaults]\ntimeout = %s\n' "$client_timeout"
        printf '[[run]]\nname = "%s"\ntest = "%s"\nop = "%s"\nsizes = [%s]\n' "$name" "$test" "$op" "$size"
        # The exchange mode opens the device itself: it takes no address.
        if [[ " ${extra_keys[*]} " == *'connect = "exchange"'* ]]; then
            printf 'iterations = %s\ndevice = "%s"\n' "$iters" "$dev"
        else
            printf 'iterations = %s\nbind_address = "%s"\n' "$iters" "$addr"
        fi
        if [ $defaults = 0 ]; then
            printf 'warmup = 0\nmode = "poll"\n'
            # perftest finds no inline support on rxe and sends none; READs have none.
            [ "$op" = read ] || printf 'inline_size = 0\n'
        fi
        for kv in "$@" "${extra_keys[@]}"; do printf '%s\n' "$kv"; done
    } > "$f"
    # The JSON alone on stdout: the plugin's log lines (verbs-bw's window)
    # go to stderr, kept apart.
    errout=$work/raw/cmdbench.$name.err
    bounded "$((client_timeout + 60))" "$work/raw/cmdbench.$name.out" \
        "$cb" run "$f" --format json -q
    errout=""
    echo "$rc" > "$work/raw/cmdbench.$name.rc"
    [ $rc = 0 ] || { log "  FAILED: cmdbench verbs $name (exit $rc)"
                     tail -q -n 4 "$work/raw/cmdbench.$name.err" "$work/raw/cmdbench.$name.out" | sed 's/^/    /' >&2; }
}

declare -A lat_tool=([send]=ib_send_lat [write]=ib_write_lat [read]=ib_read_lat [fetch_add]=ib_atomic_lat)
declare -A bw_tool=([send]=ib_send_bw [write]=ib_write_bw [read]=ib_read_bw [fetch_add]=ib_atomic_bw)
measure() { # tool kind op size rep
    local tool=$1 kind=$2 op=$3 size=$4 rep=$5 n q
    local name=$kind-$op-$size.$rep
    log "rep $rep/$reps: $tool $kind $op $size"
    if [ "$kind" = lat ]; then
        n=${lat_iters[$size]}
        if [ "$tool" = perftest ]; then perftest_one "$name" "${lat_tool[$op]}" -s "$size" -n "$n"
        else cmdbench_one "$name" verbs-lat "$op" "$size" "$n"; fi
    else
        n=${bw_iters[$size]} q=$(cq_mod "$size")
        if [ "$tool" = perftest ]; then
            perftest_one "$name" "${bw_tool[$op]}" -s "$size" -n "$n" -t $tx_depth -Q "$q" --report_gbits
        else cmdbench_one "$name" verbs-bw "$op" "$size" "$n" "tx_depth = $tx_depth" "cq_mod = $q"; fi
    fi
}

# --defaults: kind:op:size:tag:iterations (quick: fewer); the tag names the
# case's settings beyond op and size, and the files it writes. UD messages
# fit one MTU: perftest's ib_send_bw -c UD lowers its 64 KiB default to the
# port's active MTU by itself, and both tools get that size.
ud_bw_size=$( [ $defaults = 0 ] || ibv_devinfo -d "$dev" -i 1 | awk '/active_mtu:/ {print $2; exit}')
[ $defaults = 0 ] || [[ $ud_bw_size =~ ^[0-9]+$ ]] || die "no active_mtu for $dev in ibv_devinfo"
[ "${ud_bw_size:-0}" -le 65536 ] || ud_bw_size=65536
if [ $quick = 1 ]; then
    # Latency keeps 1000: p99.9 needs 1000 samples, and round trips are cheap.
    default_cases=(bw:write:1048576::20 bw:write:65536:-q2:100 bw:write:2::1000 bw:send:2::1000
        bw:fetch_add:8::1000 "bw:send:$ud_bw_size:-ud:500"
        lat:send:2:-event:1000 lat:send:4096:-event:1000 lat:write:2::1000
        lat:fetch_add:8::1000 lat:send:2:-ud:1000 lat:read:64::1000 bw:write:65536:-bidir:100)
else
    # One repetition takes ~130 s in the lab (the two WRITE bandwidths a
    # third of it), so 8 fit in ~20 minutes; 5000 is perftest's bandwidth
    # default, 1000 its latency default. The gaps group's four cases run
    # 2000, so that their medians rest on more than one run's tail.
    default_cases=(bw:write:1048576::200 bw:write:65536:-q2:1000 bw:write:2::5000 bw:send:2::5000
        bw:fetch_add:8::5000 "bw:send:$ud_bw_size:-ud:5000"
        lat:send:2:-event:1000 lat:send:4096:-event:2000 lat:write:2::1000
        lat:fetch_add:8::2000 lat:send:2:-ud:1000 lat:read:64::2000 bw:write:65536:-bidir:2000)
fi
case_name() { local kind op size tag n; IFS=: read -r kind op size tag n <<< "$1"; echo "$kind-$op-$size$tag"; }
case_groups() { # the groups a case is in
    local g
    case $(case_name "$1") in
        bw-write-1048576|bw-write-65536-q2|lat-send-2-event|lat-send-4096-event|lat-write-2) g=base ;;
        bw-write-2|bw-send-2) g=rate ;;
        *fetch_add*) g=atomic ;;
        *-ud) g=ud ;;
        lat-read-64|*-bidir) g=more ;;
    esac
    # The four cases where cmdbench trailed perftest at the defaults.
    case $(case_name "$1") in
        lat-read-64|lat-fetch_add-8|lat-send-4096-event|bw-write-65536-bidir) g="$g gaps" ;;
    esac
    echo "$g"
}
in_list() { # case list: the case or one of its groups is named in list
    local w
    for w in ${2//,/ }; do
        [ "$w" = "$(case_name "$1")" ] && return 0
        [[ " $(case_groups "$1") " == *" $w "* ]] && return 0
    done
    return 1
}
if [ $defaults = 1 ]; then
    known="base rate atomic ud more gaps $(for c in "${default_cases[@]}"; do printf '%s ' "$(case_name "$c")"; done)"
    for w in ${only//,/ } ${skip//,/ }; do
        [[ " $known" == *" $w "* ]] || die "--only/--skip: no case or group '$w' (one of: ${known% })"
    done
    picked=()
    for c in "${default_cases[@]}"; do
        { [ -z "$only" ] || in_list "$c" "$only"; } && ! in_list "$c" "$skip" && picked+=("$c")
    done
    [ ${#picked[@]} -gt 0 ] || die "--only/--skip leave no case to run"
    default_cases=("${picked[@]}")
fi
declare -A refused=() # case name -> 1 once cmdbench refused its scenario (exit 2)
measure_default() { # tool case rep
    local tool=$1 rep=$3 kind op size tag n
    IFS=: read -r kind op size tag n <<< "$2"
    local cname=$kind-$op-$size$tag
    local name=$cname.$rep
    # ib_atomic_* have no size option: an atomic is 8 bytes.
    local -a pt=(-n "$n") keys=() # cmdbench's (cb is its binary)
    [ "$op" = fetch_add ] || pt+=(-s "$size")
    case $tag in
        -q2) pt+=(-q 2) keys+=("qps = 2") ;;
        -event) pt+=(-e) keys+=('mode = "event"') ;;
        -ud) pt+=(-c UD) keys+=('qp_type = "ud"') ;;
        -bidir) pt+=(-b) keys+=("bidirectional = true") ;;
    esac
    local t0=$EPOCHREALTIME
    if [ "$tool" = perftest ]; then
        log "rep $rep/$reps: $tool $cname (defaults)"
        if [ "$kind" = lat ]; then perftest_one "$name" "${lat_tool[$op]}" "${pt[@]}"
        else perftest_one "$name" "${bw_tool[$op]}" "${pt[@]}"; fi # MiB/s: more digits than Gb/s
    elif [ -n "${refused[$cname]:-}" ]; then
        log "rep $rep/$reps: cmdbench $cname skipped: refused in an earlier repetition"
        return
    else
        log "rep $rep/$reps: $tool $cname (defaults)"
        cmdbench_one "$name" "verbs-$kind" "$op" "$size" "$n" "${keys[@]}"
        [ $rc != 2 ] || refused[$cname]=1
    fi
    printf '%s\t%s\t%s\t%s\n' "$tool" "$cname" "$rep" \
        "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}')" >> "$work/raw/times.tsv"
}

start=$EPOCHREALTIME
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 1; r <= reps && defaults; r++)); do
    for c in "${default_cases[@]}"; do
        if ((r % 2)); then order=(perftest cmdbench); else order=(cmdbench perftest); fi
        for tool in "${order[@]}"; do measure_default "$tool" "$c" $r; done
    done
done
for ((r = 1; r <= reps && !defaults; r++)); do
    for kind in lat bw; do
        for op in "${ops[@]}"; do
            for size in "${sizes[@]}"; do
                # Alternate which tool goes first, so drift hits both alike.
                if ((r % 2)); then order=(perftest cmdbench); else order=(cmdbench perftest); fi
                for tool in "${order[@]}"; do measure "$tool" $kind "$op" "$size" $r; done
            done
        done
    done
done
secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.0f", b-a}')

if [ -z "$out" ]; then
    mkdir -p "$root/bench/results"
    out=$root/bench/results/verbs-$(date -u +%Y-%m-%dT%H%M%SZ).json
fi
lat_list=$(for s in "${sizes[@]}"; do printf '%s=%s,' "$s" "${lat_iters[$s]}"; done)
bw_list=$(for s in "${sizes[@]}"; do printf '%s=%s,' "$s" "${bw_iters[$s]}"; done)
cases_arg=()
if [ $defaults = 1 ]; then
    cases=$(for c in "${default_cases[@]}"; do printf '%s,' "${c%:*}"; done)
    cases_arg=(--cases "${cases%,}")
    # The iterations by case, in the JSON's settings.
    lat_list=$(for c in "${default_cases[@]}"; do [[ $c == lat* ]] && printf '%s,' "${c%:*}=${c##*:}"; done)
    bw_list=$(for c in "${default_cases[@]}"; do [[ $c == bw* ]] && printf '%s,' "${c%:*}=${c##*:}"; done)
fi
python3 "$root/bench/verbs_report.py" --raw "$work/raw" --out "$out" --reps "$reps" \
    --quick "$quick" --ops "$ops_arg" --sizes "$(IFS=,; echo "${sizes[*]}")" \
    --lat-iters "${lat_list%,}" --bw-iters "${bw_list%,}" --seconds "$secs" \
    --load "$load_before / $(cut -d' ' -f1-3 /proc/loadavg)" --cmdbench "$cb" --device "$dev" \
    --cmdbench-keys "$(printf '%s\n' "${extra_keys[@]}")" "${cases_arg[@]}"
exit 0
