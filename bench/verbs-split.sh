#!/usr/bin/env bash
# Where a one-sided verbs round trip's time goes, cmdbench against perftest,
# inside the RDMA lab: bench/post_split.c times every post's doorbell.
set -uo pipefail

usage() {
    cat <<'EOF'
Usage: tools/rdma-lab -- bench/verbs-split.sh [--op OP] [--size N] [--reps N]
           [--iterations N] [--front-end] [--shift PAGES] [--hold-cqs N]
           [--switches] [--counters] [--spin] [--trace] [--bare]
           [--build-dir DIR]

Inside the lab (Soft-RoCE), runs perftest's latency tool and cmdbench's
verbs-lat for one one-sided op, alternating, --reps times each, with
bench/post_split.c preloaded into both clients. On rxe a READ or an atomic
runs whole inside the system call that rings its post's doorbell, so each
round trip splits into:

  in_post   the doorbell's write(): the kernel's work, the same for both
  outside   the rest of the loop: polling, the tool's clock, its sample
  period    one doorbell to the next: the round trip as the tool times it

Prints each run's medians, then the median of each column per tool and the
ratio cmdbench / perftest.

  --op OP          fetch_add (ib_atomic_lat, default), cmp_swap
                   (ib_atomic_lat -A CMP_AND_SWAP) or read (ib_read_lat)
  --size N         READ size in bytes, 1..65536 (default 8; atomics are 8 B)
  --reps N         runs of each tool, 1..99 (default 5)
  --iterations N   round trips per run, 1000..1000000 (default 40000)
  --front-end      cmdbench runs as its perftest front end (`cmdbench
                   ib_atomic_lat` or `cmdbench ib_read_lat`: a server and a
                   client process started as perftest's, with perftest's
                   options) instead of as `cmdbench run` with verbs-lat:
                   the same plugin code in perftest's process shape
  --shift PAGES    both clients map and allocate everything after their
                   start PAGES pages (0..65536) apart from where they would:
                   the same code at other addresses (default 0)
  --hold-cqs N     while both tools run, bench/hold_cqs.c holds N small
                   completion queues (0..10000) on the device, so the
                   kernel places the tools' queues elsewhere (default 0)
  --switches       also count the posting thread's context switches per
                   doorbell, inside the post and outside it, voluntary
                   (it slept) and involuntary (it was preempted), and how
                   often it left the post on another CPU, and per doorbell
                   its time on a CPU and preempted, and the ksoftirqd
                   threads' time on a CPU (schedstat); this costs two
                   getrusage() calls a doorbell outside the post, so its
                   times are not comparable with a run without
  --counters       also print, per run, the RDMA port counters that moved
                   (counters/ and hw_counters/ in sysfs: packets, ACKs,
                   retries, ...) per round trip of the run
  --spin           while cmdbench runs (only then), a busy loop keeps one
                   more CPU busy, as perftest's own passive side does: its
                   server polls all through a READ or atomic run, where
                   cmdbench's waits asleep
  --trace          trace each client run with ftrace (root; tracefs is
                   mounted if it is not): system call entry and exit of
                   write(), softirqs and function-call IPIs, and print what
                   bench/trace_split.py makes of it: the post's time with and
                   without the softirq run inside it, the time between posts,
                   other softirqs and IPIs per post, and how much of the run
                   the poster spent on one CPU. Tracing slows both tools
  --bare           also run bench/one_sided_loop.c, the fewest lines that
                   time the same op over rdma_cm with perftest's resource
                   sizes, as a third tool ("bare", in perftest's process
                   shape); its BARE_* environment variables (see the
                   file) set each resource to verbs-lat's value instead
  --build-dir DIR  cmdbench build tree (default: $CMDBENCH_BINARY_DIR, else build)

Both tools run at their defaults otherwise. Needs cc, perftest and python3.
EOF
}

die() { echo "verbs-split.sh: $*" >&2; exit 2; }

op=fetch_add reps=5 iters=40000 build=${CMDBENCH_BINARY_DIR:-build} read_size=8 front_end=0 shift=0 hold=0 switches=0 counters=0 spin=0 trace=0 bare=0
while [ $# -gt 0 ]; do
    case $1 in
        --op) [ $# -ge 2 ] || die "--op needs a value"; op=$2; shift ;;
        --size) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] && [ "$2" -le 65536 ] ||
                    die "--size needs a number in [1, 65536], got '${2:-}'"
                read_size=$2; shift ;;
        --reps) [[ ${2:-} =~ ^[1-9][0-9]?$ ]] || die "--reps needs a number in [1, 99], got '${2:-}'"
                reps=$2; shift ;;
        --iterations) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] && [ "$2" -ge 1000 ] && [ "$2" -le 1000000 ] ||
                          die "--iterations needs a number in [1000, 1000000], got '${2:-}'"
                      iters=$2; shift ;;
        --front-end) front_end=1 ;;
        --shift) [[ ${2:-} =~ ^(0|[1-9][0-9]*)$ ]] && [ "$2" -le 65536 ] ||
                     die "--shift needs a number in [0, 65536], got '${2:-}'"
                 shift=$2; shift ;;
        --hold-cqs) [[ ${2:-} =~ ^(0|[1-9][0-9]*)$ ]] && [ "$2" -le 10000 ] ||
                        die "--hold-cqs needs a number in [0, 10000], got '${2:-}'"
                    hold=$2; shift ;;
        --switches) switches=1 ;;
        --counters) counters=1 ;;
        --spin) spin=1 ;;
        --trace) trace=1 ;;
        --bare) bare=1 ;;
        --build-dir) [ $# -ge 2 ] || die "--build-dir needs a directory"; build=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option '$1' (--help lists them)" ;;
    esac
    shift
done
case $op in
    fetch_add) tool=(ib_atomic_lat) size=8 bare_op=fetch_add ;;
    cmp_swap) tool=(ib_atomic_lat -A CMP_AND_SWAP) size=8 bare_op="" ;;
    read) tool=(ib_read_lat -s "$read_size") size=$read_size bare_op=read ;;
    *) die "--op: fetch_add, cmp_swap or read, got '$op'" ;;
esac
cmdbench=$build/bin/cmdbench
[ -x "$cmdbench" ] || die "$cmdbench not found: build first, or give --build-dir"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lab_needs.sh
. "$here/lab_needs.sh"
lab_needs verbs-split.sh cc python3 "${tool[0]}"
work=$(mktemp -d "${TMPDIR:-/tmp}/verbs-split.XXXXXX")
server="" holder="" spinner=""
cleanup() {
    [ -z "$server" ] || kill "$server" 2> /dev/null
    [ -z "$spinner" ] || kill "$spinner" 2> /dev/null
    trace_reset
    [ -z "$holder" ] || kill "$holder" 2> /dev/null
    rm -rf "$work"
}
trap cleanup EXIT
cc -O2 -Wall -Wextra -Werror -shared -fPIC -o "$work/post_split.so" "$here/post_split.c" -ldl ||
    die "cannot build post_split.c"
if [ $bare = 1 ]; then
    [ -n "$bare_op" ] || die "--bare: only fetch_add and read"
    cc -O2 -Wall -Wextra -Werror -o "$work/one_sided_loop" "$here/one_sided_loop.c" -lrdmacm -libverbs -lpthread ||
        die "cannot build one_sided_loop.c"
fi
if [ "$hold" -gt 0 ]; then
    cc -O2 -Wall -Wextra -Werror -o "$work/hold_cqs" "$here/hold_cqs.c" -libverbs ||
        die "cannot build hold_cqs.c"
    mkfifo "$work/hold.fifo"
    "$work/hold_cqs" "$hold" ${CMDBENCH_RDMA_DEV:+"$CMDBENCH_RDMA_DEV"} > "$work/hold.fifo" &
    holder=$!
    read -r -t 30 said < "$work/hold.fifo" && [ "$said" = "holding $hold" ] ||
        die "hold_cqs did not hold $hold queues"
fi

tracefs=/sys/kernel/tracing trace_buffer_kb=""
trace_events=(raw_syscalls/sys_enter raw_syscalls/sys_exit irq/softirq_entry irq/softirq_exit
    irq_vectors/call_function_entry irq_vectors/call_function_single_entry)
# trace_setup / trace_reset: the events --trace records, and the tracer's state after
trace_setup() {
    [ "$(id -u)" = 0 ] || die "--trace needs root (ftrace)"
    mountpoint -q $tracefs || mount -t tracefs nodev $tracefs || die "cannot mount tracefs on $tracefs"
    echo 0 > $tracefs/tracing_on
    echo nop > $tracefs/current_tracer
    trace_buffer_kb=$(cat $tracefs/buffer_size_kb)
    echo 32768 > $tracefs/buffer_size_kb || die "cannot size the trace buffer"
    echo 'id == 1' > $tracefs/events/raw_syscalls/sys_enter/filter # write()
    echo 'id == 1' > $tracefs/events/raw_syscalls/sys_exit/filter
    local e
    for e in "${trace_events[@]}"; do
        echo 1 > "$tracefs/events/$e/enable" || die "no trace event $e in this kernel"
    done
}
trace_reset() {
    [ $trace = 1 ] && [ -w $tracefs/tracing_on ] || return 0
    echo 0 > $tracefs/tracing_on
    local e
    for e in "${trace_events[@]}"; do
        echo 0 > "$tracefs/events/$e/enable" 2> /dev/null
    done
    echo 0 > $tracefs/events/raw_syscalls/sys_enter/filter 2> /dev/null
    echo 0 > $tracefs/events/raw_syscalls/sys_exit/filter 2> /dev/null
    echo > $tracefs/trace
    [ -z "$trace_buffer_kb" ] || echo "${trace_buffer_kb%% *}" > $tracefs/buffer_size_kb
}
trace_start() {
    [ $trace = 1 ] || return 0
    echo > $tracefs/trace
    echo 1 > $tracefs/tracing_on
}
# trace_stop: tracing off, trace_split.py's line appended to the client's log
trace_stop() {
    [ $trace = 1 ] || return 0
    echo 0 > $tracefs/tracing_on
    cat $tracefs/trace > "$work/trace.txt"
    python3 "$here/trace_split.py" "$work/trace.txt" >> "$work/err" 2>&1
}
[ $trace = 0 ] || trace_setup

cat > "$work/run.toml" <<EOF
[[run]]
test = "verbs-lat"
op = "$op"
sizes = [$size]
iterations = $iters
bind_address = "$addr"
EOF

# split FILE: "in_post outside period", then with --switches the five
# switch counts and the three CPU times, with --trace trace_split.py's seven
# figures, from the lines of the client's log
split() {
    awk -v sw=$switches -v tr=$trace '/^post_split: pid/ && $5 >= 1000 {t = $7 " " $9 " " $11}
        /^post_split: switches/ {s = " " $4 " " $6 " " $8 " " $10 " " $12}
        /^post_split: cpu_us/ {c = " " $4 " " $6 " " $8}
        /^trace_split:/ {r = " " $5 " " $7 " " $9 " " $11 " " $13 " " $15 " " $17}
        END {if (t != "" && (!sw || s != "") && (!tr || r != "")) print t (sw ? s (c != "" ? c : " nan nan nan") : "") (tr ? r : "")}' "$1"
}

# preloaded COMMAND...: COMMAND with bench/post_split.c preloaded, as asked
preloaded() {
    POST_SPLIT_SWITCHES=$switches POST_SPLIT_SHIFT_PAGES=$shift LD_PRELOAD=$work/post_split.so "$@"
}
port=$((20000 + RANDOM % 20000)) # apart from an earlier run's ports, still in TIME_WAIT
# run_pair COMMAND...: COMMAND's server, then its client (with the probe)
# against it, as perftest runs: the client's log in $work/err.
run_pair() {
    port=$((port + 1))
    timeout 300 "$@" -R -F -n "$iters" -p $port > /dev/null 2>&1 &
    server=$!
    sleep 1 # perftest serves one client: no probe connection
    trace_start
    preloaded timeout 300 "$@" -R -F -n "$iters" -p $port "$addr" > /dev/null 2> "$work/err"
    trace_stop
    wait "$server" 2> /dev/null
    server=""
}
# port_counters: "device/port/name value" for every RDMA port counter
port_counters() {
    local f
    for f in /sys/class/infiniband/*/ports/*/counters/* /sys/class/infiniband/*/ports/*/hw_counters/*; do
        [ -f "$f" ] || continue
        printf '%s %s\n' "$(echo "$f" | awk -F/ '{print $5 "/" $7 "/" $NF}')" "$(cat "$f" 2> /dev/null)"
    done
}
: > "$work/rows"
tools=(perftest cmdbench)
[ $bare = 0 ] || tools+=(bare)
for ((rep = 1; rep <= reps; rep++)); do
    order=("${tools[@]}")
    # alternate which goes first
    [ $((rep % 2)) = 1 ] || order=($(printf '%s\n' "${tools[@]}" | tac))
    for who in "${order[@]}"; do
        [ $counters = 0 ] || port_counters > "$work/before"
        if [ $who = cmdbench ] && [ $spin = 1 ]; then
            bash -c 'while :; do :; done' &
            spinner=$!
        fi
        if [ $who = perftest ]; then
            run_pair "${tool[@]}"
        elif [ $who = bare ]; then
            run_pair "$work/one_sided_loop" --op $bare_op -s "$size"
        elif [ $front_end = 1 ]; then
            run_pair "$cmdbench" "${tool[@]}"
        else
            trace_start
            preloaded timeout 300 "$cmdbench" run "$work/run.toml" -q > /dev/null 2> "$work/err"
            trace_stop
        fi
        if [ -n "$spinner" ]; then
            kill "$spinner"
            wait "$spinner" 2> /dev/null
            spinner=""
        fi
        row=$(split "$work/err")
        if [ -z "$row" ]; then
            echo "rep $rep $who: no figures (the run failed?)" >&2
            continue
        fi
        set -- $row
        printf 'rep %d %-8s in_post %s us, outside %s us, period %s us' $rep $who $1 $2 $3
        shift 3
        if [ $switches = 1 ]; then
            printf '; switches per doorbell: in post %s vol %s invol, outside %s vol %s invol; migrated in post %s; per doorbell on a CPU %s us, preempted %s us, ksoftirqd %s us' \
                "${@:1:8}"
            shift 8
        fi
        [ $trace = 0 ] ||
            printf '; trace: post %s us (softirq %s, the rest %s), between posts %s us, other softirqs %s, IPIs %s per post, on its main CPU %s' \
                "${@:1:7}"
        echo
        if [ $counters = 1 ]; then
            port_counters > "$work/after"
            awk -v n="$iters" 'NR == FNR {b[$1] = $2; next}
                $2 ~ /^[0-9]+$/ && $2 != b[$1] {printf "    %s %.3f per round trip\n", $1, ($2 - b[$1]) / n}' \
                "$work/before" "$work/after"
        fi
        echo "$who $row" >> "$work/rows"
    done
done

names="in_post outside period"
[ $switches = 0 ] || names+=" in_vol in_invol out_vol out_invol migr_in on_cpu runq softirqd"
[ $trace = 0 ] || names+=" t_post t_sirq t_rest t_after t_othsirq t_ipis t_maincpu"
python3 - "$work/rows" $names <<'EOF'
import math, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    who, *vals = line.split()
    rows.setdefault(who, []).append([float(v) for v in vals])
names = sys.argv[2:]
if not rows:
    sys.exit("verbs-split.sh: no run gave figures")
width = max(len(v) for r in rows.values() for v in r)
print(f"{'median of runs':<10} " + " ".join(f"{n:>9}" for n in names[:width]))
med = {}
for who in ("perftest", "cmdbench", "bare"):
    if who not in rows:
        continue
    med[who] = [statistics.median([v for v in col if not math.isnan(v)] or [math.nan])
                 for col in zip(*rows[who])]
    print(f"{who:<10} " + " ".join(f"{v:9.2f}" for v in med[who]))
for who in ("cmdbench", "bare"):
    if who in med and "perftest" in med:
        label = "ratio" if who == "cmdbench" else "bare ratio"
        print(f"{label:<10} " + " ".join(f"{c / p:9.3f}" if p else f"{'-':>9}"
                                         for c, p in zip(med[who], med["perftest"])))
EOF
