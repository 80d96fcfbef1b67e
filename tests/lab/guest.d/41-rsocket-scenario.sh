# `cmdbench run` with transport = "rsocket" in a scenario, next to the same
# runs over tcp: pingpong (verified) and throughput, through `cmdbench serve`
# on the RDMA address (rsockets cannot use 127.0.0.1: rxe is on dummy0).
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
cat > rdma-vs-tcp.toml <<'TOML'
name = "lab-rsocket-vs-tcp"
[defaults]
timeout = 120
[[run]]
name = "pingpong-rsocket"
test = "pingpong"
transport = "rsocket"
sizes = [64, 4096]
iterations = 50
verify = true
[[run]]
name = "pingpong-tcp"
test = "pingpong"
transport = "tcp"
sizes = [64, 4096]
iterations = 50
verify = true
[[run]]
name = "pingpong-rsocket-blocking"
test = "pingpong"
transport = "rsocket"
sizes = [4096]
iterations = 20
transfer_count = 10
blocking = true
inline_size = 128
sq_size = 64
rq_size = 64
[[run]]
name = "suite-rsocket"
test = "pingpong"
transport = "rsocket"
suite = "rstream"
sizes = [65536]
verify = true
[[run]]
name = "throughput-rsocket"
test = "throughput"
transport = "rsocket"
sizes = [65536]
duration = 1.0
[[run]]
name = "throughput-tcp"
test = "throughput"
transport = "tcp"
sizes = [65536]
duration = 1.0
TOML
bg_server serve.log "$cb" serve --bind "$addr" --port 7600
wait_listen 7600 30 || { cat serve.log; fail "cmdbench serve did not listen"; }
"$cb" run rdma-vs-tcp.toml --server "$addr:7600" --format json -o table.txt > out.json 2> err.txt
rc=$?
kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null
cat table.txt err.txt
[ "$rc" = 0 ] || fail "cmdbench run exited $rc"
python3 - out.json <<'PY' || fail "results do not match"
import json, sys
doc = json.load(open(sys.argv[1]))
runs = {r["name"]: r for r in doc["runs"]}
want = {"pingpong-rsocket": 2, "pingpong-tcp": 2, "pingpong-rsocket-blocking": 1,
        "suite-rsocket": 2,
        "throughput-rsocket": 1, "throughput-tcp": 1}
for name, rows in want.items():
    r = runs[name]
    assert r["status"] == "ok", (name, r["status"], r.get("error"))
    assert len(r["rows"]) == rows, (name, len(r["rows"]))
    for row in r["rows"]:
        for key, m in row["metrics"].items():
            assert m["value"] >= 0, (name, key)
    print(name, "ok", [row["name"] for row in r["rows"]])
assert [row["name"] for row in runs["pingpong-rsocket"]["rows"]] == ["64_lat", "4k_lat"]
# rstream's two phases: 1000 round trips of 64 KiB, then 1000 transfers each way.
lat, bw = runs["suite-rsocket"]["rows"]
assert (lat["name"], bw["name"]) == ("64k_lat", "64k_bw"), (lat["name"], bw["name"])
assert lat["metrics"]["iters"]["value"] == 1000 and lat["metrics"]["xfers"]["value"] == 1
assert bw["metrics"]["iters"]["value"] == 1 and bw["metrics"]["xfers"]["value"] == 1000
PY
