#!/usr/bin/env bash
# Latency under load in the RDMA lab, repeated: the scenario of lab check
# 80 (verbs-lat SEND 64 B alone, then beside two verbs-bw WRITE flows), a
# line per repetition, to see how its figures spread (docs/loaded-latency.md).
set -uo pipefail

usage() {
    cat <<'EOF2'
Usage: tools/rdma-lab --timeout 1200 -- bench/loaded-lab.sh [--reps N]
           [--iterations N] [--build-dir DIR]

Inside the lab (Soft-RoCE rxe0), N times: `cmdbench run` of verbs-lat SEND at
64 B, alone and then beside 2 verbs-bw RDMA WRITE flows of 64 KiB
(run_infinitely, 0.3 s windows). A line per repetition: the round trip's
p50, p99 and mean in us, alone and under load; what the flows moved (Gb/s);
and the Soft-RoCE counters the loaded run changed that count retransmission
(completer_retry_err: the sender's retransmission timeouts;
duplicate_request: packets the receiver had already had). Then how many
repetitions had a higher p99, a higher mean, and a median under load more
than 10x the one alone.

Exit status 0 when every run ended ok (a measurement: no targets); 1 when a
run failed; 2 for a bad option or outside the lab.

Options:
  --reps N         repetitions, 1..99 (default 12)
  --iterations N   round trips per measured run, 100..100000 (default 1000,
                   as the lab check)
  --build-dir DIR  build tree with bin/cmdbench (default $CMDBENCH_BINARY_DIR,
                   else <repo>/build)
  -h, --help       this text
EOF2
}

die() { echo "bench/loaded-lab.sh: $*" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
reps=12 iterations=1000
build=${CMDBENCH_BINARY_DIR:-$root/build}
while [ $# -gt 0 ]; do
    case $1 in
        --reps) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]?$ ]] || die "--reps needs a number in [1, 99], got '${2:-}'"
                reps=$2; shift ;;
        --iterations) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]{2,5}$ ]] && [ "$2" -le 100000 ] ||
                          die "--iterations needs a number in [100, 100000], got '${2:-}'"
                      iterations=$2; shift ;;
        --build-dir) [ $# -ge 2 ] || die "--build-dir needs a directory"; build=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "bench/loaded-lab.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
addr=${CMDBENCH_RDMA_ADDR:-}
[ -n "$addr" ] || die "run me inside the lab: tools/rdma-lab --timeout 1200 -- $0"
cb=$(realpath -m "$build")/bin/cmdbench
[ -x "$cb" ] || die "no $cb (build first or pass --build-dir)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/load.toml" <<TOML
[defaults]
timeout = 120
bind_address = "$addr"

[[run]]
name = "lat"
test = "verbs-lat"
sizes = [64]
iterations = $iterations
background = { test = "verbs-bw", flows = 2, params = { op = "write", sizes = [65536], duration = 0.3, run_infinitely = true, bind_address = "$addr" } }
TOML

echo "verbs-lat SEND 64 B, $iterations round trips, alone and beside 2 verbs-bw WRITE 64 KiB flows; $reps repetitions"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
rc=0
for ((i = 1; i <= reps; i++)); do
    if ! "$cb" run "$work/load.toml" --format json -o /dev/null > "$work/$i.json" 2> "$work/$i.err"; then
        echo "repetition $i: cmdbench run failed: $(tail -n 1 "$work/$i.err")"
        rc=1
    fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$reps" "$work" <<'PY' || rc=1
import json, os, sys

reps, work = int(sys.argv[1]), sys.argv[2]
counted = ("completer_retry_err", "duplicate_request")

def rtt(run, key):
    return run["rows"][0]["histograms"]["rtt"][key] / 1e3

def counters(run):
    # Both sides share rxe0 here (same_machine): the client's figures are the port's.
    port = [v for k, v in run.get("counters", {}).get("client", {}).items()
            if k.startswith("rdma ") and v]
    return [port[0].get(name, 0) if port else None for name in counted]

print("%-4s %28s %28s %8s %s" % ("rep", "alone p50/p99/mean (us)", "loaded p50/p99/mean (us)",
                                 "flows", " ".join(counted)))
p99_up = mean_up = slow = done = 0
for i in range(1, reps + 1):
    path = os.path.join(work, "%d.json" % i)
    try:
        runs = {r["name"]: r for r in json.load(open(path))["runs"]}
        alone, loaded = runs["lat"], runs["lat under load"]
        figs = [[rtt(r, k) for k in ("p50", "p99", "mean")] for r in (alone, loaded)]
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        print("%-4d no figures" % i)
        continue
    done += 1
    p99_up += figs[1][1] > figs[0][1]
    mean_up += figs[1][2] > figs[0][2]
    slow += figs[1][0] > 10 * figs[0][0]
    gbps = loaded.get("background", {}).get("Gb/sec")
    print("%-4d %28s %28s %8s %s" % (i, "/".join("%.1f" % f for f in figs[0]),
                                     "/".join("%.1f" % f for f in figs[1]),
                                     "-" if gbps is None else "%.3f" % gbps,
                                     " ".join(str(c) for c in counters(loaded))))
print("of %d: p99 higher under load in %d, mean higher in %d, median under load > 10x alone in %d"
      % (done, p99_up, mean_up, slow))
PY
exit $rc
