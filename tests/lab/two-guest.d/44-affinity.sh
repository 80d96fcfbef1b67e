# `cpus` and `numa` across two kernels, read back from /proc: `cmdbench
# serve` in guest 1, `cmdbench run` in guest 0, verbs-bw over rxe0 between
# them. Needs guests with two NUMA nodes and the NIC on node 1
# (tools/rdma-lab --numa-nodes 2 --cpus 2, as ctest's rdma-lab-two-guests
# boots them): numa = "device" then means node 1, whose only CPU is 1. While
# the run goes on, every thread of the client and of the server's session
# process is sampled from /proc (Cpus_allowed_list; the memory policy in
# numa_maps); the results must say the same. A CPU the client's machine
# lacks is exit 2; one the server's machine lacks is the server's refusal.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
if [ "$(cat /sys/devices/system/node/online)" != 0-1 ]; then
  echo "SKIP: the guests have one NUMA node: boot them with --numa-nodes 2 --cpus 2"
  exit 77
fi
# lab0's device is the virtio device; its parent, the PCI function, has the node.
nic_node=$(cat /sys/class/net/lab0/device/../numa_node)
[ "$nic_node" = 1 ] || fail "lab0 is on NUMA node '$nic_node', not 1 (pxb-pcie numa_node=1)"

# sample PID OUT: one line per snapshot of process PID while it has two
# threads or more (the test runs on its own thread): "THREADS CPUS... policy
# bind:N" (the allowed CPUs of each thread; the policy of its main thread,
# which starts the test). Builtins only, but for grep: TCG forks slowly.
sample() {
  local pid=$1 out=$2 t key val list n policy
  list=; n=0
  for t in /proc/"$pid"/task/*; do
    while read -r key val; do
      [ "$key" = Cpus_allowed_list: ] && { list="$list $val"; break; }
    done < "$t/status" 2> /dev/null
    n=$((n + 1))
  done
  policy=$(grep -o -m1 ' bind:[0-9,-]*' /proc/"$pid"/numa_maps 2> /dev/null)
  [ "$n" -ge 2 ] && echo "$n$list policy${policy:- none}" >> "$out"
  return 0
}
# placed FILE CPU NODE: some snapshot with every thread on CPU alone and
# memory bound to NODE.
placed() {
  awk -v cpu="$2" -v node="$3" '{ ok = $NF == "bind:" node; for (i = 2; i < NF - 1; i++) if ($i != cpu) ok = 0; if (ok) found = 1 } END { exit !found }' "$1"
}

if [ "$guest" = 1 ]; then
  "$cb" serve --bind "$addr" --port 7644 --quiet &
  serve=$!
  wait_listen 7644 60 || fail "cmdbench serve did not listen"
  peer_ready
  # The session children of the server, snapshot by snapshot, until stopped.
  while kill -0 "$serve" 2> /dev/null; do
    for kid in $(cat /proc/$serve/task/$serve/children 2> /dev/null); do
      sample "$kid" "$check_shared/server-samples"
    done
    sleep 0.05
  done
  exit
fi

cat > device.toml <<'TOML'
[defaults]
timeout = 120
[[run]]
name = "device"
test = "verbs-bw"
sizes = [4096]
iterations = 2000
numa = "device"
[[run]]
name = "per-side"
test = "verbs-lat"
sizes = [64]
iterations = 100
cpus = { client = "0", server = "1" }
numa = { client = 0, server = 1 }
TOML
wait_peer_ready 120 || fail "guest 1's cmdbench serve did not come up"
"$cb" run device.toml --server "$peer_addr:7644" --quiet -o out.json > table.txt 2> err.txt &
run=$!
while kill -0 "$run" 2> /dev/null; do
  sample "$run" client-samples
  sleep 0.05
done
wait "$run"
rc=$?
cat table.txt err.txt
[ "$rc" = 0 ] || fail "cmdbench run exited $rc"
grep -q '^affinity: client cpus 1, seen 1; memory bind 1 (asked numa device: node 1), seen node 1$' table.txt ||
  fail "the table does not show where the client ran"
python3 - out.json <<'PY' || fail "results do not match"
import json, sys
runs = {r["name"]: r for r in json.load(open(sys.argv[1]))["runs"]}
def check(run, side, cpus, node, asked_numa):
    r = runs[run]
    assert r["status"] == "ok", (run, r.get("error"))
    a = r["path"][side]["affinity"]
    print(run, side, a)
    assert a["requested_numa"] == asked_numa, a
    assert a["numa_node"] == node and a["cpus_allowed"] == cpus and a["cpus_seen"] == cpus, a
    assert a["memory_policy"] == "bind" and a["memory_nodes"] == node, a
    assert a["memory_node_seen"] == node, a
for side in ("client", "server"):
    check("device", side, "1", "1", "device")
    assert runs["device"]["path"][side]["interface"]["numa_node"] == "1"
check("per-side", "client", "0", "0", "0")
check("per-side", "server", "1", "1", "1")
PY
echo "client snapshots: $(wc -l < client-samples), e.g. $(tail -n 1 client-samples)"
placed client-samples 1 1 || fail "no /proc snapshot of the client with every thread on CPU 1 and memory bound to node 1"
# The server's snapshots arrive through the shared directory.
for _ in $(seq 50); do
  placed "$check_shared/server-samples" 1 1 2> /dev/null && break
  sleep 0.2
done
echo "server snapshots: $(wc -l < "$check_shared/server-samples"), e.g. $(tail -n 1 "$check_shared/server-samples")"
placed "$check_shared/server-samples" 1 1 || fail "no /proc snapshot of the server's session with every thread on CPU 1 and memory bound to node 1"

# A CPU the client's machine lacks: exit 2 before anything runs.
printf '[[run]]\ntest = "verbs-lat"\ncpus = "5"\n' > bad.toml
"$cb" run bad.toml --server "$peer_addr:7644" --quiet > bad.out 2> bad.err
rc=$?
cat bad.err
[ "$rc" = 2 ] || fail "cpus = \"5\" exited $rc, not 2"
grep -q "bad.toml:3:8: 'cpus' names CPU 5, which this machine does not have (CPUs: 0-1)" bad.err ||
  fail "the error does not name CPU 5"
# One the server's machine lacks: the server refuses the run.
printf '[[run]]\ntest = "verbs-lat"\ncpus = { server = "5" }\n' > bad-server.toml
"$cb" run bad-server.toml --server "$peer_addr:7644" --quiet > bad-server.out 2> bad-server.err
rc=$?
cat bad-server.out
[ "$rc" = 1 ] || fail "a server-side CPU 5 exited $rc, not 1"
grep -q "the server refused the run: 'cpus' names CPU 5, which the server's machine does not have (CPUs: 0-1)" bad-server.out ||
  fail "the server's refusal does not name CPU 5"
