#!/usr/bin/env bash
# Installs the Debian 12 packages that cmdbench's build, tests, lab and
# benchmarks need. Safe to run again.
set -euo pipefail
build_pkgs=(
  build-essential cmake pkg-config
  librdmacm-dev libibverbs-dev
  libboost-dev libboost-program-options-dev
  libtomlplusplus-dev catch2 nlohmann-json3-dev zlib1g-dev
  clang # tools/fuzz.sh: libFuzzer (libclang_rt.fuzzer comes with it)
  lld   # the linker the build prefers (CMDBENCH_USE_LLD): five times faster
)
# Reference peers for tests and bench/: Debian's rstream/cmtime, sockperf, iperf3.
peer_pkgs=(rdmacm-utils ibverbs-utils ibverbs-providers sockperf iperf3 python3 libbenchmark-dev)
# nft: the counters' e2e test drops packets in a network namespace of its own.
peer_pkgs+=(nftables)
# The HTML report's tests: xmllint (well-formed markup) and headless Chromium
# (label `html`; its dependencies bring a font through fontconfig).
html_test_pkgs=(libxml2-utils chromium)
# Cluster launchers (docs/cluster.md, tests/cluster/): PMIx for the build,
# mpirun, single-node Slurm. libpmix-dev also for Slurm's pmix plugin, which
# dlopens the unversioned libpmix.so only that package ships.
cluster_pkgs=(libpmix-dev libpmix-bin openmpi-bin slurmctld slurmd slurm-client munge)
# The Soft-RoCE lab (tools/rdma-lab); perftest (ib_send_lat, ib_write_bw, ...)
# is the reference of bench/verbs-lab.sh; with strace the lab check
# 61-bidir-wakeups counts a run's timed sleeps.
lab_pkgs=(qemu-system-x86 linux-image-amd64 busybox-static kmod iproute2 xz-utils util-linux rdma-core ibverbs-providers ibverbs-utils rdmacm-utils perftest strace)

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${build_pkgs[@]}" "${peer_pkgs[@]}" "${html_test_pkgs[@]}" "${lab_pkgs[@]}" "${cluster_pkgs[@]}"
