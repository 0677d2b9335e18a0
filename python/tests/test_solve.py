"""`solve` from Python against the problems' known optima, pickling, threads and errors."""

import json
import pickle
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import mechsynth as ms

ROOT = Path(__file__).resolve().parents[2]

#: The `[expected]` tolerance when a file gives none (the command line's default).
DEFAULT_TOLERANCE = 1e-6
#: How far a row of a certified channel may be from summing to 1.
ROW_SUM_SLACK = 1e-9

EXPECTED = sorted(
    p
    for p in (ROOT / "problems").glob("*.toml")
    if "[continuous]" not in p.read_text() and "expected" in ms.Problem.from_file(p).to_dict()
)


def test_there_are_problems_with_known_optima():
    assert len(EXPECTED) >= 20


@pytest.mark.parametrize("path", EXPECTED, ids=lambda p: p.stem)
def test_every_known_optimum_is_matched_from_python(path):
    problem = ms.Problem.from_file(path)
    expected = problem.to_dict()["expected"]
    result = ms.solve(problem)
    assert result.status in ("optimal", "local-optimum"), result
    tolerance = expected.get("tolerance", DEFAULT_TOLERANCE)
    assert abs(result.objective - expected["objective"]) <= tolerance, (
        path.name, result.objective, expected["objective"])
    q = result.channel
    assert q.dtype == np.float64 and q.ndim == 2
    assert np.all(q >= 0) and np.all(np.abs(q.sum(axis=1) - 1) <= ROW_SUM_SLACK)
    # The rigorous bound is on the right side of the objective.
    if result.bound is not None and result.status == "optimal":
        goal = result.to_dict()["goal"]
        if goal == "minimize":
            assert result.bound <= result.objective + tolerance
        else:
            assert result.bound >= result.objective - tolerance


def test_the_report_is_the_command_lines_json():
    result = ms.solve(ms.Problem.from_file(ROOT / "problems/ldp-hamming-5.toml"))
    d = result.to_dict()
    for key in ("status", "method", "objective", "bound", "gap", "channel", "leakage",
                "certificate", "timings", "warnings", "problem"):
        assert key in d, key
    assert json.loads(result.to_json()) == d
    # The fields read without parsing the report are the report's.
    assert (result.status, result.method, result.objective, result.bound) == (
        d["status"], d["method"], d["objective"], d["bound"])
    assert (result.gap, result.relative_gap) == (d["gap"]["absolute"], d["gap"]["relative"])
    assert np.array_equal(np.array(d["channel"]), result.channel)
    assert result.leakage["ldp"] <= 1.0
    assert result.certificate["all_hold"] is True
    assert result.svg().startswith("<svg")
    assert "optimal" in result._repr_html_() and "<svg" in result._repr_html_()


def test_the_channel_is_a_read_only_array_owned_by_the_result():
    result = ms.solve(ms.Problem.from_file(ROOT / "problems/ldp-hamming-5.toml"))
    q = result.channel
    assert q is result.channel  # no copy per access
    assert q.flags.c_contiguous and not q.flags.writeable
    with pytest.raises(ValueError):
        q[0, 0] = 1.0


def test_results_pickle_bit_for_bit():
    result = ms.solve(ms.Problem.from_file(ROOT / "problems/mmse-survey-lip.toml"))
    back = pickle.loads(pickle.dumps(result))
    assert back.to_dict() == result.to_dict()
    assert back.channel.tobytes() == result.channel.tobytes()
    assert back.problem == result.problem


def test_two_threads_give_the_serial_results():
    base = ms.Problem.from_file(ROOT / "problems/lip-binary-survey.toml")
    problems = [base.with_epsilon(e) for e in np.linspace(0.1, 3.0, 12)]
    serial = [ms.solve(p) for p in problems]
    with ThreadPoolExecutor(max_workers=2) as pool:
        threaded = list(pool.map(ms.solve, problems))
    for a, b in zip(serial, threaded):
        assert a.status == b.status and a.objective == b.objective
        assert np.array_equal(a.channel, b.channel)


def test_a_zero_epsilon_gives_a_certified_channel_that_ignores_its_input():
    # eps = 0: every row must be the same distribution, and the certificate says so.
    p = ms.Problem(size=2, privacy={"notion": "ldp", "epsilon": 0.0},
                   objective={"kind": "expected-loss", "loss": "hamming"})
    r = ms.solve(p)
    assert r.status == "optimal" and r.leakage["ldp"] == 0.0
    assert np.array_equal(r.channel[0], r.channel[1])


# (keyword arguments of solve, the exception, text the message must hold)
BAD_CALLS = [
    (dict(method="fastest"), ms.InvalidInputError, "method"),
    (dict(solver="gurobi"), ms.InvalidInputError, "solver"),
    (dict(time_limit=0.0), ms.InvalidInputError, "time_limit"),
    (dict(time_limit=float("nan")), ms.InvalidInputError, "time_limit"),
    (dict(gap=1.5), ms.InvalidInputError, "gap"),
    (dict(method="line"), ms.InvalidInputError, "line"),
]


@pytest.mark.parametrize("kwargs,error,needle", BAD_CALLS)
def test_bad_arguments_raise_value_errors_naming_them(kwargs, error, needle):
    problem = ms.Problem.from_file(ROOT / "problems/ldp-hamming-5.toml")
    with pytest.raises(error) as info:
        ms.solve(problem, **kwargs)
    assert isinstance(info.value, ValueError)
    assert needle in str(info.value), str(info.value)


def test_solve_refuses_what_is_not_a_problem():
    with pytest.raises(ms.InvalidInputError, match="mechsynth.Problem"):
        ms.solve({"size": 3})


def test_profile_levels_and_their_timings():
    problem = ms.Problem.from_file(ROOT / "problems/ldp-hamming-5.toml")
    auto = ms.solve(problem)
    for key in ("leakage_profile_ms", "objective_profile_ms", "total_ms"):
        assert auto.timings[key] >= 0.0, key
    # Up to 100 inputs the default profile is the full one.
    assert "inversion-mse" in auto.to_dict()["objectives"]
    assert "profile_notes" not in auto.to_dict()
    none = ms.solve(problem, profile="none")
    assert none.leakage == {} and none.to_dict()["objectives"] == {}
    assert "profile" in none.to_dict()["profile_notes"][0]
    with pytest.raises(ms.InvalidInputError, match="profile"):
        ms.solve(problem, profile="fast")
