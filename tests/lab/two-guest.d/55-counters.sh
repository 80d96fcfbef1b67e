# Counters around a run across the cable (docs/counters.md): `cmdbench serve`
# in guest 1, verbs-bw (RDMA WRITE) from guest 0 with
# expect = { retransmits = { max = 0 } }. A clean run must record both
# sides' rxe0 counters (packets sent and received, no retransmit) and pass;
# with netem dropping 2 % of what guest 0 sends on the cable, RC must send
# again, a retransmit counter must grow on some side, the table must say so
# and the run must exit 3 with the verdict FAIL.
# Not a single-guest check: there rxe0 sits on a dummy interface and loops
# its own traffic back inside rxe, so no qdisc ever sees it.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
if [ "$guest" = 1 ]; then
  "$cb" serve --bind "$addr" --port 7655 --quiet &
  wait_listen 7655 60 || fail "cmdbench serve did not listen"
  peer_ready
  wait
  exit
fi
netdev=${CMDBENCH_RDMA_NETDEV:?no RDMA netdev}
# $1 iterations of 64 KiB: 16 packets each at MTU 4096. Under loss each
# lost packet costs rxe a retry timeout (37 s for 300 iterations), so the
# lossy run is short: 30 iterations, ~480 packets, ~10 lost.
scenario() {
  cat <<TOML
[[run]]
name = "bw"
test = "verbs-bw"
op = "write"
timeout = 60
sizes = [65536]
iterations = $1
expect = { retransmits = { max = 0 } }
TOML
}
scenario 300 > clean.toml
scenario 30 > lossy.toml
wait_peer_ready 60 || fail "guest 1's cmdbench serve did not come up"

"$cb" run clean.toml --server "$peer_addr:7655" --quiet -o clean.json > clean.txt 2> clean.err
rc=$?
cat clean.txt clean.err
[ "$rc" = 0 ] || fail "clean run: exit $rc, want 0"
grep -qF "PASS    bw: retransmits 0" clean.txt || fail "no PASS line for retransmits"

modprobe sch_netem 2> /dev/null
tc qdisc add dev "$netdev" root netem loss 2% || fail "tc qdisc add dev $netdev netem"
trap 'tc qdisc del dev "$netdev" root 2> /dev/null' EXIT
tc qdisc show dev "$netdev"
"$cb" run lossy.toml --server "$peer_addr:7655" --quiet -o lossy.json > lossy.txt 2> lossy.err
rc=$?
tc -s qdisc show dev "$netdev"
tc qdisc del dev "$netdev" root
cat lossy.txt lossy.err
[ "$rc" = 3 ] || fail "2 % loss: exit $rc, want 3"
grep -qF "counters: retransmits +" lossy.txt || fail "no counters line in the table"
grep -qF "FAIL    bw: retransmits " lossy.txt || fail "no FAIL line for retransmits"

python3 - clean.json lossy.json "$dev" <<'PY' || fail "the JSON counters do not match the lab"
import json, sys
dev = sys.argv[3]
source = f"rdma {dev}/1"
retrans = ("completer_retry_err", "duplicate_request", "out_of_seq_request", "rcvd_seq_err")
errors = []
for path, verdict in ((sys.argv[1], "pass"), (sys.argv[2], "fail")):
    doc = json.load(open(path))
    run = doc["runs"][0]
    c = run["counters"]
    if c.get("same_machine"):
        errors.append(f"{path}: two guests read as one machine")
    total = 0
    for side in ("client", "server"):
        rxe = c[side][source]
        print(path, side, {k: v for k, v in rxe.items() if v})
        if rxe["sent_pkts"] <= 0 or rxe["rcvd_pkts"] <= 0:
            errors.append(f"{path} {side}: sent_pkts {rxe['sent_pkts']} rcvd_pkts {rxe['rcvd_pkts']}")
        nets = [v for k, v in c[side].items() if k.startswith("net ") and v]
        if not nets or nets[0]["tx_bytes"] <= 0:
            errors.append(f"{path} {side}: no interface bytes: {list(c[side])}")
        if "tcp" in c[side]:
            errors.append(f"{path} {side}: TCP counters for an RDMA run")
        total += sum(rxe.get(k, 0) for k in retrans)
    v = doc["expectations"]["verdicts"][0]
    if v["verdict"] != verdict:
        errors.append(f"{path}: verdict {v['verdict']}, want {verdict}")
    if v["value"] != total:
        errors.append(f"{path}: verdict value {v['value']} != retransmit counters {total}")
    if verdict == "fail" and total <= 0:
        errors.append(f"{path}: no retransmit counter grew under loss")
for e in errors:
    print("MISMATCH:", e)
sys.exit(1 if errors else 0)
PY
echo "counters: ok"
