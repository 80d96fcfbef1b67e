#!/usr/bin/env python3
"""Reads an ftrace text trace of one verbs-split.sh client run (bench/verbs-split.sh --trace)
and prints, for the thread that rang the most doorbells (write() system calls), one line:

  trace_split: writes N body_us B softirq_us S body_rest_us R after_us A
               other_softirqs P ipis I main_cpu M

  body_us       median time from the write()'s entry to its exit (the post, without the
                switch that may follow it)
  softirq_us    median time of the softirqs run in the poster's own context within one
                write (on rxe: the READ's responder and completer, as a tasklet)
  body_rest_us  median of body minus softirq per write: the requester's side and the
                system call's own path
  after_us      median time from the write()'s exit to the next write()'s entry: the
                switch to ksoftirqd and back, if any, and the tool's loop
  other_softirqs  softirqs other than TASKLET (timers, RCU, scheduler, network), any CPU,
                per write
  ipis          function-call interrupts (IPIs), any CPU, per write
  main_cpu      share of the writes made on the CPU the poster used most

Timestamps are the trace's (microsecond resolution in its text form)."""
import collections
import re
import statistics
import sys

LINE = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+):\s+(\w+):\s*(.*)$")


def events(path):
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m:
                _, pid, cpu, ts, name, rest = m.groups()
                yield float(ts) * 1e6, int(pid), int(cpu), name, rest


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: trace_split.py TRACE")
    evs = list(events(sys.argv[1]))
    enters = collections.Counter(pid for _, pid, _, name, _ in evs if name == "sys_enter")
    if not enters:
        sys.exit("trace_split.py: no write() in the trace (tracing failed?)")
    poster = enters.most_common(1)[0][0]
    body, sirq, rest, after = [], [], [], []
    cpus = collections.Counter()
    other_sirq = ipis = 0
    cur = None  # the current write: [enter, exit, softirq time in the poster's context]
    sirq_start = {}
    for t, pid, cpu, name, info in evs:
        if name == "softirq_entry":
            sirq_start[cpu] = (t, pid)
            if "TASKLET" not in info:
                other_sirq += 1
        elif name == "softirq_exit" and cpu in sirq_start:
            t0, p0 = sirq_start.pop(cpu)
            if cur is not None and p0 == poster:
                cur[2] += t - t0
        elif name.startswith("call_function"):
            ipis += 1
        elif pid != poster:
            continue
        elif name == "sys_enter":
            if cur is not None and cur[1] is not None:
                after.append(t - cur[1])
            cur = [t, None, 0.0]
            cpus[cpu] += 1
        elif name == "sys_exit" and cur is not None:
            cur[1] = t
            body.append(t - cur[0])
            sirq.append(cur[2])
            rest.append(t - cur[0] - cur[2])
    n = len(body)
    if n < 1000:
        sys.exit(f"trace_split.py: only {n} writes traced (the ring buffer overran?)")
    med = statistics.median
    print(
        f"trace_split: writes {n} body_us {med(body):.1f} softirq_us {med(sirq):.1f} "
        f"body_rest_us {med(rest):.1f} after_us {med(after):.1f} "
        f"other_softirqs {other_sirq / n:.4f} ipis {ipis / n:.4f} "
        f"main_cpu {cpus.most_common(1)[0][1] / sum(cpus.values()):.3f}"
    )


main()
