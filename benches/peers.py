"""mechsynth against general-purpose solvers on the same formulations, in one run.

Run from the root of the checkout, with the package installed (`pip install ./python`) and,
for the peers, `pip install cvxpy clarabel scipy`:

    python benches/peers.py [--markdown FILE] [--repeat K] [--skip-slow] [--peer-rays N]

Every row times one in-process call: mechsynth's `solve(...)` (which includes its
certification and the report's objective and leakage profiles; `solve+certify` is the
library's own `timings.solve_ms + certify_ms`, and `profiles` the rest of its `total_ms`, the
report's profiles of the channel), CVXPY's `problem.solve(solver="CLARABEL")`
(including its canonicalization) and, for the LPs, scipy's `linprog(method="highs-ipm")` (including
building its sparse matrices). Wall seconds are `time.perf_counter`, CPU seconds
`time.process_time` of this process; the median over `--repeat` runs is printed. A peer that is
not installed is skipped with a message. Rows:

a. LIP (eps = 1), expected absolute loss on 0..n-1, n = 200, uniform and skewed (p_x ~ x + 1)
   priors: CVXPY and HiGHS with the auxiliary encoding (P_y = sum_x p_x Q[x][y], then
   e^-eps P_y <= Q[x][y] <= e^eps P_y, two nonzeros a row).
b. frequency-mse under 1-LDP, n = 8, uniform prior (problems/frequency-ldp-8.toml): CVXPY's
   optimal design over the 2^n - 2 staircase rays (docs/frequency.md), `tr_inv(J(w)) - 1` with
   `J(w) = sum_r w_r r r^T / (p . r)` under the row sums `sum_r w_r r = 1`.
c. frequency-mse under 1-LDP with the prior p_x ~ x + 1, n = 16, 24, 32: mechsynth; CVXPY's
   design when the rays number at most `--peer-rays` (default 300: n = 8 only, since the
   design has 2^n - 2 weights and CVXPY builds `J(w)` as a dense map of n^2 x 2^n entries).
"""

import argparse
import itertools
import os
import statistics
import sys
import time

import numpy as np

import mechsynth as ms

try:
    import cvxpy as cp
except ImportError:  # the peer is optional
    cp = None
try:
    import scipy.optimize
    import scipy.sparse as sparse
except ImportError:
    scipy = None
    sparse = None

EPSILON = 1.0
# HiGHS's interior point: its dual simplex (scipy's default "highs") did not finish the n = 200
# LIP program in 290 s on a loaded 2-core machine, the interior point took 131 s.
HIGHS_METHOD = "highs-ipm"
# Two tools agree when their objectives differ by at most this, relative to the larger
# (Clarabel's and HiGHS's default tolerances are about 1e-8; mechsynth certifies 1e-6).
AGREEMENT = 1e-5


def timed(f, repeat):
    """Median wall and CPU seconds of `f()` over `repeat` runs, and its last value."""
    walls, cpus, value = [], [], None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        value = f()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), value


def skewed(n):
    p = np.arange(1, n + 1, dtype=float)
    return p / p.sum()


def mechsynth_row(r):
    """Status, objective, method, the library's solve + certify seconds and its profile's."""
    t = r.timings
    inner = (t["solve_ms"] + t["certify_ms"]) / 1e3
    return r.status, r.objective, r.method, inner, t["total_ms"] / 1e3 - inner


# ---------------------------------------------------------------------------------------------
# a. LIP, absolute loss


def lip_costs(n, prior):
    x = np.arange(n)
    return np.abs(x[:, None] - x[None, :]) * prior[:, None]


def lip_mechsynth(n, prior, uniform):
    problem = ms.Problem(
        size=n,
        prior=None if uniform else list(prior),
        privacy={"notion": "lip", "epsilon": EPSILON},
        objective={"kind": "expected-loss", "loss": "absolute"},
    )
    return mechsynth_row(ms.solve(problem))


def lip_cvxpy(n, prior):
    c = lip_costs(n, prior)
    q = cp.Variable((n, n), nonneg=True)
    p_out = cp.Variable(n)
    row = cp.reshape(p_out, (1, n), order="C")
    constraints = [
        cp.sum(q, axis=1) == 1,
        p_out == prior @ q,
        q <= np.exp(EPSILON) * row,
        q >= np.exp(-EPSILON) * row,
    ]
    problem = cp.Problem(cp.Minimize(cp.sum(cp.multiply(c, q))), constraints)
    problem.solve(solver="CLARABEL")
    return problem.status, problem.value


def lip_highs(n, prior):
    c = lip_costs(n, prior)
    nq = n * n  # Q[x][y] at x * n + y, then P_y at nq + y
    up, down = np.exp(EPSILON), np.exp(-EPSILON)
    entries = np.arange(nq)
    xs, ys = entries // n, entries % n
    # Q[x][y] - e^eps P_y <= 0 and e^-eps P_y - Q[x][y] <= 0.
    rows = np.concatenate([entries, entries, nq + entries, nq + entries])
    cols = np.concatenate([entries, nq + ys, entries, nq + ys])
    vals = np.concatenate([np.ones(nq), -up * np.ones(nq), -np.ones(nq), down * np.ones(nq)])
    a_ub = sparse.csr_matrix((vals, (rows, cols)), shape=(2 * nq, nq + n))
    # Row sums, then P_y - sum_x p_x Q[x][y] = 0.
    rows = np.concatenate([xs, n + ys, n + np.arange(n)])
    cols = np.concatenate([entries, entries, nq + np.arange(n)])
    vals = np.concatenate([np.ones(nq), -prior[xs], np.ones(n)])
    a_eq = sparse.csr_matrix((vals, (rows, cols)), shape=(2 * n, nq + n))
    b_eq = np.concatenate([np.ones(n), np.zeros(n)])
    cost = np.concatenate([c.ravel(), np.zeros(n)])
    r = scipy.optimize.linprog(cost, A_ub=a_ub, b_ub=np.zeros(2 * nq), A_eq=a_eq, b_eq=b_eq,
                               bounds=(0, None), method=HIGHS_METHOD)
    return ("optimal" if r.status == 0 else r.message), r.fun


# ---------------------------------------------------------------------------------------------
# b, c. frequency-mse under LDP


def frequency_mechsynth(n, prior):
    problem = ms.Problem(
        size=n,
        prior=None if prior is None else list(prior),
        privacy={"notion": "ldp", "epsilon": EPSILON},
        objective={"kind": "frequency-mse"},
    )
    return mechsynth_row(ms.solve(problem))


def staircase_rays(n):
    """Every extreme ray of the eps-LDP column cone: 1 + (e^eps - 1) 1_S, S proper, nonempty."""
    rays = []
    for k in range(1, n):
        for subset in itertools.combinations(range(n), k):
            r = np.ones(n)
            r[list(subset)] = np.exp(EPSILON)
            rays.append(r)
    return np.array(rays).T  # n x rays


def frequency_cvxpy(n, prior):
    """The optimal design of docs/frequency.md: fixed counts, the frequencies as queries."""
    prior = np.full(n, 1.0 / n) if prior is None else np.asarray(prior)
    rays = staircase_rays(n)
    scaled = rays / np.sqrt(prior @ rays)  # r / sqrt(p . r), so J(w) = R diag(w) R^T
    w = cp.Variable(rays.shape[1], nonneg=True)
    fisher = scaled @ cp.diag(w) @ scaled.T
    problem = cp.Problem(cp.Minimize(cp.tr_inv(fisher) - 1.0), [rays @ w == 1])
    problem.solve(solver="CLARABEL")
    return problem.status, problem.value


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--markdown", metavar="FILE", help="also write the table as markdown")
    parser.add_argument("--repeat", type=int, default=1, help="runs per cell (median)")
    parser.add_argument("--skip-slow", action="store_true",
                        help="leave out frequency-mse at n = 24 and 32")
    parser.add_argument("--peer-rays", type=int, default=300,
                        help="largest design (staircase rays) handed to CVXPY")
    args = parser.parse_args()
    if args.repeat < 1:
        sys.exit(f"--repeat must be at least 1, got {args.repeat}")
    have_cvxpy = cp is not None and "CLARABEL" in cp.installed_solvers()
    if not have_cvxpy:
        print("cvxpy with Clarabel is not installed: its rows are skipped "
              "(pip install cvxpy clarabel)", file=sys.stderr)
    if sparse is None:
        print("scipy is not installed: the HiGHS rows are skipped (pip install scipy)",
              file=sys.stderr)

    rows = []
    load_before = os.getloadavg()

    def add(problem, n, tool, f):
        print(f"running {problem}, n = {n}, {tool} ...", file=sys.stderr, flush=True)
        wall, cpu, value = timed(f, args.repeat)
        status, objective = value[0], value[1]
        extra = value[2:] if len(value) > 2 else ()
        rows.append({"problem": problem, "n": n, "tool": tool, "status": str(status),
                     "objective": objective, "wall": wall, "cpu": cpu,
                     "method": extra[0] if extra else "",
                     "inner": extra[1] if len(extra) > 1 else None,
                     "profile": extra[2] if len(extra) > 2 else None})

    for name, prior_of in [("LIP, absolute loss, uniform prior", None),
                           ("LIP, absolute loss, p ~ x + 1", skewed)]:
        n = 200
        uniform = prior_of is None
        prior = np.full(n, 1.0 / n) if uniform else prior_of(n)
        add(name, n, "mechsynth", lambda: lip_mechsynth(n, prior, uniform))
        if have_cvxpy:
            add(name, n, "CVXPY + Clarabel", lambda: lip_cvxpy(n, prior))
        if sparse is not None:
            add(name, n, "scipy HiGHS", lambda: lip_highs(n, prior))

    name = "frequency-mse, LDP, uniform prior"
    add(name, 8, "mechsynth", lambda: frequency_mechsynth(8, None))
    if have_cvxpy:
        add(name, 8, "CVXPY + Clarabel", lambda: frequency_cvxpy(8, None))

    name = "frequency-mse, LDP, p ~ x + 1"
    for n in [16, 24, 32]:
        if args.skip_slow and n > 16:
            continue
        add(name, n, "mechsynth", lambda: frequency_mechsynth(n, skewed(n)))
        if have_cvxpy and 2**n - 2 <= args.peer_rays:
            add(name, n, "CVXPY + Clarabel", lambda: frequency_cvxpy(n, skewed(n)))
    load_after = os.getloadavg()

    report(rows, load_before, load_after, args)


def agreement(rows, row):
    """Whether `row`'s objective agrees with mechsynth's on the same problem."""
    ours = [r for r in rows if r["problem"] == row["problem"] and r["n"] == row["n"]
            and r["tool"] == "mechsynth"]
    if row["tool"] == "mechsynth" or not ours or ours[0]["objective"] is None \
            or row["objective"] is None:
        return ""
    a, b = ours[0]["objective"], row["objective"]
    return "yes" if abs(a - b) <= AGREEMENT * max(abs(a), abs(b)) else f"NO ({b - a:+.3e})"


def report(rows, load_before, load_after, args):
    header = ["problem", "n", "tool", "status", "objective", "agrees", "wall s", "CPU s",
              "solve+certify s", "profiles s", "wall / mechsynth"]
    lines = []
    for r in rows:
        ours = [o for o in rows if o["problem"] == r["problem"] and o["n"] == r["n"]
                and o["tool"] == "mechsynth"]
        ratio = r["wall"] / ours[0]["wall"] if ours else float("nan")
        tool = r["tool"] + (f" ({r['method']})" if r["method"] else "")
        lines.append([r["problem"], str(r["n"]), tool, r["status"],
                      "" if r["objective"] is None else f"{r['objective']:.9g}",
                      agreement(rows, r), f"{r['wall']:.3f}", f"{r['cpu']:.3f}",
                      "" if r["inner"] is None else f"{r['inner']:.3f}",
                      "" if r["profile"] is None else f"{r['profile']:.3f}", f"{ratio:.2f}"])
    load = (f"load average (1, 5, 15 min): {load_before[0]:.2f}, {load_before[1]:.2f}, "
            f"{load_before[2]:.2f} before, {load_after[0]:.2f}, {load_after[1]:.2f}, "
            f"{load_after[2]:.2f} after; {os.cpu_count()} cores; median of {args.repeat} run(s)")
    widths = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(header)]
    fmt = "  ".join(f"{{:{w}}}" for w in widths)
    print(fmt.format(*header))
    for line in lines:
        print(fmt.format(*line))
    print(load)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write("| " + " | ".join(header) + " |\n")
            f.write("|" + "---|" * len(header) + "\n")
            for line in lines:
                f.write("| " + " | ".join(line) + " |\n")
            f.write(f"\n{load}\n")


if __name__ == "__main__":
    main()
