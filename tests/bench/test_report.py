#!/usr/bin/env python3
"""bench/report.py's verdicts on raw outputs written here: the ratio to the
best peer, its bootstrap interval, and PASS / NOISE / MISSED. The raw files
have the shapes the real tools print (bench/run.sh collects them)."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "..", "bench", "report.py")

spec = importlib.util.spec_from_file_location("report", REPORT)
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def write_raw(raw, reps, cmd_gbps, loop_gbps, cmd_half_rtt=15.0, peer_half_rtt=15.0):
    """One repetition per list element of cmdbench's and the C loop's one-way
    busy-poll 64 KiB rate; every other figure equal for both tools."""
    for rep in range(1, reps + 1):
        runs = []
        for name in report.names_cmdbench():
            if name.startswith("lat-"):
                row = {"metrics": {"usec/xfer": {"value": cmd_half_rtt}},
                       "histograms": {"rtt": {"p50": cmd_half_rtt * 2 * 1000}}}
            else:
                gbps = cmd_gbps[rep - 1] if name == "tp-nb-65536" else 20.0
                row = {"metrics": {"Gb/sec": {"value": gbps}}}
            runs.append({"name": name, "status": "ok", "rows": [row]})
        write(os.path.join(raw, f"cmdbench.{rep}.json"), json.dumps({"runs": runs}))
        for mode in ("nb", "b"):
            for s in report.LAT_SIZES:
                write(os.path.join(raw, f"rstream.lat-{mode}-{s}.{rep}.out"),
                      f"name bytes xfers iters total time Gb/sec usec/xfer\n"
                      f"custom {s} 1 1000 1m 1.00s 0.10 {peer_half_rtt:.2f}\n")
            for s in report.BW_SIZES:
                write(os.path.join(raw, f"rstream.bw-{mode}-{s}.{rep}.out"),
                      f"custom {s} 1000 20 1g 1.00s 20.00 100.00\n")
                gbps = loop_gbps[rep - 1] if (mode, s) == ("nb", 65536) else 20.0
                write(os.path.join(raw, f"loop.tp-{mode}-{s}.{rep}.out"), f"gbps {gbps:.3f}\n")
        for s in report.LAT_SIZES:
            write(os.path.join(raw, f"sockperf.lat-b-{s}.{rep}.out"),
                  f"sockperf: ====> avg-latency={peer_half_rtt:.3f} (std-dev=1.0)\n"
                  f"sockperf: ---> percentile 50.000 = {peer_half_rtt:.3f}\n")
        for s in report.BW_SIZES:
            write(os.path.join(raw, f"iperf3.tp-auto-b-{s}.{rep}.out"),
                  json.dumps({"end": {"sum_received": {"bits_per_second": 20e9}}}))


def run_report(cmd_gbps, loop_gbps, **kw):
    with tempfile.TemporaryDirectory() as d:
        raw = os.path.join(d, "raw")
        os.mkdir(raw)
        reps = len(cmd_gbps)
        write_raw(raw, reps, cmd_gbps, loop_gbps, **kw)
        out = os.path.join(d, "out.json")
        proc = subprocess.run([sys.executable, REPORT, "--raw", raw, "--out", out,
                               "--reps", str(reps)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise AssertionError(proc.stderr)
        with open(out) as f:
            doc = json.load(f)
    rows = {(r["metric"], r["mode"], r["size"]): r for r in doc["comparisons"]}
    return doc, rows, proc.stdout


ROW = ("one-way rate", "busy-poll", 65536)


class Verdicts(unittest.TestCase):
    def test_equal_tools_pass_with_a_tight_interval(self):
        doc, rows, _ = run_report([20, 21, 19, 20, 20], [20, 20, 21, 19, 20])
        r = rows[ROW]
        self.assertEqual(r["result"], "PASS")
        self.assertAlmostEqual(r["ratio"], 1.0)
        lo, hi = r["ratio_interval_90"]
        self.assertTrue(0.9 <= lo <= 1.0 <= hi <= 1.12, (lo, hi))
        self.assertEqual(doc["missed"], [])
        self.assertEqual(doc["within_noise"], [])
        self.assertEqual(doc["schema_version"], 3)

    def test_a_consistent_shortfall_is_missed(self):
        doc, rows, out = run_report([10, 10.5, 9.5, 10, 10], [20, 21, 19, 20, 20])
        r = rows[ROW]
        self.assertEqual(r["result"], "MISSED")
        self.assertLess(r["ratio_interval_90"][1], report.BW_TARGET)
        self.assertEqual(doc["missed"], ["one-way rate busy-poll 64 KiB"])
        self.assertIn("*** MISSED 1 target(s): one-way rate busy-poll 64 KiB", out)

    def test_a_bimodal_row_whose_median_misses_is_noise(self):
        # Both tools switch between two modes from run to run, as the busy-poll
        # rows do on 2 vCPUs; cmdbench's median happens to fall in the slow one.
        doc, rows, out = run_report([19, 20, 64, 19, 33], [24, 24, 37, 35, 24])
        r = rows[ROW]
        self.assertLess(r["ratio"], report.BW_TARGET)
        self.assertEqual(r["result"], "NOISE")
        self.assertGreaterEqual(r["ratio_interval_90"][1], report.BW_TARGET)
        self.assertEqual(doc["within_noise"], ["one-way rate busy-poll 64 KiB"])
        self.assertEqual(doc["missed"], [])
        self.assertIn("within the noise of 5 repetitions", out)

    def test_latency_targets_read_lower_is_better(self):
        _, rows, _ = run_report([20] * 3, [20] * 3, cmd_half_rtt=17.0, peer_half_rtt=15.0)
        r = rows[("half-RTT median", "blocking", 64)]
        self.assertAlmostEqual(r["ratio"], 17.0 / 15.0)
        self.assertEqual(r["result"], "MISSED")  # identical reps: a zero-width interval

    def test_one_repetition_has_no_interval(self):
        _, rows, _ = run_report([10], [20])
        self.assertIsNone(rows[ROW]["ratio_interval_90"])
        self.assertEqual(rows[ROW]["result"], "MISSED")

    def test_the_interval_is_the_same_on_a_rerun(self):
        a = report.ratio_interval([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
        self.assertEqual(a, report.ratio_interval([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]))
        self.assertIsNone(report.ratio_interval([1, None], [2, 3]))


if __name__ == "__main__":
    unittest.main()
