#!/usr/bin/env bash
# From a fresh Debian 12 machine to RDMA against TCP from one command:
# installs the dependencies, builds cmdbench, and runs the default comparison
# configs/rdma-vs-tcp.toml, writing rdma-vs-tcp.html next to this repository's
# README. On a machine without an RDMA device the whole scenario runs inside
# the Soft-RoCE lab VM (tools/rdma-lab): both sides there, so RDMA and TCP
# are measured on the same emulated CPUs and the ratios mean something.
# Extra arguments go to `cmdbench run` (e.g. --set repeat=5).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"

run=(build/bin/cmdbench run configs/rdma-vs-tcp.toml --report rdma-vs-tcp.html "$@")
if compgen -G '/sys/class/infiniband/*' >/dev/null; then
    exec "${run[@]}"
fi
echo "quickstart: this machine has no RDMA device (/sys/class/infiniband is empty):" \
     "running the comparison inside the Soft-RoCE lab VM (tools/rdma-lab, docs/rdma-lab.md)." \
     "Both transports run in the emulated guest, so compare ratios, not absolute times." >&2
exec tools/rdma-lab --timeout 3600 -- "${run[@]}"
