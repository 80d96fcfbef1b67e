# The shipped comparison, configs/rdma-vs-tcp.toml, unchanged: TCP against
# rsocket and verbs for latency (verbs-lat op=send) and bandwidth (verbs-bw
# op=write), and connection setup (cm-steps, the verbs column, against
# sock-steps), 3 repeats each, with no --server, so `cmdbench run` starts its
# own server on the RDMA device's address (the rsocket transport's
# local_node hook), says so, and the verbs runs bind that address. Then
# `cmdbench compare` on its results: every row the comparison promises has
# all its columns, 3 measurements each, and the HTML report has its charts.
bin=${CMDBENCH_BINARY_DIR:-$CMDBENCH_SOURCE_DIR/build}/bin/cmdbench
[ -x "$bin" ] || fail "no cmdbench binary at $bin (set CMDBENCH_BINARY_DIR)"
scenario=$CMDBENCH_SOURCE_DIR/configs/rdma-vs-tcp.toml
[ -f "$scenario" ] || fail "no $scenario"

# Stop it before the suite's own limit for a check, to show how far it got.
limit=$(( ${LAB_CHECK_TIMEOUT:-300} - 20 ))
t0=$EPOCHREALTIME
timeout "$limit" "$bin" run "$scenario" -o out.json --report report.html > table.txt 2> err.txt
rc=$?
echo "cmdbench run exit $rc after $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}') s"
echo "--- stderr"; cat err.txt
echo "--- stdout (the end)"; tail -n 60 table.txt
[ "$rc" = 0 ] || fail "cmdbench run configs/rdma-vs-tcp.toml exited $rc"

# The local server listened on the device's address, not on loopback.
# shellcheck disable=SC2154  # $addr: from lib.sh
grep -qF "runs with a local server meet at $addr, not 127.0.0.1" err.txt ||
  fail "stderr does not say that the local server meets at $addr"
grep -qF "== comparison (baseline tcp)" table.txt || fail "no comparison table after the results"
# What the quick start prints: the comparison says what it measured.
grep -A1 "^== comparison (baseline tcp)" table.txt |
  grep -qF "! software RDMA (rxe): these figures measure Soft-RoCE's software path" ||
  fail "the comparison does not say that it measured software RDMA (rxe)"

t0=$EPOCHREALTIME
"$bin" compare out.json --format json > compare.json 2> compare.err ||
  { cat compare.err; fail "cmdbench compare out.json failed"; }
echo "cmdbench compare: $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}') s"

python3 - out.json compare.json report.html <<'PY' || fail "the comparison is not complete"
import json
import sys

results = json.load(open(sys.argv[1]))
cmp = json.load(open(sys.argv[2]))
html = open(sys.argv[3]).read()
errors = []

# 8 runs x 3 repeats, all of them measured.
runs = results["runs"]
if len(runs) != 24:
    errors.append(f"{len(runs)} results, want 24 (8 runs x 3 repeats)")
for r in runs:
    if r["status"] != "ok":
        errors.append(f"{r['name']} repeat {r['repeat']}: {r['status']}: {r['error']}")
# The verbs runs are the native ones, with their rows.
for r in runs:
    if r["variant"] != "verbs" or r["test"] == "cm-steps":
        continue
    want = ("verbs-lat", '"send"') if r["group"] == "latency" else ("verbs-bw", '"write"')
    if (r["test"], r["params"].get("op")) != want:
        errors.append(f"{r['name']}: test {r['test']} op {r['params'].get('op')}, want {want}")
    if r["status"] == "ok" and len(r["rows"]) != 3:
        errors.append(f"{r['name']} repeat {r['repeat']}: {len(r['rows'])} rows, want 3")

if cmp["columns"] != ["tcp", "rsocket", "verbs"] or cmp["baseline"] != "tcp":
    errors.append(f"columns {cmp['columns']}, baseline {cmp['baseline']}")
if cmp["notes"]:
    errors.append(f"notes: {cmp['notes']}")
col = {name: i for i, name in enumerate(cmp["columns"])}

rows = {}
for row in cmp["rows"]:
    key = (row["group"], row["item"] if row["item"] == "whole run" or row["metric"] in
           ("step_time", "conn_rate") else int(row["size"]), row["metric"])
    rows[key] = row
    cells = {c: row["cells"][i] for c, i in col.items() if i < len(row["cells"])}
    vals = " ".join(f"{c}={cell['median']}(n={cell['n']})" for c, cell in cells.items())
    print(f"{row['group']:10s} {row['item']:18s} {row['metric']:12s} {vals}")


def cell(key, column):
    c = rows[key]["cells"][col[column]]
    return c if c["median"] is not None else None


def want_all(key, columns):
    if key not in rows:
        errors.append(f"no row {key}")
        return
    for column in columns:
        c = cell(key, column)
        if c is None:
            errors.append(f"{key}: no {column} value")
        elif c["n"] != 3 or not c["median"] > 0:
            errors.append(f"{key}: {column} n={c['n']} median={c['median']}, want n=3, > 0")
        elif column != "tcp" and cell(key, "tcp"):
            verdict = rows[key]["cells"][col[column]]["verdict"]
            if verdict not in ("ratio", "no_clear_difference"):
                errors.append(f"{key}: {column} verdict {verdict}")
    for column in set(col) - set(columns):
        if cell(key, column) is not None:
            errors.append(f"{key}: {column} has a value, want none")


expected = set()
for size in (64, 4096, 65536):
    for metric in ("latency_p50", "latency_p99"):
        expected.add(("latency", size, metric))
for size in (4096, 65536, 1048576):
    expected.add(("bandwidth", size, "bandwidth"))
expected.add(("bandwidth", "whole run", "cpu_per_gb"))
expected.add(("connect", "full connect", "conn_rate"))
expected.add(("connect", "whole run", "cpu_per_conn"))
# The steps both cm-steps and sock-steps time per connection.
both_steps = {"create id", "cm connect", "destroy id", "server destroy id"}
for step in both_steps:
    expected.add(("connect", step, "step_time"))
for key in sorted(expected, key=str):
    want_all(key, ("tcp", "verbs") if key[0] == "connect" else ("tcp", "rsocket", "verbs"))
# Bandwidth within 100x of TCP's: a broken timer gives tiny positive figures
# (a verbs-bw window that drained at its deadline once read 1e-10 Gb/s).
for size in (4096, 65536, 1048576):
    key = ("bandwidth", size, "bandwidth")
    tcp = cell(key, "tcp") if key in rows else None
    for column in ("rsocket", "verbs"):
        c = cell(key, column) if key in rows else None
        if tcp and c and not c["median"] > tcp["median"] / 100:
            errors.append(f"{key}: {column} median {c['median']} Gb/s, tcp {tcp['median']}")

# cmtime's steps with per-connection times (no
# bind address, so no "bind addr"; "full connect" is the connection rate).
rdma_steps = {"create id", "resolve addr", "resolve route", "create qp", "init qp attr",
              "init qp", "rtr qp attr", "rtr qp", "rts qp attr", "rts qp", "cm connect",
              "establish", "disconnect", "destroy id", "destroy qp"}
rdma_steps |= {"server " + s for s in ("create qp", "init qp attr", "init qp", "rtr qp attr",
                                        "rtr qp", "rts qp attr", "rts qp", "disconnect",
                                        "destroy id", "destroy qp")}
# sock-steps times each accept() as the server's "cm connect"; cmtime's server
# has only a whole-step total there, so that row is tcp's alone.
tcp_only_steps = {"server cm connect"}
steps = {key[1] for key in rows if key[2] == "step_time"}
if steps != rdma_steps | tcp_only_steps:
    errors.append(f"step rows: missing {sorted((rdma_steps | tcp_only_steps) - steps)}, "
                  f"unexpected {sorted(steps - rdma_steps - tcp_only_steps)}")
for step in sorted(steps):
    key = ("connect", step, "step_time")
    rdma, tcp = cell(key, "verbs"), cell(key, "tcp")
    if step in rdma_steps and (rdma is None or rdma["n"] != 3):
        errors.append(f"step {step}: verbs (cm-steps) has no 3 values")
    if step in tcp_only_steps and (rdma is not None or tcp is None or tcp["n"] != 3):
        errors.append(f"step {step}: want 3 tcp values and no verbs value")
    if step not in both_steps | tcp_only_steps and tcp is not None:
        errors.append(f"step {step}: tcp has a value, but sock-steps does not time it")
for key in rows:
    if key not in expected and key[2] != "step_time":
        errors.append(f"unexpected row {key}")

# One chart per family and group: latency; bandwidth and CPU/GB; steps,
# connection rate and CPU/connection.
charts = html.count('class="chart"')
if charts != 6:
    errors.append(f"{charts} charts in the report, want 6")
for title in ("latency: one-way latency against message size",
              "bandwidth: bandwidth against message size", "bandwidth: CPU time per GB moved",
              "connect: connection step times", "connect: connections per second",
              "connect: CPU time per connection"):
    if f'aria-label="{title}"' not in html:
        errors.append(f"no chart '{title}' in the report")

for e in errors:
    print("MISMATCH:", e)
sys.exit(1 if errors else 0)
PY
