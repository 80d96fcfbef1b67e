#!/bin/sh
# All-pairs matrices on this host under mpirun --oversubscribe, one line per
# rank count: what a cluster job's control plane and rank 0 cost as the
# ranks grow (docs/matrix.md, "Scale").
#
# Usage: bench/matrix.sh [--token] [BUILD_DIR] [RANKS ...]
#   default: build, ranks 16 32 64
#   --token  control plane only: each pair is one 1-byte round trip over
#            TCP (a token), so the figures are the coordination's, not the
#            data's; without it each pair is 20 blocking 64-byte round trips
#
# Per rank count: pairs and rounds; wire-up (mpirun's start to rank 0's
# first line: every rank up, its server started, the hellos exchanged); per
# round (the time after the wire-up, report included, over the number of
# rounds: a round of tiny pairs is almost all overhead); the whole job's
# wall time; rank 0's peak RSS (/usr/bin/time -v around rank 0 only); the
# JSON -o file's size, and per pair. Blocking sockets: with more ranks than CPUs, spin-polling makes every
# round trip wait for a time slice. Measure on a quiet machine.
set -eu
token=0
if [ "${1:-}" = --token ]; then
  token=1
  shift
fi
build=${1:-build}
[ $# -gt 0 ] && shift
ranks=${*:-16 32 64}
exe=$(cd "$build" && pwd)/bin/cmdbench
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ "$token" = 1 ]; then
  iterations=1 size=1
else
  iterations=20 size=64
fi
cat > "$dir/scale.toml" <<TOML
[matrix]
address = "127.0.0.1"

[[run]]
name = "latency"
test = "pingpong"
transport = "tcp"
sizes = [$size]
iterations = $iterations
transfer_count = 1
blocking = true
timeout = 120
TOML
cat > "$dir/rank.sh" <<SH
#!/bin/sh
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then
  exec /usr/bin/time -v -o "$dir/time0" "$exe" run "$dir/scale.toml" -o "$dir/out.json" --format json 2> "$dir/err0"
fi
exec "$exe" run "$dir/scale.toml" -q --format json
SH
chmod +x "$dir/rank.sh"
now() { date +%s.%N; }
mode=$([ "$token" = 1 ] && echo "token (1 B round trip)" || echo "20 x 64 B round trips")
echo "all-pairs over tcp, $mode per pair; $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%6s %7s %6s %9s %10s %8s %12s %11s %9s\n' ranks pairs rounds "wire-up s" "round ms" "wall s" "rank0 RSS MB" "file MB" "B/pair"
# Every pair leaves its connections in TIME_WAIT for a minute; on one host
# they share the loopback's ephemeral ports, and a large count right after
# another ran out of them ("Address already in use"): let them drain first.
drain_time_wait() {
  waited=0
  while [ "$(ss -Htan state time-wait | wc -l)" -gt 2000 ] && [ "$waited" -lt 90 ]; do
    sleep 1
    waited=$((waited + 1))
  done
  [ "$waited" = 0 ] || echo "(waited ${waited} s for the last count's TIME_WAIT connections)" >&2
}
for n in $ranks; do
  drain_time_wait
  rm -f "$dir/out.json" "$dir/err0"
  start=$(now)
  # Rank 0's first line ("matrix: all-pairs, N ranks ...") comes once the
  # hellos are in: the wire-up's end.
  ( while [ ! -s "$dir/err0" ] || ! grep -q "rounds per run" "$dir/err0"; do sleep 0.05; done; now > "$dir/wired" ) &
  watcher=$!
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpirun --oversubscribe -np "$n" "$dir/rank.sh" > /dev/null
  end=$(now)
  wait "$watcher" 2>/dev/null || true
  python3 - "$n" "$start" "$(cat "$dir/wired" 2>/dev/null || echo "$end")" "$end" \
    "$dir/out.json" "$dir/time0" <<'PY'
import json, os, re, sys
n, start, wired, end = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
doc = json.load(open(sys.argv[5]))
pairs = len(doc["runs"])
filled = sum(1 for r in doc["runs"] if r["status"] == "ok" and r["rows"])
rounds = doc["matrix"]["rounds"]
rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(sys.argv[6]).read()).group(1))
size = os.path.getsize(sys.argv[5])
note = "" if filled == pairs else f"  ({pairs - filled} pairs not filled)"
print(f"{n:6d} {pairs:7d} {rounds:6d} {wired - start:9.1f} {(end - wired) / rounds * 1000:10.0f} "
      f"{end - start:8.1f} {rss_kb / 1024:12.1f} {size / 1e6:11.2f} {size / pairs:9.0f}{note}")
PY
done
