# Expectations judged against the lab's real link rate: verbs-bw over the
# Soft-RoCE device, whose port rate sysfs gives as "2.5 Gb/sec (1X SDR)",
# once with a fraction no link reaches (link_fraction = 100: exit 3, the FAIL
# naming the device and its rate) and once with a tiny one (exit 0, PASS).
# The JSON must carry the rate as sysfs says it and as a number, each row's
# fraction of it, and the verdicts; `cmdbench compare` judges the saved
# failing file again (exit 3).
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
# shellcheck disable=SC2154  # $dev: from lib.sh
rate_file=/sys/class/infiniband/$dev/ports/1/rate
[ -r "$rate_file" ] || fail "no $rate_file"
rate=$(cat "$rate_file")
echo "sysfs: $dev rate '$rate'"
# shellcheck disable=SC2154  # $addr: from lib.sh
scenario() { # $1 = link_fraction
  cat <<TOML
[[run]]
name = "bw"
test = "verbs-bw"
op = "write"
bind_address = "$addr"
timeout = 60
sizes = [65536]
iterations = 200
expect = { link_fraction = $1 }
TOML
}
scenario 100 > fail.toml
scenario 0.000001 > pass.toml

"$cb" run fail.toml --quiet -o fail.json > fail.txt 2> fail.err
rc=$?
cat fail.txt fail.err
[ "$rc" = 3 ] || fail "link_fraction = 100: exit $rc, want 3"
grep -qF "FAIL    bw 64k: bandwidth " fail.txt || fail "no FAIL line for row 64k in the table"
grep -qF " of $dev " fail.err || fail "the failure on stderr does not name $dev"
grep -qF "1 of 1 expectations failed" fail.err || fail "no summary on stderr"

"$cb" run pass.toml --quiet -o pass.json > pass.txt 2> pass.err
rc=$?
cat pass.txt pass.err
[ "$rc" = 0 ] || fail "link_fraction = 0.000001: exit $rc, want 0"
grep -qF "PASS    bw 64k: bandwidth " pass.txt || fail "no PASS line in the table"
grep -qF "link: $dev " pass.txt || fail "no link line in the table"

python3 - fail.json pass.json "$dev" "$rate" <<'PY' || fail "the JSON verdicts do not match the lab"
import json, re, sys
dev, rate = sys.argv[3], sys.argv[4]
gbps = float(re.match(r"([0-9.]+) Gb/sec", rate).group(1))
errors = []
def want(what, got, expected):
    if got != expected:
        errors.append(f"{what}: {got!r}, want {expected!r}")
for path, verdict in ((sys.argv[1], "fail"), (sys.argv[2], "pass")):
    doc = json.load(open(path))
    run = doc["runs"][0]
    want(f"{path} status", run["status"], "ok")
    want(f"{path} link", run["link"], {"name": dev, "rate": rate, "rate_bps": gbps * 1e9})
    row = run["rows"][0]
    measured = row["metrics"]["Gb/sec"]["value"]
    if abs(row["link_fraction"] - measured / gbps) > 1e-9:
        errors.append(f"{path} link_fraction {row['link_fraction']} != {measured} / {gbps}")
    e = doc["expectations"]
    want(f"{path} total", e["total"], 1)
    want(f"{path} all_held", e["all_held"], verdict == "pass")
    v = e["verdicts"][0]
    print(path, json.dumps(v))
    want(f"{path} verdict", v["verdict"], verdict)
    want(f"{path} check", v["check"], "link_fraction")
    want(f"{path} link name", v["link"]["name"], dev)
    want(f"{path} link rate_bps", v["link"]["rate_bps"], gbps * 1e9)
    want(f"{path} value", v["value"], row["link_fraction"])
for e in errors:
    print("MISMATCH:", e)
sys.exit(1 if errors else 0)
PY

"$cb" compare fail.json > compare.txt 2>&1
rc=$?
cat compare.txt
[ "$rc" = 3 ] || fail "compare fail.json: exit $rc, want 3 (the saved verdict judged again)"
grep -qF "1 of 1 expectations failed" compare.txt || fail "compare does not show the verdict"
echo "verdicts: ok"
