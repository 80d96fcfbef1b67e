# `cmdbench serve` in guest 1, `cmdbench run` in guest 0: verbs-lat and
# verbs-bw (send, write, read; 2 QPs on 2 threads) across two kernels. The
# server binds the address the client reached it at; rxe0 of guest 0 must
# have sent at least one packet per message.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
if [ "$guest" = 1 ]; then
  "$cb" serve --bind "$addr" --port 7602 &
  wait_listen 7602 60 || fail "cmdbench serve did not listen"
  peer_ready
  wait
  exit
fi
cat > verbs.toml <<'TOML'
name = "lab-verbs-two-guests"
[defaults]
timeout = 120
[[run]]
name = "lat-send"
test = "verbs-lat"
sizes = [64, 4096]
iterations = 200
verify = true
[[run]]
name = "lat-write"
test = "verbs-lat"
op = "write"
sizes = [64]
iterations = 200
verify = true
[[run]]
name = "lat-read"
test = "verbs-lat"
op = "read"
sizes = [64]
iterations = 200
[[run]]
name = "bw-write"
test = "verbs-bw"
op = "write"
sizes = [65536]
iterations = 2000
qps = 2
threads = 2
[[run]]
name = "bw-send"
test = "verbs-bw"
sizes = [4096]
iterations = 2000
[[run]]
name = "bw-read"
test = "verbs-bw"
op = "read"
sizes = [65536]
iterations = 1000
TOML
wait_peer_ready 60 || fail "guest 1's cmdbench serve did not come up"
sent0=$(rxe_sent)
"$cb" run verbs.toml --server "$peer_addr:7602" --format json -o table.txt > out.json 2> err.txt
rc=$?
sent1=$(rxe_sent)
cat table.txt err.txt
[ "$rc" = 0 ] || fail "cmdbench run exited $rc: $(run_failures out.json err.txt)"
echo "rxe0 sent $((sent1 - sent0)) packets"
python3 - out.json "$((sent1 - sent0))" <<'PY' || fail "results do not match"
import json, sys
doc = json.load(open(sys.argv[1]))
runs = {r["name"]: r for r in doc["runs"]}
want = {"lat-send": ["64_lat", "4k_lat"], "lat-write": ["64_lat"], "lat-read": ["64_lat"],
        "bw-write": ["64k"], "bw-send": ["4k"], "bw-read": ["64k"]}
messages = 0
for name, rows in want.items():
    r = runs[name]
    assert r["status"] == "ok", (name, r["status"], r.get("error"))
    assert [row["name"] for row in r["rows"]] == rows, (name, [row["name"] for row in r["rows"]])
    for row in r["rows"]:
        m = {k: v["value"] for k, v in row["metrics"].items()}
        if name.startswith("lat-"):
            assert row["histograms"]["rtt"]["p50"] > 0, (name, row)
            messages += row["histograms"]["rtt"]["count"]  # at least the client's sends/reads
        else:
            assert m["Gb/sec"] > 0, (name, m)
            if name != "bw-read":
                messages += m["xfers"]  # guest 0 sent these; read data comes from guest 1
        print(name, row["name"], {k: round(v, 3) for k, v in m.items()})
sent = int(sys.argv[2])
print("messages", messages, "packets", sent)
assert sent >= messages, (sent, messages)
PY
