# Multi-rail runs against a remote server over two rails, each a cable of its
# own (the suite boots with --rails 2: rxe0 on lab0, rxe1 on lab1 in each
# guest): `cmdbench serve` in guest 1 listens on both rails' addresses with
# room for two sessions; guest 0 runs verbs-bw with one rail per server
# address, each alone and then both at once. Each rail's data must leave
# through its own device on both sides, and both rails must overlap.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
read -r -a devs <<< "${CMDBENCH_RDMA_DEVS:-}"
read -r -a addrs <<< "${CMDBENCH_RDMA_ADDRS:-}"
read -r -a peers <<< "${CMDBENCH_RDMA_PEER_ADDRS:-}"
[ "${#devs[@]}" -ge 2 ] && [ "${#peers[@]}" -ge 2 ] ||
  fail "this check needs two rails: tools/rdma-lab --guests 2 --rails 2"
sent() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/sent_pkts"; }
if [ "$guest" = 1 ]; then
  "$cb" serve --bind "${addrs[0]},${addrs[1]}" --port 7646 --max-clients 2 &
  wait_listen 7646 60 || fail "cmdbench serve did not listen"
  peer_ready
  wait
  exit
fi
cat > rails.toml <<TOML
[[run]]
name = "bw"
test = "verbs-bw"
op = "write"
sizes = [65536]
duration = 1.0
timeout = 120
rails = [{label = "r0", server = "${peers[0]}:7646"}, {label = "r1", server = "${peers[1]}:7646"}]
TOML
wait_peer_ready 60 || fail "guest 1's cmdbench serve did not come up"
before0=$(sent "${devs[0]}") before1=$(sent "${devs[1]}")
"$cb" run rails.toml --format json -o rails.txt > rails.json 2> rails.err
rc=$?
after0=$(sent "${devs[0]}") after1=$(sent "${devs[1]}")
cat rails.txt rails.err
[ "$rc" = 0 ] || fail "cmdbench run exited $rc: $(run_failures rails.json rails.err)"
echo "sent_pkts: ${devs[0]} +$((after0 - before0)), ${devs[1]} +$((after1 - before1))"
[ "$((after0 - before0))" -gt 100 ] || fail "${devs[0]} sent only $((after0 - before0)) packets"
[ "$((after1 - before1))" -gt 100 ] || fail "${devs[1]} sent only $((after1 - before1)) packets"
python3 - rails.json "${devs[0]}" "${devs[1]}" <<'PY' || fail "results do not match the rails"
import json, sys
doc = json.load(open(sys.argv[1]))
d0, d1 = sys.argv[2:4]
by = {r["name"]: r for r in doc["runs"]}
assert list(by) == ["bw @r0", "bw @r1", "bw @all rails"], list(by)
for r in doc["runs"]:
    assert r["status"] == "ok", (r["name"], r["error"])
for label, d in (("r0", d0), ("r1", d1)):
    path = by[f"bw @{label}"]["path"]
    for side in ("client", "server"):
        assert path[side]["devices"][0]["name"] == d, (label, side, path[side])
together = by["bw @all rails"]
for r, d in zip(together["rails"], (d0, d1)):
    assert r["status"] == "ok", r
    for side in ("client", "server"):
        assert r["path"][side]["devices"][0]["name"] == d, (r["label"], side, r["path"][side])
assert together["rails_overlap_seconds"] > 0.5, together["rails_overlap_seconds"]
rows = {row["name"]: row["metrics"]["Gb/sec"]["value"] for row in together["rows"]}
assert abs(rows["64k"] - rows["r0/64k"] - rows["r1/64k"]) < 1e-9 * max(1, rows["64k"]), rows
print("all rails:", rows, "overlap", together["rails_overlap_seconds"])
PY
