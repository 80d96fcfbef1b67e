#!/usr/bin/env bash
# The whole test suite: builds cmdbench twice -- as shipped, and with
# AddressSanitizer + UndefinedBehaviorSanitizer -- and runs ctest in each.
# The RDMA lab tests (label `rdma`, run inside a QEMU guest) run once, in the
# plain build: they exercise the kernel's and rdma-core's code, not ours.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$jobs"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMDBENCH_SANITIZE=ON
cmake --build build-asan -j"$jobs"

status=0
(cd build && ctest --output-on-failure --timeout 1200) || status=1
(cd build-asan && ctest --output-on-failure --timeout 1200 -LE rdma) || status=1
exit $status
