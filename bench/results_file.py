#!/usr/bin/env python3
"""Writes a synthetic cmdbench results file for bench/compare_scale.sh.

    results_file.py RUNS ROWS METRICS HISTS EXPECT PATH [--undeclared]

RUNS runs, variants tcp and rdma in turn (each pair of runs a group of its
own), ROWS rows a run, METRICS metrics and HISTS histograms a row (declared
rates and latencies, so each becomes a comparison row; --undeclared: metrics
that declare nothing, as a pre-1.2 plugin's), and EXPECT expect keys a run
(bounds on the row metrics m0, m1, ...; keys past METRICS name metrics no row
has, so each gives an "unknown" verdict). --matrix: a matrix document, each
run a pair, what its metrics mean in the shared section (matrix.shared)
under its run's name.
"""
import json
import sys


def row(run, index, metrics, hists, undeclared):
    meaning = {} if undeclared else {"kind": "rate", "better": "higher"}
    out = {"name": "r%d" % index,
           "metrics": {"m%d" % k: dict(value=1.0 + k + run % 2, unit="1/s", **meaning)
                       for k in range(metrics)}}
    if hists:
        out["histograms"] = {"h%d" % k: {"count": 200, "min": 1000, "max": 9000,
                                         "p50": 2000 + run % 2, "p99": 8000,
                                         "kind": "latency", "better": "lower"}
                             for k in range(hists)}
    return out


MEANING = ("unit", "kind", "better")


def shared_section(runs, metrics, hists):
    """matrix.shared: each run name's params and meanings."""
    entry = {"params": {"sizes": "[64]"},
             "metrics": {"m%d" % k: {"unit": "1/s", "kind": "rate", "better": "higher"}
                         for k in range(metrics)},
             "histograms": {"h%d" % k: {"kind": "latency", "better": "lower"}
                            for k in range(hists)}}
    return {"runs": {"run%d" % (r // 2): entry for r in range(runs)}, "paths": []}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    undeclared = "--undeclared" in sys.argv
    matrix = "--matrix" in sys.argv
    runs, rows, metrics, hists, expect = map(int, args[:5])
    with open(args[5], "w") as out:
        out.write('{"schema": "cmdbench-results", "schema_version": 3, '
                  '"context": {"host": "h"}, "baseline": "tcp", ')
        if matrix:
            section = {"pattern": "all", "ranks": [{"rank": 0}, {"rank": 1}],
                       "shared": shared_section(runs, metrics, hists)}
            out.write('"matrix": ' + json.dumps(section, separators=(",", ":")) + ", ")
        out.write('"runs": [\n')
        for r in range(runs):
            variant = "tcp" if r % 2 == 0 else "rdma"
            run = {"name": "run%d" % (r // 2), "test": "t", "transport": variant,
                   "group": "g%d" % (r // 2), "variant": variant, "status": "ok",
                   "rows": [row(r, w, metrics, hists, undeclared) for w in range(rows)]}
            if matrix:  # the meanings are the shared section's
                run["pair"] = {"client": 0, "server": 1}
                for w in run["rows"]:
                    for kind in ("metrics", "histograms"):
                        for entry in w.get(kind, {}).values():
                            for k in MEANING:
                                entry.pop(k, None)
            if expect:
                run["expect"] = {"m%d" % k: {"min": 0.5} for k in range(expect)}
            out.write((",\n" if r else "") + json.dumps(run, separators=(",", ":")))
        out.write("]}\n")


main()
