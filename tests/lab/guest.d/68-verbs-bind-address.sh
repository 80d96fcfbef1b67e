# A verbs bind_address on no RDMA device (loopback, an address of no
# interface here) fails the run, also with --allow-skip: a misconfigured
# address is an error, not a machine without RDMA. The message names the
# address and the RDMA devices there are, with their addresses; the run
# after them, on the device's address, is unaffected.
need_cmdbench
cat > bind.toml <<TOML
[defaults]
timeout = 60
[[run]]
name = "loopback"
test = "verbs-lat"
sizes = [64]
iterations = 10
bind_address = "127.0.0.1"
[[run]]
name = "elsewhere"
test = "verbs-bw"
sizes = [4096]
iterations = 10
bind_address = "203.0.113.9"
[[run]]
name = "device"
test = "verbs-lat"
sizes = [64]
iterations = 10
bind_address = "$addr"
TOML
"$cb" run bind.toml --allow-skip --format json > bind.json 2> bind.err
rc=$?
cat bind.err
[ "$rc" = 1 ] || { cat bind.json; fail "exit $rc, want 1: a run with a bad bind_address must fail"; }
check_results bind.json "$dev" "$addr" <<'PY' || fail "results do not match"
dev, addr = sys.argv[2:4]
for name, bad in (("loopback", "127.0.0.1"), ("elsewhere", "203.0.113.9")):
    r = runs[name]
    print(name, r["status"], r["error"])
    assert r["status"] == "failed", (name, r["status"])
    assert f"bind_address {bad} is on no RDMA device" in r["error"], (name, r["error"])
    assert dev in r["error"] and addr in r["error"], (name, r["error"])
assert runs["device"]["status"] == "ok", runs["device"]
PY
