# shellcheck shell=bash
# The matrix per rail: `cmdbench run` under mpirun, one rank per guest, a
# verbs-bw run with rails = "all" (the suite boots with --rails 2: rxe0 on
# lab0, rxe1 on lab1 in each guest). Each rank finds its own two devices;
# both ordered pairs run on rxe0 alone, on rxe1 alone, then on both at once,
# and each rail's traffic must leave through its own device and reach the
# peer's device of the same rail.
if [ "$guest" = 1 ]; then serve_mpirun_peer; exit; fi
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
read -r -a devs <<< "${CMDBENCH_RDMA_DEVS:-}"
[ "${#devs[@]}" -ge 2 ] || fail "this check needs two rails: tools/rdma-lab --guests 2 --rails 2"
sent() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/sent_pkts"; }
cd "$check_shared" || fail "cd $check_shared"
cat > rails-matrix.toml <<'TOML'
[matrix]
pattern = "all-pairs"
[[run]]
name = "bw"
test = "verbs-bw"
op = "write"
sizes = [65536]
duration = 0.5
timeout = 120
rails = "all"
TOML
wait_peer_ready 120 || fail "guest 1's lab-rsh-server.py did not come up"
before1=$(sent "${devs[1]}")
measured_mpirun rails 300 "$cb" run "$PWD/rails-matrix.toml" -o "$PWD/rails-matrix.json"
after1=$(sent "${devs[1]}")
[ "$rc" = 0 ] || fail "mpirun -np 2 cmdbench run rails-matrix.toml exited $rc"
echo "sent_pkts: ${devs[1]} +$((after1 - before1))"
[ "$((after1 - before1))" -gt 100 ] || fail "${devs[1]} sent only $((after1 - before1)) packets"
python3 - rails-matrix.json "${devs[0]}" "${devs[1]}" <<'PY' || fail "the results are not a matrix per rail"
import json, sys
doc = json.load(open(sys.argv[1]))
d0, d1 = sys.argv[2:4]
pairs = {}
for r in doc["runs"]:
    assert r["status"] == "ok", (r["name"], r["pair"], r.get("error"))
    pairs.setdefault(r["name"], []).append((r["pair"]["client"], r["pair"]["server"]))
want = [f"bw @{d0}", f"bw @{d1}", "bw @all rails"]
assert list(pairs) == want, list(pairs)
for name in want:
    assert sorted(pairs[name]) == [(0, 1), (1, 0)], (name, pairs[name])
for r in doc["runs"]:
    label = r["name"].split("@", 1)[1]
    parts = r["rails"] if label == "all rails" else [dict(r, label=label)]
    assert len(parts) == (2 if label == "all rails" else 1), r["name"]
    for part in parts:
        for side in ("client", "server"):
            # A matrix document lists each path end once; a pair refers to it.
            end = doc["matrix"]["shared"]["paths"][part["path"][side]]
            dev = end["devices"][0]["name"]
            assert dev == part["label"], (r["name"], r["pair"], side, dev)
    gbs = {row["name"]: row["metrics"]["Gb/sec"]["value"] for row in r["rows"]}
    print(f"{r['name']} {r['pair']['client']} -> {r['pair']['server']}: " +
          ", ".join(f"{k} {v:.3f} Gb/s" for k, v in gbs.items()))
    assert all(v > 0 for v in gbs.values()), gbs
PY
