"""Tests of the collection functions: leakage, audit, baseline, compose, privatize, estimate,
simulate and plan."""

import math
import pickle
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import mechsynth as ms

# Leakage is outward rounded: a closed form is met up to a few units in the last place.
LEAKAGE_RTOL = 1e-9
# Estimates from a confidence interval: a correct 95% interval misses 5% of the time; over
# SEEDS x 5 frequencies, a coverage below this happens with negligible probability
# (binomial(100, 0.95) is below 0.85 with probability about 1e-4, and correlation within a
# seed only widens that slightly).
COVERAGE_THRESHOLD = 0.85
# The sampler's counts per cell against N Q[x, y]: this many binomial standard deviations
# (24 cells: a correct sampler exceeds it with probability about 24 * 5.7e-7).
SAMPLER_Z = 5.0
# Bias check: the mean over seeds of the estimates within this many of its standard errors.
BIAS_Z = 4.0

KS = [2, 3, 5, 10]
EPSILONS = [0.1, 0.5, 1.0, 2.0, 5.0]


def krr_closed_form(k, eps):
    """k-RR by its definition: e^eps / (e^eps + k - 1) on the diagonal, 1 / (e^eps + k - 1)
    elsewhere."""
    d = math.exp(eps) + k - 1
    q = np.full((k, k), 1.0 / d)
    np.fill_diagonal(q, math.exp(eps) / d)
    return q


# ------------------------------------------------------------------------------------------
# leakage and baselines


@pytest.mark.parametrize("k", KS)
@pytest.mark.parametrize("eps", EPSILONS)
def test_krr_ldp_is_epsilon(k, eps):
    q = ms.baseline("k-rr", k, eps)
    assert q.shape == (k, k)
    np.testing.assert_allclose(q, krr_closed_form(k, eps), rtol=1e-12)
    assert ms.leakage(q, "ldp") == pytest.approx(eps, rel=LEAKAGE_RTOL)
    # Outward rounding: never below the exact value.
    assert ms.leakage(q, "ldp") >= eps * (1 - 1e-15)


@pytest.mark.parametrize("k", KS)
@pytest.mark.parametrize("eps", EPSILONS)
def test_krr_lip_under_uniform_prior(k, eps):
    # LIP is max over x, y of |ln(P(Y = y | X = x) / P(Y = y))|. Under the uniform prior each
    # column of k-RR sums to 1, so P(Y = y) = 1/k; the ratios are k e^eps / (e^eps + k - 1)
    # (diagonal, above 1) and k / (e^eps + k - 1) (off the diagonal, below 1 for k >= 2).
    d = math.exp(eps) + k - 1
    expected = max(math.log(k * math.exp(eps) / d), math.log(d / k))
    q = ms.baseline("k-rr", k, eps)
    assert ms.leakage(q, "lip") == pytest.approx(expected, rel=LEAKAGE_RTOL)


def test_lip_and_max_leakage_match_their_definitions_on_random_channels():
    rng = np.random.default_rng(7)
    for _ in range(10):
        n, m = rng.integers(2, 6), rng.integers(2, 7)
        q = rng.dirichlet(np.ones(m), size=n)
        prior = rng.dirichlet(np.ones(n))
        p_y = prior @ q
        lip = np.max(np.abs(np.log(q / p_y)))
        assert ms.leakage(q, "lip", prior=prior) == pytest.approx(lip, rel=LEAKAGE_RTOL)
        # Maximal leakage (Issa et al.): ln sum_y max_x Q[x, y] (prior of full support).
        ml = math.log(q.max(axis=0).sum())
        assert ms.leakage(q, "max-leakage", prior=prior) == pytest.approx(ml, rel=LEAKAGE_RTOL)
        ldp = np.max(np.log(q.max(axis=0) / q.min(axis=0)))
        assert ms.leakage(q, "ldp") == pytest.approx(ldp, rel=LEAKAGE_RTOL)


def test_leakage_without_notion_is_audits_profile():
    q = ms.baseline("k-rr", 4, 1.0)
    every = ms.leakage(q)
    assert set(every) >= {"ldp", "lip", "max-leakage", "mutual-information", "identifiability"}
    for notion, value in every.items():
        assert ms.leakage(q, notion) == value


def test_d_privacy_of_the_geometric_mechanism_on_the_line():
    eps = 0.7
    q = ms.baseline("truncated-geometric", 6, eps)
    assert ms.leakage(q, "d-privacy", metric="line") == pytest.approx(eps, rel=LEAKAGE_RTOL)
    distances = np.abs(np.subtract.outer(np.arange(6), np.arange(6))).astype(float)
    assert ms.leakage(q, "d-privacy", distances=distances) == pytest.approx(
        eps, rel=LEAKAGE_RTOL
    )
    # A domain with positions gives the natural distance.
    assert ms.leakage(q, "d-privacy", domain={"line": 6}) == pytest.approx(eps, rel=LEAKAGE_RTOL)


def test_every_baseline_name_builds_a_channel():
    for name in ["k-rr", "geometric", "truncated-geometric", "exponential", "hadamard"]:
        q = ms.baseline(name, 5, 1.0)
        assert q.dtype == np.float64 and q.shape[0] == 5
        np.testing.assert_allclose(q.sum(axis=1), 1.0, atol=1e-12)
    assert ms.baseline("warner", 2, 1.0).shape == (2, 2)
    q = ms.baseline("hadamard-high-low", 5, 1.0, sensitive=[0, "1"])
    assert q.shape[0] == 5
    q = ms.baseline("hadamard-block", 5, 1.0, blocks=[[0, 1, 2], [3, 4]])
    assert q.shape[0] == 5
    q = ms.baseline("planar-laplace", epsilon=1.0, domain={"grid": {"rows": 3, "cols": 3}})
    assert q.shape[0] == 9


# ------------------------------------------------------------------------------------------
# audit and compose


def test_audit_checks_stated_constraints():
    q = ms.baseline("k-rr", 3, 1.0)
    held = ms.audit(q, privacy={"notion": "ldp", "epsilon": 1.0})
    assert held.all_hold
    assert held.checks[0]["verdict"] in ("holds", "holds-up-to-rounding")
    violated = ms.audit(q, privacy=[{"notion": "ldp", "epsilon": 0.5}])
    assert not violated.all_hold
    assert violated.checks[0]["verdict"] == "violated"
    assert violated.checks[0]["excess"] == pytest.approx(0.5, rel=1e-9)
    assert violated.channel.shape == (3, 3)
    assert "mmse-histogram" in held.objectives
    approx = ms.audit(q, epsilons=[0.5], deltas=[0.01])
    assert any(k.startswith("ldp delta at eps") for k in approx.leakage)


def test_compose_krr_ldp_adds_up():
    eps = 0.8
    q = ms.baseline("k-rr", 3, eps)
    r = ms.compose(q, 2, delta_prime=1e-6)
    assert r.releases == 2 and r.outputs == 9
    # The product of two k-RR channels: the worst output ratio is the product of two.
    assert r.exact["ldp"] == pytest.approx(2 * eps, rel=LEAKAGE_RTOL)
    assert r.bound["ldp"] == pytest.approx(2 * eps, rel=LEAKAGE_RTOL)
    np.testing.assert_allclose(r.single_ldp, [eps, eps], rtol=LEAKAGE_RTOL)
    # Two different channels.
    r2 = ms.compose([q, ms.baseline("k-rr", 3, 0.3)], 1)
    assert r2.exact["ldp"] == pytest.approx(eps + 0.3, rel=LEAKAGE_RTOL)


# ------------------------------------------------------------------------------------------
# privatize and estimate


def _values(seed, n, pi):
    return np.random.default_rng(seed).choice(len(pi), size=n, p=pi).astype(np.int64)


def test_privatize_then_estimate_covers_the_truth():
    pi = np.array([0.4, 0.25, 0.15, 0.12, 0.08])
    q = ms.baseline("k-rr", 5, 1.0)
    n = 200_000
    seeds = range(20)
    covered = 0
    total = 0
    errors = []
    ses = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for seed in seeds:
            x = _values(1000 + seed, n, pi)
            truth = np.bincount(x, minlength=5) / n
            y = ms.privatize(q, x, seed=seed)
            est = ms.estimate(q, y, level=0.95)
            assert est.users == n
            covered += int(np.sum((est.lower <= truth) & (truth <= est.upper)))
            total += len(truth)
            errors.append(est.estimates - truth)
            ses.append(est.standard_errors)
    assert covered / total >= COVERAGE_THRESHOLD, f"coverage {covered}/{total}"
    mean_error = np.mean(errors, axis=0)
    mean_se = np.mean(ses, axis=0) / math.sqrt(len(seeds))
    assert np.all(np.abs(mean_error) <= BIAS_Z * mean_se), (mean_error, mean_se)


def test_privatize_rows_match_the_channel():
    # An independent check of the sampler: per input, the output counts against N Q[x, y].
    q = np.array(
        [
            [0.5, 0.2, 0.1, 0.1, 0.05, 0.05],
            [0.01, 0.01, 0.01, 0.01, 0.01, 0.95],
            [0.0, 0.25, 0.25, 0.25, 0.25, 0.0],
            [1 / 6] * 6,
        ]
    )
    per_input = 50_000
    x = np.repeat(np.arange(4), per_input)
    with pytest.warns(UserWarning, match="seed makes the randomization reproducible"):
        y = ms.privatize(q, x, seed=11)
    assert y.dtype == np.int64 and y.shape == x.shape
    for row in range(4):
        counts = np.bincount(y[x == row], minlength=6)
        expected = per_input * q[row]
        sd = np.sqrt(per_input * q[row] * (1 - q[row]))
        assert np.all(np.abs(counts - expected) <= SAMPLER_Z * sd + 1e-12), (row, counts)
        assert np.all(counts[q[row] == 0] == 0)


def test_privatize_keeps_shape_labels_and_reproducibility():
    q = ms.baseline("k-rr", 3, 2.0)
    x = np.arange(12).reshape(3, 4) % 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        a = ms.privatize(q, x, seed=5)
        b = ms.privatize(q, x, seed=5)
        c = ms.privatize(q, x.astype(np.int32), seed=5)
        d = ms.privatize(q, np.array(["a", "b", "c"])[x], labels=["a", "b", "c"], seed=5)
        e = ms.privatize(q, np.asfortranarray(x), seed=5)
    assert a.shape == (3, 4)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, c)
    np.testing.assert_array_equal(a, d)
    np.testing.assert_array_equal(a.ravel(order="C"), e.ravel(order="C"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        unseeded = ms.privatize(q, x)  # no warning without a seed
    assert unseeded.shape == x.shape
    assert ms.privatize(q, np.int64(2)).shape == ()
    assert ms.privatize(q, np.array([], dtype=np.int64)).shape == (0,)


def test_privatize_refuses_a_channel_that_breaks_its_stated_privacy():
    q = ms.baseline("k-rr", 3, 1.0)
    with pytest.raises(ms.NoCertifiedChannelError, match="does not meet the stated privacy"):
        ms.privatize(q, [0, 1, 2], privacy={"notion": "ldp", "epsilon": 0.5})
    out = ms.privatize(q, [0, 1, 2], privacy={"notion": "ldp", "epsilon": 1.0})
    assert out.shape == (3,)


def test_estimate_from_counts_equals_estimate_from_reports():
    q = ms.baseline("k-rr", 4, 1.0)
    reports = np.array([0, 1, 1, 2, 3, 3, 3, 0, 2, 1] * 100)
    a = ms.estimate(q, reports, estimator=["inversion", "em"], queries=["frequencies", "mean"])
    b = ms.estimate(
        q,
        counts=np.bincount(reports, minlength=4),
        estimator=["inversion", "em"],
        queries=["frequencies", "mean"],
    )
    assert a == b
    assert a.estimators == ["inversion", "em"]
    np.testing.assert_allclose(a.estimates.sum(), 1.0, atol=1e-9)
    em = a.frequencies("em")["estimate"]
    assert np.all(em >= 0)
    assert any(r["quantity"] == "mean" for r in a.rows)


# ------------------------------------------------------------------------------------------
# simulate and plan


def test_simulate_agrees_with_the_analytic_error():
    q = ms.baseline("k-rr", 4, 1.0)
    r = ms.simulate(q, 1000, trials=200, seed=3)
    assert r.trials == 200 and r.users == 1000
    m = r.metric("frequency-mse", "inversion")
    assert m["analytic"] is not None and m["empirical"] > 0
    assert ms.simulate(q, 1000, trials=200, seed=3) == r


def test_plan_rows():
    q = ms.baseline("k-rr", 4, 1.0)
    p = ms.plan(q, rmse=0.01)
    cols = p.columns()
    assert len(cols["mechanism"]) == len(p.rows) >= 2
    assert np.all(cols["users_needed"][np.isfinite(cols["users_needed"])] > 0)
    p2 = ms.plan(size=4, rmse=0.01, users=100_000, target="prevalence", symbol=2)
    assert p2.target == {"kind": "prevalence", "symbol": 2}


# ------------------------------------------------------------------------------------------
# pickling


def test_every_result_pickles_through_its_json():
    q = ms.baseline("k-rr", 3, 1.0)
    results = [
        ms.audit(q, privacy={"notion": "ldp", "epsilon": 1.0}),
        ms.compose(q, 2),
        ms.estimate(q, counts=[10, 20, 30]),
        ms.simulate(q, 100, trials=20, seed=1),
        ms.plan(q, rmse=0.05),
    ]
    for r in results:
        back = pickle.loads(pickle.dumps(r))
        assert type(back) is type(r)
        assert back == r
        assert back.to_dict() == r.to_dict()
        assert back.to_json() == r.to_json()
        repr(back)


# ------------------------------------------------------------------------------------------
# errors


KRR = np.array([[0.6, 0.4], [0.4, 0.6]])


@pytest.mark.parametrize(
    "call, names",
    [
        (lambda: ms.leakage(np.array([0.5, 0.5]), "ldp"), "`Q`"),
        (lambda: ms.leakage(np.array([[0.5, 0.4], [0.5, 0.5]]), "ldp"), "`Q[0]`"),
        (lambda: ms.leakage(np.array([[0.5, 0.5], [-0.1, 1.1]]), "ldp"), "`Q[1][0]`"),
        (lambda: ms.leakage(np.array([[np.nan, 0.5], [0.5, 0.5]]), "ldp"), "`Q[0][0]`"),
        (lambda: ms.leakage(KRR, "no-such-notion"), "`notion`"),
        (lambda: ms.leakage(KRR, "d-privacy"), "`notion`"),
        (lambda: ms.leakage(KRR, "lip", prior=[0.5, 0.6]), "`prior`"),
        (lambda: ms.baseline("no-such-baseline", 3, 1.0), "`name`"),
        (lambda: ms.baseline("k-rr", 3, -1.0), "`epsilon`"),
        (lambda: ms.baseline("k-rr", 3, "one"), "`epsilon`"),
        (lambda: ms.baseline("k-rr", 1, 1.0), "`k`"),
        (lambda: ms.baseline("warner", 3, 1.0), "`name`"),
        (lambda: ms.privatize(KRR, [0, 1], seed=1.5), "`seed`"),
        (lambda: ms.privatize(KRR, [0, 1], seed=-1), "`seed`"),
        (lambda: ms.privatize(KRR, [0, 2]), "`values`"),
        (lambda: ms.privatize(KRR, [0.0, 1.0]), "`values`"),
        (lambda: ms.estimate(KRR, [0, 1], level=1.5), "`level`"),
        (lambda: ms.estimate(KRR, counts=[1, 2, 3]), "`counts`"),
        (lambda: ms.estimate(KRR, counts=[1, -2]), "`counts[1]`"),
        (lambda: ms.estimate(KRR, [0, 1], estimator="median"), "`estimator`"),
        (lambda: ms.estimate(KRR, [0, 1], queries="median"), "`queries`"),
        (lambda: ms.estimate(KRR), "`reports`"),
        (lambda: ms.compose(KRR, 0), "`releases`"),
        (lambda: ms.compose(KRR, 2, delta_prime=2.0), "`delta_prime`"),
        (lambda: ms.simulate(KRR, 0, trials=10), "`users"),
        (lambda: ms.simulate(KRR, 10, trials=1), "trials"),
        (lambda: ms.plan(KRR, rmse=-1.0), "`rmse`"),
        (lambda: ms.plan(rmse=0.1), "`epsilon`"),
        (lambda: ms.audit(KRR, privacy={"notion": "ldp", "epsilon": -1}), "privacy[0]"),
    ],
)
def test_bad_input_names_the_argument(call, names):
    with pytest.raises(ms.InvalidInputError) as info:
        call()
    assert issubclass(info.type, ValueError)
    assert names in str(info.value), str(info.value)


def test_error_messages_say_what_to_fix():
    with pytest.raises(ValueError, match=r"sum to 1"):
        ms.leakage(np.array([[0.5, 0.4], [0.5, 0.5]]), "ldp")
    with pytest.raises(ValueError, match=r"finite and non-negative"):
        ms.leakage(np.array([[0.5, 0.5], [-0.1, 1.1]]), "ldp")
    with pytest.raises(ValueError, match=r"k-rr"):
        ms.baseline("no-such-baseline", 3, 1.0)
    with pytest.raises(ValueError, match=r"ldp, .*lip"):
        ms.leakage(KRR, "no-such-notion")
    assert issubclass(ms.TimeLimitError, RuntimeError)


def test_time_limit_is_a_runtime_error():
    with pytest.raises(ms.TimeLimitError, match="time limit"):
        ms.compose(ms.baseline("k-rr", 10, 1.0), 5, time_limit=1e-6)


# ------------------------------------------------------------------------------------------
# threads


def _collect(seed):
    q = ms.baseline("k-rr", 6, 1.0)
    x = _values(seed, 100_000, np.full(6, 1 / 6))
    y = ms.privatize(q, x, seed=seed)
    return y, ms.estimate(q, y, estimator=["inversion", "projected"])


def test_threads_give_the_serial_results():
    seeds = list(range(6))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        serial = [_collect(s) for s in seeds]
        with ThreadPoolExecutor(max_workers=2) as pool:
            threaded = list(pool.map(_collect, seeds))
    for (y1, e1), (y2, e2) in zip(serial, threaded):
        np.testing.assert_array_equal(y1, y2)
        assert e1 == e2
