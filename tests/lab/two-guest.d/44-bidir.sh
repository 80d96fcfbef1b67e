# `cmdbench serve` in guest 1, `cmdbench run` in guest 0: verbs-bw write and
# throughput over rsockets with bidirectional = true across two kernels,
# whose monotonic clocks differ: the rows per direction and their sum, and
# the two directions on one time line (the server's window put on the
# client's clock through the peer-clock estimate, to within its stated
# error) overlapping, as they really ran at once.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
if [ "$guest" = 1 ]; then
  "$cb" serve --bind "$addr" --port 7644 &
  wait_listen 7644 60 || fail "cmdbench serve did not listen"
  peer_ready
  wait
  exit
fi
cat > bidir.toml <<'TOML'
name = "lab-bidir-two-guests"
[defaults]
timeout = 120
bidirectional = true
[[run]]
name = "bw-write"
test = "verbs-bw"
op = "write"
sizes = [65536]
duration = 0.5
tx_depth = 16
cq_mod = 4
[[run]]
name = "rsocket-timed"
test = "throughput"
transport = "rsocket"
sizes = [65536]
duration = 0.5
TOML
wait_peer_ready 60 || fail "guest 1's cmdbench serve did not come up"
"$cb" run bidir.toml --server "$peer_addr:7644" --format json -o table.txt > out.json 2> err.txt
rc=$?
cat table.txt err.txt
[ "$rc" = 0 ] || fail "cmdbench run exited $rc: $(run_failures out.json err.txt)"
# Every run went to guest 1's server: no word of a local one.
! grep -F "meet at" err.txt || fail "a note about a local server, though --server was given"
python3 - out.json <<'PY' || fail "results do not match"
import json, sys
doc = json.load(open(sys.argv[1]))
runs = {r["name"]: r for r in doc["runs"]}
assert set(runs) == {"bw-write", "rsocket-timed"}, sorted(runs)
for name, r in runs.items():
    assert r["status"] == "ok", (name, r["status"], r.get("error"))
    names = [row["name"] for row in r["rows"]]
    assert names == ["64k c2s", "64k s2c", "64k bidir"], (name, names)
    c2s, s2c, both = ({k: v["value"] for k, v in row["metrics"].items()} for row in r["rows"])
    for d, m in (("c2s", c2s), ("s2c", s2c)):
        assert m["total"] > 0 and m["Gb/sec"] > 0 and 0 <= m["start"] < m["end"], (name, d, m)
        print(f"{name:14s} {d:5s} {m['Gb/sec']:8.3f} Gb/s  from {m['start']:.3f} "
              f"to {m['end']:.3f} s")
    assert both["total"] == c2s["total"] + s2c["total"], (name, both, c2s, s2c)
    # Each side streamed for 0.5 s from the same barrier, and the server's
    # window sits on the client's time line to within clock_error (half a
    # control-channel round trip): misaligned clocks would pull the windows
    # apart.
    assert 0 <= both["clock_error"] < 0.1, (name, both["clock_error"])
    assert both["overlap"] > 0, (name, both["overlap"])
    print(f"{name:14s} bidir {both['Gb/sec']:8.3f} Gb/s  over {both['time']:.3f} s, "
          f"overlap {both['overlap']:.3f} s, server clock {both['clock_offset']:+.6f} "
          f"± {both['clock_error']:.6f} s")
PY
