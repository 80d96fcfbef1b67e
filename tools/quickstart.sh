#!/usr/bin/env bash
# From a fresh Debian 12 machine to a first result: installs the build
# dependencies, builds cmdbench, and runs the default scenario on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
exec build/bin/cmdbench run configs/tcp-loopback.toml "$@"
