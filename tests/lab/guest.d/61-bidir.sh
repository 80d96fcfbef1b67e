# Bidirectional bandwidth over rxe: verbs-bw with bidirectional = true for
# send (2 QPs on 2 threads), write and read, and throughput over rsockets
# with bidirectional = true (by bytes, and for a duration). Every run must be
# ok with the rows "<size> c2s", "<size> s2c" and "<size> bidir" per size:
# each direction moved what it should (every message for verbs, every byte
# for throughput), the sum row adds them up over the union of the two
# windows, the two directions overlapped in time, and rxe0's sent_pkts grew
# by at least the messages of both directions. Small sizes and counts: the
# lab is emulated and slow.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
# shellcheck disable=SC2154  # $dev: from lib.sh
counter=/sys/class/infiniband/$dev/ports/1/hw_counters/sent_pkts
[ -r "$counter" ] || fail "no $counter"
# shellcheck disable=SC2154  # $addr: from lib.sh
cat > bidir.toml <<TOML
name = "lab-bidir"
[defaults]
timeout = 120
bidirectional = true
[[run]]
name = "bw-send-2qp"
test = "verbs-bw"
bind_address = "$addr"
sizes = [4096, 16384]
iterations = 300
qps = 2
threads = 2
[[run]]
name = "bw-write"
test = "verbs-bw"
bind_address = "$addr"
op = "write"
sizes = [65536]
iterations = 200
[[run]]
name = "bw-read"
test = "verbs-bw"
bind_address = "$addr"
op = "read"
sizes = [4096]
iterations = 300
[[run]]
name = "rsocket-bytes"
test = "throughput"
transport = "rsocket"
sizes = [65536]
duration = 0
bytes = 2000000
[[run]]
name = "rsocket-timed"
test = "throughput"
transport = "rsocket"
sizes = [65536]
duration = 0.5
TOML
sent0=$(cat "$counter")
"$cb" run bidir.toml --format json -o table.txt > out.json 2> err.txt
rc=$?
sent1=$(cat "$counter")
cat table.txt err.txt
[ "$rc" = 0 ] || fail "cmdbench run exited $rc: $(run_failures out.json err.txt)"
echo "$dev sent $((sent1 - sent0)) packets"
python3 - out.json "$((sent1 - sent0))" <<'PY' || fail "results do not match"
import json, sys
doc = json.load(open(sys.argv[1]))
sent = int(sys.argv[2])
runs = {r["name"]: r for r in doc["runs"]}
# run: (size labels, verbs messages per QP or None, QPs, throughput bytes or None)
want = {"bw-send-2qp": (["4k", "16k"], 300, 2, None), "bw-write": (["64k"], 200, 1, None),
        "bw-read": (["4k"], 300, 1, None), "rsocket-bytes": (["64k"], None, 0, 2000000),
        "rsocket-timed": (["64k"], None, 0, None)}
assert set(runs) == set(want), sorted(runs)
messages = 0
for name, r in runs.items():
    assert r["status"] == "ok", (name, r["status"], r.get("error"))
    labels, iterations, qps, nbytes = want[name]
    names = [row["name"] for row in r["rows"]]
    expect = [f"{l} {d}" for l in labels for d in ("c2s", "s2c", "bidir")]
    assert names == expect, (name, names, expect)
    rows = {row["name"]: {k: v["value"] for k, v in row["metrics"].items()} for row in r["rows"]}
    for l in labels:
        c2s, s2c, both = rows[l + " c2s"], rows[l + " s2c"], rows[l + " bidir"]
        for d, m in (("c2s", c2s), ("s2c", s2c)):
            assert m["total"] > 0 and m["Gb/sec"] > 0 and m["time"] > 0, (name, d, m)
            assert 0 <= m["start"] < m["end"], (name, d, m)
            if iterations is not None:
                assert m["xfers"] == iterations * qps, (name, d, m["xfers"])
                assert abs(m["total"] - m["xfers"] * m["bytes"]) < 1, (name, d, m)
                messages += m["xfers"]
            if nbytes is not None:
                assert m["total"] == nbytes, (name, d, m["total"], nbytes)
            print(f"{name:14s} {l} {d:5s} {m['Gb/sec']:8.3f} Gb/s  time {m['time']:.3f} s  "
                  f"from {m['start']:.3f} to {m['end']:.3f} s")
        assert both["total"] == c2s["total"] + s2c["total"], (name, both, c2s, s2c)
        window = max(c2s["end"], s2c["end"]) - min(c2s["start"], s2c["start"])
        assert abs(both["time"] - window) <= 1e-6 * window, (name, both["time"], window)
        gbps = both["total"] * 8 / both["time"] / 1e9
        assert abs(gbps - both["Gb/sec"]) <= 1e-6 * gbps, (name, gbps, both["Gb/sec"])
        # Both directions really ran at once.
        overlap = min(c2s["end"], s2c["end"]) - max(c2s["start"], s2c["start"])
        assert both["overlap"] > 0, (name, l, both["overlap"])
        assert abs(both["overlap"] - overlap) <= 1e-6, (name, both["overlap"], overlap)
        # Both peers in this guest share one clock: the offset the client
        # estimated over the control channel is 0 within its bound.
        assert abs(both["clock_offset"]) <= both["clock_error"] + 1e-9, (name, both)
        if name == "rsocket-timed":
            assert both["overlap"] > 0.5 * min(c2s["time"], s2c["time"]), (name, both, c2s, s2c)
        print(f"{name:14s} {l} bidir {both['Gb/sec']:8.3f} Gb/s  over {both['time']:.3f} s, "
              f"overlap {both['overlap']:.3f} s, clock offset {both['clock_offset']:.6f} "
              f"± {both['clock_error']:.6f} s")
    assert r["cpu_per_gb_s"] is not None and r["cpu_per_gb_s"] > 0, (name, r["cpu_per_gb_s"])
# Every verbs message of either direction is at least one RDMA packet sent
# by this guest (both peers are here).
print("verbs messages", messages, "packets", sent)
assert sent >= messages, (sent, messages)
PY
