# cm-steps (cmtime's 17 RDMA CM steps) from a scenario: one client, one
# server, real QPs, the default 100 connections over rxe. Every step row must
# be filled where cmtime fills it, and zero where it is not.
bin=${CMDBENCH_BINARY_DIR:-$CMDBENCH_SOURCE_DIR/build}/bin/cmdbench
[ -x "$bin" ] || fail "no cmdbench binary at $bin (set CMDBENCH_BINARY_DIR)"
cat > cm.toml <<TOML
[[run]]
test = "cm-steps"
bind_address = "$addr"
timeout = 240
TOML
t0=$EPOCHREALTIME
timeout 280 "$bin" run cm.toml --format json > cm.json 2> cm.err
rc=$?
echo "cmdbench exit $rc after $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}') s"
cat cm.err
[ "$rc" = 0 ] || { cat cm.json; fail "cm-steps run failed (exit $rc)"; }
cat > check_steps.py <<'PY'
#!/usr/bin/env python3
"""Checks a cm-steps JSON result against cmtime's step table: which rows
carry per-connection samples and totals on the client and on the server, and
cmtime's arithmetic between the columns. Usage: check_steps.py FILE CONNS
[PREFIX]. Prints the table it checked; exits 1 listing every mismatch."""
import json
import sys

STEPS = ["full connect", "create id", "bind addr", "resolve addr", "resolve route",
         "create qp", "init qp attr", "init qp", "rtr qp attr", "rtr qp", "rts qp attr",
         "rts qp", "cm connect", "establish", "disconnect", "destroy id", "destroy qp"]
# step: (per-connection samples, whole-step total), real QPs.
CLIENT = {
    "full connect": (True, True), "create id": (True, True), "bind addr": (True, True),
    "resolve addr": (True, True), "resolve route": (True, True), "create qp": (True, True),
    "init qp attr": (True, False), "init qp": (True, True), "rtr qp attr": (True, False),
    "rtr qp": (True, False), "rts qp attr": (True, False), "rts qp": (True, False),
    "cm connect": (True, True), "establish": (True, False), "disconnect": (True, True),
    "destroy id": (True, True), "destroy qp": (True, True),
}
SERVER = {s: (False, False) for s in STEPS}
SERVER.update({
    "create qp": (True, False), "init qp attr": (True, False), "init qp": (True, False),
    "rtr qp attr": (True, False), "rtr qp": (True, False), "rts qp attr": (True, False),
    "rts qp": (True, False), "cm connect": (False, True), "disconnect": (True, True),
    "destroy id": (True, True), "destroy qp": (True, True),
})


def main():
    path, conns = sys.argv[1], int(sys.argv[2])
    prefix = sys.argv[3] if len(sys.argv) > 3 else ""
    run = json.load(open(path))["runs"][0]
    if run["status"] != "ok":
        print("run status", run["status"], run["error"])
        return 1
    rows = {r["name"]: r for r in run["rows"]}
    errors = []
    for side, expect, pre in (("client", CLIENT, prefix), ("server", SERVER, "server " + prefix)):
        print(f"{side}: {conns} connections")
        for step in STEPS:
            row = rows.get(pre + step)
            if row is None:
                errors.append(f"{side} {step}: no row")
                continue
            m = {k: v["value"] for k, v in row["metrics"].items()}
            count = row["histograms"]["conn"]["count"]
            print(f"  {step:13s} {m['avg/conn']:10.0f} {m['total(us)']:10.0f} "
                  f"{m['us/conn']:10.0f} {m['sum(us)']:10.0f} {m['max(us)']:10.0f} "
                  f"{m['min(us)']:10.0f}  n={count}")
            samples, total = expect[step]
            if samples and count != conns:
                errors.append(f"{side} {step}: {count} samples, want {conns}")
            if not samples and count != 0:
                errors.append(f"{side} {step}: {count} samples, want none")
            if samples and m["max(us)"] < m["min(us)"]:
                errors.append(f"{side} {step}: max < min")
            if total and m["total(us)"] <= 0:
                errors.append(f"{side} {step}: total is 0, want > 0")
            if not total and m["total(us)"] != 0:
                errors.append(f"{side} {step}: total {m['total(us)']}, want 0")
            if m["avg/conn"] != m["total(us)"] // conns or m["us/conn"] != m["sum(us)"] // conns:
                errors.append(f"{side} {step}: avg/conn or us/conn is not total/N, sum/N")
            if step == "full connect" and m["sum(us)"] != 0:
                errors.append(f"{side} full connect: sum must be forced to 0")
            if m["conns"] != conns:
                errors.append(f"{side} {step}: conns {m['conns']}, want {conns}")
    for e in errors:
        print("MISMATCH:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

PY
python3 check_steps.py cm.json 100 ||
  fail "cm-steps rows do not match the spec"
