# Multi-rail runs (`rails`) over two Soft-RoCE devices in one guest (the
# suite boots the lab with --rails 2: rxe0 on dummy0, rxe1 on dummy1, each
# with an address of its own): verbs-bw on each rail alone, then on both at
# once; and rails = "all", which must find both devices by itself. Every
# rail's traffic must really go through its own device (each device's
# sent_pkts grows), both rails of the all-rails run must overlap in time,
# and its total row must be the sum of the rails' rows.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
read -r -a devs <<< "${CMDBENCH_RDMA_DEVS:-}"
read -r -a addrs <<< "${CMDBENCH_RDMA_ADDRS:-}"
[ "${#devs[@]}" -ge 2 ] ||
  fail "this check needs two rails: tools/rdma-lab --rails 2 (CMDBENCH_RDMA_DEVS='${CMDBENCH_RDMA_DEVS:-}')"
sent() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/sent_pkts"; }

cat > rails.toml <<TOML
[defaults]
timeout = 120
[[run]]
name = "bw"
test = "verbs-bw"
op = "write"
sizes = [65536]
duration = 1.0
rails = [{bind_address = "${addrs[0]}"}, {bind_address = "${addrs[1]}"}]
[[run]]
name = "lat"
test = "verbs-lat"
sizes = [64]
iterations = 100
rails = "all"
TOML
before0=$(sent "${devs[0]}") before1=$(sent "${devs[1]}")
"$cb" run rails.toml --format json -o rails.txt > rails.json 2> rails.err
rc=$?
after0=$(sent "${devs[0]}") after1=$(sent "${devs[1]}")
cat rails.txt rails.err
[ "$rc" = 0 ] || fail "cmdbench run rails.toml exited $rc: $(run_failures rails.json rails.err)"
echo "sent_pkts: ${devs[0]} +$((after0 - before0)), ${devs[1]} +$((after1 - before1))"
python3 - rails.json "${devs[0]}" "${devs[1]}" <<'PY' || fail "results do not match the rails"
import json, sys
doc = json.load(open(sys.argv[1]))
d0, d1 = sys.argv[2:4]
runs = [r["name"] for r in doc["runs"]]
want = [f"bw @{d0}", f"bw @{d1}", "bw @all rails", f"lat @{d0}", f"lat @{d1}", "lat @all rails"]
assert runs == want, (runs, want)
for r in doc["runs"]:
    assert r["status"] == "ok", (r["name"], r["error"])
by = {r["name"]: r for r in doc["runs"]}
# Alone: each rail's run used its own device, on both sides.
for d in (d0, d1):
    path = by[f"bw @{d}"]["path"]
    for side in ("client", "server"):
        got = path[side]["devices"][0]["name"]
        assert got == d, (d, side, got)
# Together: both rails, each on its device, overlapping; the total adds up.
for name in ("bw @all rails", "lat @all rails"):
    rails = by[name]["rails"]
    assert [r["label"] for r in rails] == [d0, d1], rails
    for r, d in zip(rails, (d0, d1)):
        assert r["status"] == "ok" and r["path"]["client"]["devices"][0]["name"] == d, r
bw = by["bw @all rails"]
assert bw["rails_overlap_seconds"] > 0.5, bw["rails_overlap_seconds"]
rows = {row["name"]: {k: v["value"] for k, v in row["metrics"].items()} for row in bw["rows"]}
assert set(rows) == {f"{d0}/64k", f"{d1}/64k", "64k"}, sorted(rows)
total = rows["64k"]["Gb/sec"]
parts = rows[f"{d0}/64k"]["Gb/sec"] + rows[f"{d1}/64k"]["Gb/sec"]
assert total > 0 and abs(total - parts) < 1e-9 * max(1, total), (total, parts)
print(f"all rails: {total:.3f} Gb/s = " +
      " + ".join(f"{rows[f'{d}/64k']['Gb/sec']:.3f}" for d in (d0, d1)) +
      f", overlap {bw['rails_overlap_seconds']:.2f} s")
PY
# Each device carried a run's worth of packets: at least the 1 s streams'.
[ "$((after0 - before0))" -gt 100 ] || fail "${devs[0]} sent only $((after0 - before0)) packets"
[ "$((after1 - before1))" -gt 100 ] || fail "${devs[1]} sent only $((after1 - before1)) packets"
exit 0
