#!/usr/bin/env python3
"""Prints where tools/test.sh spent its time.

    tools/test-timing.py STAGES.tsv BUDGET_SECONDS [JUNIT.xml ...]

STAGES.tsv: one line per stage, "name<TAB>seconds<TAB>exit status<TAB>note",
in the order they ended (tools/test.sh writes it). The note is empty, or
"background" for a stage that ran beside the others, or "total" for the
suite's whole wall time (without one, the sum of the stages). JUNIT.xml: ctest --output-junit
files; their tests' own times give the 15 slowest tests, and each failed
test's output is repeated at the end (its FAIL lines and its last lines), so
that the end of a long log says what failed. Above the budget it prints a
warning (machines are noisy: it does not fail the run).
"""
import sys
import xml.etree.ElementTree as ET


def fmt(seconds):
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def read_stages(path):
    stages = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                note = parts[3] if len(parts) > 3 else ""
                stages.append((parts[0], float(parts[1]), parts[2], note))
    return stages


def read_tests(path):
    """(seconds, name, status, output) of every test case of one ctest JUnit file."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"test-timing: {path}: {e}", file=sys.stderr)
        return []
    tests = []
    for case in root.iter("testcase"):
        status = case.get("status", "run")
        if case.find("failure") is not None:
            status = "failed"
        elif case.find("skipped") is not None:
            status = "skipped"
        out = case.findtext("system-out") or ""
        tests.append((float(case.get("time", "0")), case.get("name", "?"), status, out))
    return tests


def print_failure(name, output, tail=30, most_fail_lines=20):
    """A failed test's FAIL lines (a lab suite's failed checks) and its last lines."""
    lines = output.rstrip("\n").split("\n") if output else []
    print()
    print(f"-- {name}")
    fails = [l for l in lines[:-tail] if "FAIL" in l][:most_fail_lines]
    if fails:
        print("   its FAIL lines:")
        for line in fails:
            print(f"   | {line}")
        print(f"   its last {min(tail, len(lines))} lines:")
    for line in lines[-tail:]:
        print(f"   | {line}")


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    stages = read_stages(argv[1])
    budget = float(argv[2])
    totals = [s for _, s, _, note in stages if note == "total"]
    parts = [st for st in stages if st[3] != "total"]
    total = totals[-1] if totals else sum(s for _, s, _, _ in parts)

    print()
    print("== where the time went (wall time of each stage) ==")
    width = max([len(n) for n, _, _, _ in parts] + [len("whole suite")])
    for name, seconds, rc, note in parts:
        mark = "" if rc == "0" else f"  (exit {rc})"
        if note == "background":
            mark += "  (in the background, beside the stages around it)"
        print(f"  {name:<{width}}  {fmt(seconds):>7}  {seconds:8.1f} s{mark}")
    print(f"  {'whole suite':<{width}}  {fmt(total):>7}  {total:8.1f} s")

    tests = []
    for path in argv[3:]:
        label = path.split("/")[-2] if "/" in path else path
        tests += [(t, f"{label}: {n}", st, out) for t, n, st, out in read_tests(path)]
    if tests:
        tests.sort(key=lambda t: t[0], reverse=True)
        print()
        print(f"== the 15 slowest of {len(tests)} tests (ctest's own timing) ==")
        for seconds, name, status, _ in tests[:15]:
            mark = "" if status in ("run", "passed") else f"  ({status})"
            print(f"  {seconds:8.1f} s  {name}{mark}")
    failed = [(name, out) for _, name, status, out in tests if status == "failed"]
    if failed:
        print()
        print(f"== what failed: {len(failed)} test(s), the end of each one's output ==")
        for name, out in failed[:10]:
            print_failure(name, out)
        if len(failed) > 10:
            print(f"   ... and {len(failed) - 10} more (ctest's log above has them all)")

    if total > budget:
        print()
        print(f"WARNING: the suite took {fmt(total)}, above its budget of {fmt(budget)} "
              f"({int(budget)} s): see the table above for where the time went")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
