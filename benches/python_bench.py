"""Benchmarks of the Python package against the Rust library, in one run.

Run from the root of the checkout, with the package installed (`pip install ./python`):

    python benches/python_bench.py [--rust]

It prints one line per target:

1. what the Python call adds to a ~1 ms solve (12-ary LDP): the wall time of `solve` from Python against
   the library's own `timings.total_ms` for the same calls (medians);
2. returning a 1,000 x 1,000 channel: the time to get `result.channel` (the array the solve
   moved into numpy) against copying it, and whether two reads share one buffer;
3. a 20-point epsilon sweep on 1 thread against 2 threads (`ThreadPoolExecutor`);
4. privatizing 10^7 values from a numpy array: the time per value, and with `--rust` the
   library's time per record for the same loop (an array of indices into a new array, k-RR,
   n = 16) from `cargo bench --bench collect -- privatize-array-1e7`, and their ratio.
"""

import os
import re
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import mechsynth as ms

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def median_time(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def call_overhead():
    # About 1 ms in the library: 12-ary LDP under Hamming loss, one LP.
    problem = ms.Problem(size=12, privacy={"notion": "ldp", "epsilon": 1.0},
                         objective={"kind": "expected-loss", "loss": "hamming"})
    walls, inner = [], []
    for _ in range(300):
        t = time.perf_counter()
        r = ms.solve(problem)
        walls.append(time.perf_counter() - t)
        inner.append(r.timings["total_ms"] / 1e3)
    wall, lib = statistics.median(walls), statistics.median(inner)
    print(f"1. solve of 12-ary LDP, Hamming: Python {wall * 1e3:.3f} ms, library {lib * 1e3:.3f} ms, "
          f"the call adds {(wall - lib) * 1e3:.3f} ms ({(wall / lib - 1) * 100:.1f}% of the solve)")


def channel_return():
    problem = ms.Problem(size=1000, privacy={"notion": "ldp", "epsilon": 1.0},
                         objective={"kind": "expected-loss", "loss": "hamming"})
    t = time.perf_counter()
    r = ms.solve(problem)
    solve_s = time.perf_counter() - t
    a, b = r.channel, r.channel
    same = a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
    get = median_time(lambda: r.channel, 1000)
    copy = median_time(lambda: np.array(r.channel, copy=True), 20)
    print(f"2. 1000 x 1000 channel (solve {solve_s:.2f} s): result.channel {get * 1e9:.0f} ns, "
          f"one buffer: {same}, writeable: {a.flags.writeable}; a copy takes {copy * 1e3:.2f} ms "
          f"({copy / get:.0f}x)")


def threads():
    base = ms.Problem(size=64, prior=np.arange(1, 65) / np.arange(1, 65).sum(),
                      privacy={"notion": "lip", "epsilon": 1.0},
                      objective={"kind": "expected-loss", "loss": "absolute"})
    problems = [base.with_epsilon(e) for e in np.linspace(0.2, 3.0, 20)]
    t = time.perf_counter()
    serial = [ms.solve(p) for p in problems]
    one = time.perf_counter() - t
    t = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2) as pool:
        threaded = list(pool.map(ms.solve, problems))
    two = time.perf_counter() - t
    same = all(a.objective == b.objective for a, b in zip(serial, threaded))
    print(f"3. 20-point sweep (LIP, absolute loss, n = 64): 1 thread {one:.2f} s, "
          f"2 threads {two:.2f} s, speed-up {one / two:.2f}x, same results: {same}")


def rust_per_draw():
    out = subprocess.run(
        ["cargo", "bench", "--bench", "collect", "--", "privatize-array-1e7", "--noplot"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    # criterion: "privatize-array-1e7/array of indices (k-RR, n = 16)\n  time: [a ms b ms c ms]"
    m = re.search(r"array of indices \(k-RR[^)]*\)\s+time:\s+\[\S+ \S+ (\S+) (\S+)", out)
    if not m:
        return None
    value, unit = float(m.group(1)), m.group(2)
    scale = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]
    return value * scale / 1e7


def privatize(with_rust):
    if not hasattr(ms, "privatize"):
        print("4. privatize: not in this build")
        return
    q = ms.baseline("k-rr", 16, 1.0)
    values = np.random.default_rng(1).integers(0, 16, size=10_000_000)
    ms.privatize(q, values[:1000])
    per = median_time(lambda: ms.privatize(q, values), 5) / values.size
    line = f"4. privatize 10^7 values (k-RR, n = 16): {per * 1e9:.1f} ns per value from Python"
    if with_rust:
        rust = rust_per_draw()
        if rust:
            line += f", library {rust * 1e9:.1f} ns per record, ratio {per / rust:.2f}"
    print(line)


if __name__ == "__main__":
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    call_overhead()
    channel_return()
    threads()
    privatize("--rust" in sys.argv)
