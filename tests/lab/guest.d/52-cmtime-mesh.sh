# `cmdbench cmtime -P 5` in one guest: 3 servers and 2 clients, -c 50, so
# each client makes 150 connections (50 to each server) and each server
# accepts 100: 300 in all. The first server is the controller; its JSON
# aggregates every peer's figures.
bin=${CMDBENCH_BINARY_DIR:-$CMDBENCH_SOURCE_DIR/build}/bin/cmdbench
[ -x "$bin" ] || fail "no cmdbench binary at $bin (set CMDBENCH_BINARY_DIR)"
common=(-C "$addr" -b "$addr" -p 7482 -P 5 -c 50 --timeout 150)
"$bin" cmtime -L "${common[@]}" --format json > ctl.log 2> ctl.err & pids=($!)
sleep 1
for i in 2 3; do "$bin" cmtime -L "${common[@]}" > srv$i.log 2>&1 & pids+=($!); done
for i in 1 2; do "$bin" cmtime "${common[@]}" > cli$i.log 2>&1 & pids+=($!); done
rcs=()
for p in "${pids[@]}"; do
  for ((t = 0; t < 900; t++)); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
  kill "$p" 2>/dev/null
  wait "$p"; rcs+=($?)
done
echo "exit codes: ${rcs[*]}"
for f in ctl.err srv2.log srv3.log cli1.log cli2.log; do echo "--- $f"; tail -n 25 "$f"; done
[ "${rcs[*]}" = "0 0 0 0 0" ] || fail "not every peer succeeded: ${rcs[*]}"
grep -q "Connect (150) QPs test" cli1.log || fail "client 1 did not run 150 connections"
grep -q "Accept (100) QPs test" srv2.log || fail "server 2 did not accept 100 connections"
grep -q "test - no QPs" cli1.log && fail "the no-QP test runs only with -P 2"
python3 - ctl.log <<'PY' || fail "aggregated JSON does not count every connection"
import json, sys
doc = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in doc["tests"]}["main"]
c, s = t["clients"], t["servers"]
print("clients", c["count"], c["report"]["conns"], "servers", s["count"], s["report"]["conns"])
assert doc["peers"] == 5 and len(t["per_peer"]) == 5
assert c["count"] == 2 and c["report"]["conns"] == 300, c["report"]["conns"]
assert s["count"] == 3 and s["report"]["conns"] == 300, s["report"]["conns"]
steps = {x["step"]: x for x in c["report"]["steps"]}
assert steps["cm connect"]["samples"] == 300 and steps["resolve addr"]["samples"] == 300
sv = {x["step"]: x for x in s["report"]["steps"]}
assert sv["create qp"]["samples"] == 300 and sv["disconnect"]["samples"] == 300
PY
