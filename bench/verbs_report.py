#!/usr/bin/env python3
"""Table and JSON for bench/verbs-lab.sh: cmdbench's verbs tests against
perftest. Raw files: <tool>.<kind>-<op>-<size>.<rep>.out, kind lat or bw;
cmdbench's are `cmdbench run --format json` documents, perftest's its text
report. With --cases (the script's --defaults) the measurements are a list
of kind:op:size:tag, the tag (like -q2, -event) ending the file's name. The statistics (median of the repetitions, bootstrap interval,
verdict) are bench/report.py's, imported, so both scripts judge alike."""

import argparse
import datetime
import json
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import (  # noqa: E402
    best, interval_text, ratio_interval, read, size_label, verdict, write_figures)

LAT_TARGET = 1.02  # cmdbench / perftest, at most (issue 14)
BW_TARGET = 0.98   # cmdbench / perftest, at least


def perftest_row(text, header_word):
    """The fields (as printed) of the line under perftest's `#bytes ...`
    header (a latency report's has t_typical, a bandwidth one's BW average)."""
    lines = (text or "").splitlines()
    for i, line in enumerate(lines):
        if line.lstrip().startswith("#bytes") and header_word in line:
            for row in lines[i + 1:]:
                try:
                    [float(x) for x in row.split()]
                    return row.split()
                except ValueError:
                    continue
    return None


def digits(printed):
    """Significant digits of a number as printed: '0.000191' has 3, '0.10' 1."""
    return len(printed.replace(".", "").lstrip("0-"))


def perftest_gbps(size, bw_avg, msg_rate):
    """BW average[Gb/sec], or the same from MsgRate[Mpps] (rate * size * 8 /
    1000) when that keeps more digits: some perftest tools print the Gb/s
    with 2 decimals, which under emulation (0.10 Gb/s) is a 5% step."""
    from_rate = float(msg_rate) * size * 8 / 1000
    return from_rate if digits(msg_rate) > digits(bw_avg) else float(bw_avg)


def case_name(c):
    return f"{c['kind']}-{c['op']}-{c['size']}{c['tag']}"


def parse_perftest(raw, c, rep):
    """lat: t_typical (the median) and t_avg, usec, as perftest reports them
    (half round trips for send/write, whole READs); bw: BW average, Gb/s."""
    kind, size = c["kind"], c["size"]
    text = read(os.path.join(raw, f"perftest.{case_name(c)}.{rep}.out"))
    if kind == "lat":
        f = perftest_row(text, "t_typical")
        # bytes iters t_min t_max t_typical t_avg t_stdev p99 p99.9
        ok = f is not None and len(f) >= 6 and int(f[0]) == size
        return {"median_us": float(f[4]) if ok else None, "avg_us": float(f[5]) if ok else None}
    f = perftest_row(text, "BW average")
    # bytes iters BW_peak BW_average MsgRate
    ok = f is not None and len(f) >= 5 and int(f[0]) == size
    return {"gbps": perftest_gbps(size, f[3], f[4]) if ok else None}


def parse_cmdbench(raw, c, rep):
    """lat: rtt p50 in usec (halved for send/write, as perftest halves them)
    and usec/xfer; bw: Gb/sec at the sender."""
    kind, op = c["kind"], c["op"]
    text = read(os.path.join(raw, f"cmdbench.{case_name(c)}.{rep}.out"))
    row = None
    try:
        doc = json.loads(text) if text else {}
        run = doc["runs"][0]
        if run.get("status") == "ok":
            row = run["rows"][0]
    except (ValueError, KeyError, IndexError, TypeError):
        row = None

    def metric(name):
        v = (row or {}).get("metrics", {}).get(name, {}).get("value")
        return float(v) if isinstance(v, (int, float)) else None

    if kind == "lat":
        p50 = (row or {}).get("histograms", {}).get("rtt", {}).get("p50")
        halves = 1 if op == "read" else 2
        return {"median_us": p50 / halves / 1000 if isinstance(p50, (int, float)) else None,
                "avg_us": metric("usec/xfer")}
    return {"gbps": metric("Gb/sec")}


def fmt(v, digits=None):
    """Emulated figures are small (0.07 Gb/s): 4 significant digits below 100."""
    if v is None:
        return "-"
    if digits is not None:
        return f"{v:.{digits}f}"
    return f"{v:.2f}" if abs(v) >= 100 else f"{v:.4g}"


def all_cases(ops, sizes):
    return [{"kind": kind, "op": op, "size": size, "tag": ""}
            for kind in ("lat", "bw") for op in ops for size in sizes]


def parse_cases(text):
    """kind:op:size:tag,... as verbs-lab.sh --defaults passes them."""
    out = []
    for item in text.split(","):
        kind, op, size, tag = item.split(":")
        out.append({"kind": kind, "op": op, "size": int(size), "tag": tag})
    return out


def collect(raw, reps, cases):
    """{tool: {"lat-send-64": {"median_us": [per rep], ...}}}"""
    out = {"cmdbench": {}, "perftest": {}}
    for tool, parse in (("cmdbench", parse_cmdbench), ("perftest", parse_perftest)):
        for c in cases:
            figs = out[tool].setdefault(case_name(c), {})
            for rep in range(1, reps + 1):
                for k, v in parse(raw, c, rep).items():
                    figs.setdefault(k, []).append(v)
    return out


def compare(m, cases, lat_target, bw_target):
    rows = []
    perftest_name = {"lat": {"send": "ib_send_lat", "write": "ib_write_lat", "read": "ib_read_lat"},
                     "bw": {"send": "ib_send_bw", "write": "ib_write_bw", "read": "ib_read_bw"}}
    items = [("lat", "median_us", "latency median", "us", True, lat_target),
             ("lat", "avg_us", "latency average", "us", True, lat_target),
             ("bw", "gbps", "bandwidth", "Gb/s", False, bw_target)]
    for kind, key, metric, unit, lower, target in items:
        for case in (c for c in cases if c["kind"] == kind):
            name = case_name(case)
            cv = m["cmdbench"][name][key]
            pv = m["perftest"][name][key]
            c, p = best(cv, lower), best(pv, lower)
            ratio = c / p if c is not None and p else None
            iv = ratio_interval(cv, pv) if ratio is not None else None
            rows.append({
                "metric": metric, "op": case["op"] + case["tag"], "size": case["size"],
                "unit": unit, "perftest_tool": perftest_name[kind][case["op"]],
                "cmdbench": c, "perftest": p, "ratio": ratio,
                "ratio_interval_90": list(iv) if iv else None,
                "target": f"<= {target}" if lower else f">= {target}",
                "result": verdict(ratio, iv, target, lower),
            })
    return rows


def print_table(rows):
    head = ("metric", "op", "size", "perftest", "", "cmdbench", "ratio", "90% interval",
            "target", "result")
    lines = [(f"{r['metric']} ({r['unit']})", r["op"], size_label(r["size"]),
              fmt(r["perftest"]), r["perftest_tool"], fmt(r["cmdbench"]), fmt(r["ratio"], 3),
              interval_text(r["ratio_interval_90"]), r["target"], r["result"]) for r in rows]
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(head)]

    def show(cells):
        print("  ".join(c.ljust(w) if i in (0, 1, 2, 4) else c.rjust(w)
                        for i, (c, w) in enumerate(zip(cells, widths))).rstrip())
    show(head)
    show(["-" * w for w in widths])
    for line in lines:
        show(line)


def spread(m, cases):
    print("\nrepetitions (min..max), perftest | cmdbench:")
    for kind, key in (("lat", "median_us"), ("lat", "avg_us"), ("bw", "gbps")):
        for c in (c for c in cases if c["kind"] == kind):
            parts = []
            for tool in ("perftest", "cmdbench"):
                v = [x for x in m[tool][case_name(c)][key] if x is not None]
                parts.append(f"{fmt(min(v)) if v else '-'}..{fmt(max(v)) if v else '-'}"
                             f" ({len(v)} ok)")
            print(f"  {key:<10} {c['op'] + c['tag']:<11} {size_label(c['size']):>6}  "
                  + " | ".join(parts))


def parse_sizes(text):
    return {int(k): int(v) for k, v in (p.split("=") for p in text.split(",") if p)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, required=True)
    ap.add_argument("--quick", type=int, default=0)
    ap.add_argument("--ops", default="send,write,read")
    ap.add_argument("--sizes", default="64,4096,65536")
    ap.add_argument("--lat-iters", default="")
    ap.add_argument("--bw-iters", default="")
    ap.add_argument("--seconds", default="")
    ap.add_argument("--load", default="")
    ap.add_argument("--cmdbench", default="")
    ap.add_argument("--device", default="")
    ap.add_argument("--cases", default="", help="kind:op:size:tag,...: both tools at defaults")
    a = ap.parse_args()
    ops = a.ops.split(",")
    sizes = [int(s) for s in a.sizes.split(",")]
    cases = parse_cases(a.cases) if a.cases else all_cases(ops, sizes)
    # At their defaults cmdbench is to match or beat perftest outright.
    lat_target, bw_target = (1.00, 1.00) if a.cases else (LAT_TARGET, BW_TARGET)

    m = collect(a.raw, a.reps, cases)
    rows = compare(m, cases, lat_target, bw_target)
    print(f"\ncmdbench verbs vs perftest on {a.device} (Soft-RoCE under emulation: ratios, not"
          f" absolute times); median of {a.reps}, {a.seconds} s in all; guest load average"
          f" before / after: {a.load}\n")
    print_table(rows)
    print("(latency: lower is better; send/write: half a round trip, read: one whole READ;"
          " bandwidth: higher is better, at the sender; ratio = cmdbench / perftest;"
          " 90% interval: bootstrap over the repetitions)")
    spread(m, cases)
    if a.quick:
        print("\n--quick: a smoke test; few iterations, one repetition. Not figures to quote.")

    def label(r):
        return f"{r['metric']} {r['op']} {size_label(r['size'])}"
    missed = [label(r) for r in rows if r["result"] == "MISSED"]
    noise = [label(r) for r in rows if r["result"] == "NOISE"]
    unknown = [label(r) for r in rows if r["result"] == "n/a"]
    print(f"\ntargets met: {sum(r['result'] == 'PASS' for r in rows)} of {len(rows)}")
    if noise:
        print(f"*** not met, within the noise of {a.reps} repetitions ({len(noise)}): "
              + "; ".join(noise))
    if missed:
        print(f"*** MISSED {len(missed)} target(s): " + "; ".join(missed))
    if unknown:
        print(f"*** no figure for {len(unknown)} target(s) (a tool failed): " + "; ".join(unknown))

    doc = {
        "schema": "cmdbench-bench-verbs",
        "schema_version": 1,
        "time": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "host": platform.node(),
        "kernel": platform.release(),
        "cpus": os.cpu_count(),
        "device": a.device,
        "loadavg_before_after": a.load,
        "cmdbench": a.cmdbench,
        "settings": {
            "quick": bool(a.quick), "repetitions": a.reps, "ops": ops, "sizes": sizes,
            "latency_iterations": parse_sizes(a.lat_iters),
            "bandwidth_iterations": parse_sizes(a.bw_iters),
            "warmup": 0, "inline_size": 0, "mode": "poll", "tx_depth": 128,
            "cq_mod": "100 up to 8 KiB, 1 above", "seconds": a.seconds,
        } if not a.cases else {
            "quick": bool(a.quick), "repetitions": a.reps, "defaults": True,
            "cases": [case_name(c) for c in cases],
            "iterations": a.lat_iters + "," + a.bw_iters, "seconds": a.seconds,
        },
        "aggregation": "median of the repetitions",
        "units": {"*_us": "microseconds; send/write half a round trip, read a whole READ",
                  "gbps": "decimal Gb/s at the sender"},
        "measurements": m,
        "comparisons": rows,
        "missed": missed,
        "within_noise": noise,
        "no_figure": unknown,
    }
    write_figures(a.out, doc)


if __name__ == "__main__":
    sys.exit(main())
