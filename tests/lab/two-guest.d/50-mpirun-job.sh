# shellcheck shell=bash
# mpirun across the two guests: guest 0's mpirun starts orted in guest 1
# through the lab's launch agent (tests/lab/lab-rsh, served by
# lab-rsh-server.py in guest 1); `cmdbench job` must see 2 ranks on the 2
# guests, each on its own node, and the same Soft-RoCE ports on both.
if [ "$guest" = 1 ]; then serve_mpirun_peer; exit; fi
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
wait_peer_ready 120 || fail "guest 1's lab-rsh-server.py did not come up"
measured_mpirun job 120 "$cb" job --format json
[ "$rc" = 0 ] || fail "mpirun -np 2 cmdbench job across the guests exited $rc"
python3 - job.out <<'PY' || fail "cmdbench job does not show 2 ranks on 2 nodes"
import json, sys
ranks = json.load(open(sys.argv[1]))["ranks"]
nodes = [r["node"] for r in ranks]
print("nodes:", nodes)
assert [r["rank"] for r in ranks] == [0, 1], ranks
assert len(set(nodes)) == 2, nodes
PY
# The preflight: each guest's Soft-RoCE ports as sysfs and libibverbs say,
# the same on both (exit 0 above), so no difference.
python3 - job.out <<'PY' || fail "cmdbench job's RDMA preflight is not what the guests have"
import json, sys
rdma = json.load(open(sys.argv[1]))["rdma"]
for r in rdma["ranks"]:
    ports = r["ports"]
    print(r["node"], [(p["device"], p["state"], p["rate"], p["active_mtu"], p["gids"]) for p in ports])
    assert ports, r
    assert all(p["driver"] == "rxe" and p["state"] == "ACTIVE" for p in ports), ports
    assert all(p["active_mtu"].isdigit() and p["gids"] > 0 for p in ports), ports
print("majority:", rdma["majority"])
assert len(rdma["majority"]) == len(rdma["ranks"][0]["ports"]), rdma["majority"]
assert rdma["differences"] == [], rdma["differences"]
PY
