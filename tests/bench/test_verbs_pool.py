#!/usr/bin/env python3
"""bench/verbs_pool.py on results files shaped like bench/verbs-lab.sh's:
the pooled ratio, each run's own ratio, and the refusals."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
POOL = os.path.join(HERE, "..", "..", "bench", "verbs_pool.py")


def results(path, cmd, peer, case="lat-send-4096-event", schema="cmdbench-bench-verbs"):
    doc = {"schema": schema, "schema_version": 2,
           "measurements": {"cmdbench": {case: {"median_us": cmd}},
                            "perftest": {case: {"median_us": peer}}}}
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def pool(*args):
    p = subprocess.run([sys.executable, POOL, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


class VerbsPool(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def test_runs_pool_into_one_ratio_beside_each_runs_own(self):
        # Run a: cmdbench 10% slower in two repetitions of three; run b: at
        # parity in three of four, one repetition perftest did not finish.
        a = results(self.path("a.json"), [110, 110, 100], [100, 100, 100])
        b = results(self.path("b.json"), [100, 100, 100, 90], [100, 100, 100, None])
        rc, out, err = pool(a, b)
        self.assertEqual(rc, 0, err)
        self.assertIn("2 runs, 6 paired repetitions", out)
        self.assertIn("median ratio 1.000", out)
        self.assertIn("each run's ratio: 1.100 1.000", out)
        self.assertIn("lower is better", out)

    def test_a_consistent_difference_keeps_its_interval_off_one(self):
        a = results(self.path("a.json"), [105, 106, 104, 105], [100, 101, 99, 100])
        b = results(self.path("b.json"), [210, 212, 208], [200, 202, 198])
        rc, out, err = pool(a, b)
        self.assertEqual(rc, 0, err)
        # Boots of different speed (100 and 200) do not widen it: pairs.
        line = next(x for x in out.splitlines() if "paired:" in x)
        lo, hi = line.split("interval ")[1].rstrip(")").split("-")
        self.assertGreater(float(lo), 1.0, line)
        self.assertGreaterEqual(float(hi), float(lo))

    def test_case_filter_and_unknown_case(self):
        a = results(self.path("a.json"), [1, 1], [1, 1], case="lat-read-64")
        rc, out, _ = pool("--case", "lat-read-64", a)
        self.assertEqual(rc, 0)
        self.assertIn("lat-read-64 median_us", out)
        rc, _, err = pool("--case", "lat-send-2-event", a)
        self.assertEqual(rc, 1)
        self.assertIn("no case named 'lat-send-2-event'", err)

    def test_other_files_are_refused_naming_them(self):
        other = results(self.path("other.json"), [1], [1], schema="cmdbench-results")
        rc, _, err = pool(other)
        self.assertEqual(rc, 1)
        self.assertIn("other.json: not a bench/verbs-lab.sh results file", err)
        broken = self.path("broken.json")
        with open(broken, "w") as f:
            f.write("{")
        rc, _, err = pool(broken)
        self.assertEqual(rc, 1)
        self.assertIn("broken.json", err)
        rc, _, err = pool(self.path("missing.json"))
        self.assertEqual(rc, 1)
        self.assertIn("missing.json", err)


if __name__ == "__main__":
    unittest.main()
