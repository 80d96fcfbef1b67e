# `cmdbench serve` in guest 1, `cmdbench run` in guest 0, with connect =
# "exchange": QPs connected by swapping their numbers, LIDs and GIDs over the
# control channel, across two kernels. RC send latency and write bandwidth,
# UC write latency at mtu = 1024 (the path MTU both sides read back from
# their QPs) and UD send latency; rxe0 of guest 0 must have sent at least one
# packet per message.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
if [ "$guest" = 1 ]; then
  CMDBENCH_LOG_LEVEL=debug "$cb" serve --bind "$addr" --port 7647 2> "$check_shared/serve.err" &
  wait_listen 7647 60 || fail "cmdbench serve did not listen"
  peer_ready
  wait
  exit
fi
cat > x.toml <<'TOML'
name = "lab-verbs-exchange-two-guests"
[defaults]
timeout = 120
connect = "exchange"
iterations = 200
[[run]]
name = "rc-send"
test = "verbs-lat"
sizes = [64, 4096]
verify = true
[[run]]
name = "rc-write-bw"
test = "verbs-bw"
op = "write"
sizes = [65536]
qps = 2
threads = 2
[[run]]
name = "uc-write-mtu"
test = "verbs-lat"
qp_type = "uc"
op = "write"
sizes = [4096]
mtu = 1024
verify = true
[[run]]
name = "ud-send"
test = "verbs-lat"
qp_type = "ud"
sizes = [64]
verify = true
TOML
wait_peer_ready 60 || fail "guest 1's cmdbench serve did not come up"
sent0=$(rxe_sent)
CMDBENCH_LOG_LEVEL=debug "$cb" run x.toml --server "$peer_addr:7647" --format json -o table.txt \
  > out.json 2> err.txt
rc=$?
sent1=$(rxe_sent)
cat table.txt err.txt
[ "$rc" = 0 ] || fail "cmdbench run exited $rc: $(run_failures out.json err.txt)"
echo "rxe0 sent $((sent1 - sent0)) packets"
python3 - out.json "$((sent1 - sent0))" err.txt <<'PY' || fail "results do not match"
import json, sys
runs = {r["name"]: r for r in json.load(open(sys.argv[1]))["runs"]}
want = {"rc-send": ["64_lat", "4k_lat"], "rc-write-bw": ["64k"], "uc-write-mtu": ["4k_lat"],
        "ud-send": ["64_lat"]}
messages = 0
for name, rows in want.items():
    r = runs[name]
    assert r["status"] == "ok", (name, r["status"], r.get("error"))
    assert [row["name"] for row in r["rows"]] == rows, (name, r["rows"])
    for row in r["rows"]:
        m = {k: v["value"] for k, v in row["metrics"].items()}
        messages += m["xfers"] if "Gb/sec" in m else row["histograms"]["rtt"]["count"]
        print(name, row["name"], {k: round(v, 3) for k, v in m.items()})
facts = [l for l in open(sys.argv[3]) if "verbs: connect exchange," in l]
print(*facts, sep="")
assert len(facts) == len(want), facts
assert "path MTU 1024," in facts[2], facts[2]
sent = int(sys.argv[2])
print("messages", messages, "packets", sent)
assert sent >= messages, (sent, messages)
PY
