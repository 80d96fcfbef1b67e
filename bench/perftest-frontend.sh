#!/usr/bin/env bash
# `cmdbench ib_*` (the perftest front ends) against perftest itself, in the
# RDMA lab: the same command line to both, alternating which goes first.
set -uo pipefail

usage() {
    cat <<'USAGE'
Usage: tools/rdma-lab --timeout 1800 -- bench/perftest-frontend.sh [--reps N]
           [--rdma-cm] [--build-dir DIR]

Inside the lab (Soft-RoCE rxe0, one guest, server and client side by side),
each case run by perftest and by `cmdbench TOOL` with the same options
(QPs connected over the TCP connection, each tool's default; --rdma-cm
adds -R to every case), N repetitions (default 5), the order of the two
tools swapped every repetition:

  ib_send_lat  -n 1000                 t_typical and t_avg (one way)
  ib_write_lat -n 1000                 t_typical and t_avg (one way)
  ib_read_lat  -n 1000                 t_typical and t_avg (whole READ)
  ib_write_bw  -n 2000 --report_gbits  BW average[Gb/sec]
  ib_send_bw   -n 2000 --report_gbits  BW average[Gb/sec]

Prints every repetition's figure as it ends, then per case the median of
each tool and the ratio cmdbench / perftest, with `uptime` before and after
(the lab's figures swing with the host's load: read the ratios).
USAGE
}

reps=5
cm=
build=${CMDBENCH_BINARY_DIR:-$PWD/build}
while [ $# -gt 0 ]; do
    case $1 in
    --reps) reps=$2; shift 2 ;;
    --rdma-cm) cm=" -R"; shift ;;
    --build-dir) build=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done
addr=${CMDBENCH_RDMA_ADDR:?run me inside the lab: tools/rdma-lab -- bench/perftest-frontend.sh}
cb=$build/bin/cmdbench
[ -x "$cb" ] || { echo "no $cb: build first (or --build-dir)" >&2; exit 2; }
port=19000
out=$(mktemp -d)

cases=("ib_send_lat$cm -n 1000" "ib_write_lat$cm -n 1000" "ib_read_lat$cm -n 1000"
       "ib_write_bw$cm -n 2000 --report_gbits" "ib_send_bw$cm -n 2000 --report_gbits")

# one WHO CASE: runs the case's server and client (WHO: perftest or
# cmdbench) and prints the client's result line's figures: "typical avg"
# for latency, "gbits" for bandwidth.
one() {
    local who=$1 case=$2 prefix=() line i
    [ "$who" = cmdbench ] && prefix=("$cb")
    port=$((port + 1))
    # A perftest pair that hangs (it has no timeout) costs one case, not the run.
    # shellcheck disable=SC2086
    timeout 120 "${prefix[@]}" $case -p "$port" > "$out/server" 2>&1 &
    local spid=$!
    for ((i = 0; i < 100; i++)); do
        ss -Hltn "sport = :$port" | grep -q . && break
        sleep 0.2
    done
    # shellcheck disable=SC2086
    timeout 100 "${prefix[@]}" $case -p "$port" "$addr" > "$out/client" 2>&1
    wait "$spid"
    line=$(grep -E '^ [0-9]+ ' "$out/client" | head -1)
    [ -n "$line" ] || { echo "$who $case: no result" >&2; cat "$out/client" >&2; echo "- -"; return; }
    case $case in
    *_lat*) awk '{print $5, $6}' <<<"$line" ;;
    *) awk '{print $4}' <<<"$line" ;;
    esac
}

echo "load before (the guest's): $(uptime)"
declare -A fig
for ((r = 1; r <= reps; r++)); do
    for c in "${cases[@]}"; do
        order=(perftest cmdbench)
        ((r % 2 == 0)) && order=(cmdbench perftest)
        for who in "${order[@]}"; do
            f=$(one "$who" "$c")
            fig["$c|$who"]+="$f;"
            printf 'rep %d  %-40s %-9s %s\n' "$r" "$c" "$who" "$f"
        done
    done
done
echo "load after (the guest's): $(uptime)"

echo
printf '%-40s %-22s %-22s %s\n' case perftest cmdbench "ratio cmdbench/perftest"
for c in "${cases[@]}"; do
    python3 - "$c" "${fig["$c|perftest"]}" "${fig["$c|cmdbench"]}" <<'PY'
import statistics, sys
case, a, b = sys.argv[1:4]
def cols(text):
    rows = [r.split() for r in text.split(";") if r.strip() and "-" not in r.split()]
    return [statistics.median(float(r[i]) for r in rows) for i in range(len(rows[0]))] if rows else []
p, c = cols(a), cols(b)
fmt = lambda v: " / ".join("%.2f" % x for x in v) if v else "-"
ratio = " / ".join("%.3f" % (y / x) for x, y in zip(p, c) if x) if p and c else "-"
unit = "t_typical / t_avg [usec]" if "_lat" in case else "Gb/sec"
print("%-40s %-22s %-22s %s  (%s)" % (case, fmt(p), fmt(c), ratio, unit))
PY
done
rm -rf "$out"
