# Plugin verbs fails fast, on both sides, where nothing can work:
# - rxe0's interface down (its port DOWN): a local run, and a run against a
#   `cmdbench serve --once`, fail within 3 s naming device, port and state,
#   and the server's run ends as soon (perftest: "Port number 1 state is
#   Down" at once; cmdbench used to wait for rdma_cm to give up);
# - inline_size = 4096, more than rxe's QPs take: the client fails and the
#   `cmdbench serve --once` waiting for its QPs ends within 3 s too;
# - a server reached at an address on no RDMA device: the reason lists the
#   devices there are and their addresses, and does not advise loading
#   Soft-RoCE (there is a device).
need_cmdbench
netdev=${CMDBENCH_RDMA_NETDEV:?not in the lab}

# secs_since T0: seconds since $EPOCHREALTIME was T0.
secs_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
# within SECS LIMIT WHAT: fails when SECS > LIMIT.
within() {
  echo "--- $3: ${1} s"
  awk -v s="$1" -v l="$2" 'BEGIN { exit !(s <= l) }' || fail "$3 took $1 s, more than $2 s"
}
# serve_once NAME PORT [ADDR]: `cmdbench serve --once` on ADDR (default the
# RDMA address) in the background, listening; its pid in $serve.
serve_once() {
  "$cb" serve --bind "${3:-$addr}" --port "$2" --once > "$1-serve.log" 2>&1 &
  serve=$!
  wait_listen "$2" 30 || { cat "$1-serve.log"; fail "$1: cmdbench serve did not listen"; }
}
# serve_end NAME LIMIT: waits up to 30 s for the serve to end; fails when it
# took more than LIMIT seconds from $t0.
serve_end() {
  local i
  for ((i = 0; i < 300; i++)); do
    kill -0 "$serve" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$serve" 2>/dev/null && { kill "$serve"; cat "$1-serve.log"; fail "$1: the server's run did not end"; }
  wait "$serve"
  within "$(secs_since "$t0")" "$2" "$1: the server's end"
  cat "$1-serve.log"
}

write_scenario lat.toml 60 <<TOML
[[run]]
name = "lat"
test = "verbs-lat"
sizes = [64]
iterations = 100
TOML
down() { ip link set "$netdev" up; }
trap down EXIT
ip link set "$netdev" down
for ((i = 0; i < 50; i++)); do
  ibv_devinfo -d "$dev" | grep -q PORT_DOWN && break
  sleep 0.1
done
ibv_devinfo -d "$dev" | grep -q PORT_DOWN || fail "$dev's port is not DOWN with $netdev down"

t0=$EPOCHREALTIME
run_scenario lat.toml 1
within "$(secs_since "$t0")" 3 "port down, local run"
grep -q "port 1 of $dev is DOWN (not ACTIVE)" lat.json || fail "port down: the port is not named"

serve_once down 7671
t0=$EPOCHREALTIME
"$cb" run lat.toml --server "$addr:7671" --format json > down.json 2> down.err
rc=$?
cat down.err
[ "$rc" = 1 ] || fail "port down with serve: exit $rc, want 1"
within "$(secs_since "$t0")" 3 "port down, the client against serve"
serve_end down 3
grep -q "port 1 of $dev is DOWN" down.json down-serve.log || fail "port down with serve: not named"
down
trap - EXIT
for ((i = 0; i < 100; i++)); do
  ibv_devinfo -d "$dev" | grep -q PORT_ACTIVE && break
  sleep 0.1
done

write_scenario inline.toml 60 <<TOML
[[run]]
name = "inline"
test = "verbs-bw"
op = "write"
sizes = [4096]
iterations = 100
inline_size = 4096
TOML
serve_once inline 7672
t0=$EPOCHREALTIME
"$cb" run inline.toml --server "$addr:7672" --format json > inline.json 2> inline.err
rc=$?
cat inline.err
[ "$rc" = 1 ] || fail "inline_size = 4096: exit $rc, want 1"
within "$(secs_since "$t0")" 3 "inline_size = 4096, the client"
serve_end inline 3
grep -q "inline_size = 4096 is more than this QP accepts on $dev" inline.json ||
  fail "inline_size = 4096: not named"

# An address of this machine on no RDMA device: the server is reached there.
other=10.99.0.1
ip addr add "$other/32" dev lo || fail "ip addr add $other"
write_scenario other.toml 60 <<TOML
[[run]]
name = "other"
test = "verbs-lat"
sizes = [64]
iterations = 10
bind_address = ""
TOML
serve_once other 7673 "$other"
"$cb" run other.toml --server "$other:7673" --allow-skip --format json > other.json 2> other.err
cat other.err
serve_end other 30
ip addr del "$other/32" dev lo
check_results other.json "$dev" "$addr" <<'PY' || fail "results do not match"
dev, addr = sys.argv[2:4]
r = runs["other"]
print(r["status"], r["error"])
assert r["status"] in ("skipped", "failed"), r["status"]
assert "10.99.0.1" in r["error"] and f"{dev} (" in r["error"] and addr in r["error"], r["error"]
assert "Soft-RoCE" not in r["error"], r["error"]
PY
