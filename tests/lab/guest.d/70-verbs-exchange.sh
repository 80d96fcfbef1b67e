# Plugin verbs with connect = "exchange" (QPs connected over the control
# channel, perftest without -R) on rxe: verbs-lat and verbs-bw over RC (send,
# write, read, fetch_add), UC (send, write) and UD (send); mtu = 1024 taking
# effect (the QPs' path MTU read back, and UD's default size becoming 1 KiB),
# sl, gid_index = 0 (its GID in the facts; the default takes 1); a
# gid_index with no GID, an
# unknown device, and a port whose interface is down, each failing at once
# naming what there is; rdma_cm's own checks of device and traffic_class.
# Last, ibv_rc_pingpong (rdma-core's own exchange-mode example) on the same
# device and GID, to show the device takes QPs connected that way.
need_cmdbench
read -r -a devs <<< "${CMDBENCH_RDMA_DEVS:-$dev}"
read -r -a netdevs <<< "${CMDBENCH_RDMA_NETDEVS:-$CMDBENCH_RDMA_NETDEV}"
# The port to take down: another rail's if there is one, so rxe0 stays up.
down_dev=${devs[${#devs[@]} - 1]}
down_netdev=${netdevs[${#netdevs[@]} - 1]}

runs() { # NAME TEST KEY=VALUE...: one [[run]] table
  printf '[[run]]\nname = "%s"\ntest = "%s"\n' "$1" "$2"
  shift 2
  printf '%s\n' "$@"
}
{
  printf '[defaults]\ntimeout = 60\nconnect = "exchange"\niterations = 100\n'
  runs rc-send verbs-lat 'sizes = [2, 4096]' 'verify = true'
  runs rc-write verbs-lat 'op = "write"' 'verify = true'
  runs rc-read verbs-lat 'op = "read"' 'verify = true'
  runs rc-fetch-add verbs-lat 'op = "fetch_add"' 'verify = true' 'qps = 2'
  runs rc-send-bw verbs-bw 'sizes = [4096]' 'qps = 2' 'threads = 2'
  runs rc-write-bw verbs-bw 'op = "write"' 'sizes = [4096]'
  runs rc-read-bw verbs-bw 'op = "read"' 'sizes = [4096]'
  runs rc-fetch-add-bw verbs-bw 'op = "fetch_add"'
  runs uc-send verbs-lat 'qp_type = "uc"' 'verify = true'
  runs uc-write verbs-lat 'qp_type = "uc"' 'op = "write"' 'verify = true'
  runs uc-send-bw verbs-bw 'qp_type = "uc"' 'sizes = [4096]'
  runs uc-write-bw verbs-bw 'qp_type = "uc"' 'op = "write"' 'sizes = [4096]'
  runs ud-send verbs-lat 'qp_type = "ud"' 'verify = true' 'qps = 2' 'threads = 2'
  runs ud-send-bw verbs-bw 'qp_type = "ud"'
  runs mtu-1k verbs-lat 'op = "write"' 'mtu = 1024' 'sizes = [4096]' 'verify = true'
  runs mtu-1k-ud verbs-bw 'qp_type = "ud"' 'mtu = 1024'
  runs sl-3 verbs-lat 'sl = 3' 'traffic_class = 32'
  runs gid-0 verbs-lat "device = \"$dev\"" 'gid_index = 0'
  runs gid-empty verbs-lat 'gid_index = 200'
  runs no-device verbs-lat 'device = "mlx5_9"'
  runs cm-tos verbs-lat 'connect = "rdma_cm"' "bind_address = \"$addr\"" 'traffic_class = 32'
  runs cm-device verbs-lat 'connect = "rdma_cm"' "bind_address = \"$addr\"" 'device = "mlx5_9"'
} > x.toml
CMDBENCH_LOG_LEVEL=debug run_scenario x.toml 1 # the bad ones fail
check_results x.json "$dev" x.err <<'PY' || fail "results do not match"
dev, err = sys.argv[2], open(sys.argv[3]).read()
bad = {"gid-empty": "gid_index = 200 is an empty GID on " + dev + " port 1; valid indexes: 0, 1",
       "no-device": 'device = "mlx5_9" is not an RDMA device here; RDMA devices: ' + dev,
       "cm-device": 'device = "mlx5_9" does not agree with bind_address'}
for name, r in runs.items():
    if name in bad:
        print(f"{name:16s} {r['status']} after {r['wall_seconds']:.2f} s: {r['error']}")
        assert r["status"] == "failed" and bad[name] in r["error"], (name, r)
        continue
    assert r["status"] == "ok", (name, r["status"], r.get("error"))
    assert r["rows"], name
    for row in r["rows"]:
        m = metrics(row)
        key = "usec/xfer" if "usec/xfer" in m else "Gb/sec"
        assert m[key] > 0, (name, m)
        assert m.get("lost", 0) == 0, (name, m)
        print(f"{name:16s} {row['name']:7s} {key} {m[key]:.3f}")
# The facts each side logs once connected (debug): one line per run and side.
facts = [l for l in err.splitlines() if "verbs: connect exchange," in l]
assert len(facts) >= 2 * 18, len(facts)
assert any("path MTU 1024," in l for l in facts), "no QP with path MTU 1024"
# The default takes the RoCE v2 GID of the IPv4 address (index 1 on rxe),
# gid_index = 0 the link-local one.
assert any("GID index 1 0000:0000:0000:0000:0000:ffff:" in l for l in facts), "no GID index 1"
assert any("GID index 0 fe80:" in l for l in facts), "no GID index 0"
assert all(f"device {dev} port 1 (Ethernet)" in l for l in facts), facts[0]
assert any("verbs: connect rdma_cm," in l for l in err.splitlines()), "no rdma_cm facts"
assert runs["mtu-1k-ud"]["rows"][0]["name"] == "1k", runs["mtu-1k-ud"]["rows"]
print(facts[0])
PY

# A port whose interface is down fails at once, naming it and its state.
ip link set "$down_netdev" down || fail "ip link set $down_netdev down"
{
  printf '[defaults]\ntimeout = 60\nconnect = "exchange"\n'
  runs down verbs-lat "device = \"$down_dev\""
} > down.toml
t0=$EPOCHREALTIME
run_scenario down.toml 1
t1=$EPOCHREALTIME
ip link set "$down_netdev" up || fail "ip link set $down_netdev up"
check_results down.json "$down_dev" "$t0" "$t1" x.json <<'PY' || fail "the down port's run does not match"
down_dev, t0, t1 = sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
# What any run failing at the same point costs here (start, control channel,
# the path's description), from the unknown device's run: the port's state
# must add no wait of its own to that.
import json
start = next(r for r in json.load(open(sys.argv[5]))["runs"] if r["name"] == "no-device")
r = runs["down"]
print(f"down port: {r['status']} after {r['wall_seconds']:.2f} s ({t1 - t0:.2f} s with "
      f"cmdbench's start; the unknown device's run: {start['wall_seconds']:.2f} s): {r['error']}")
assert r["status"] == "failed", r["status"]
assert f"port 1 of {down_dev} is DOWN (not ACTIVE)" in r["error"], r["error"]
limit = 2 + start["wall_seconds"]
assert r["wall_seconds"] < limit, f"want it named within 2 s ({limit:.2f} s with the start)"
PY

# rdma-core's exchange-mode example on the same device and GID.
command -v ibv_rc_pingpong > /dev/null || fail "no ibv_rc_pingpong in the lab image (ibverbs-utils)"
ibv_rc_pingpong -d "$dev" -g 0 -n 100 -p 18515 > pp-server.log 2>&1 &
pp=$!
retry 10 ibv_rc_pingpong -d "$dev" -g 0 -n 100 -p 18515 127.0.0.1 > pp-client.log 2>&1 ||
  { cat pp-server.log pp-client.log; kill "$pp" 2>/dev/null; fail "ibv_rc_pingpong failed"; }
wait "$pp" || { cat pp-server.log; fail "ibv_rc_pingpong server failed"; }
grep "iters in" pp-client.log
