# Bidirectional verbs-bw must leave the CPUs to its busy-polling senders:
# while they run, each side's main thread sleeps until they are done (it
# looks for a cancel every 100 ms), never sleeping a millisecond at a time,
# which on a 2-CPU host took a CPU from a sender (and rxe's kernel work) at
# every wake-up and cost both directions' rates. Counted with strace as the
# timed sleeps (nanosleep, clock_nanosleep) of the whole run, client and
# its local server child: ~1000 a second per side with the 1 ms wake-ups,
# none with the wait. (Context switches cannot tell: rxe's posts block in
# the kernel about once a message, in perftest as well.)
command -v strace > /dev/null || fail "no strace: tools/install-deps.sh installs it"
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
# shellcheck disable=SC2154  # $addr: from lib.sh
cat > quiet.toml <<TOML
[[run]]
name = "bw-write-bidir"
test = "verbs-bw"
bind_address = "$addr"
op = "write"
sizes = [65536]
duration = 1.5
tx_depth = 16
bidirectional = true
timeout = 120
TOML
strace -f --seccomp-bpf -e trace=nanosleep,clock_nanosleep -c -o sleeps.txt \
    "$cb" run quiet.toml --format json -q > out.json 2> err.txt ||
    { tail -n 20 err.txt; fail "cmdbench run failed"; }
cat sleeps.txt
python3 - out.json sleeps.txt <<'PY' || fail "bidirectional verbs-bw slept in short steps"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
assert run["status"] == "ok", run.get("error")
names = [row["name"] for row in run["rows"]]
assert names == ["64k c2s", "64k s2c", "64k bidir"], names
sleeps = 0
for line in open(sys.argv[2]):
    f = line.split()
    if f and f[-1] in ("nanosleep", "clock_nanosleep"):
        sleeps += int(f[3])
print(f"timed sleeps in the run: {sleeps}")
assert sleeps < 100, sleeps
PY
