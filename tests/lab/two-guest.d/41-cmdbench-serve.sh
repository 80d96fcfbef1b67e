# `cmdbench serve` in guest 1, `cmdbench run` in guest 0 against it with an
# rsocket scenario (and tcp beside it): the control channel and the RDMA
# data path cross between two kernels.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
if [ "$guest" = 1 ]; then
  "$cb" serve --bind "$addr" --port 7600 &
  wait_listen 7600 60 || fail "cmdbench serve did not listen"
  peer_ready
  wait
  exit
fi
cat > two-guests.toml <<'TOML'
name = "lab-two-guests"
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
name = "throughput-rsocket"
test = "throughput"
transport = "rsocket"
sizes = [65536]
duration = 1.0
[[run]]
name = "pingpong-tcp"
test = "pingpong"
transport = "tcp"
sizes = [4096]
iterations = 50
verify = true
TOML
wait_peer_ready 60 || fail "guest 1's cmdbench serve did not come up"
sent0=$(rxe_sent)
"$cb" run two-guests.toml --server "$peer_addr:7600" --format json -o table.txt > out.json 2> err.txt
rc=$?
sent1=$(rxe_sent)
cat table.txt err.txt
[ "$rc" = 0 ] || fail "cmdbench run exited $rc"
echo "rxe0 sent $((sent1 - sent0)) packets"
# 2 x 50 verified round trips and a second of throughput over rsockets.
[ $((sent1 - sent0)) -gt 100 ] || fail "too few RDMA packets left guest 0: $((sent1 - sent0))"
python3 - out.json <<'PY' || fail "results do not match"
import json, sys
doc = json.load(open(sys.argv[1]))
runs = {r["name"]: r for r in doc["runs"]}
want = {"pingpong-rsocket": ["64_lat", "4k_lat"], "throughput-rsocket": None,
        "pingpong-tcp": ["4k_lat"]}
for name, rows in want.items():
    r = runs[name]
    assert r["status"] == "ok", (name, r["status"], r.get("error"))
    assert r["rows"], name
    if rows is not None:
        assert [row["name"] for row in r["rows"]] == rows, (name, [row["name"] for row in r["rows"]])
    for row in r["rows"]:
        for key, m in row["metrics"].items():
            assert m["value"] >= 0, (name, key)
    print(name, "ok", [row["name"] for row in r["rows"]])
PY
