# verbs-bw with run_infinitely = true (perftest's --run_infinitely): a row
# per 0.5 s window, logged as each ends; interrupted (SIGINT) after its third
# window's line, the run ends interrupted within seconds with every finished
# window's row kept ("4k #1", "4k #2", ...), each with its figures.
need_cmdbench
. "$CMDBENCH_SOURCE_DIR/tests/lab/lib-run-stop.sh"
write_scenario forever.toml 60 <<TOML
[[run]]
name = "forever"
test = "verbs-bw"
op = "write"
sizes = [4096]
duration = 0.5
run_infinitely = true
TOML
start_run forever
for ((i = 0; i < 300; i++)); do
  grep -q "verbs-bw 4k #3:" forever.err && break
  kill -0 "$run_pid" 2>/dev/null || { cat forever.err; fail "the run ended on its own"; }
  sleep 0.1
done
grep -q "verbs-bw 4k #3:" forever.err || { cat forever.err; fail "no third window within 30 s"; }
kill -INT "$run_pid"
stop_t0=$EPOCHREALTIME
wait_run_end forever 8
[ "$run_rc" = 130 ] || fail "exit $run_rc, want 130"
check_results forever.json <<'PY' || fail "results do not match"
r = runs["forever"]
names = [row["name"] for row in r["rows"]]
print(r["status"], names)
assert r["status"] == "interrupted", r["status"]
assert len(names) >= 3, names
assert names == ["4k #%d" % (i + 1) for i in range(len(names))], names
for row in r["rows"]:
    m = metrics(row)
    assert m["xfers"] > 0 and m["Gb/sec"] > 0 and m["peak Gb/sec"] >= m["Gb/sec"], m
    assert 0.4 < m["time"] < 5, m
PY
