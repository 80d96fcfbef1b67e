# Multi-pair message rate (`pairs`) over rxe: verbs-bw SEND and WRITE and
# throughput over rsocket, 64-byte messages, with 1 and then 4 pairs at once,
# each pair its own local server. Every run must be ok; the 4 pairs must
# overlap in time, each have its row, and the aggregate rate must be the sum
# of the pairs' rates; the scaling table must give both counts. A setting
# every pair has alike is given once (device), one that differs per pair (its
# QP numbers) under each pair's label.
need_cmdbench
write_scenario rate.toml 120 lab-msg-rate <<TOML
[[run]]
name = "send"
test = "verbs-bw"
sizes = [64]
duration = 1.0
pairs = [1, 4]
[[run]]
name = "write"
test = "verbs-bw"
op = "write"
sizes = [64]
duration = 1.0
pairs = [1, 4]
[[run]]
name = "rsocket"
test = "throughput"
transport = "rsocket"
sizes = [64]
duration = 1.0
pairs = [1, 4]
TOML
run_scenario rate.toml
grep -qF "== message rate by pairs: send (msgs/sec)" rate.txt || fail "no scaling table for send"
grep -qF "== message rate by pairs: rsocket (msgs/sec)" rate.txt || fail "no scaling table for rsocket"
check_results rate.json <<'PY' || fail "results do not add up"
doc = json.load(open(sys.argv[1]))
for series, key in (("send", "msgs/sec"), ("write", "msgs/sec"), ("rsocket", "msgs/sec")):
    rates = {}
    for count in (1, 4):
        r = runs[f"{series} ({count} pair{'s' if count > 1 else ''})"]
        assert r["status"] == "ok", (series, count, r["error"])
        assert len(r["pairs"]) == count, (series, r["pairs"])
        rows = {row["name"]: metrics(row) for row in r["rows"]}
        parts = [rows[f"pair {k}/64"][key] for k in range(1, count + 1)]
        total = rows["64"][key]
        assert min(parts) > 0 and abs(total - sum(parts)) <= 1e-9 * total, (series, total, parts)
        if count > 1:
            assert r["pairs_overlap_seconds"] > 0.5, (series, r["pairs_overlap_seconds"])
        rates[count] = (total, parts)
    if series != "rsocket":
        st = runs[f"{series} (4 pairs)"]["settings"]
        assert "device" in st and "pair 1/device" not in st, sorted(st)
        assert all(f"pair {k}/qpn" in st for k in range(1, 5)), sorted(st)
    s = [x for x in doc["scaling"] if x["series"] == series]
    assert len(s) == 1 and [p["pairs"] for p in s[0]["rows"]] == [1, 4], s
    assert abs(s[0]["rows"][1]["aggregate"] - rates[4][0]) <= 1e-9 * rates[4][0], s
    print(f"{series:8s} 1 pair {rates[1][0]:10.0f} {key}; 4 pairs {rates[4][0]:10.0f} "
          f"= " + " + ".join(f"{p:.0f}" for p in rates[4][1]) +
          f" ({rates[4][0] / rates[1][0]:.2f}x)")
PY
