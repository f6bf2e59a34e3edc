#!/usr/bin/env python3
"""Summarize a timeline of kernel_timeline.cpp (CUPTI records as CSV) per step.

    summarize.py run.csv --label "DHFR, NovaMD" --step-kernel pme_gather_kernel

A step is counted at each launch of --step-kernel (a regular expression on the kernel's name,
once per step); the first --skip fraction of the steps (start-up) is left out. Printed, per step:
the span, the GPU's busy time (the union of kernels, copies and sets), its idle time and the
kernels' summed durations (their excess over busy is concurrency), the idle gaps by the kernel
that ended them, the host's time in each runtime function, and each kernel's median duration
and the share of its time that another kernel ran beside it.
"""
import argparse
import collections
import csv
import re
import statistics


def read(path):
    with open(path, newline="") as f:
        return [(r["kind"], int(r["start_ns"]), int(r["end_ns"]), int(r["stream"]), r["name"])
                for r in csv.DictReader(f)]


def short(name, width=70):
    name = re.sub(r"novamd::|\(anonymous namespace\)::", "", name)
    return name if len(name) <= width else name[:width - 3] + "..."


def union_length(intervals):
    total, end = 0, None
    for s, e in sorted(intervals):
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


def overlapped_time(kernels):
    """Per kernel index: the time another kernel ran at the same moment."""
    edges = sorted([(s, 1, i) for i, (s, e, _) in enumerate(kernels)] +
                   [(e, -1, i) for i, (s, e, _) in enumerate(kernels)])
    active, shared, last = set(), [0] * len(kernels), None
    for t, kind, i in edges:
        if last is not None and len(active) >= 2:
            for j in active:
                shared[j] += t - last
        last = t
        if kind > 0:
            active.add(i)
        else:
            active.discard(i)
    return shared


def idle_gaps(device):
    """(gap ns, the name of the work that ended it) for each moment the GPU ran nothing."""
    gaps, end = [], None
    for s, e, name in sorted(device):
        if end is not None and s > end:
            gaps.append((s - end, name))
        end = e if end is None else max(end, e)
    return gaps


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv")
    parser.add_argument("--label", default="")
    parser.add_argument("--step-kernel", required=True)
    parser.add_argument("--skip", type=float, default=0.3)
    args = parser.parse_args()

    records = read(args.csv)
    marks = sorted(s for k, s, e, _, n in records
                   if k == "kernel" and re.search(args.step_kernel, n))
    if len(marks) < 10:
        raise SystemExit(f"{args.csv}: only {len(marks)} launches of {args.step_kernel!r}")
    first = int(len(marks) * args.skip)
    t0, t1 = marks[first], marks[-1]
    steps = len(marks) - 1 - first
    inside = [r for r in records if r[1] >= t0 and r[2] <= t1]
    device = [(s, e, n) for k, s, e, _, n in inside if k in ("kernel", "memcpy", "memset")]
    kernels = [(s, e, n) for k, s, e, _, n in inside if k == "kernel"]
    span = (t1 - t0) / steps / 1e3
    busy = union_length([(s, e) for s, e, _ in device]) / steps / 1e3
    summed = sum(e - s for s, e, _ in kernels) / steps / 1e3

    kernel_union = union_length([(s, e) for s, e, _ in kernels]) / steps / 1e3
    print(f"{args.label}: {steps} steps, per step (us): span {span:.1f}, GPU busy {busy:.1f}, "
          f"idle {span - busy:.1f}, kernels summed {summed:.1f} "
          f"(run beside each other {summed - kernel_union:.1f})")

    gaps = idle_gaps(device)
    by_next = collections.defaultdict(list)
    for g, name in gaps:
        by_next[short(name, 60)].append(g)
    print(f"{args.label}: idle gaps per step by the work that ended them (us per step, gaps, "
          f"median gap us):")
    for name, g in sorted(by_next.items(), key=lambda kv: -sum(kv[1]))[:12]:
        print(f"  {sum(g) / steps / 1e3:7.2f} {len(g) / steps:6.2f} "
              f"{statistics.median(g) / 1e3:7.2f}  {name}")

    api = collections.defaultdict(list)
    for k, s, e, _, n in inside:
        if k == "api":
            api[n].append(e - s)
    host_busy = union_length([(s, e) for k, s, e, _, n in inside if k == "api"]) / steps / 1e3
    print(f"{args.label}: host in runtime calls {host_busy:.1f} us per step; by function "
          f"(us per step, calls per step, median us):")
    for name, d in sorted(api.items(), key=lambda kv: -sum(kv[1]))[:12]:
        print(f"  {sum(d) / steps / 1e3:7.2f} {len(d) / steps:6.2f} "
              f"{statistics.median(d) / 1e3:7.2f}  {name}")

    shared = overlapped_time(kernels)
    per_name = collections.defaultdict(lambda: [[], 0])
    for (s, e, n), o in zip(kernels, shared):
        per_name[short(n)][0].append(e - s)
        per_name[short(n)][1] += o
    print(f"{args.label}: kernels (launches per step, median us, us per step, % beside another):")
    for name, (d, o) in sorted(per_name.items(), key=lambda kv: -sum(kv[1][0])):
        print(f"  {len(d) / steps:5.2f} {statistics.median(d) / 1e3:8.2f} "
              f"{sum(d) / steps / 1e3:8.2f} {100 * o / sum(d):5.0f}%  {name}")


if __name__ == "__main__":
    main()
