#!/usr/bin/env bash
# Speed and scale of cmtime's steps in cmdbench. See bench/README.md.
#   bench/cmtime.sh host        sock-steps vs a plain C connect/accept/close loop
#                               (TCP loopback, no lab)
#   bench/cmtime.sh lab         boots the RDMA lab once: cm-steps vs Debian's cmtime
#                               (rdma-core 44, legacy) at LAB_COUNTS connections,
#                               step by step and overall
#   bench/cmtime.sh lab-scale   boots the lab once per count in CMTIME_SCALE: mimic
#                               mode, wall time and peak RSS per connection (one
#                               client: cm-steps; several: a cmdbench cmtime mesh)
#   bench/cmtime.sh peer [--reps N] [--conns "N ..."] [--peer PATH] [--variant OPTS]...
#                               boots the lab once: cmdbench cmtime vs rdma-core's
#                               current cmtime (CMTIME_PEER: its source directory
#                               with build.sh, or a built binary), same options,
#                               alternating; full connect us/conn and the ratio;
#                               each --variant (e.g. --max-pending=0) adds a
#                               cmdbench run with those options to every round
# Environment: CMDBENCH_BINARY_DIR (default build), REPEAT (default 5),
# SOCK_COUNTS (default "1000 3000"), LAB_COUNTS (default "100 1000"),
# CMTIME_SCALE (default "10000 25000 50000 100000"), CMTIME_CLIENTS (default:
# one client per 50,000 connections; one client address reaches at most
# 64,511), MAX_PENDING (default 1000: the mimic runs' max_pending, split
# evenly over the clients, so the server has as many outstanding in all),
# LAB_TIMEOUT (default 600: seconds per lab-scale boot),
# CMTIME_RT=1 (host: run both sides under
# SCHED_FIFO, needs root or CAP_SYS_NICE: takes the machine's other load out
# of the comparison), CMDBENCH_LAB_LOCK (a lock file: every lab boot is run
# under `flock` on it, so boots from several users queue up).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
bindir=${CMDBENCH_BINARY_DIR:-$src/build}
bindir=$(cd "$bindir" 2>/dev/null && pwd || echo "$bindir")
bin=$bindir/bin/cmdbench
repeat=${REPEAT:-5}

[ -x "$bin" ] || { echo "no cmdbench at $bin (build it, or set CMDBENCH_BINARY_DIR)" >&2; exit 2; }
command -v python3 > /dev/null || { echo "python3 is needed" >&2; exit 2; }

# "median (min-max)" of the numbers on stdin, one per line.
spread() {
  python3 -c '
import statistics, sys
v = [float(x) for x in sys.stdin.read().split()]
print(f"{statistics.median(v):.0f} ({min(v):.0f}-{max(v):.0f})" if v else "-")'
}

# --- host: sock-steps vs a plain C loop --------------------------------------

# The plain C baseline, cmtime -S's shape: N sockets, N blocking connects,
# N closes; a forked child accepts and closes. Prints connections/s of the
# socket + connect phase (what sock-steps reports as "full connect").
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

# sock-steps' connections/s: count / full connect total. The JSON goes to a
# file and is read afterwards: a reader started in a pipe (python3, through
# a pyenv shim a shell script) would run during the measurement and take a
# core from it (the C loop has no such neighbour).
sock_steps_rate() {
  local n=$1 dir=$2
  printf '[[run]]\ntest = "sock-steps"\ncount = %d\n' "$n" > "$dir/s.toml"
  $rt "$bin" run "$dir/s.toml" --format json --quiet > "$dir/s.json" 2> "$dir/err" || {
    cat "$dir/err" >&2
    echo 0
    return
  }
  python3 -c '
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[2]))["runs"][0]["rows"]}
us = rows["full connect"]["metrics"]["total(us)"]["value"]
print(round(int(sys.argv[1]) / (us / 1e6)))' "$n" "$dir/s.json"
}

bench_host() {
  local dir n i c s t0
  dir=$(mktemp -d)
  build_c_loop "$dir" || { echo "cannot build the C loop"; rm -rf "$dir"; return 1; }
  rt=
  if [ "${CMTIME_RT:-0}" = 1 ]; then
    if chrt -f 10 true 2> /dev/null; then rt="chrt -f 10"; else echo "CMTIME_RT=1: chrt -f not permitted, running normally"; fi
  fi
  echo "host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), ${rt:-normal scheduling}, $repeat repetitions"
  # Every connection leaves a TIME_WAIT entry behind for 60 s: keep the total
  # well below the ephemeral range (sysctl net.ipv4.ip_local_port_range).
  for n in ${SOCK_COUNTS:-1000 3000}; do
    t0=$EPOCHREALTIME
    : > "$dir/pairs"
    # Alternate the two, so slow changes in the machine's load hit both alike.
    for ((i = 0; i < repeat; i++)); do
      c=$($rt "$dir/loop" "$n")
      s=$(sock_steps_rate "$n" "$dir")
      echo "$c $s" >> "$dir/pairs"
    done
    python3 - "$n" "$dir/pairs" "$t0" "$EPOCHREALTIME" <<'PY'
import statistics, sys
n, path, t0, t1 = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
pairs = [tuple(map(float, l.split())) for l in open(path) if l.strip()]
c = [p[0] for p in pairs]; s = [p[1] for p in pairs]
r = [b / a for a, b in pairs if a > 0]
m = lambda v: f"{statistics.median(v):8.0f} ({min(v):.0f}-{max(v):.0f})"
print(f"host tcp {n:6d} conns: C loop {m(c)} conn/s  sock-steps {m(s)} conn/s  "
      f"ratio of medians {statistics.median(s) / statistics.median(c):.2f}, per round "
      f"{statistics.median(r):.2f} ({min(r):.2f}-{max(r):.2f}) (target >= 0.95)  [{t1 - t0:.0f} s]")
PY
  done
  rm -rf "$dir"
}

# --- lab: boots ----------------------------------------------------------------

lab() { # lab TIMEOUT CMD...: one lab boot, under flock when CMDBENCH_LAB_LOCK is set
  local timeout=$1; shift
  if [ -n "${CMDBENCH_LAB_LOCK:-}" ]; then
    flock "$CMDBENCH_LAB_LOCK" "$src/tools/rdma-lab" --timeout "$timeout" -- "$@"
  else
    "$src/tools/rdma-lab" --timeout "$timeout" -- "$@"
  fi
}

# --- inside the lab: cm-steps vs Debian's cmtime -------------------------------

# Debian's cmtime (the legacy generation), one client run against a fresh server:
# appends "legacy REP N STEP TOTAL_US" lines.
legacy_run() {
  local n=$1 rep=$2 port=$3 out srv
  cmtime -b "$CMDBENCH_RDMA_ADDR" -p "$port" > /dev/null 2>&1 &
  srv=$!
  sleep 1
  out=$(timeout 600 cmtime -s "$CMDBENCH_RDMA_ADDR" -b "$CMDBENCH_RDMA_ADDR" -p "$port" -c "$n" 2>&1)
  kill "$srv" 2> /dev/null; wait "$srv" 2> /dev/null
  if grep -q "event: " <<< "$out"; then
    echo "legacy n=$n rep $rep: $(grep -c 'event: ' <<< "$out") connections failed" >&2
    return
  fi
  awk -v n="$n" -v rep="$rep" -F: '
    /^[a-z ]+:  *[0-9.]+/ { name = $1; sub(/ +$/, "", name); split($2, v, " ");
                           printf "legacy %d %d %s\t%.0f\n", rep, n, name, v[1] * 1000 }' <<< "$out"
}

# cm-steps, one client and one server (as the lab check 50-cm-steps): appends
# "cmdbench REP N STEP TOTAL_US" lines, client steps of the main test.
cmdbench_run() {
  local n=$1 rep=$2 dir=$3
  printf '[[run]]\ntest = "cm-steps"\nbind_address = "%s"\ncount = %d\ntimeout = 600\n' \
    "$CMDBENCH_RDMA_ADDR" "$n" > "$dir/cm.toml"
  "$bin" run "$dir/cm.toml" --format json --quiet 2> "$dir/err" > "$dir/cm.json" ||
    { echo "cm-steps n=$n rep $rep failed: $(tail -n 3 "$dir/err")" >&2; return; }
  python3 - "$dir/cm.json" "$n" "$rep" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
for r in run["rows"]:
    if not r["name"].startswith("server "):
        print(f"cmdbench {sys.argv[3]} {sys.argv[2]} {r['name']}\t{r['metrics']['total(us)']['value']:.0f}")
PY
}

bench_lab_inner() {
  local dir n rep port=7600 t0
  dir=$(mktemp -d)
  echo "lab: $(nproc) CPUs, rdma-core $(dpkg-query -W -f '${Version}' rdmacm-utils 2> /dev/null), $repeat repetitions"
  for n in ${LAB_COUNTS:-100 1000}; do
    t0=$EPOCHREALTIME
    # Alternate which tool goes first, and let the kernel settle in between:
    # a run's CM ids and QPs are still being torn down (timewait) when the
    # next run starts, which would always slow the same tool down.
    for ((rep = 1; rep <= repeat; rep++)); do
      if ((rep % 2)); then
        legacy_run "$n" "$rep" $((port++)) >> "$dir/steps"; sleep 2
        cmdbench_run "$n" "$rep" "$dir" >> "$dir/steps"; sleep 2
      else
        cmdbench_run "$n" "$rep" "$dir" >> "$dir/steps"; sleep 2
        legacy_run "$n" "$rep" $((port++)) >> "$dir/steps"; sleep 2
      fi
    done
    echo "$n connections: $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.0f", b - a}') s for $repeat x 2 runs"
  done
  python3 - "$dir/steps" "$here" <<'PY'
import collections, statistics, sys
sys.path.insert(0, sys.argv[2])
import report  # bench/report.py: the bootstrap interval and verdict
# (tool, n) -> step -> [total_us per repetition]
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    head, total = line.rstrip("\n").split("\t")
    tool, rep, n, step = head.split(" ", 3)
    d[(tool, int(n))][step].append(float(total))
# Debian's 8 legacy steps against ours. Legacy "create qp" is rdma_create_qp
# (create + INIT), ours create qp + init qp; legacy "connect" ends at
# ESTABLISHED with librdmacm's RTR/RTS/RTU inside, ours "cm connect" at the
# end of our RTR/RTS/establish. Legacy "disconnect" waits for the server's
# reply, ours does not: no ratio.
PAIRS = [("create id", ["create id"]), ("bind addr", ["bind addr"]),
         ("resolve addr", ["resolve addr"]), ("resolve route", ["resolve route"]),
         ("create qp", ["create qp", "init qp"]), ("connect", ["cm connect"]),
         ("disconnect", None), ("destroy", ["destroy id"])]
LEGACY_CONNECT = ["create id", "bind addr", "resolve addr", "resolve route", "create qp", "connect"]
OURS_CONNECT = ["create id", "bind addr", "resolve addr", "resolve route", "create qp", "init qp",
                "cm connect"]

def per_rep(steps, rows):
    k = min((len(rows.get(s, [])) for s in steps), default=0)
    return [sum(rows[s][i] for s in steps) for i in range(k)]

def fmt(v):
    if not v:
        return "-"
    return f"{statistics.median(v) / 1000:9.2f} ({min(v) / 1000:.2f}-{max(v) / 1000:.2f})"

def overall(n, label, lv, cv, what):
    if not lv or not cv:
        return
    ml, mc = statistics.median(lv), statistics.median(cv)
    print(f"{label:14s} {fmt(lv):>28s} {fmt(cv):>28s}  {ml / mc:.2f}"
          f"   = {n / (mc / 1e6):.0f} vs {n / (ml / 1e6):.0f} conn/s  ({what})")
    # How sure the ratio is: a run's total varies by up to 2x between
    # identical runs under emulation, so the median alone can land on either
    # side of a target. The same bootstrap interval and verdict as run.sh's
    # table (bench/report.py), and the runs of one round paired (they ran
    # back to back; only when no run of either failed).
    iv = report.ratio_interval(lv, cv)
    paired = [a / b for a, b in zip(lv, cv)] if len(lv) == len(cv) else [ml / mc]
    verdict = {"PASS": "met", "NOISE": "not met, within the noise"}.get(
        report.verdict(ml / mc, iv, 0.95, False), "MISSED")
    print(f"{'':14s} ratio of medians {ml / mc:.2f}, 90% bootstrap interval "
          f"{report.interval_text(iv)}; "
          f"per round {statistics.median(paired):.2f} ({min(paired):.2f}-{max(paired):.2f}), "
          f"cmdbench faster in {sum(r > 1 for r in paired)} of {len(paired)}: "
          f"target >= 0.95 {verdict}")

for n in sorted({n for _, n in d}):
    L, C = d[("legacy", n)], d[("cmdbench", n)]
    print(f"\n{n} connections, total ms per step: median (min-max) over "
          f"{len(L.get('connect', []))} Debian and {len(C.get('cm connect', []))} cmdbench runs")
    print(f"{'step':14s} {'Debian cmtime':>28s} {'cmdbench cm-steps':>28s}  ratio (rate, >= 0.95)")
    for legacy, ours in PAIRS:
        lv = L.get(legacy, [])
        cv = per_rep(ours, C) if ours else C.get("disconnect", [])
        ratio = "-"
        if ours and lv and cv:
            ratio = f"{statistics.median(lv) / statistics.median(cv):.2f}"
        print(f"{legacy:14s} {fmt(lv):>28s} {fmt(cv):>28s}  {ratio}")
    # Overall, twice. Like for like: the sum of the same step totals on both
    # sides. Then cmdbench's own full connect, which also holds what lies
    # between its steps (barrier 7, each wait's wake-up); Debian prints no
    # such figure, its steps' sum is all there is of it.
    overall(n, "overall", per_rep(LEGACY_CONNECT, L), per_rep(OURS_CONNECT, C),
            "sum of create id..connect, both")
    overall(n, "overall, full", per_rep(LEGACY_CONNECT, L), C.get("full connect", []),
            "Debian: sum of create id..connect; cmdbench: full connect")
PY
  rm -rf "$dir"
}

# --- inside the lab: mimic mode at scale --------------------------------------

# Every client CM id is bound to the client's bind address with a port of its
# own (as cmtime's -b does): one client address serves at most 64,511
# connections, the widest ephemeral range. Larger counts are split over
# several clients, each bound to an address of its own (the RDMA CM reuses
# a port for another source address); 50,000 each leaves room to spare.
per_client_max=50000

# scale_clients N: how many clients N connections are split over.
scale_clients() {
  if [ -n "${CMTIME_CLIENTS:-}" ]; then
    echo "$CMTIME_CLIENTS"
  else
    echo $((($1 + per_client_max - 1) / per_client_max))
  fi
}

# widen_ports CONNS: one client needs a port per connection; the default
# range has 28,232. The lab guest is ours to change: widen it to its maximum.
widen_ports() {
  local range
  range=$(sysctl -n net.ipv4.ip_local_port_range | awk '{print $2 - $1 + 1}')
  if [ "$1" -gt "$range" ] && [ "${CMDBENCH_LAB:-}" = 1 ]; then
    sysctl -qw net.ipv4.ip_local_port_range="1024 65535"
    echo "(ephemeral ports: $range, widened to $(sysctl -n net.ipv4.ip_local_port_range | awk '{print $2 - $1 + 1}'))"
  fi
}

# add_client_addrs K: K more IPv4 addresses (the last byte counted up) on
# the netdev that carries $CMDBENCH_RDMA_ADDR, into client_addrs. rxe adds a
# GID for each; wait for it: rdma_bind_addr finds the device by its GIDs.
client_addrs=()
add_client_addrs() {
  local k=$1 dev prefix a b c d e i t addr gid idx
  read -r dev prefix < <(ip -o -4 addr show | awk -v a="$CMDBENCH_RDMA_ADDR" \
    '{split($4, p, "/"); if (p[1] == a) {print $2, p[2]; exit}}')
  [ -n "${dev:-}" ] || { echo "no netdev carries $CMDBENCH_RDMA_ADDR" >&2; return 1; }
  [ "${CMDBENCH_LAB:-}" = 1 ] || { echo "adds addresses to $dev: only inside the lab" >&2; return 1; }
  IFS=. read -r a b c d <<< "$CMDBENCH_RDMA_ADDR"
  for ((i = 1; i <= k; i++)); do
    e=$(((d + i - 1) % 254 + 1))
    addr=$a.$b.$c.$e
    ip addr add "$addr/$prefix" dev "$dev" || return 1
    gid=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$e")
    idx=
    for ((t = 0; t < 100; t++)); do
      idx=$(grep -lx "$gid" /sys/class/infiniband/"$CMDBENCH_RDMA_DEV"/ports/1/gids/* 2> /dev/null |
        sed 's,.*/,,' | tr '\n' ' ')
      [ -n "$idx" ] && break
      sleep 0.1
    done
    [ -n "$idx" ] || { echo "$CMDBENCH_RDMA_DEV has no GID for $addr" >&2; return 1; }
    echo "(client address $addr/$prefix on $dev: $CMDBENCH_RDMA_DEV GID index ${idx% })"
    client_addrs+=("$addr")
  done
}

# wait_listening PORT: until something listens on 127.0.0.1:PORT (the
# controller; a client started before it would become the controller).
wait_listening() {
  local hex i
  hex=$(printf '0100007F:%04X' "$1")
  for ((i = 0; i < 300; i++)); do
    awk -v h="$hex" '$2 == h && $4 == "0A" {f = 1} END {exit !f}' /proc/net/tcp && return 0
    sleep 0.1
  done
  return 1
}

# One count, one client: a `cmdbench serve` and a `cmdbench run` of cm-steps
# in mimic mode (-m 0 -n 4, no-QP test off), each under /usr/bin/time for its
# peak RSS. The server is our own, on loopback: --no-limits lets it take
# counts over serve's default limit of 10,000 connections per run.
scale_one() {
  local n=$1 dir=$2 port=7700 t0 rc src i
  printf '[[run]]\ntest = "cm-steps"\nbind_address = "%s"\ncount = %d\nthreads = 4\nmimic_delay_us = 0\nmax_pending = %d\ntimeout = 3000\n' \
    "$CMDBENCH_RDMA_ADDR" "$n" "${MAX_PENDING:-1000}" > "$dir/m.toml"
  /usr/bin/time -f "%M %e" -o "$dir/srv.time" "$bin" serve --once --quiet --no-limits --bind 127.0.0.1 \
    --port $port > "$dir/srv.log" 2>&1 &
  src=$!
  sleep 1
  t0=$EPOCHREALTIME
  /usr/bin/time -f "%M %e" -o "$dir/cli.time" "$bin" run "$dir/m.toml" --server 127.0.0.1:$port \
    --format json --quiet > "$dir/m.json" 2> "$dir/cli.err"
  rc=$?
  # The server ends after its one client; not later than a minute after it.
  for ((i = 0; i < 600; i++)); do kill -0 "$src" 2> /dev/null || break; sleep 0.1; done
  kill "$src" 2> /dev/null
  wait "$src"
  python3 - "$n" "$rc" "$t0" "$EPOCHREALTIME" "$dir" "${MAX_PENDING:-1000}" <<'PY'
import json, sys
n, rc, t0, t1, d, window = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
cli = open(f"{d}/cli.time").read().split()
srv = open(f"{d}/srv.time").read().split()
line = (f"lab mimic {n:6d} conns (-m 0 -n 4, max_pending {window}): exit {rc}, "
        f"wall {t1 - t0:.1f} s ({(t1 - t0) * 1e6 / n:.0f} us/conn); peak RSS client "
        f"{int(cli[-2])} KiB ({int(cli[-2]) / n:.2f} KiB/conn), server {int(srv[-2])} KiB "
        f"({int(srv[-2]) / n:.2f} KiB/conn)")
try:
    rows = {r["name"]: r["metrics"]["total(us)"]["value"] / 1e6
            for r in json.load(open(f"{d}/m.json"))["runs"][0]["rows"]}
    line += f"; full connect {rows['full connect']:.1f} s"
    steps = ["create id", "bind addr", "resolve addr", "resolve route", "create qp", "init qp",
             "cm connect", "disconnect", "destroy qp", "destroy id"]
    line += "\n    client step totals (s): " + ", ".join(f"{s} {rows[s]:.2f}" for s in steps)
    line += "\n    server step totals (s): " + ", ".join(
        f"{s} {rows['server ' + s]:.2f}" for s in ["cm connect", "disconnect", "destroy qp", "destroy id"])
except Exception:
    pass
print(line)
PY
  [ "$rc" = 0 ] || {
    python3 -c 'import json, sys; print("client:", json.load(open(sys.argv[1]))["runs"][0]["error"])' "$dir/m.json" 2> /dev/null
    tail -n 3 "$dir/srv.log"
  }
}

# One count, K clients: a `cmdbench cmtime` mesh (-P K+1) of one server, the
# controller, and K clients of N/K connections each, client i bound to the
# i-th address (the first: $CMDBENCH_RDMA_ADDR, as the server). Same mimic
# settings; with -P > 2 cmtime runs no no-QP test. The clients share
# MAX_PENDING: it bounds what the one server has to answer (twice as many
# outstanding made the 100,000 run much slower, bench/README.md). Each
# process under /usr/bin/time; wall time from the clients' start to the last
# one's end.
scale_mesh() {
  local n=$1 k=$2 dir=$3 port=7701 per=$(($1 / $2)) window=$((${MAX_PENDING:-1000} / $2))
  local i p srv src t0 t1 pids=() rcs=() common addrs
  [ "${MAX_PENDING:-1000}" -gt 0 ] && [ "$window" = 0 ] && window=1 # 0 would mean no bound
  add_client_addrs $((k - 1)) || { echo "lab mimic $n conns: cannot add client addresses"; return 1; }
  addrs=("$CMDBENCH_RDMA_ADDR" "${client_addrs[@]}")
  common=(-C 127.0.0.1 -p "$port" -P $((k + 1)) -c "$per" -n 4 -m 0 --timeout 3000)
  /usr/bin/time -f "%M %e" -o "$dir/srv.time" "$bin" cmtime -L "${common[@]}" \
    -b "$CMDBENCH_RDMA_ADDR" --format json > "$dir/srv.json" 2> "$dir/srv.err" &
  srv=$!
  wait_listening "$port" || echo "(the server does not listen on 127.0.0.1:$port after 30 s)"
  t0=$EPOCHREALTIME
  for ((i = 0; i < k; i++)); do
    /usr/bin/time -f "%M %e" -o "$dir/cli$i.time" "$bin" cmtime "${common[@]}" -b "${addrs[i]}" \
      --max-pending "$window" > "$dir/cli$i.log" 2> "$dir/cli$i.err" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do
    wait "$p"
    rcs+=($?)
  done
  t1=$EPOCHREALTIME
  # The server ends after its clients; not later than a minute after them.
  for ((i = 0; i < 600; i++)); do kill -0 "$srv" 2> /dev/null || break; sleep 0.1; done
  kill "$srv" 2> /dev/null
  wait "$srv"
  src=$?
  python3 - "$n" "$k" "$src" "$t0" "$t1" "$dir" "$window" "${rcs[@]}" <<'PY'
import json, sys
n, k, src, t0, t1, d, window = (int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]),
                                float(sys.argv[4]), float(sys.argv[5]), sys.argv[6], sys.argv[7])
rcs, per = sys.argv[8:], n // k
cli = [int(open(f"{d}/cli{i}.time").read().split()[-2]) for i in range(k)]
srv = int(open(f"{d}/srv.time").read().split()[-2])
line = (f"lab mimic {n:6d} conns ({k} clients x {per}, -m 0 -n 4, max_pending {window} each): "
        f"exit {' '.join(rcs)} (server {src}), wall {t1 - t0:.1f} s ({(t1 - t0) * 1e6 / n:.0f} us/conn); "
        f"peak RSS client " + " and ".join(f"{c} KiB ({c / per:.2f} KiB/conn)" for c in cli) +
        f", server {srv} KiB ({srv / n:.2f} KiB/conn)")
try:
    main = {t["name"]: t for t in json.load(open(f"{d}/srv.json"))["tests"]}["main"]
    # The mesh's figures per role: a step's total is the slowest peer's.
    cs = {s["step"]: s["total_us"] / 1e6 for s in main["clients"]["report"]["steps"]}
    ss = {s["step"]: s["total_us"] / 1e6 for s in main["servers"]["report"]["steps"]}
    line += f"; full connect {cs['full connect']:.1f} s"
    steps = ["create id", "bind addr", "resolve addr", "resolve route", "create qp", "init qp",
             "cm connect", "disconnect", "destroy qp", "destroy id"]
    line += "\n    client step totals (s, slowest client): " + ", ".join(f"{s} {cs[s]:.2f}" for s in steps)
    line += "\n    server step totals (s): " + ", ".join(
        f"{s} {ss[s]:.2f}" for s in ["cm connect", "disconnect", "destroy qp", "destroy id"])
except Exception:
    pass
print(line)
PY
  for ((i = 0; i < k; i++)); do
    [ "${rcs[i]}" = 0 ] || { echo "client $((i + 1)):"; tail -n 3 "$dir/cli$i.err"; }
  done
  [ "$src" = 0 ] || { echo "server:"; tail -n 3 "$dir/srv.err"; }
}

bench_scale_inner() {
  local n=$1 k dir
  k=$(scale_clients "$n")
  dir=$(mktemp -d)
  widen_ports $((n / k))
  if [ "$k" = 1 ]; then scale_one "$n" "$dir"; else scale_mesh "$n" "$k" "$dir"; fi
  rm -rf "$dir"
}

# scale_growth FILE: the growth between the counts' lab-scale lines in FILE:
# peak RSS per added connection, per process (target: at most 4 KiB), and
# wall time against the count (target: growing no faster than linearly, i.e.
# us/conn not rising). Failed runs are left out.
scale_growth() {
  python3 - "$1" <<'PY'
import re, sys
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r"lab mimic +(\d+) conns \((?:(\d+) clients x (\d+), )?[^)]*\): exit ([^,]*), "
                 r"wall ([\d.]+) s .*peak RSS client (.*), server (\d+) KiB", line)
    if not m or any(x != "0" for x in re.findall(r"\d+", m.group(4))):
        continue
    n = int(m.group(1))
    per = int(m.group(3) or n)
    cli = max(int(x) for x in re.findall(r"(\d+) KiB \(", m.group(6)))
    runs[n] = dict(per=per, wall=float(m.group(5)), cli=cli, srv=int(m.group(7)))
ns = sorted(runs)
pairs = list(zip(ns, ns[1:])) + ([(ns[0], ns[-1])] if len(ns) > 2 else [])
for a, b in pairs:
    A, B = runs[a], runs[b]
    srv = (B["srv"] - A["srv"]) / (b - a)
    if B["per"] != A["per"]:
        cli = (f"client {(B['cli'] - A['cli']) / (B['per'] - A['per']):+.2f} KiB/conn "
               f"({A['per']} -> {B['per']} per client: {A['cli']} -> {B['cli']} KiB)")
    else:
        cli = f"client {A['per']} per client in both: {A['cli']} -> {B['cli']} KiB"
    print(f"growth {a:6d} -> {b:6d} conns: server {srv:+.2f} KiB/conn ({A['srv']} -> {B['srv']} KiB), "
          f"{cli} (target <= 4); wall x{B['wall'] / A['wall']:.2f} for x{b / a:.2f} conns "
          f"({A['wall'] * 1e6 / a:.0f} -> {B['wall'] * 1e6 / b:.0f} us/conn)")
PY
}

# --- peer: cmdbench cmtime vs rdma-core's current cmtime -----------------------

# The peer's binary, from CMTIME_PEER: a built cmtime binary, or its source
# directory with a build.sh taking the output path (built into the build
# directory, which the lab guest sees). Prints the binary's path.
peer_binary() {
  local p=${CMTIME_PEER:-} out=$bindir/bench/cmtime-peer
  [ -n "$p" ] || { echo "peer: set CMTIME_PEER (or --peer) to rdma-core's cmtime: its source directory (with build.sh) or a built binary" >&2; return 2; }
  if [ -f "$p" ] && [ -x "$p" ]; then
    readlink -f "$p"
  elif [ -d "$p" ] && [ -f "$p/build.sh" ]; then
    mkdir -p "$bindir/bench" || return 2
    sh "$p/build.sh" "$out" >&2 || { echo "peer: building $p failed" >&2; return 2; }
    echo "$out"
  else
    echo "peer: CMTIME_PEER=$p is neither an executable nor a directory with build.sh" >&2
    return 2
  fi
}

# wait_port PORT: until something listens on TCP port PORT, any address (the
# controller: a client started before it would become the controller).
wait_port() {
  local hex i
  hex=$(printf ':%04X' "$1")
  for ((i = 0; i < 300; i++)); do
    awk -v h="$hex" 'substr($2, length($2) - 4) == h && $4 == "0A" {f = 1} END {exit !f}' \
      /proc/net/tcp /proc/net/tcp6 2> /dev/null && return 0
    sleep 0.1
  done
  return 1
}

# cm_resends: the CM's retransmitted and duplicate-received messages so far
# (ib_cm's counters, every device and port; under the port since Linux 5.14,
# in infiniband_cm before): "TX_RETRIES RX_DUPLICATES". A
# request the peer answers later than the CM's response timeout is sent
# again, and the copies cost both sides; how connects are paced shows here.
cm_resends() {
  local r=0 d=0 f
  for f in /sys/class/infiniband/*/ports/*/cm_tx_retries/* /sys/class/infiniband_cm/*/*/cm_tx_retries/*; do
    [ -r "$f" ] && r=$((r + $(cat "$f")))
  done
  for f in /sys/class/infiniband/*/ports/*/cm_rx_duplicates/* /sys/class/infiniband_cm/*/*/cm_rx_duplicates/*; do
    [ -r "$f" ] && d=$((d + $(cat "$f")))
  done
  echo "$r $d"
}

# peer_run TOOL N REP PORT DIR: one server (the controller) and K clients of
# TOOL (cmdbench or upstream) with the issue's options; appends to DIR/runs
# "TOOL N REP FULL_US CM_CONNECT_US NOQP_FULL_US CPU_S RETRIES DUPS": the slowest client's
# full connect and cm connect totals of the simulated-QPs test, its no-QP
# full connect (- with several clients: cmtime runs no no-QP test then), and
# the CPU seconds (user + system) of all processes, and the CM's resends
# during the run (cm_resends: retries, duplicates).
peer_run() {
  local tool=$1 n=$2 rep=$3 port=$4 dir=$5 k per i srv pids=() rc=0 cmd extra=()
  k=${#peer_addrs[@]}
  per=$((n / k))
  # A variant "cmdbench:--flag=value,..." is cmdbench with those options.
  [[ $tool == cmdbench:* ]] && IFS=, read -r -a extra <<< "${tool#cmdbench:}"
  if [[ $tool == cmdbench* ]]; then cmd=("$bin" cmtime --timeout "${PEER_WAIT:-3000}" "${extra[@]}")
  else cmd=("$peer_bin"); fi
  local common=(-C "$CMDBENCH_RDMA_ADDR" -P $((k + 1)) -c "$per" -m 0 -n 4 -p "$port") resends
  resends=$(cm_resends)
  /usr/bin/time -f "%U %S" -o "$dir/srv.time" "${cmd[@]}" "${common[@]}" -b "$CMDBENCH_RDMA_ADDR" -L \
    -q 100000 > "$dir/srv.log" 2>&1 &
  srv=$!
  wait_port "$port" || echo "($tool: nothing listens on port $port after 30 s)" >&2
  # Each client its own fake QP numbers (-q): clients share the device, and
  # the CM rejects a second connection from the same QP number and device
  # as stale (REJECTED 10). cmdbench's clients also offset theirs by rank;
  # upstream's do not, so with one -q for all, its second client fails.
  for ((i = 0; i < k; i++)); do
    /usr/bin/time -f "%U %S" -o "$dir/cli$i.time" "${cmd[@]}" "${common[@]}" -b "${peer_addrs[i]}" \
      -q $((900000 + i * per)) > "$dir/cli$i.log" 2>&1 &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || rc=$?; done
  for ((i = 0; i < 600; i++)); do kill -0 "$srv" 2> /dev/null || break; sleep 0.1; done
  kill "$srv" 2> /dev/null
  wait "$srv" || rc=$?
  if [ "$rc" != 0 ]; then
    echo "$tool n=$n rep $rep failed (exit $rc; CM retries, duplicates: $(cm_resends | awk -v a="$resends" \
      'BEGIN {split(a, b)} {print $1 - b[1] ", " $2 - b[2]}')):" >&2
    tail -n 3 "$dir"/cli*.log "$dir/srv.log" >&2
    return
  fi
  python3 - "$tool" "$n" "$rep" "$dir" "$k" $resends $(cm_resends) >> "$dir/runs" <<'PY'
import sys
tool, n, rep, d, k = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
r0, d0, r1, d1 = map(int, sys.argv[6:10])
def rows(path):
    # {test: {step: total_us}}: the tables after cmtime's test headings.
    out, test = {}, None
    for line in open(path, errors="replace"):
        if "simulated QPs test" in line: test = "main"
        elif "test - no QPs" in line: test = "noqp"
        elif test and (line.startswith("full connect") or line.startswith("cm connect")):
            f = line.split()
            out.setdefault(test, {})[f[0] + " " + f[1]] = int(f[3])
    return out
cli = [rows(f"{d}/cli{i}.log") for i in range(k)]
full = max(c["main"]["full connect"] for c in cli)
cm = max(c["main"]["cm connect"] for c in cli)
noqp = max(c["noqp"]["full connect"] for c in cli) if all("noqp" in c for c in cli) else "-"
cpu = sum(sum(map(float, open(f"{d}/{f}.time").read().split()[-2:]))
          for f in ["srv"] + [f"cli{i}" for i in range(k)])
print(tool, n, rep, full, cm, noqp, f"{cpu:.2f}", r1 - r0, d1 - d0)
PY
}

bench_peer_inner() {
  local dir n rep k port=7800 t0 first second
  dir=$(mktemp -d)
  : > "$dir/runs"
  echo "lab: $(nproc) CPUs, guest load average $(cut -d' ' -f1-3 /proc/loadavg), $repeat rounds, peer $peer_bin"
  for n in $PEER_COUNTS; do
    k=$(((n + per_client_max - 1) / per_client_max))
    ((n % k == 0)) || { echo "peer $n conns: skipped: $k clients do not split $n evenly"; continue; }
    widen_ports $((n / k))
    peer_addrs=("$CMDBENCH_RDMA_ADDR")
    if ((k > 1)) && [ "${#client_addrs[@]}" -lt $((k - 1)) ]; then
      add_client_addrs $((k - 1 - ${#client_addrs[@]})) || { echo "peer $n conns: cannot add client addresses"; continue; }
    fi
    peer_addrs+=("${client_addrs[@]:0:$((k - 1))}")
    t0=$EPOCHREALTIME
    # Alternate which tool goes first, and let the kernel settle in between
    # (the last run's CM ids are still in timewait).
    # Rotate which tool goes first: each one leads in turn.
    local -a tools=(upstream cmdbench $PEER_VARIANTS)
    local nt=${#tools[@]} j
    for ((rep = 1; rep <= repeat; rep++)); do
      for ((j = 0; j < nt; j++)); do
        peer_run "${tools[(rep - 1 + j) % nt]}" "$n" "$rep" $((port++)) "$dir"; sleep "${PEER_SETTLE:-5}"
      done
    done
    echo "$n connections ($k client(s)): $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.0f", b - a}') s for $repeat x $nt runs; guest load average $(cut -d' ' -f1-3 /proc/loadavg)"
  done
  echo "--- raw: tool conns round full_connect_us cm_connect_us noqp_full_connect_us cpu_s cm_retries cm_duplicates"
  cat "$dir/runs"
  python3 - "$dir/runs" "$here" <<'PY'
import collections, statistics, sys
sys.path.insert(0, sys.argv[2])
import report  # bench/report.py: the bootstrap interval
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    tool, n, rep, full, cm, noqp, cpu, retries, dups = line.split()
    n = int(n)
    d[(tool, n)]["full connect"].append(int(full) / n)
    d[(tool, n)]["cm connect"].append(int(cm) / n)
    if noqp != "-":
        d[(tool, n)]["no-QP full connect"].append(int(noqp) / n)
    d[(tool, n)]["CPU ms/conn"].append(float(cpu) * 1000 / n)
    d[(tool, n)]["CM resends/run"].append(int(retries) + int(dups))
def fmt(v):
    return f"{statistics.median(v):7.0f} ({min(v):.0f}-{max(v):.0f})" if v else "-"
print("\nus/conn (total over N), median (min-max); ratio = cmdbench / upstream, < 1: cmdbench faster")
for n, tool in sorted({(n, t) for t, n in d if t != "upstream"}):
    U, C = d[("upstream", n)], d[(tool, n)]
    print(f"\n{n} connections: {len(U['full connect'])} upstream and {len(C['full connect'])} {tool} runs")
    for row in ("full connect", "cm connect", "no-QP full connect", "CPU ms/conn", "CM resends/run"):
        u, c = U.get(row, []), C.get(row, [])
        if not u or not c:
            continue
        if not statistics.median(u):
            print(f"  {row:20s} upstream {fmt(u):>22s}  {tool} {fmt(c):>22s}")
            continue
        r = statistics.median(c) / statistics.median(u)
        try:
            iv = report.ratio_interval(c, u)
        except ZeroDivisionError:  # a resampled median of 0 resends
            iv = None
        print(f"  {row:20s} upstream {fmt(u):>22s}  {tool} {fmt(c):>22s}  ratio of medians "
              f"{r:.2f}, 90% interval {report.interval_text(iv)}")
PY
  rm -rf "$dir"
}

case ${1:-host} in
  host) bench_host ;;
  peer)
    shift
    while [ $# -gt 0 ]; do
      case $1 in
        --reps) [[ ${2:-} =~ ^[1-9][0-9]?$ ]] || { echo "--reps needs a number in [1, 99], got '${2:-}'" >&2; exit 2; }
                repeat=$2; shift ;;
        --conns) [[ ${2:-} =~ ^[1-9][0-9]*( [1-9][0-9]*)*$ ]] || { echo "--conns needs counts, e.g. \"1000 10000\", got '${2:-}'" >&2; exit 2; }
                 PEER_COUNTS=$2; shift ;;
        --peer) [ -n "${2:-}" ] || { echo "--peer needs a path" >&2; exit 2; }
                CMTIME_PEER=$2; shift ;;
        --variant) [[ ${2:-} =~ ^--[a-z-]+(=[^,\ ]+)?(,--[a-z-]+(=[^,\ ]+)?)*$ ]] ||
                     { echo "--variant needs cmdbench cmtime options, e.g. --max-pending=1000, got '${2:-}'" >&2; exit 2; }
                   PEER_VARIANTS="${PEER_VARIANTS:-} cmdbench:$2"; shift ;;
        *) echo "peer: unknown option '$1' (--reps N, --conns \"N ...\", --peer PATH, --variant OPTS)" >&2; exit 2 ;;
      esac
      shift
    done
    for n in ${PEER_COUNTS:=10000}; do
      ((n <= 1000000)) || { echo "--conns: $n is over 1,000,000" >&2; exit 2; }
    done
    peer_bin=$(peer_binary) || exit 2
    t0=$EPOCHREALTIME
    l0=$(cut -d' ' -f1-3 /proc/loadavg)
    lab "${LAB_TIMEOUT:-3600}" env CMDBENCH_BINARY_DIR="$bindir" REPEAT="$repeat" PEER_COUNTS="$PEER_COUNTS" \
      PEER_VARIANTS="${PEER_VARIANTS:-}" PEER_BIN="$peer_bin" PEER_SETTLE="${PEER_SETTLE:-5}" "$here/cmtime.sh" peer-inner
    rc=$?
    awk -v a="$t0" -v b="$EPOCHREALTIME" -v l0="$l0" -v l1="$(cut -d' ' -f1-3 /proc/loadavg)" \
      'BEGIN{printf "(lab boot and runs: %.0f s; host load average before %s, after %s)\n", b - a, l0, l1}'
    exit $rc ;;
  peer-inner) peer_bin=$PEER_BIN bench_peer_inner ;;
  lab)
    t0=$EPOCHREALTIME
    # ~25 s per repetition of both tools at 100 and 1,000 connections.
    lab $((300 + repeat * 60)) env CMDBENCH_BINARY_DIR="$bindir" REPEAT="$repeat" LAB_COUNTS="${LAB_COUNTS:-100 1000}" \
      "$here/cmtime.sh" lab-inner
    rc=$?
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "(lab boot and runs: %.0f s)\n", b - a}'
    exit $rc ;;
  lab-scale)
    lines=$(mktemp)
    for n in ${CMTIME_SCALE:-10000 25000 50000 100000}; do
      k=$(scale_clients "$n")
      if ! [[ "$k" =~ ^[1-9][0-9]*$ ]] || ((n % k)); then
        echo "lab mimic $n conns: skipped: CMTIME_CLIENTS=$k does not split $n evenly"
        continue
      fi
      if ((n / k > 64511)); then
        echo "lab mimic $n conns: skipped: $((n / k)) per client, one client address has at most 64,511 ports (bench/README.md)"
        continue
      fi
      t0=$EPOCHREALTIME
      l0=$(cut -d' ' -f1-3 /proc/loadavg)
      lab "${LAB_TIMEOUT:-600}" env CMDBENCH_BINARY_DIR="$bindir" MAX_PENDING="${MAX_PENDING:-1000}" \
        CMTIME_CLIENTS="$k" "$here/cmtime.sh" lab-scale-inner "$n" | tee -a "$lines"
      awk -v a="$t0" -v b="$EPOCHREALTIME" -v l0="$l0" -v l1="$(cut -d' ' -f1-3 /proc/loadavg)" \
        'BEGIN{printf "(lab boot and run: %.0f s; host load average before %s, after %s)\n", b - a, l0, l1}'
    done
    scale_growth "$lines"
    rm -f "$lines" ;;
  lab-inner) bench_lab_inner ;;
  lab-scale-inner) bench_scale_inner "$2" ;;
  *) echo "usage: $0 host|lab|lab-scale|peer [--reps N] [--conns \"N ...\"] [--peer PATH]" >&2; exit 2 ;;
esac
