# Plugin verbs at perftest's defaults over rxe: verbs-bw's iterations by op
# (ib_write_bw 5000, ib_send_bw 1000), a post list (post_list = 8 with
# cq_mod = 16) moving every message, the peak in every row (at least the
# average), the inline size used said in the log (0 on rxe at the default,
# as perftest disables it there; 64 when set), and a UD size above the MTU
# refused naming it, also when it is 65536.
need_cmdbench
counter=/sys/class/infiniband/$dev/ports/1/hw_counters/sent_pkts
[ -r "$counter" ] || fail "no $counter"
write_scenario defaults.toml 120 lab-verbs-defaults <<TOML
[[run]]
name = "bw-write"
test = "verbs-bw"
op = "write"
sizes = [4096]
[[run]]
name = "bw-send"
test = "verbs-bw"
sizes = [4096]
[[run]]
name = "bw-post-list"
test = "verbs-bw"
op = "write"
sizes = [4096]
iterations = 2000
post_list = 8
cq_mod = 16
[[run]]
name = "lat-inline-default"
test = "verbs-lat"
sizes = [64]
iterations = 100
[[run]]
name = "lat-inline-set"
test = "verbs-lat"
sizes = [64]
iterations = 100
inline_size = 64
[[run]]
name = "ud-65536"
test = "verbs-bw"
qp_type = "ud"
sizes = [65536]
iterations = 10
TOML
before=$(cat "$counter")
run_scenario defaults.toml 1 # ud-65536 is refused
sent=$(($(cat "$counter") - before))
echo "rxe0 sent $sent packets"
check_results defaults.json "$sent" <<'PY' || fail "results do not match"
sent = int(sys.argv[2])
want = {"bw-write": 5000, "bw-send": 1000, "bw-post-list": 2000}
for name, xfers in want.items():
    r = runs[name]
    assert r["status"] == "ok", (name, r["status"], r["error"])
    m = metrics(r["rows"][0])
    print(name, m["xfers"], m["Gb/sec"], m["peak Gb/sec"])
    assert m["xfers"] == xfers, (name, m["xfers"], xfers)
    assert m["peak Gb/sec"] >= m["Gb/sec"] > 0, (name, m)
# Every 4 KiB message is at least one packet.
assert sent >= sum(want.values()), sent
for name in ("lat-inline-default", "lat-inline-set"):
    assert runs[name]["status"] == "ok", runs[name]
ud = runs["ud-65536"]
assert ud["status"] == "failed", ud
assert "65536 bytes is more than the path MTU" in ud["error"], ud["error"]
PY
grep -q "verbs-lat: inline data up to 0 bytes (inline_size = -1 on $dev: perftest uses no inline data" defaults.err ||
  fail "the default inline size on $dev is not logged as 0"
grep -q "verbs-lat: inline data up to 64 bytes (inline_size as set) on $dev" defaults.err ||
  fail "a set inline size is not logged"
