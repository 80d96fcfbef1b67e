# Latency under load (scenario key `background`): verbs-lat SEND at 64 B
# measured alone, then beside two verbs-bw RDMA WRITE flows (run_infinitely,
# 0.3 s windows) that the host starts first and stops after it. Both results
# are recorded; the loaded one has the flows' rows and what they moved
# (Gb/sec > 0), no note (the flows ran throughout), and a higher round-trip
# p99 than the run alone; the comparison has both variants side by side.
need_cmdbench
write_scenario load.toml 60 <<TOML
[[run]]
name = "lat"
test = "verbs-lat"
sizes = [64]
iterations = 1000
background = { test = "verbs-bw", flows = 2, params = { op = "write", sizes = [65536], duration = 0.3, run_infinitely = true, bind_address = "$addr" } }
TOML
run_scenario load.toml
uptime
check_results load.json <<'PY' || fail "results do not match"
alone, loaded = runs["lat"], runs["lat under load"]
assert alone["status"] == "ok" and loaded["status"] == "ok", (alone["status"], loaded["status"])
assert "background" not in alone
assert loaded["variant"] == alone["variant"] + " under load", loaded["variant"]
p99 = lambda r: r["rows"][0]["histograms"]["rtt"]["p99"]
print("p99 rtt alone %.1f us, under load %.1f us" % (p99(alone) / 1e3, p99(loaded) / 1e3))
assert p99(loaded) > p99(alone), (p99(alone), p99(loaded))
bg = loaded["background"]
print("background", bg["test"], bg["flows"], "flows", bg["Gb/sec"], "Gb/s,", len(bg["rows"]), "rows")
assert bg["test"] == "verbs-bw" and bg["flows"] == 2, bg
assert bg["Gb/sec"] is not None and bg["Gb/sec"] > 0, bg["Gb/sec"]
names = [row["name"] for row in bg["rows"]]
assert "flow 1: 64k #1" in names and "flow 2: 64k #1" in names, names
assert bg["notes"] == [], bg["notes"]
PY
python3 - load.json <<'PY' || fail "no side-by-side comparison"
import json, sys
c = json.load(open(sys.argv[1]))["comparison"]["result"]
assert c["columns"][-1].endswith(" under load"), c["columns"]
assert any(r["item"] == "background" for r in c["rows"]), "no background row"
PY
