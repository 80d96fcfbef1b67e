# `cmdbench cmtime` under mpirun with real RDMA: 4 ranks, --servers 2, -c 100,
# so 2 clients x 2 servers x 100 = 400 connections on each side. The ranks
# find each other through PMIx; rank 0 alone prints. Run twice: with -b (the
# device address given) and without (each rank picks its RDMA device's
# address itself).
bin=${CMDBENCH_BINARY_DIR:-$CMDBENCH_SOURCE_DIR/build}/bin/cmdbench
[ -x "$bin" ] || fail "no cmdbench binary at $bin (set CMDBENCH_BINARY_DIR)"
command -v mpirun > /dev/null || fail "no mpirun: install openmpi-bin and libpmix-dev (tools/install-deps.sh)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
launch() { timeout -k 5 240 mpirun --oversubscribe -np 4 "$bin" cmtime --servers 2 -c 100 --timeout 150 "$@"; }

t0=$EPOCHREALTIME
launch -b "$addr" --format json > json.out 2> json.err; rc=$?
echo "json run: exit $rc in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}') s"
cat json.err
[ "$rc" = 0 ] || { tail -n 40 json.out; fail "mpirun -np 4 cmdbench cmtime --servers 2 -b $addr failed ($rc)"; }
python3 - json.out "$addr" <<'PY' || fail "the JSON does not count every connection of the mesh"
import json, sys
doc = json.load(open(sys.argv[1]))
job = doc["job"]
print("job:", job["launcher"], job["ranks"], "ranks,", job["servers"], "servers")
assert doc["peers"] == 4 and job["ranks"] == 4 and job["servers"] == 2
assert [r["role"] for r in job["per_rank"]] == ["server", "server", "client", "client"]
assert all(r["address"] == sys.argv[2] for r in job["per_rank"]), job["per_rank"]
tests = {t["name"]: t for t in doc["tests"]}
assert list(tests) == ["main"], list(tests)   # no no-QP test beyond 2 peers
t = tests["main"]
c, s = t["clients"], t["servers"]
print("clients", c["count"], c["report"]["conns"], "servers", s["count"], s["report"]["conns"])
assert c["count"] == 2 and c["report"]["conns"] == 400
assert s["count"] == 2 and s["report"]["conns"] == 400
assert [p["index"] for p in t["per_peer"]] == [0, 1, 2, 3]
assert all(p["report"]["conns"] == 200 for p in t["per_peer"])
cs = {x["step"]: x for x in c["report"]["steps"]}
assert cs["cm connect"]["samples"] == 400 and cs["resolve addr"]["samples"] == 400
assert c["report"]["label"] == "qp_conn" and cs["create qp"]["samples"] == 400
ss = {x["step"]: x for x in s["report"]["steps"]}
assert ss["create qp"]["samples"] == 400 and ss["disconnect"]["samples"] == 400
PY

# No -b: every rank binds its node's RDMA device address, and says so.
launch > table.out 2> table.err; rc=$?
echo "table run: exit $rc"; cat table.out table.err
[ "$rc" = 0 ] || fail "mpirun -np 4 cmdbench cmtime --servers 2 (default address) failed ($rc)"
[ ! -s table.err ] || fail "the ranks printed on stderr"
[ "$(grep -c '^cmtime under a launcher' table.out)" = 1 ] || fail "the summary is not printed once"
grep -q "^  .* ($addr): ranks 0-3$" table.out || fail "the default address is not the device's ($addr)"
[ "$(grep -c '^Mesh main test: 400 client connections of 2 clients$' table.out)" = 1 ] ||
  fail "no single client table of 400 connections"
[ "$(grep -c '^Mesh main test: 400 accepted connections of 2 servers$' table.out)" = 1 ] ||
  fail "no single server table of 400 connections"
grep -q "^qp_conn  *400$" table.out || fail "the tables are not labelled qp_conn 400"
