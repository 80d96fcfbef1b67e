#!/usr/bin/env python3
"""Table and JSON for bench/verbs-lab.sh: cmdbench's verbs tests against
perftest. Raw files: <tool>.<kind>-<op>-<size>.<rep>.out, kind lat or bw;
cmdbench's are `cmdbench run --format json` documents, perftest's its text
report. With --cases (the script's --defaults) the measurements are a list
of kind:op:size:tag, the tag (like -q2, -event, -ud) ending the file's name,
and each case also gets p99.9 (latency) or message rate (bandwidth) rows.
The statistics (median of the repetitions, bootstrap interval, verdict) are
bench/report.py's, imported, so both scripts judge alike."""

import argparse
import datetime
import json
import math
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import (  # noqa: E402
    best, interval_text, ratio_interval, read, size_label, verdict, write_figures)

LAT_TARGET = 1.02  # cmdbench / perftest, at most
BW_TARGET = 0.98   # cmdbench / perftest, at least


def perftest_row(text, header_word):
    """The header line `#bytes ...` holding header_word (a latency report's
    has t_typical, a bandwidth one's BW average) and the fields (as printed)
    of the line under it; (None, None) when there is none."""
    lines = (text or "").splitlines()
    for i, line in enumerate(lines):
        if line.lstrip().startswith("#bytes") and header_word in line:
            for row in lines[i + 1:]:
                try:
                    [float(x) for x in row.split()]
                    return line, row.split()
                except ValueError:
                    continue
    return None, None


def digits(printed):
    """Significant digits of a number as printed: '0.000191' has 3, '0.10' 1."""
    return len(printed.replace(".", "").lstrip("0-"))


def finer(*candidates):
    """Of (printed, value) pairs that are the same figure computed from
    different printed columns, the value whose printed number keeps the
    most digits: perftest prints BW average with 2 decimals and MsgRate with
    6, so under emulation one of them is often a 5-50% step (0.10 Gb/s,
    0.000016 Mpps)."""
    best = max(candidates, key=lambda c: digits(c[0]))
    # "0.00" in every column: the figure is below what perftest prints, not 0.
    return best[1] if digits(best[0]) > 0 else None


def perftest_bw(header, size, bw_avg, msg_rate):
    """(Gb/s, Mpps) from BW average (in the header's unit: Gb/sec with
    --report_gbits, else MB/sec, which perftest counts in MiB) and
    MsgRate[Mpps], each from whichever printed column keeps more digits."""
    bytes_per_s = float(bw_avg) * (1e9 / 8 if "[Gb/sec]" in header else 1 << 20)
    rate = float(msg_rate)
    gbps = finer((bw_avg, bytes_per_s * 8 / 1e9), (msg_rate, rate * size * 8 / 1000))
    mpps = finer((msg_rate, rate), (bw_avg, bytes_per_s / size / 1e6))
    return gbps, mpps


def case_name(c):
    return f"{c['kind']}-{c['op']}-{c['size']}{c['tag']}"


def whole_round_trip(op):
    """READs and atomics are one whole round trip: perftest does not halve
    them, nor does the comparison."""
    return op in ("read", "fetch_add", "cmp_swap")


def parse_perftest(raw, c, rep):
    """lat: t_typical (the median), t_avg and the 99.9% percentile, usec, as
    perftest reports them (half round trips for send/write, whole READs and
    atomics); bw: BW average, Gb/s, and MsgRate, Mpps."""
    kind, size = c["kind"], c["size"]
    text = read(os.path.join(raw, f"perftest.{case_name(c)}.{rep}.out"))
    if kind == "lat":
        _, f = perftest_row(text, "t_typical")
        # bytes iters t_min t_max t_typical t_avg t_stdev p99 p99.9
        ok = f is not None and len(f) >= 6 and int(f[0]) == size
        return {"median_us": float(f[4]) if ok else None, "avg_us": float(f[5]) if ok else None,
                "p999_us": float(f[8]) if ok and len(f) >= 9 else None}
    header, f = perftest_row(text, "BW average")
    # bytes iters BW_peak BW_average MsgRate
    ok = f is not None and len(f) >= 5 and int(f[0]) == size
    gbps, mpps = perftest_bw(header, size, f[3], f[4]) if ok else (None, None)
    return {"gbps": gbps, "mpps": mpps}


def cmdbench_rows(raw, c, rep):
    """The rows of the run, or [] when the run did not succeed."""
    text = read(os.path.join(raw, f"cmdbench.{case_name(c)}.{rep}.out"))
    try:
        doc = json.loads(text) if text else {}
        run = doc["runs"][0]
        if run.get("status") == "ok":
            return list(run["rows"])
    except (ValueError, KeyError, IndexError, TypeError):
        pass
    return []


def cmdbench_row(raw, c, rep):
    """The first row of the run, or None when the run did not succeed."""
    rows = cmdbench_rows(raw, c, rep)
    return rows[0] if rows else None


def row_metric(row, name):
    v = (row or {}).get("metrics", {}).get(name, {}).get("value")
    return float(v) if isinstance(v, (int, float)) else None


def cmdbench_bidir(raw, c, rep):
    """Bidirectional: perftest -b prints the sum of the two sides' rates,
    each side's over its own window (first post to last completion at that
    sender), so the same sum of cmdbench's c2s and s2c rows is compared;
    cmdbench's own `bidir` row (both directions' bytes over the union of
    the two windows) is kept as gbps_union, for information."""
    rows = {r.get("name", "").rsplit(" ", 1)[-1]: r for r in cmdbench_rows(raw, c, rep)}

    def both(name, scale=1.0):
        v = [row_metric(rows.get(d), name) for d in ("c2s", "s2c")]
        return sum(v) / scale if None not in v else None
    return {"gbps": both("Gb/sec"), "mpps": both("msgs/sec", 1e6),
            "gbps_union": row_metric(rows.get("bidir"), "Gb/sec")}


def parse_cmdbench(raw, c, rep):
    """lat: rtt p50 and p99.9 in usec (halved for send/write, as perftest
    halves them) and usec/xfer; bw: Gb/sec and msgs/sec (as Mpps) at the
    sender."""
    kind, op = c["kind"], c["op"]
    if c["tag"] == "-bidir":
        return cmdbench_bidir(raw, c, rep)
    row = cmdbench_row(raw, c, rep) or {}

    def metric(name):
        return row_metric(row, name)

    if kind == "lat":
        rtt = row.get("histograms", {}).get("rtt", {})
        halves = 1 if whole_round_trip(op) else 2

        def us(ns):  # null when too few samples (p99_9 needs 1000)
            return ns / halves / 1000 if isinstance(ns, (int, float)) else None
        return {"median_us": us(rtt.get("p50")), "avg_us": metric("usec/xfer"),
                "p999_us": us(rtt.get("p99_9"))}
    rate = metric("msgs/sec")
    return {"gbps": metric("Gb/sec"), "mpps": rate / 1e6 if rate is not None else None}


def first_line(text):
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()
    return ""


def cmdbench_failure(raw, c, rep):
    """Why a cmdbench run gave no row: the run's own error, else the first
    line of its stderr (a refused scenario: `file:line:col: message`, the
    file named without its temporary folder); "" when it did not fail."""
    base = os.path.join(raw, f"cmdbench.{case_name(c)}.{rep}")
    rc = read(base + ".rc")
    if rc is None or rc.strip() == "0" and cmdbench_row(raw, c, rep) is not None:
        return ""
    try:
        run = json.loads(read(base + ".out") or "")["runs"][0]
        if run.get("status") != "ok" and run.get("error"):
            status = "" if run["status"] == "failed" else run["status"] + ": "
            return first_line(status + run["error"])
    except (ValueError, KeyError, IndexError, TypeError):
        pass
    line = first_line(read(base + ".err")) or f"exit status {rc.strip()}"
    return line.replace(os.path.dirname(raw) + "/", "")


def perftest_failure(raw, c, rep):
    """Why a perftest client gave no figure: its first error-like line."""
    base = os.path.join(raw, f"perftest.{case_name(c)}.{rep}")
    rc = read(base + ".rc")
    if rc is None or rc.strip() == "0":
        return ""
    text = read(base + ".out") or ""
    for line in text.splitlines():
        if any(w in line.lower() for w in ("error", "couldn", "unable", "fail", "invalid",
                                           "not supported", "unknown", "unrecognized")):
            return line.strip()
    lines = [x.strip() for x in text.splitlines() if x.strip().strip("-")]
    return (lines[-1] if lines else "no output") + f" (exit status {rc.strip()})"


def failures(raw, cases, reps):
    """{tool: {case: first failure line}} over the repetitions."""
    out = {"cmdbench": {}, "perftest": {}}
    for tool, why in (("cmdbench", cmdbench_failure), ("perftest", perftest_failure)):
        for c in cases:
            for rep in range(1, reps + 1):
                line = why(raw, c, rep)
                if line:
                    out[tool].setdefault(case_name(c), line)
                    break
    return out


def fmt(v, digits=None):
    """Emulated figures are small (0.07 Gb/s, 0.000016 Mpps): 4 significant
    digits below 100, positional (no exponent)."""
    if v is None:
        return "-"
    if digits is not None:
        return f"{v:.{digits}f}"
    if abs(v) >= 100 or v == 0:
        return f"{v:.2f}"
    return f"{v:.{max(0, 3 - math.floor(math.log10(abs(v))))}f}"


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


PERFTEST_TOOL = {"lat": {"send": "ib_send_lat", "write": "ib_write_lat", "read": "ib_read_lat",
                         "fetch_add": "ib_atomic_lat"},
                 "bw": {"send": "ib_send_bw", "write": "ib_write_bw", "read": "ib_read_bw",
                        "fetch_add": "ib_atomic_bw"}}


def compare(m, cases, lat_target, bw_target, failed=None, full=False):
    """full (--defaults): p99.9 and message-rate rows besides the others."""
    rows = []
    items = [("lat", "median_us", "latency median", "us", True, lat_target),
             ("lat", "avg_us", "latency average", "us", True, lat_target)]
    if full:
        items.append(("lat", "p999_us", "latency p99.9", "us", True, lat_target))
    items.append(("bw", "gbps", "bandwidth", "Gb/s", False, bw_target))
    if full:
        items.append(("bw", "mpps", "message rate", "Mpps", False, bw_target))
    failed = failed or {"cmdbench": {}, "perftest": {}}
    for kind, key, metric, unit, lower, target in items:
        for case in (c for c in cases if c["kind"] == kind):
            name = case_name(case)
            cv = m["cmdbench"][name][key]
            pv = m["perftest"][name][key]
            c, p = best(cv, lower), best(pv, lower)
            ratio = c / p if c is not None and p else None
            iv = ratio_interval(cv, pv) if ratio is not None else None
            result = verdict(ratio, iv, target, lower)
            note = ""
            for tool, v in (("cmdbench", c), ("perftest", p)):
                if v is None and name in failed[tool]:
                    note = note or f"{tool} failed: {failed[tool][name]}"
            if not note and result == "n/a" and key == "p999_us":
                note = "no p99.9 (fewer than 1000 samples)"
            tool = PERFTEST_TOOL[kind][case["op"]] + {"-ud": " -c UD", "-bidir": " -b"}.get(
                case["tag"], "")
            rows.append({
                "metric": metric, "op": case["op"] + case["tag"], "size": case["size"],
                "unit": unit, "perftest_tool": tool,
                "cmdbench": c, "perftest": p, "ratio": ratio,
                "ratio_interval_90": list(iv) if iv else None,
                "target": f"<= {target:.2f}" if lower else f">= {target:.2f}",
                "result": result, "note": note,
            })
    return rows


def result_text(r, width=70):
    """The verdict, or why there is none (a failed tool: its first line)."""
    text = r["note"] if r["result"] == "n/a" and r.get("note") else r["result"]
    return text if len(text) <= width else text[:width - 3] + "..."


def print_table(rows):
    head = ("metric", "op", "size", "perftest", "", "cmdbench", "ratio", "90% interval",
            "target", "result")
    lines = [(f"{r['metric']} ({r['unit']})", r["op"], size_label(r["size"]),
              fmt(r["perftest"]), r["perftest_tool"], fmt(r["cmdbench"]), fmt(r["ratio"], 3),
              interval_text(r["ratio_interval_90"]), r["target"], result_text(r)) for r in rows]
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(head)]

    def show(cells):
        print("  ".join(c.ljust(w) if i in (0, 1, 2, 4, 9) else c.rjust(w)
                        for i, (c, w) in enumerate(zip(cells, widths))).rstrip())
    show(head)
    show(["-" * w for w in widths])
    for line in lines:
        show(line)


def spread(m, cases, full=False):
    print("\nrepetitions (min..max), perftest | cmdbench:")
    keys = (("lat", "median_us"), ("lat", "avg_us"), ("lat", "p999_us"), ("bw", "gbps"),
            ("bw", "mpps")) if full else (("lat", "median_us"), ("lat", "avg_us"), ("bw", "gbps"))
    for kind, key in keys:
        for c in (c for c in cases if c["kind"] == kind):
            parts = []
            for tool in ("perftest", "cmdbench"):
                v = [x for x in m[tool][case_name(c)][key] if x is not None]
                parts.append(f"{fmt(min(v)) if v else '-'}..{fmt(max(v)) if v else '-'}"
                             f" ({len(v)} ok)")
            print(f"  {key:<10} {c['op'] + c['tag']:<11} {size_label(c['size']):>6}  "
                  + " | ".join(parts))


def case_times(raw, reps):
    """{case: mean seconds per repetition, both tools}, from the script's
    times.tsv (tool, case, rep, seconds a line); {} without it."""
    text = read(os.path.join(raw, "times.tsv")) or ""
    out = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) == 4:
            out[parts[1]] = out.get(parts[1], 0.0) + float(parts[3]) / reps
    return {k: round(v, 1) for k, v in out.items()}


def print_times(times, reps):
    """What one repetition costs, case by case: the lead plans the real runs
    (8 repetitions on a quiet host) with it."""
    total = sum(times.values())
    print(f"\nseconds per repetition (both tools, setup included; mean of {reps}):")
    for name, secs in times.items():
        print(f"  {name:<24} {secs:7.1f}")
    print(f"  {'one repetition':<24} {total:7.1f}   (8 repetitions: ~{total * 8 / 60:.0f} min)")


def case_iterations(text):
    """{case name: iterations} from the script's kind:op:size:tag=N,..."""
    out = {}
    for item in (x for x in text.split(",") if x):
        spec, n = item.split("=")
        out[case_name(parse_cases(spec)[0])] = int(n)
    return out


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
    ap.add_argument("--cmdbench-keys", default="", help="extra scenario keys, one a line")
    ap.add_argument("--cases", default="", help="kind:op:size:tag,...: both tools at defaults")
    a = ap.parse_args()
    ops = a.ops.split(",")
    sizes = [int(s) for s in a.sizes.split(",")]
    cases = parse_cases(a.cases) if a.cases else all_cases(ops, sizes)
    # At their defaults cmdbench is to match or beat perftest outright.
    lat_target, bw_target = (1.00, 1.00) if a.cases else (LAT_TARGET, BW_TARGET)

    full = bool(a.cases)
    m = collect(a.raw, a.reps, cases)
    failed = failures(a.raw, cases, a.reps)
    rows = compare(m, cases, lat_target, bw_target, failed, full)
    print(f"\ncmdbench verbs vs perftest on {a.device} (Soft-RoCE under emulation: ratios, not"
          f" absolute times); median of {a.reps}, {a.seconds} s in all; guest load average"
          f" before / after: {a.load}\n")
    if a.cmdbench_keys:
        print("cmdbench's runs also had: " + "; ".join(a.cmdbench_keys.splitlines()) + "\n")
    print_table(rows)
    print("(latency: lower is better; send/write: half a round trip, read and atomics: one"
          " whole round trip; bandwidth and message rate: higher is better, at the sender;"
          " ratio = cmdbench / perftest; 90% interval: bootstrap over the repetitions)")
    spread(m, cases, full)
    times = case_times(a.raw, a.reps)
    if times:
        print_times(times, a.reps)
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
        print(f"*** no figure for {len(unknown)} target(s): " + "; ".join(unknown))
    for tool in ("cmdbench", "perftest"):
        for name, line in failed[tool].items():
            print(f"*** {tool} failed, {name}: {line}")

    doc = {
        "schema": "cmdbench-bench-verbs",
        "schema_version": 2,
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
            "iterations": case_iterations(a.lat_iters + "," + a.bw_iters), "seconds": a.seconds,
        },
        "cmdbench_keys": [k for k in a.cmdbench_keys.splitlines() if k],
        "aggregation": "median of the repetitions",
        "units": {"*_us": "microseconds; send/write half a round trip, read and atomics"
                          " a whole round trip",
                  "gbps": "decimal Gb/s at the sender", "mpps": "10^6 messages/s at the sender"},
        "measurements": m,
        "failures": failed,
        "seconds_per_repetition": times,
        "comparisons": rows,
        "missed": missed,
        "within_noise": noise,
        "no_figure": unknown,
    }
    write_figures(a.out, doc)


if __name__ == "__main__":
    sys.exit(main())
