# Latency under load (scenario key `background`): verbs-lat SEND at 64 B
# measured alone, then beside two verbs-bw RDMA WRITE flows (run_infinitely,
# 0.3 s windows) that the host starts first and stops after it. Both results
# are recorded; the loaded one has the flows' rows and what they moved
# (Gb/sec > 0), no note (the flows ran throughout), and a higher round-trip
# p99 and mean than the run alone; the comparison has both variants side by
# side. The flows' servers, stopped with them, log no failure.
#
# In this guest the flows slow the ping-pong by taking its CPUs (Soft-RoCE
# is software), and at 1000 round trips whether ten of them meet a busy CPU
# is luck: a p99 under load at or below the one alone was seen twice in
# about 30 runs (docs/loaded-latency.md). So the pair is measured up to 3
# times and the figures must show the load in one of them; every other
# assertion holds in every try.
need_cmdbench
write_scenario load.toml 60 <<TOML
[[run]]
name = "lat"
test = "verbs-lat"
sizes = [64]
iterations = 1000
background = { test = "verbs-bw", flows = 2, params = { op = "write", sizes = [65536], duration = 0.3, run_infinitely = true, bind_address = "$addr" } }
TOML
for try in 1 2 3; do
  run_scenario load.toml
  uptime
  check_results load.json <<'PY' || fail "results do not match"
alone, loaded = runs["lat"], runs["lat under load"]
assert alone["status"] == "ok" and loaded["status"] == "ok", (alone["status"], loaded["status"])
assert "background" not in alone
assert loaded["variant"] == alone["variant"] + " under load", loaded["variant"]
bg = loaded["background"]
print("background", bg["test"], bg["flows"], "flows", bg["Gb/sec"], "Gb/s,", len(bg["rows"]), "rows")
assert bg["test"] == "verbs-bw" and bg["flows"] == 2, bg
assert bg["Gb/sec"] is not None and bg["Gb/sec"] > 0, bg["Gb/sec"]
names = [row["name"] for row in bg["rows"]]
assert "flow 1: 64k #1" in names and "flow 2: 64k #1" in names, names
assert bg["notes"] == [], bg["notes"]
PY
  ! grep "cmdbench serve: run" load.err || fail "a stopped flow's server logged a failure"
  python3 - load.json <<'PY' || fail "no side-by-side comparison"
import json, sys
c = json.load(open(sys.argv[1]))["comparison"]["result"]
assert c["columns"][-1].endswith(" under load"), c["columns"]
assert any(r["item"] == "background" for r in c["rows"]), "no background row"
PY
  check_results load.json <<'PY' && break
alone, loaded = runs["lat"], runs["lat under load"]
rtt = lambda r, k: r["rows"][0]["histograms"]["rtt"][k] / 1e3
for k in ("p99", "mean"):
    print("%s rtt alone %.1f us, under load %.1f us" % (k, rtt(alone, k), rtt(loaded, k)))
assert rtt(loaded, "p99") > rtt(alone, "p99") and rtt(loaded, "mean") > rtt(alone, "mean")
PY
  [ "$try" -lt 3 ] || fail "3 tries, and the load never raised both the p99 and the mean"
  echo "(try $try: the load did not show in both figures; measuring again)"
done
