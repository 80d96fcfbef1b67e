# Plugin verbs, RDMA atomics over rxe: verbs-lat and verbs-bw with
# op = "fetch_add" and "cmp_swap" (verified, 2 QPs with a target each) must
# be ok with one row of 8 bytes each and positive figures, latency not halved
# (in the rows and in cmdbench compare); then the server corrupting QP 0's target (CMDBENCH_VERBS_TEST_CORRUPT_TARGET)
# must fail a verified fetch_add naming the QP, the atomic, got and want
# (cmp_swap's check is the same code: one run keeps the check short).
need_cmdbench
ibv_devinfo -v -d "$dev" | grep -i atomic_cap
write_scenario atomics.toml 60 <<TOML
[[run]]
name = "lat-fetch_add"
test = "verbs-lat"
op = "fetch_add"
iterations = 100
qps = 2
verify = true
[[run]]
name = "lat-cmp_swap"
test = "verbs-lat"
op = "cmp_swap"
iterations = 100
verify = true
[[run]]
name = "bw-fetch_add"
test = "verbs-bw"
op = "fetch_add"
iterations = 500
[[run]]
name = "bw-cmp_swap"
test = "verbs-bw"
op = "cmp_swap"
iterations = 500
qps = 2
TOML
run_scenario atomics.toml
check_results atomics.json <<'PY' || fail "results do not match"
want = {"lat-fetch_add": (100, 2), "lat-cmp_swap": (100, 1),
        "bw-fetch_add": (500, 1), "bw-cmp_swap": (500, 2)}
assert set(runs) == set(want), sorted(runs)
for name, (iterations, qps) in want.items():
    r = runs[name]
    assert r["status"] == "ok", (name, r["status"], r.get("error"))
    rows = [row["name"] for row in r["rows"]]
    assert rows == (["8_lat"] if name.startswith("lat") else ["8"]), (name, rows)
    m = metrics(r["rows"][0])
    assert m["bytes"] == 8 and m["qps"] == qps, (name, m)
    if name.startswith("lat"):
        h = r["rows"][0]["histograms"]["rtt"]
        assert h["count"] == iterations * qps == m["iters"], (name, h["count"])
        # One atomic is one round trip: not halved (perftest's ib_atomic_lat).
        assert m["usec/xfer"] > 0 and m["usec/xfer"] == m["usec/rtt"], (name, m)
        assert m["total"] == 8 * iterations * qps, (name, m)
        print(f"{name:14s} p50 {h['p50']/1000:8.2f} us  usec/xfer {m['usec/xfer']:8.2f}")
    else:
        assert m["xfers"] == iterations * qps and m["total"] == 8 * m["xfers"], (name, m)
        assert m["Gb/sec"] > 0 and m["msgs/sec"] > 0, (name, m)
        # Gb/sec counts the 8-byte operand of every atomic, as ib_atomic_bw does.
        assert abs(m["msgs/sec"] * 64 / 1e9 - m["Gb/sec"]) <= 1e-6 * m["Gb/sec"], (name, m)
        print(f"{name:14s} {m['msgs/sec']:10.0f} msgs/sec  {m['Gb/sec']:.4f} Gb/s")
PY
# cmdbench compare shows an atomic's latency whole, as `rtt p50`, like
# perftest: not halved into the one-way `1-way p50` of send and write.
"$cb" compare atomics.json --format json > atomics-compare.json 2> atomics-compare.err ||
  { cat atomics-compare.err; fail "cmdbench compare atomics.json failed"; }
check_results atomics.json <<'PY' || fail "compare does not show atomics whole"
cmp = json.load(open("atomics-compare.json"))
rows = [r for r in cmp["rows"] if r["item"] == "8_lat"]
assert not [r for r in rows if r["metric"] == "latency_p50"], rows
# Two runs of one test with different ops are two variants of one group
# ("verbs-lat:fetch_add", "verbs-lat:cmp_swap"), never repeats of one: each
# column is its own run's p50.
for name in ("lat-fetch_add", "lat-cmp_swap"):
    p50 = runs[name]["rows"][0]["histograms"]["rtt"]["p50"] / 1000
    column = cmp["columns"].index("verbs-lat:" + name[len("lat-"):])
    cells = [r["cells"][column]["median"] for r in rows if r["metric"] == "rtt p50"]
    assert len(cells) == 1, (name, [(r["group"], r["metric"]) for r in rows])
    assert abs(cells[0] - p50) <= 1e-3 * p50, (name, cells, p50)
    print("compare", name, "rtt p50", cells[0], "us, histogram", p50)
PY
# A corrupted target: the first atomic of QP 0 returns the planted value.
write_scenario corrupt.toml 60 <<TOML
iterations = 5
verify = true
[[run]]
name = "fetch_add"
test = "verbs-lat"
op = "fetch_add"
TOML
CMDBENCH_VERBS_TEST_CORRUPT_TARGET=0xc0ffee with_verbs_faults run_scenario corrupt.toml 1
check_results corrupt.json <<'PY' || fail "corruption was not caught as it should be"
assert len(runs) == 1, runs
for r in runs.values():
    print(r["name"], r["status"], r["error"])
    assert r["status"] == "failed", r["status"]
    assert "atomic verification failed: QP 0, atomic 0: got 0xc0ffee, want 0x0" in r["error"]
PY
