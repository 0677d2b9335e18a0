#!/usr/bin/env python3
"""Independent derivations of the expected optima quoted in this folder's problem files.

Standard library only; no part of mechsynth is used. Closed forms are evaluated directly; the
binary problems (two free variables a = Q[0][0], b = Q[1][1]) are solved exactly by enumerating
the vertices of their feasible polygon.
"""
import itertools
import math


def krr_hamming(n, eps):
    """k-RR expected Hamming loss (n-1)/(e^eps+n-1): optimal for uniform-prior LDP (bound in
    ldp-hamming-5.toml)."""
    return (n - 1) / (math.exp(eps) + n - 1)


def solve_linear(a, b):
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def tight_constraints_mechanism(d, eps):
    """The LE mechanism of [dP-slides]: p_jk = e^{-eps d_jk} p_kk
    with rows summing to 1. Returns the diagonal p_kk."""
    n = len(d)
    k = [[math.exp(-eps * d[j][kk]) for kk in range(n)] for j in range(n)]
    return solve_linear(k, [1.0] * n)


def binary_lp(prior, constraints):
    """Minimize expected Hamming loss p0 (1-a) + p1 (1-b) over channels [[a, 1-a], [1-b, b]]
    subject to constraints g(a, b) >= 0 that are linear in (a, b); exact vertex enumeration."""
    lines = constraints + [lambda a, b: a, lambda a, b: 1 - a, lambda a, b: b, lambda a, b: 1 - b]

    def coeffs(g):
        c0 = g(0.0, 0.0)
        return g(1.0, 0.0) - c0, g(0.0, 1.0) - c0, c0

    best = None
    for g1, g2 in itertools.combinations(lines, 2):
        a1, b1, c1 = coeffs(g1)
        a2, b2, c2 = coeffs(g2)
        det = a1 * b2 - a2 * b1
        if abs(det) < 1e-15:
            continue
        a = (-c1 * b2 + c2 * b1) / det
        b = (-a1 * c2 + a2 * c1) / det
        if all(g(a, b) >= -1e-12 for g in lines):
            loss = prior[0] * (1 - a) + prior[1] * (1 - b)
            best = loss if best is None else min(best, loss)
    return best


def lip_constraints(prior, eps):
    """Q[x][y] <= e^eps lambda_y and Q[x][y] >= e^-eps lambda_y, linear in (a, b)."""
    out = []
    for x in range(2):
        for y in range(2):
            def q(a, b, x=x, y=y):
                m = [[a, 1 - a], [1 - b, b]]
                return m[x][y]

            def lam(a, b, y=y):
                m = [[a, 1 - a], [1 - b, b]]
                return prior[0] * m[0][y] + prior[1] * m[1][y]

            out.append(lambda a, b, q=q, lam=lam: math.exp(eps) * lam(a, b) - q(a, b))
            out.append(lambda a, b, q=q, lam=lam: q(a, b) - math.exp(-eps) * lam(a, b))
    return out


def context_constraints(e):
    """Q[x][y] <= e^{E[x][x']} Q[x'][y] for the binary domain (E[x][x'] may be inf)."""
    out = []
    for x, x2 in [(0, 1), (1, 0)]:
        if math.isinf(e[x][x2]):
            continue
        for y in range(2):
            def g(a, b, x=x, x2=x2, y=y):
                m = [[a, 1 - a], [1 - b, b]]
                return math.exp(e[x][x2]) * m[x2][y] - m[x][y]
            out.append(g)
    return out


# --- Column-convex objectives (MMSE, mutual information): exhaustive search over ray subsets.
# A channel whose columns are positive multiples of cone generators r_1..r_n with row sums 1
# solves R w = 1 for w >= 0; the search tries every n-subset of generators, solves the linear
# system directly, and keeps the best feasible objective. Generators are built here from the
# definitions: LDP staircase patterns {1, e^eps}^n, LIP vertices of the box-hyperplane polytope.


def ldp_generators(n, eps):
    return [[math.exp(eps) if bits >> x & 1 else 1.0 for x in range(n)] for bits in range(1, 2 ** n - 1)]


def lip_generators(p, eps):
    n, lo, hi = len(p), math.exp(-eps), math.exp(eps)
    out = []
    for free in range(n):
        for bits in range(2 ** (n - 1)):
            q, k = [0.0] * n, 0
            for x in range(n):
                if x != free:
                    q[x] = hi if bits >> k & 1 else lo
                    k += 1
            v = (1 - sum(p[x] * q[x] for x in range(n) if x != free)) / p[free]
            if lo - 1e-12 <= v <= hi + 1e-12:
                q[free] = min(max(v, lo), hi)
                out.append(q)
    return out


def mmse_sum_column(values, p):
    mean = sum(v * w for v, w in zip(values, p))
    def g(q):
        lam = sum(a * b for a, b in zip(p, q))
        return sum((v - mean) * w * x for v, w, x in zip(values, p, q)) ** 2 / lam
    variance = sum(w * (v - mean) ** 2 for v, w in zip(values, p))
    return g, variance


def histogram_column(p):
    def g(q):
        lam = sum(a * b for a, b in zip(p, q))
        return sum((a * b) ** 2 for a, b in zip(p, q)) / lam
    return g


def mi_column(p):
    def g(q):
        lam = sum(a * b for a, b in zip(p, q))
        return sum(a * b * math.log(b / lam) for a, b in zip(p, q) if a > 0 and b > 0)
    return g


def best_over_subsets(generators, g):
    """max sum_i w_i g(r_i) over n-subsets with R w = 1, w >= 0."""
    n = len(generators[0])
    best = None
    for subset in itertools.combinations(generators, n):
        matrix = [[r[x] for r in subset] for x in range(n)]
        try:
            w = solve_linear(matrix, [1.0] * n)
        except ZeroDivisionError:
            continue
        if any(not math.isfinite(v) for v in w) or min(w) < -1e-10:
            continue
        check = [sum(matrix[x][i] * w[i] for i in range(n)) for x in range(n)]
        if max(abs(c - 1) for c in check) > 1e-9:
            continue
        total = sum(wi * g(r) for wi, r in zip(w, subset))
        best = total if best is None else max(best, total)
    return best


def binary_entropy_inverse(h):
    """The delta in [0, 1/2] with H(delta) = h nats, by bisection."""
    lo, hi = 0.0, 0.5
    for _ in range(200):
        mid = (lo + hi) / 2
        value = 0.0 if mid == 0 else -(mid * math.log(mid) + (1 - mid) * math.log(1 - mid))
        lo, hi = (mid, hi) if value < h else (lo, mid)
    return (lo + hi) / 2


def subset_selection_frequency_mse(n, k, eps):
    """Frequency MSE (fixed counts, one user, uniform prior) of subset selection with subsets of
    size k, through its efficient estimator: tr(J^-1) - 1 with J = sum_S q_S q_S^T / lambda_S,
    each inverse column by Gaussian elimination."""
    e = math.exp(eps)
    subsets = list(itertools.combinations(range(n), k))
    total = math.comb(n - 1, k - 1) * e + math.comb(n - 1, k) * 1.0
    cols = [[(e if x in s else 1.0) / total for x in range(n)] for s in subsets]
    pi = [1.0 / n] * n
    j = [[0.0] * n for _ in range(n)]
    for q in cols:
        lam = sum(a * b for a, b in zip(pi, q))
        for a in range(n):
            for b in range(n):
                j[a][b] += q[a] * q[b] / lam
    trace = sum(solve_linear(j, [1.0 if i == a else 0.0 for i in range(n)])[a] for a in range(n))
    return trace - 1.0


def mmse_problems():
    g, var = mmse_sum_column([0, 1], [0.99, 0.01])
    print("mmse-survey-lip (P1 = 0.01, eps = 2):", var - best_over_subsets(lip_generators([0.99, 0.01], 2.0), g))
    g, var = mmse_sum_column([0, 1], [0.5, 0.5])
    print("mmse-survey-ldp (P1 = 0.5, eps = 1):", var - best_over_subsets(ldp_generators(2, 1.0), g))
    prior = [0.1, 0.2, 0.3, 0.4]
    g, var = mmse_sum_column([0, 1, 2, 3], prior)
    print("mmse-sum-lip-4 (eps = 1):", var - best_over_subsets(lip_generators(prior, 1.0), g))
    prior5 = [0.3, 0.25, 0.2, 0.15, 0.1]
    values = [1.0, 2.0, 4.0, 8.0, 16.0]
    g, var = mmse_sum_column(values, prior5)
    print("mmse-weighted-sum-ldp-5 (weight 0.5, eps = 1):", 0.25 * (var - best_over_subsets(ldp_generators(5, 1.0), g)))
    uniform = [0.25] * 4
    h = histogram_column(uniform)
    print("mmse-histogram-lip-4 (uniform, eps = 0.5):", 1 - best_over_subsets(lip_generators(uniform, 0.5), h))
    h = histogram_column(prior)
    print("mmse-histogram-ldp-4 (eps = 1):", 1 - best_over_subsets(ldp_generators(4, 1.0), h))
    m = mi_column([0.5, 0.3, 0.2])
    print("mi-utility-ldp-3 (eps = 1):", best_over_subsets(ldp_generators(3, 1.0), m))
    # Rate-distortion of a uniform bit under Hamming distortion (Cover and Thomas, Thm 10.3.1):
    # R(D) = ln 2 - H(D), so I(X;Y) <= eps allows expected Hamming loss H^-1(ln 2 - eps).
    print("mi-privacy-binary (eps = 0.2 nats):", binary_entropy_inverse(math.log(2) - 0.2))


def frequency_problems():
    best = min(subset_selection_frequency_mse(8, k, 1.0) for k in range(1, 8))
    print("frequency-ldp-8 (uniform, eps = 1), best subset selection:", best)


def main():
    mmse_problems()
    e = math.exp
    print("ldp-hamming-5:", krr_hamming(5, 1.0))
    frequency_problems()
    r = e(-1.0)
    line8 = [[abs(i - j) for j in range(8)] for i in range(8)]
    diag = tight_constraints_mechanism(line8, 1.0)
    print("dprivacy-line-8 (LE):", 1 - sum(diag) / 8, "closed form:", 1 - (2 / (1 + r) + 6 * (1 - r) / (1 + r)) / 8)
    grid = [(i, j) for i in range(3) for j in range(3)]
    manh = [[abs(a[0] - b[0]) + abs(a[1] - b[1]) for b in grid] for a in grid]
    diag = tight_constraints_mechanism(manh, 0.7)
    print("dprivacy-grid-manhattan-3x3 (LE): min p_kk", min(diag), "loss", 1 - sum(diag) / 9)
    print("lip-binary-survey:", binary_lp([0.7, 0.3], lip_constraints([0.7, 0.3], 1.0)))
    bp = lip_constraints([0.6, 0.4], 1.0) + lip_constraints([0.9, 0.1], 1.0)
    print("bp-lip-binary:", binary_lp([0.7, 0.3], bp))
    print("context-ldp-binary:", binary_lp([0.5, 0.5], context_constraints([[0, 0.5], [2.0, 0]])))
    e01, e10 = 0.5, 2.0
    q01 = (e(e01) - 1) / (e(e01 + e10) - 1)
    q10 = (e(e10) - 1) / (e(e01 + e10) - 1)
    print("   tight point of docs/design-notes.md (loss 0.5 (Q01 + Q10)):", 0.5 * (q01 + q10))
    inf = float("inf")
    print("mangat-binary:", binary_lp([0.5, 0.5], context_constraints([[0, inf], [1.0, 0]])))
    print("high-low-4 (S = {0}):", 3 * e(-1.0) / 4)
    sizes = [3, 2, 1]
    print("block-6:", sum(k / 6 * (k - 1) / (e(1.0) + k - 1) for k in sizes))
    print("max-leakage-4:", 1 - e(1.0) / 4)
    p = [0.5, 0.3, 0.2]
    assert min(p) >= 1 / (e(1.5) + 2)
    print("identifiability-3:", 2 / (e(1.5) + 2))


if __name__ == "__main__":
    main()
