# shellcheck shell=bash
# Verdicts in matrix mode on two rails: `cmdbench run` under mpirun, one rank
# per guest, a verbs-lat run with rails = "all" and an absolute bound on
# one-way latency_p50. Guest 0 delays and drops what it sends on rail 1
# (netem on that rail's NIC): both of rail 1's links must FAIL, rail 0's
# pass, the exit status must be 3, and rail 1 must lead the per-rail summary
# that closes the table (and in the JSON).
# The bound is a median, not a p99: with one vCPU per guest, the run on both
# rails at once shares it between rail 1's thread, waiting out the delay,
# and rail 0's, whose tail then measures the scheduler (p99 15 ms one-way
# against rail 0's 2-4 ms alone; its median stayed under 8 ms).
if [ "$guest" = 1 ]; then serve_mpirun_peer; exit; fi
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
read -r -a devs <<< "${CMDBENCH_RDMA_DEVS:-}"
read -r -a netdevs <<< "${CMDBENCH_RDMA_NETDEVS:-}"
[ "${#devs[@]}" -ge 2 ] || fail "this check needs two rails: tools/rdma-lab --guests 2 --rails 2"
bad=${netdevs[1]}
modprobe sch_netem 2> /dev/null
# 100 ms out of guest 0: every round trip on rail 1 takes at least that,
# 50 ms one-way, twice the bound; 1 % loss, which RC retransmits.
tc qdisc add dev "$bad" root netem delay 100ms loss 1% || fail "tc qdisc add dev $bad netem"
trap 'tc qdisc del dev "$bad" root 2> /dev/null' EXIT
tc qdisc show dev "$bad"
cd "$check_shared" || fail "cd $check_shared"
cat > verdicts.toml <<'TOML'
[matrix]
pattern = "all-pairs"
[[run]]
name = "lat"
test = "verbs-lat"
op = "send"
sizes = [64]
iterations = 20
timeout = 120
rails = "all"
expect = { latency_p50 = { max = 25000 } }
TOML
wait_peer_ready 120 || fail "guest 1's lab-rsh-server.py did not come up"
measured_mpirun verdicts 300 "$cb" run "$PWD/verdicts.toml" -o "$PWD/verdicts.json"
[ "$rc" = 3 ] || fail "mpirun -np 2 cmdbench run verdicts.toml exited $rc, not 3 (a link fails)"
# The last screen: the verdicts after the matrices, rail 1 first.
grep -A3 "^verdicts: 2 of 4 links FAIL" verdicts.out > summary ||
  fail "the table has no verdict summary"
summary_at=$(grep -n "^verdicts: 2 of 4 links FAIL" verdicts.out | cut -d: -f1)
last_matrix=$(grep -n "^client rank (row) -> server rank (column)" verdicts.out | tail -n 1 | cut -d: -f1)
[ "${summary_at:-0}" -gt "${last_matrix:-0}" ] || fail "the verdicts do not follow the matrices"
sed -n 3p summary | grep -q "^  rail ${devs[1]}: 2 of 2 links FAIL" ||
  fail "rail ${devs[1]} does not lead the per-rail summary"
sed -n 4p summary | grep -q "^  rail ${devs[0]}: 0 of 2 links FAIL" ||
  fail "rail ${devs[0]} is not second, with no link failing"
grep -q "^cmdbench: 2 of 4 links FAIL .*; worst: lat .*@${devs[1]}" verdicts.err ||
  fail "stderr does not name rail ${devs[1]}'s links"
python3 - verdicts.json "${devs[0]}" "${devs[1]}" <<'PY' || fail "the JSON verdicts do not single out rail 1"
import json, sys
doc = json.load(open(sys.argv[1]))
good, bad = sys.argv[2:4]
mv = doc["matrix_verdicts"]
print("rails:", [t["text"] for t in mv["rails"]])
print("nodes:", [t["text"] for t in mv["nodes"]])
assert [t["rail"] for t in mv["rails"]] == [bad, good], mv["rails"]
assert mv["rails"][0]["fail"] == 2 and mv["rails"][1]["fail"] == 0, mv["rails"]
for v in doc["expectations"]["verdicts"]:
    want = "fail" if v["rail"] == bad else "pass"
    assert v["verdict"] == want, v["text"]
    assert " one-way " in v["text"], v["text"]
PY
