# `cmdbench cmtime` as a drop-in for cmtime, -P 2: the server starts first
# and becomes the controller (it binds the controller address first), the
# client joins; real QPs with the default 100 connections, then cmtime's
# no-QP test. The client prints cmtime's tables; the controller the mesh's
# aggregated figures as JSON, checked row by row.
bin=${CMDBENCH_BINARY_DIR:-$CMDBENCH_SOURCE_DIR/build}/bin/cmdbench
[ -x "$bin" ] || fail "no cmdbench binary at $bin (set CMDBENCH_BINARY_DIR)"
bg_server server.log "$bin" cmtime -L -C "$addr" -b "$addr" -p 7481 --format json --timeout 120
sleep 1
timeout 150 "$bin" cmtime -C "$addr" -b "$addr" -p 7481 --timeout 120 > client.log 2>&1
rc=$?
wait_server 60; src=$?
echo "--- client (exit $rc)"; cat client.log
echo "--- server (exit $src)"; head -c 3000 server.log; echo
[ "$rc" = 0 ] || fail "cmtime client failed"
[ "$src" = 0 ] || fail "cmtime server failed"
for want in "Client warmup" "Connect (100) QPs test" "Connect (100) test - no QPs" \
            "qp_conn               100" "cm_conn               100" \
            "step             avg/conn  total(us)    us/conn    sum(us)    max(us)    min(us)"; do
  grep -qF -- "$want" client.log || fail "client output lacks '$want'"
done
# cmtime's layout (as upstream prints it): every step row is 80
# characters (13 + 2 + 10 + 5 x 11).
rows=$(grep -cE '^(full connect|create id|destroy qp) ' client.log)
[ "$rows" = 6 ] || fail "expected 3 step rows x 2 tables, got $rows"
bad=$(grep -E '^(full connect|create id|bind addr|destroy qp) ' client.log | awk 'length != 80' | wc -l)
[ "$bad" = 0 ] || fail "$bad step rows are not 80 characters wide"
python3 - server.log <<'PY' || fail "aggregated JSON does not match the spec"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "cmdbench-cmtime" and doc["peers"] == 2, doc.keys()
tests = {t["name"]: t for t in doc["tests"]}
assert set(tests) == {"main", "no-qp"}, tests.keys()
client_rows = {"full connect", "create id", "bind addr", "resolve addr", "resolve route",
               "create qp", "init qp attr", "init qp", "rtr qp attr", "rtr qp", "rts qp attr",
               "rts qp", "cm connect", "establish", "disconnect", "destroy id", "destroy qp"}
server_rows = {"create qp", "init qp attr", "init qp", "rtr qp attr", "rtr qp", "rts qp attr",
               "rts qp", "disconnect", "destroy id", "destroy qp"}
errors = []
for name, t in tests.items():
    for role, rows in (("clients", client_rows), ("servers", server_rows)):
        rep = t[role]["report"]
        if t[role]["count"] != 1 or rep["conns"] != 100:
            errors.append(f"{name} {role}: count {t[role]['count']} conns {rep['conns']}")
        want_label = "qp_conn" if name == "main" else "cm_conn"
        if rep["label"] != want_label:
            errors.append(f"{name} {role}: label {rep['label']}")
        for st in rep["steps"]:
            want = 100 if st["step"] in rows else 0
            if st["samples"] != want:
                errors.append(f"{name} {role} {st['step']}: {st['samples']} samples, want {want}")
            if st["samples"] and not (st["p50_us"] <= st["p99_us"] <= st["max_us"] + 1):
                errors.append(f"{name} {role} {st['step']}: percentiles out of order")
    sc = {s["step"]: s for s in t["servers"]["report"]["steps"]}
    if sc["cm connect"]["total_us"] <= 0:
        errors.append(f"{name}: server cm connect total is 0")
for e in errors:
    print("MISMATCH:", e)
sys.exit(1 if errors else 0)
PY
