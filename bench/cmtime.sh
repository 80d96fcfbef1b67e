#!/usr/bin/env bash
# Speed and scale of cmtime's steps in cmdbench (issue 5).
#   bench/cmtime.sh host     sock-steps vs a plain C connect/accept/close loop (loopback)
#   bench/cmtime.sh lab      in the RDMA lab (boots it): cm-steps vs Debian's cmtime
#                            (rdma-core 44, legacy) for 100 and 1,000 connections, and
#                            mimic mode at CMTIME_SCALE connections (wall time, peak RSS)
# Environment: CMDBENCH_BINARY_DIR (default build), REPEAT (default 5),
# CMTIME_SCALE (default "10000 50000 100000"), SOCK_COUNTS (default "1000 3000").
# Prints one line per figure.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
bindir=${CMDBENCH_BINARY_DIR:-$src/build}
bin=$bindir/bin/cmdbench
repeat=${REPEAT:-5}

median() { sort -n | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# The plain C baseline, cmtime -S's shape: N sockets, N blocking connects,
# N closes; a forked child accepts and closes. Prints connections/s of the
# connect phase.
build_c_loop() {
  local dir=$1
  cat > "$dir/loop.c" <<'C'
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
    int n = atoi(argv[1]), one = 1, i;
    struct rlimit lim; getrlimit(RLIMIT_NOFILE, &lim); lim.rlim_cur = lim.rlim_max; setrlimit(RLIMIT_NOFILE, &lim);
    struct sockaddr_in a = {0}; socklen_t len = sizeof a;
    a.sin_family = AF_INET; a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int l = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, n) || getsockname(l, (struct sockaddr *)&a, &len)) return 1;
    if (fork() == 0) {
        int *fds = malloc(sizeof(int) * n);
        for (i = 0; i < n; i++) fds[i] = accept(l, 0, 0);
        for (i = 0; i < n; i++) close(fds[i]);
        _exit(0);
    }
    close(l);
    int *fds = malloc(sizeof(int) * n);
    double t0 = now();
    for (i = 0; i < n; i++) fds[i] = socket(AF_INET, SOCK_STREAM, 0);
    for (i = 0; i < n; i++) if (connect(fds[i], (struct sockaddr *)&a, sizeof a)) { perror("connect"); return 1; }
    double t1 = now();
    for (i = 0; i < n; i++) close(fds[i]);
    wait(0);
    printf("%.0f\n", n / (t1 - t0));
    return 0;
}
C
  cc -O2 -o "$dir/loop" "$dir/loop.c"
}

# sock-steps' connections/s: count / full connect total.
sock_steps_rate() {
  local n=$1 dir=$2
  printf '[[run]]\ntest = "sock-steps"\ncount = %d\n' "$n" > "$dir/s.toml"
  "$bin" run "$dir/s.toml" --format json --quiet 2> "$dir/err" | python3 -c '
import json, sys
rows = {r["name"]: r for r in json.load(sys.stdin)["runs"][0]["rows"]}
us = rows["full connect"]["metrics"]["total(us)"]["value"]
print(round(int(sys.argv[1]) / (us / 1e6)))' "$n" || { cat "$dir/err" >&2; echo 0; }
}

bench_host() {
  local dir n c s
  dir=$(mktemp -d)
  build_c_loop "$dir" || { echo "cannot build the C loop"; return 1; }
  # Every connection leaves a TIME_WAIT port behind for 60 s: keep the total
  # well below the ephemeral range (sysctl net.ipv4.ip_local_port_range).
  for n in ${SOCK_COUNTS:-1000 3000}; do
    c=$(for ((i = 0; i < repeat; i++)); do "$dir/loop" "$n"; done | median)
    s=$(for ((i = 0; i < repeat; i++)); do sock_steps_rate "$n" "$dir"; done | median)
    awk -v n="$n" -v c="$c" -v s="$s" 'BEGIN{printf "host tcp %6d conns: C loop %8.0f conn/s  sock-steps %8.0f conn/s  ratio %.2f (target >= 0.95)\n", n, c, s, s / c}'
  done
  rm -rf "$dir"
}

# --- inside the lab -------------------------------------------------------

# Debian's cmtime (legacy, §20): connections/s over create id .. connect.
legacy_rate() {
  local n=$1 port=$2 out
  cmtime -b "$CMDBENCH_RDMA_ADDR" -p "$port" > /dev/null 2>&1 & local srv=$!
  sleep 1
  out=$(timeout 300 cmtime -s "$CMDBENCH_RDMA_ADDR" -b "$CMDBENCH_RDMA_ADDR" -p "$port" -c "$n")
  kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
  echo "$out" >&2
  echo "$out" | awk -v n="$n" '
    /^(create id|bind addr|resolve addr|resolve route|create qp|connect) *:/ {
      split($0, f, ":"); split(f[2], v, " "); ms += v[1] }
    END { if (ms > 0) printf "%.0f\n", n / (ms / 1000) }'
}

# cmdbench cmtime's connections/s: N / full connect total of the main test.
cmdbench_rate() {
  local n=$1 port=$2 out
  "$bin" cmtime -L -C "$CMDBENCH_RDMA_ADDR" -b "$CMDBENCH_RDMA_ADDR" -p "$port" -c "$n" \
    --timeout 600 > /dev/null 2>&1 & local srv=$!
  sleep 1
  out=$("$bin" cmtime -C "$CMDBENCH_RDMA_ADDR" -b "$CMDBENCH_RDMA_ADDR" -p "$port" -c "$n" --timeout 600)
  wait "$srv"
  echo "$out" >&2
  echo "$out" | awk -v n="$n" '/QPs test$/{m=1} m && /^full connect /{printf "%.0f\n", n / ($4 / 1e6); exit}'
}

bench_lab_inner() {
  local n port=7600 legacy ours
  for n in 100 1000; do
    legacy=$(legacy_rate "$n" $((port++)))
    ours=$(cmdbench_rate "$n" $((port++)))
    awk -v n="$n" -v l="$legacy" -v o="$ours" 'BEGIN{printf "lab rdma %6d conns: cmtime(44) %6.0f conn/s  cmdbench %6.0f conn/s  ratio %.2f (target >= 0.95)\n", n, l, o, o / l}'
  done
  for n in ${CMTIME_SCALE:-10000 50000 100000}; do
    "$bin" cmtime -L -C "$CMDBENCH_RDMA_ADDR" -b "$CMDBENCH_RDMA_ADDR" -p $((port)) -c "$n" -n 4 -m 0 \
      --timeout 3000 > /dev/null 2>&1 & local srv=$!
    sleep 1
    local t0=$EPOCHREALTIME
    /usr/bin/time -f "%M" -o rss.txt "$bin" cmtime -C "$CMDBENCH_RDMA_ADDR" -b "$CMDBENCH_RDMA_ADDR" \
      -p $((port++)) -c "$n" -n 4 -m 0 --timeout 3000 > mimic.log 2>&1
    local rc=$?
    wait "$srv"
    awk -v n="$n" -v a="$t0" -v b="$EPOCHREALTIME" -v kb="$(cat rss.txt)" -v rc="$rc" \
      'BEGIN{printf "lab mimic %6d conns: exit %d, wall %.1f s (%.1f us/conn), peak RSS %d KiB (%.2f KiB/conn)\n", n, rc, b - a, (b - a) * 1e6 / n, kb, kb / n}'
  done
}

case ${1:-host} in
  host) bench_host ;;
  lab) exec "$src/tools/rdma-lab" --timeout 3600 -- env CMDBENCH_BINARY_DIR="$bindir" \
         REPEAT="$repeat" CMTIME_SCALE="${CMTIME_SCALE:-10000 50000 100000}" "$0" lab-inner ;;
  lab-inner) bench_lab_inner ;;
  *) echo "usage: $0 host|lab" >&2; exit 2 ;;
esac
