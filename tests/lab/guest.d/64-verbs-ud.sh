# Plugin verbs with qp_type = "ud" over rxe (perftest's -c UD): verbs-lat
# (verified, 2 QPs on 2 threads in event mode) and verbs-bw (its default
# size is the path MTU; 2 QPs; a tiny rx_depth that may drop messages must
# still end, with `lost` in its row), then a size above the MTU, refused
# with a message naming it; then a lost answer, which must fail the run after
# the 5 s loss timeout.
need_cmdbench
mtu=$(ibv_devinfo -d "$dev" | awk '/active_mtu/ {print $2; exit}')
[ -n "$mtu" ] || fail "no active_mtu for $dev"
write_scenario ud.toml 60 lab-verbs-ud <<TOML
qp_type = "ud"
[[run]]
name = "lat"
test = "verbs-lat"
sizes = [2, $mtu]
iterations = 200
verify = true
[[run]]
name = "lat-2qp-event"
test = "verbs-lat"
sizes = [64]
iterations = 100
qps = 2
threads = 2
mode = "event"
verify = true
[[run]]
name = "bw"
test = "verbs-bw"
iterations = 1000
[[run]]
name = "bw-2qp"
test = "verbs-bw"
sizes = [1024]
iterations = 500
qps = 2
threads = 2
[[run]]
name = "bw-tiny-rx"
test = "verbs-bw"
sizes = [1024]
iterations = 2000
rx_depth = 4
[[run]]
name = "lat-above-mtu"
test = "verbs-lat"
sizes = [$((mtu * 2))]
iterations = 10
TOML
run_scenario ud.toml 1 # lat-above-mtu is refused
check_results ud.json "$mtu" <<'PY' || fail "results do not match"
mtu = int(sys.argv[2])
label = {1024: "1k", 2048: "2k", 4096: "4k"}[mtu]
want = {"lat": ["2_lat", label + "_lat"], "lat-2qp-event": ["64_lat"], "bw": [label],
        "bw-2qp": ["1k"], "bw-tiny-rx": ["1k"]}
for name, rows in want.items():
    r = runs[name]
    assert r["status"] == "ok", (name, r["status"], r.get("error"))
    assert [row["name"] for row in r["rows"]] == rows, (name, r["rows"])
    for row in r["rows"]:
        m = metrics(row)
        if name.startswith("lat"):
            h = row["histograms"]["rtt"]
            assert h["count"] == m["iters"] > 0 and 0 < h["p50"] <= h["max"], (name, h)
            assert m["usec/xfer"] > 0, (name, m)
            print(f"{name:14s} {row['name']:7s} p50 {h['p50']/1000:8.2f} us  "
                  f"usec/xfer {m['usec/xfer']:8.2f}")
        else:
            assert m["Gb/sec"] > 0 and m["msgs/sec"] > 0 and m["lost"] >= 0, (name, m)
            assert abs(m["total"] - m["xfers"] * m["bytes"]) < 1, (name, m)
            if name != "bw-tiny-rx":  # receives for every message: nothing dropped
                assert m["lost"] == 0, (name, m)
            print(f"{name:14s} {row['name']:7s} {m['Gb/sec']:8.3f} Gb/s  "
                  f"{m['msgs/sec']:9.0f} msgs/sec  lost {m['lost']:.0f}")
assert runs["bw"]["rows"][0]["metrics"]["bytes"]["value"] == mtu  # perftest: the MTU
bad = runs["lat-above-mtu"]
assert bad["status"] == "failed", bad["status"]
assert f"path MTU, {mtu} bytes" in bad["error"] and f"[1, {mtu}]" in bad["error"], bad["error"]
print("refused:", bad["error"])
PY
# A lost datagram: the server leaves QP 0's message 20 unanswered
# (CMDBENCH_VERBS_TEST_UD_DROP_ANSWER), so the client's round trip gets no
# answer; the run must fail after the 5 s loss timeout, naming the QP and
# the message, not wait for the run's 60 s timeout.
write_scenario ud-drop.toml 60 <<TOML
qp_type = "ud"
[[run]]
name = "lat-drop"
test = "verbs-lat"
sizes = [64]
iterations = 50
TOML
started=$(date +%s%N)
CMDBENCH_VERBS_TEST_UD_DROP_ANSWER=20 with_verbs_faults run_scenario ud-drop.toml 1
elapsed_ms=$((($(date +%s%N) - started) / 1000000))
check_results ud-drop.json "$elapsed_ms" <<'PY' || fail "a lost datagram was not reported as it should be"
r = runs["lat-drop"]
ms = int(sys.argv[2])
print(r["status"], f"after {ms} ms:", r["error"])
assert r["status"] == "failed", r["status"]
assert "QP 0: no answer to message 20 within 5 s: a datagram was lost" in r["error"], r["error"]
assert 5000 <= ms < 30000, ms
PY
