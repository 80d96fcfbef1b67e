# shellcheck shell=bash
# Matrix mode across the two guests: `cmdbench run` under mpirun, one rank
# per guest, all-pairs over rsockets (RDMA over rxe): both ordered pairs
# (0 -> 1, 1 -> 0) measure latency and bandwidth between two real kernels.
# The JSON and the HTML report must name both pairs, and rxe0 must have sent
# RDMA packets (the control channel and ORTE's wire-up are plain TCP).
if [ "$guest" = 1 ]; then serve_mpirun_peer; exit; fi
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
# Every rank reads the scenario and checks that it could write the outputs
# (rank 0 writes them): work in the check's shared directory, which both
# guests see at the same path.
cd "$check_shared" || fail "cd $check_shared"
cat > matrix.toml <<'TOML'
name = "lab-matrix"
[matrix]
pattern = "all-pairs"
[defaults]
transport = "rsocket"
timeout = 60
[[run]]
name = "latency"
test = "pingpong"
sizes = [64]
iterations = 50
[[run]]
name = "bandwidth"
test = "throughput"
sizes = [65536]
duration = 0.5
TOML
wait_peer_ready 120 || fail "guest 1's lab-rsh-server.py did not come up"
measured_mpirun matrix 240 "$cb" run "$PWD/matrix.toml" -o "$PWD/matrix.json" \
  --report "$PWD/matrix.html"
[ "$rc" = 0 ] || fail "mpirun -np 2 cmdbench run matrix.toml exited $rc"
python3 - matrix.json "$addr" "$peer_addr" <<'PY' || fail "the matrix results are not both pairs' RDMA figures"
import json, sys
doc = json.load(open(sys.argv[1]))
m = doc["matrix"]
print("ranks:", [(r["rank"], r["node"], r["address"]) for r in m["ranks"]])
assert m["pattern"] == "all-pairs" and len(m["ranks"]) == 2, m
# Each rank serves on its own guest's lab0 address.
assert [r["address"].rsplit(":", 1)[0] for r in m["ranks"]] == sys.argv[2:4], m["ranks"]
pairs = {}
for r in doc["runs"]:
    assert r["transport"] == "rsocket", (r["name"], r["transport"])
    assert r["status"] == "ok", (r["name"], r["pair"], r["status"], r.get("error"))
    pairs.setdefault(r["name"], []).append((r["pair"]["client"], r["pair"]["server"]))
    row = r["rows"][0]
    if r["name"] == "latency":
        p50 = row["histograms"]["rtt"]["p50"] / 2000   # ns round trip -> us one way
        assert row["metrics"]["iters"]["value"] == 50 and p50 > 0, row
        print(f"latency {r['pair']['client']} -> {r['pair']['server']}: p50 {p50:.1f} us one-way (64 B)")
    else:
        gbs = row["metrics"]["Gb/sec"]["value"]
        assert gbs > 0, row
        print(f"bandwidth {r['pair']['client']} -> {r['pair']['server']}: {gbs:.3f} Gb/s (64 KiB)")
assert pairs == {"latency": [(0, 1), (1, 0)], "bandwidth": [(0, 1), (1, 0)]}, pairs
PY
# Guest 0 sends at least 100 RoCE packets in the 2 x 50 round trips alone,
# plus the 64 KiB messages and acks (1094 in all under TCG); TCP (control,
# ORTE, PMIx) sends none through rxe0.
[ "$rdma_packets" -gt 200 ] || fail "too few RDMA packets left guest 0: $rdma_packets"
[ -s matrix.html ] || fail "no HTML report"
for pair in "0 (.*) → 1 (.*): .* us" "1 (.*) → 0 (.*): .* us" "0 (.*) → 1 (.*): .* Gb/s" "1 (.*) → 0 (.*): .* Gb/s"; do
  grep -q "title=\"$pair\"" matrix.html || fail "the HTML report does not name the pair '$pair'"
done
