#!/usr/bin/env python3
"""Random small problems for `mechsynth solve`, checked against an independent LP.

Not run by CI. Needs numpy and scipy (HiGHS through `scipy.optimize.linprog`):

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install scipy numpy
    /tmp/venv/bin/python tests/tools/random_problems.py --binary target/release/mechsynth \
        --count 300 --seed 1 --dir /tmp/random-problems

Each problem has 2 to 8 symbols, a skewed or uniform prior, one linear notion (ldp, lip,
identifiability with eps often just above its threshold ln(max p / min p), high-low,
max-leakage, block, context-ldp, d-privacy on a line) and a linear objective, often one whose
optimum is 0 or near 0 (a loss matrix with a free or almost free column). The reference LP is
written here from the README's definitions, independently of the crate. A problem counts as
certified optimal when the CLI reports `optimal` and its objective is within the stated gap
tolerance (1e-9 absolute plus 1e-6 relative) plus the reference's own accuracy (1e-7) of the
reference optimum. The summary classifies the others by status, exit code, notion and
objective.
"""

import argparse
import collections
import json
import math
import os
import subprocess

import numpy as np
from scipy.optimize import linprog

# Accepted difference between the CLI's objective and the reference optimum: the CLI's gap
# tolerance plus HiGHS's own accuracy on these tiny LPs.
MATCH_ABSOLUTE = 1e-7
MATCH_RELATIVE = 1e-6

NOTIONS = ["identifiability", "identifiability", "identifiability", "ldp", "lip", "high-low",
           "max-leakage", "block", "context-ldp", "d-privacy"]


def random_prior(rng, n):
    kind = rng.integers(4)
    if kind == 0:
        return np.full(n, 1.0 / n)
    if kind == 1:
        p = rng.dirichlet(np.full(n, 0.5))
    elif kind == 2:
        p = rng.dirichlet(np.full(n, 3.0))
    else:
        p = np.geomspace(1.0, rng.uniform(0.05, 0.9), n)
    p = np.maximum(p, 1e-3)
    return p / p.sum()


def random_objective(rng, n):
    """(toml lines, loss matrix L (minimize sum p_x Q L) or None for co-location)."""
    kind = rng.integers(6)
    if kind == 0:
        return ['kind = "expected-loss"', 'loss = "hamming"'], 1.0 - np.eye(n)
    if kind == 1:
        return ['kind = "co-location"'], None
    L = rng.uniform(0.0, 1.0, (n, n))
    np.fill_diagonal(L, 0.0)
    if kind == 2:  # a free column: optimum 0
        L[:, rng.integers(n)] = 0.0
    elif kind == 3:  # an almost free column: optimum near 0
        L[:, rng.integers(n)] = rng.uniform(0.0, 1e-9, n)
    elif kind == 4:  # tiny losses everywhere
        L *= 10.0 ** -rng.integers(6, 12)
    L = np.round(L, 17)
    rows = ", ".join("[" + ", ".join(repr(float(v)) for v in r) + "]" for r in L)
    return ['kind = "expected-loss"', f"loss = {{ matrix = [{rows}] }}"], L


def random_problem(rng):
    n = int(rng.integers(2, 9))
    prior = random_prior(rng, n)
    notion = NOTIONS[rng.integers(len(NOTIONS))]
    extra = []
    if notion == "identifiability":
        threshold = math.log(prior.max() / prior.min())
        eps = threshold + float(rng.choice([1e-12, 1e-9, 1e-6, 1e-4, 1e-2, 0.1, 1.0]))
        if threshold == 0.0:
            eps = float(rng.uniform(0.0, 2.0))
    else:
        eps = float(rng.choice([0.0, 1e-3, 0.1, 0.5, 1.0, 2.0, 5.0]))
    if notion == "high-low":
        k = int(rng.integers(1, n))
        extra.append(f"sensitive = {sorted(rng.choice(n, k, replace=False).tolist())}")
    if notion == "block":
        cut = sorted(set(rng.integers(1, n, size=2).tolist()))
        bounds = [0] + cut + [n]
        blocks = [list(range(a, b)) for a, b in zip(bounds, bounds[1:]) if b > a]
        extra.append(f"blocks = {blocks}")
    if notion == "context-ldp":
        M = rng.uniform(0.1, 2.0, (n, n))
        np.fill_diagonal(M, 0.0)
        rows = ", ".join("[" + ", ".join(repr(float(v)) for v in r) + "]" for r in M)
        extra.append(f"matrix = [{rows}]")
        eps = max(eps, 0.1)
    if notion == "d-privacy":
        extra.append('metric = "line"')
    objective, L = random_objective(rng, n)
    return n, prior, notion, eps, extra, objective, L


def toml(n, prior, notion, eps, extra, objective):
    return "\n".join([
        f'name = "random {notion}"',
        "[domain]",
        f"size = {n}",
        "prior = [" + ", ".join(repr(float(v)) for v in prior) + "]",
        "[[privacy]]",
        f'notion = "{notion}"',
        f"epsilon = {eps!r}",
        *extra,
        "[objective]",
        *objective,
    ]) + "\n"


def reference(n, prior, notion, eps, extra_rows, L):
    """The optimum from the definitions (None when infeasible)."""
    nv = n * n + (n if notion == "max-leakage" else 0)
    idx = lambda x, y: x * n + y
    A_ub, b_ub, A_eq, b_eq = [], [], [], []
    e = math.exp(eps)

    def ratio(x, xp, y, f, wx=1.0, wxp=1.0):  # wx Q[x][y] <= f wxp Q[xp][y]
        r = np.zeros(nv)
        r[idx(x, y)] += wx
        r[idx(xp, y)] -= f * wxp
        A_ub.append(r)
        b_ub.append(0.0)

    for x in range(n):
        r = np.zeros(nv)
        r[idx(x, 0):idx(x, 0) + n] = 1.0
        A_eq.append(r)
        b_eq.append(1.0)
    pairs = [(x, xp) for x in range(n) for xp in range(n) if x != xp]
    for y in range(n):
        if notion == "ldp":
            for x, xp in pairs:
                ratio(x, xp, y, e)
        elif notion == "identifiability":
            for x, xp in pairs:
                ratio(x, xp, y, e, prior[x], prior[xp])
        elif notion == "high-low":
            for s in extra_rows["sensitive"]:
                for x in range(n):
                    if x != s:
                        ratio(s, x, y, e)
        elif notion == "block":
            for b in extra_rows["blocks"]:
                for x in b:
                    for xp in b:
                        if x != xp:
                            ratio(x, xp, y, e)
        elif notion == "context-ldp":
            M = extra_rows["matrix"]
            for x, xp in pairs:
                ratio(x, xp, y, math.exp(eps * M[x][xp]))
        elif notion == "d-privacy":
            for x, xp in pairs:
                ratio(x, xp, y, math.exp(eps * abs(x - xp)))
        elif notion == "lip":
            for x in range(n):
                for sign, f in ((1.0, e), (-1.0, 1.0 / e)):
                    r = np.zeros(nv)  # sign (Q[x][y] - f lambda_y) <= 0
                    r[idx(x, y)] += sign
                    for xp in range(n):
                        r[idx(xp, y)] -= sign * f * prior[xp]
                    A_ub.append(r)
                    b_ub.append(0.0)
        elif notion == "max-leakage":
            for x in range(n):
                r = np.zeros(nv)
                r[idx(x, y)] = 1.0
                r[n * n + y] = -1.0
                A_ub.append(r)
                b_ub.append(0.0)
    if notion == "max-leakage":
        r = np.zeros(nv)
        r[n * n:] = 1.0
        A_ub.append(r)
        b_ub.append(e)
    c = np.zeros(nv)
    if L is None:
        for x in range(n):
            c[idx(x, x)] = -1.0
    else:
        for x in range(n):
            for y in range(n):
                c[idx(x, y)] = prior[x] * L[x][y]
    res = linprog(c, A_ub=np.array(A_ub) if A_ub else None, b_ub=b_ub or None,
                  A_eq=np.array(A_eq), b_eq=b_eq, bounds=(0, None), method="highs",
                  options={"primal_feasibility_tolerance": 1e-10,
                           "dual_feasibility_tolerance": 1e-10})
    if res.status == 2:
        return None
    if res.status != 0:
        return "failed"
    return -res.fun if L is None else res.fun


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dir", default="/tmp/random-problems")
    ap.add_argument("--show", type=int, default=15, help="failures listed in full")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    classes = collections.Counter()
    failures = []
    for i in range(args.count):
        n, prior, notion, eps, extra, objective, L = random_problem(rng)
        extra_rows = {}
        for line in extra:
            key, value = line.split(" = ", 1)
            extra_rows[key] = eval(value) if key != "metric" else value
        path = os.path.join(args.dir, f"p{i:04d}.toml")
        with open(path, "w") as f:
            f.write(toml(n, prior, notion, eps, extra, objective))
        ref = reference(n, prior, notion, eps, extra_rows, L)
        proc = subprocess.run([args.binary, "solve", path, "--format", "json"],
                              capture_output=True, text=True)
        obj_kind = objective[-1].split(" = ", 1)[-1][:18]
        status, value, gap = None, None, None
        try:
            out = json.loads(proc.stdout)
            status, value, gap = out.get("status"), out.get("objective"), out.get("gap")
        except json.JSONDecodeError:
            pass
        if ref is None and notion != "identifiability":
            ref = "failed"  # every other notion admits the constant channel
        if isinstance(ref, str):
            classes[(None, "reference LP failed (excluded)", notion)] += 1
            continue
        if ref is None:
            ok = proc.returncode != 0 and status != "optimal"
            label = "both infeasible" if ok else f"reference infeasible, cli {status}"
        else:
            tol = MATCH_ABSOLUTE + MATCH_RELATIVE * abs(ref)
            matches = isinstance(value, (int, float)) and abs(value - ref) <= tol
            ok = status == "optimal" and matches
            label = "optimal" if ok else (
                f"status={status} exit={proc.returncode}"
                + ("" if value is None or matches else " objective-mismatch"))
        classes[(ok, label if not ok else "ok", notion if not ok else "")] += 1
        if not ok:
            failures.append((path, notion, eps, obj_kind, ref, value, status, proc.returncode,
                             gap and (gap.get("absolute"), gap.get("relative")),
                             proc.stderr.strip()[-200:]))
    total = sum(v for (ok, _, _), v in classes.items() if ok is not None)
    good = sum(v for (ok, _, _), v in classes.items() if ok)
    print(f"certified optimal and matching (or both infeasible): {good}/{total} "
          f"= {100.0 * good / total:.1f}%")
    for (ok, label, notion), v in sorted(classes.items(), key=lambda kv: -kv[1]):
        if ok is not True:
            print(f"  {v:4d}  {label}  [{notion}]")
    for f in failures[:args.show]:
        print("  ", f)


if __name__ == "__main__":
    main()
