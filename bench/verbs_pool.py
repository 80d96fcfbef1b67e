#!/usr/bin/env python3
"""Pools the repetitions of several bench/verbs-lab.sh runs (their JSON
files, bench/results/verbs-*.json) per case and figure, and compares
cmdbench with perftest over all of them.

Usage: bench/verbs_pool.py [--case NAME] FILE.json [FILE.json ...]

One run's median of 8-12 repetitions can move by 5-10% under the lab's
emulation (a case whose every repetition lands in one of two regimes, as
SEND in event mode does, moves most), so a 1-2% difference between the
tools shows only over many runs, from several boots. For each case and
figure this prints each run's own ratio (median of cmdbench's repetitions
over median of perftest's, as the run reported it) and the pooled one:
each repetition's cmdbench figure over the perftest figure of the same
repetition (the two ran back to back, in alternating order), the median
of those ratios over every run, with a 90% bootstrap interval over the
pairs. Pairing keeps boots of different speed from widening the interval;
a repetition that one tool did not finish is left out."""

import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import interval_text, paired_interval  # noqa: E402

SCHEMA = "cmdbench-bench-verbs"
LOWER_IS_BETTER = ("median_us", "avg_us", "p999_us")


def load(path):
    """The run's measurements, {tool: {case: {figure: [per repetition]}}}."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"verbs_pool.py: {path}: {e}")
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        sys.exit(f"verbs_pool.py: {path}: not a bench/verbs-lab.sh results file "
                 f"(schema {SCHEMA!r})")
    m = doc.get("measurements")
    if not isinstance(m, dict) or not {"cmdbench", "perftest"} <= set(m):
        sys.exit(f"verbs_pool.py: {path}: no measurements of both tools")
    return m


def figures(m, tool, case, fig):
    """Per repetition, None where the tool gave no figure."""
    vals = m.get(tool, {}).get(case, {}).get(fig) or []
    return [v if isinstance(v, (int, float)) else None for v in vals]


def run_ratio(c, p):
    """The run's own figure: median over median, as verbs-lab.sh reports."""
    c = [v for v in c if v is not None]
    p = [v for v in p if v is not None and v > 0]
    if not c or not p:
        return None
    return statistics.median(c) / statistics.median(p)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", metavar="FILE.json")
    ap.add_argument("--case", help="only this case (a name as lat-send-4096-event)")
    args = ap.parse_args()
    runs = [(path, load(path)) for path in args.files]

    cases = []
    for _, m in runs:
        for case, figs in m["cmdbench"].items():
            for fig in figs:
                if (case, fig) not in cases and (not args.case or case == args.case):
                    cases.append((case, fig))
    if not cases:
        sys.exit("verbs_pool.py: no case" + (f" named {args.case!r}" if args.case else "")
                 + " in these files")

    print(f"{len(runs)} runs; ratio = cmdbench / perftest")
    for case, fig in cases:
        pairs, per_run = [], []
        for _, m in runs:
            c, p = figures(m, "cmdbench", case, fig), figures(m, "perftest", case, fig)
            r = run_ratio(c, p)
            if r is None:
                continue
            per_run.append(r)
            pairs += [a / b for a, b in zip(c, p) if a is not None and b is not None and b > 0]
        if not pairs:
            continue
        better = "lower" if fig in LOWER_IS_BETTER else "higher"
        print(f"\n{case} {fig} ({better} is better): {len(per_run)} runs, "
              f"{len(pairs)} paired repetitions")
        print(f"  paired: median ratio {statistics.median(pairs):.3f} "
              f"(90% interval {interval_text(paired_interval(pairs))})")
        print("  each run's ratio: " + " ".join(f"{x:.3f}" for x in per_run)
              + f" (median {statistics.median(per_run):.3f})")

if __name__ == "__main__":
    main()
