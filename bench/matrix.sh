#!/bin/sh
# A 64-rank all-pairs matrix on this host (mpirun --oversubscribe, tcp, tiny
# counts): wall time of the whole job and peak RSS of rank 0 (/usr/bin/time -v
# around rank 0 only). Usage: bench/matrix.sh [BUILD_DIR] [RANKS]
# Blocking sockets: with more ranks than CPUs, rstream's default spin-polling
# makes every round trip wait for a time slice (docs/matrix.md, Scale).
set -eu
build=${1:-build}
n=${2:-64}
exe=$(cd "$build" && pwd)/bin/cmdbench
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/scale.toml" <<'TOML'
[matrix]
address = "127.0.0.1"

[[run]]
name = "latency"
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 20
transfer_count = 1
blocking = true
timeout = 120
TOML
cat > "$dir/rank.sh" <<SH
#!/bin/sh
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then
  exec /usr/bin/time -v -o "$dir/time0" "$exe" run "$dir/scale.toml" -q -o "$dir/out.json" --format json
fi
exec "$exe" run "$dir/scale.toml" -q --format json
SH
chmod +x "$dir/rank.sh"
start=$(date +%s.%N)
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  mpirun --oversubscribe -np "$n" "$dir/rank.sh" > /dev/null
end=$(date +%s.%N)
pairs=$(python3 -c "import json,sys; d=json.load(open('$dir/out.json')); r=d['runs']; print(len(r), sum(1 for x in r if x['status']=='ok' and x['rows']))")
echo "ranks $n: wall $(echo "$end - $start" | bc) s; pairs, filled: $pairs"
grep -E "Maximum resident|Elapsed" "$dir/time0" | sed 's/^\s*/rank 0: /'
