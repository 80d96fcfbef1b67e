# Plugin verbs with a device and no bind_address: `cmdbench run` meets its
# local server on loopback, where rxe0 is not, so the server must listen on
# rxe0's interface address instead and the run must be ok. Then the
# no-device e2e test (tests/e2e/test_verbs_nodevice.cpp) must take its
# "device present: not skipped" branch here.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
cat > local.toml <<'TOML'
[[run]]
test = "verbs-lat"
sizes = [64]
iterations = 50
timeout = 60
[[run]]
test = "verbs-bw"
op = "write"
sizes = [4096]
iterations = 200
timeout = 60
TOML
"$cb" run local.toml --format json > local.json 2> local.err
rc=$?
cat local.err
[ "$rc" = 0 ] || { cat local.json; fail "a local verbs run without bind_address exited $rc"; }
python3 - local.json <<'PY' || fail "results do not match"
import json, sys
for r in json.load(open(sys.argv[1]))["runs"]:
    assert r["status"] == "ok", (r["test"], r["status"], r["error"])
    assert len(r["rows"]) == 1, r["rows"]
    print(r["test"], "ok", r["rows"][0]["name"])
PY
e2e="$CMDBENCH_BINARY_DIR/bin/test_verbs_nodevice"
[ -x "$e2e" ] || fail "no $e2e: build the test_verbs_nodevice target"
# Only its cases tagged [device]: the others do not look for a device, and
# each tree runs them on the host (all of them took 38 s under TCG).
"$e2e" '[device]' > e2e.log 2>&1 || { cat e2e.log; fail "test_verbs_nodevice failed with a device present"; }
grep -q 'in 2 test cases' e2e.log || { cat e2e.log; fail "test_verbs_nodevice [device] did not run its 2 cases"; }
# An explicit inline_size the QP refuses (rxe takes at most 512 inline bytes)
# fails the run with the most the QP accepts; a run after it is unaffected.
cat > inline.toml <<'TOML'
[[run]]
name = "too-much-inline"
test = "verbs-lat"
sizes = [64]
iterations = 10
inline_size = 4096
timeout = 60
[[run]]
name = "default-inline"
test = "verbs-bw"
op = "send"
sizes = [64]
iterations = 100
timeout = 60
TOML
"$cb" run inline.toml --format json > inline.json 2> inline.err
rc=$?
[ "$rc" = 1 ] || { cat inline.err inline.json; fail "inline.toml: exit $rc, want 1 (one run failed)"; }
python3 - inline.json <<'PY' || fail "inline_size results do not match"
import json, sys
runs = {r["name"]: r for r in json.load(open(sys.argv[1]))["runs"]}
bad, good = runs["too-much-inline"], runs["default-inline"]
print(bad["status"], bad["error"])
assert bad["status"] == "failed", bad["status"]
assert "inline_size = 4096" in bad["error"] and "inline_size must be in [0, " in bad["error"]
assert good["status"] == "ok", (good["status"], good["error"])
PY
