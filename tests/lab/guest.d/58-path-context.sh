# Every run records its data path (runs[].path, docs/results.md) from what
# the real kernel says: the rsocket, verbs and cm-steps runs name the lab's
# Soft-RoCE device on both sides (driver rxe, software RDMA, its netdev,
# Ethernet link layer, the RoCE v2 GID of the address, the active MTU
# ibv_devinfo gives) and the TCP run the
# interface only; the table, the comparison and the HTML report say that
# the figures measure Soft-RoCE's software path, not RDMA hardware.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
cat > path.toml <<'TOML'
baseline = "tcp"
[defaults]
timeout = 60
[[run]]
name = "latency/tcp"
group = "latency"
variant = "tcp"
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 50
[[run]]
name = "latency/rsocket"
group = "latency"
variant = "rsocket"
test = "pingpong"
transport = "rsocket"
sizes = [64]
iterations = 50
[[run]]
name = "latency/verbs"
group = "latency"
variant = "verbs"
test = "verbs-lat"
op = "send"
sizes = [64]
iterations = 50
TOML
"$cb" run path.toml -o path.json --report path.html > path.txt 2> path.err
rc=$?
cat path.err
echo "--- table"; cat path.txt
[ "$rc" = 0 ] || fail "cmdbench run path.toml exited $rc"
# shellcheck disable=SC2154  # $dev: from lib.sh
netdev=$(cat "/sys/class/infiniband/$dev/parent")
# What libibverbs says of the port (sysfs does not have it).
active_mtu=$(ibv_devinfo -d "$dev" -i 1 | awk '/active_mtu:/ {print $2; exit}')
echo "ibv_devinfo: active_mtu $active_mtu"
# shellcheck disable=SC2154  # $addr: from lib.sh
python3 - path.json "$dev" "$addr" "$netdev" "$active_mtu" <<'PY' || fail "runs[].path does not match the lab"
import json, sys
doc = json.load(open(sys.argv[1]))
dev, addr, netdev, active_mtu = sys.argv[2:6]
errors = []
def want(what, got, expected):
    if got != expected:
        errors.append(f"{what}: {got!r}, want {expected!r}")
for run in doc["runs"]:
    name, path = run["name"], run["path"]
    print(name, json.dumps(path, indent=1))
    want(f"{name} status", run["status"], "ok")
    rdma = run["transport"] != "tcp"
    want(f"{name} software_rdma", path["software_rdma"], rdma)
    for side in ("client", "server"):
        s, at = path[side], f"{name} {side}"
        want(f"{at} address", s["address"], addr)
        want(f"{at} interface", s["interface"]["name"], netdev)
        if not rdma:
            want(f"{at} rdma", s["rdma"], None)
            want(f"{at} devices", s["devices"], [])
            continue
        want(f"{at} device", s["rdma"]["device"], dev)
        want(f"{at} port", s["rdma"]["port"], 1)
        want(f"{at} gid_type", s["rdma"]["gid_type"], "RoCE v2")
        d = s["devices"][0]
        want(f"{at} driver", d["driver"], "rxe")
        want(f"{at} software", d["software"], True)
        want(f"{at} netdev", d["netdev"], netdev)
        want(f"{at} link_layer", d["link_layer"], "Ethernet")
        want(f"{at} port_state", d["port_state"], "ACTIVE")
        want(f"{at} active_mtu", d["active_mtu"], active_mtu)
        gid = open(f"/sys/class/infiniband/{dev}/ports/1/gids/{s['rdma']['gid_index']}").read()
        if not gid.strip().endswith("%02x%02x:%02x%02x" % tuple(int(b) for b in addr.split("."))):
            errors.append(f"{at}: GID {s['rdma']['gid_index']} is {gid.strip()}, not {addr}")
for e in errors:
    print("MISMATCH:", e)
sys.exit(1 if errors else 0)
PY
notice="software RDMA (rxe): these figures measure Soft-RoCE's software path in the kernel, not RDMA hardware"
grep -qF "path: client and server $dev port 1 GID " path.txt || fail "no path line naming $dev in the table"
grep -qF "! $notice" path.txt || fail "the table does not say software RDMA"
grep -A1 "^== comparison" path.txt | grep -qF "! $notice" ||
  fail "the comparison (what the quick start prints) does not say software RDMA"
grep -qF 'id="software-rdma">Software RDMA (rxe)' path.html || fail "no software RDMA banner in the HTML"
grep -qF "<caption>Data path</caption>" path.html || fail "no data path table in the HTML"
echo "path context: ok"
