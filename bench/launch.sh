#!/usr/bin/env bash
# Launch + wire-up of a 4-rank job: the wall time of
#   mpirun --oversubscribe -np 4 cmdbench job --format json
# and the in-process figures it prints (PMIx_Init and the allgather, max over
# ranks), repeated N times; prints the median and the max. Goal: < 1 s wall.
# Usage: bench/launch.sh [N=10] [CMDBENCH=build/bin/cmdbench] [RANKS=4]
set -euo pipefail
n=${1:-10}
cmdbench=${2:-build/bin/cmdbench}
ranks=${3:-4}
[ -x "$cmdbench" ] || { echo "launch.sh: $cmdbench not found (build first)" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "launch.sh: mpirun not found: install openmpi-bin" >&2; exit 2; }
[ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
walls=() inits=() gathers=()
for ((i = 0; i < n; i++)); do
  start=$(date +%s%N)
  timeout 60 mpirun --oversubscribe -np "$ranks" "$cmdbench" job --format json >"$out"
  end=$(date +%s%N)
  walls+=("$(((end - start) / 1000))e-3") # µs, printed in ms
  read -r init gather < <(python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["wireup_ms"]; print(w["init_max"], w["allgather_max"])' "$out")
  inits+=("$init") gathers+=("$gather")
done
stats() { # median and max of the arguments
  printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "median %8.1f ms   max %8.1f ms", m, v[NR]}'
}
echo "mpirun -np $ranks cmdbench job, $n runs:"
echo "  wall (launch + wire-up + exit): $(stats "${walls[@]}")"
echo "  PMIx_Init (max over ranks):     $(stats "${inits[@]}")"
echo "  allgather (max over ranks):     $(stats "${gathers[@]}")"
