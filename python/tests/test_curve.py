"""`curve` and `verify` from Python: the same CSV and JSON as the command line, arrays, pickling,
threads, and the errors of bad arguments."""

import concurrent.futures
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mechsynth as ms

ROOT = Path(__file__).resolve().parents[2]
PROBLEMS = ROOT / "problems"
GRID = "0.5:3:7"


def _binary():
    """The built `mechsynth` binary: $MECHSYNTH_BIN, else target/release of $CARGO_TARGET_DIR or
    of the repository; None when there is none."""
    candidates = [os.environ.get("MECHSYNTH_BIN")]
    if os.environ.get("CARGO_TARGET_DIR"):
        candidates.append(os.path.join(os.environ["CARGO_TARGET_DIR"], "release", "mechsynth"))
    candidates.append(str(ROOT / "target" / "release" / "mechsynth"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def _cli(*args):
    binary = _binary()
    if binary is None:
        pytest.skip(
            "no built mechsynth binary to compare with "
            "(cargo build --release, or set MECHSYNTH_BIN)"
        )
    done = subprocess.run([binary, *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def hamming():
    return ms.Problem.from_file(PROBLEMS / "ldp-hamming-5.toml")


@pytest.fixture(scope="module")
def hamming_curve(hamming):
    return ms.curve(hamming, epsilons=GRID, compare=["lip"])


@pytest.mark.parametrize(
    "name, flags, kwargs",
    [
        (
            "ldp-hamming-5.toml",
            ["--epsilons", GRID, "--compare", "lip"],
            {"epsilons": GRID, "compare": ["lip"]},
        ),
        (
            "ldp-hamming-5.toml",
            ["--epsilons", "1,2.5", "--no-registry"],
            {"epsilons": [1.0, 2.5], "registry": False},
        ),
        (
            "lip-binary-survey.toml",
            ["--priors", "0.1,0.3", "--compare", "ldp*2"],
            {"priors": np.array([0.1, 0.3]), "compare": "ldp*2"},
        ),
        (
            "ldp-hamming-5.toml",
            ["--sizes", "2:4:3", "--mechanisms", "k-rr"],
            {"sizes": "2:4:3", "mechanisms": ["k-rr"]},
        ),
    ],
)
def test_curve_writes_the_command_lines_csv(name, flags, kwargs):
    path = PROBLEMS / name
    expected = _cli("curve", str(path), *flags)
    result = ms.curve(ms.Problem.from_file(path), **kwargs)
    assert result.to_csv() == expected


def test_arrays_have_one_entry_per_point_and_series(hamming_curve):
    c = hamming_curve
    assert c.axis == "epsilon"
    assert c.x.dtype == np.float64 and c.x.shape == (7,)
    assert c.x[0] == 0.5 and c.x[-1] == 3.0
    assert c.names[:2] == ["optimum ldp", "optimum lip"]
    assert c.values.shape == (7, len(c.names)) and c.values.dtype == np.float64
    for name in c.names:
        assert c.series[name].shape == (7,) and c.series[name].dtype == np.float64
        assert c.bounds[name].shape == (7,)
        assert c.statuses[name].dtype.kind == "U"
    assert list(c.statuses["optimum ldp"]) == ["optimal"] * 7
    # LDP's optimum is k-RR's Hamming loss (n-1)/(e^eps+n-1), within the gap tolerance.
    krr = 4.0 / (np.exp(c.x) + 4.0)
    assert np.allclose(c.series["optimum ldp"], krr, rtol=1e-6, atol=1e-9)
    assert np.all(c.bounds["optimum ldp"] <= c.series["optimum ldp"] + 1e-9)
    # The optimum decreases as epsilon grows.
    assert np.all(np.diff(c.series["optimum ldp"]) < 0)
    # The arrays are views that cannot be changed by accident.
    with pytest.raises(ValueError):
        c.x[0] = 1.0
    assert len(c.rows) == len(c) == sum(1 for line in c.to_csv().splitlines()[1:])
    first = c.rows[0]
    assert set(first) == {"series", "x", "value", "status", "bound", "leakage", "notes"}
    assert first["series"] == "optimum ldp" and first["x"] == 0.5
    assert c.complete and c.timed_out.shape == (0,)


def test_to_dict_and_svg(hamming_curve):
    d = hamming_curve.to_dict()
    assert d["axis"] == "epsilon" and d["x"] == hamming_curve.x.tolist()
    assert d["series"]["optimum ldp"] == hamming_curve.series["optimum ldp"].tolist()
    json.dumps(d)
    svg = hamming_curve.svg()
    assert svg.lstrip().startswith("<svg") and "5-ary LDP, Hamming loss" in svg
    assert "my title" in hamming_curve.svg("my title", size=(400, 300))
    with pytest.raises(ms.InvalidInputError, match="`width`"):
        hamming_curve.svg(size=(0, 300))


def test_to_pandas_or_a_clear_import_error(hamming_curve, monkeypatch):
    try:
        import pandas  # noqa: F401
    except ImportError:
        pass
    else:
        frame = hamming_curve.to_pandas()
        columns = ["series", "x", "value", "status", "bound", "leakage", "notes"]
        assert list(frame.columns) == columns
        assert len(frame) == len(hamming_curve)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="needs pandas"):
        hamming_curve.to_pandas()


def test_results_pickle(hamming_curve, hamming):
    again = pickle.loads(pickle.dumps(hamming_curve))
    assert again == hamming_curve
    assert again.to_csv() == hamming_curve.to_csv()
    assert np.array_equal(again.values, hamming_curve.values, equal_nan=True)
    v = ms.verify(hamming)
    w = pickle.loads(pickle.dumps(v))
    assert w.to_json() == v.to_json() and w.to_table() == v.to_table()
    assert w.checks == v.checks and w.all_hold == v.all_hold


def test_verify_gives_the_command_lines_json(hamming):
    path = PROBLEMS / "ldp-hamming-5.toml"
    v = ms.verify(hamming, sweep=True)
    assert v.all_hold and bool(v)
    assert [c["name"] for c in v.checks] == ["k-rr"]
    assert v.checks[0]["claim_holds"] and v.failures == []
    assert v.optimum == pytest.approx(4.0 / (np.e + 4.0), rel=1e-6)
    assert v.sweep is not None and v.sweep["all_hold"]
    expected = json.loads(_cli("verify", str(path), "--sweep", "--format", "json"))
    assert v.to_dict() == expected
    assert json.loads(v.to_json(indent=2)) == expected
    assert ms.verify(hamming).sweep is None


def test_verify_reports_failed_claims():
    # The published binary-LIP closed forms violate LIP at this problem's epsilon (the command
    # line exits 6); the result names each failure.
    path = PROBLEMS / "mmse-survey-lip.toml"
    v = ms.verify(ms.Problem.from_file(path))
    assert not v.all_hold and not bool(v)
    held = {c["name"]: c["claim_holds"] for c in v.checks}
    assert held == {"binary-lip-optimum": False, "mimo-lip": False}
    assert any(f.startswith("mimo-lip: violates lip") for f in v.failures)
    assert "HOLDS" not in v.to_table().split("mimo-lip")[1].splitlines()[0]
    binary = _binary()
    if binary is not None:
        done = subprocess.run(
            [binary, "verify", str(path), "--format", "json"], capture_output=True, text=True
        )
        assert done.returncode == 6, done.stderr
        assert v.to_dict() == json.loads(done.stdout)


def test_threads_solve_in_parallel_as_in_a_loop(hamming):
    epsilons = np.linspace(0.1, 4.0, 20)
    problems = [hamming.with_epsilon(e) for e in epsilons]
    serial = [ms.solve(p).objective for p in problems]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        threaded = list(pool.map(lambda p: ms.solve(p).objective, problems))
    assert threaded == serial
    assert np.allclose(serial, 4.0 / (np.exp(epsilons) + 4.0), rtol=1e-6, atol=1e-9)


def test_curve_matches_solving_each_point(hamming, hamming_curve):
    for x, value in zip(hamming_curve.x, hamming_curve.series["optimum ldp"]):
        assert ms.solve(hamming.with_epsilon(x)).objective == value


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({}, "epsilons"),
        ({"epsilons": "1,2", "sizes": "2,3"}, "sizes"),
        ({"epsilons": "1:2"}, "`epsilons`"),
        ({"epsilons": "nan,1"}, "`epsilons`"),
        ({"epsilons": [-1.0]}, "`epsilons`"),
        ({"epsilons": [[1.0, 2.0]]}, "`epsilons`"),
        ({"priors": "0.1,0.2"}, "`priors`"),
        ({"sizes": "1.5"}, "`sizes`"),
        ({"epsilons": "1", "compare": ["nope"]}, "`compare`"),
        ({"epsilons": "1", "compare": "ldp*-1"}, "`compare`"),
        ({"epsilons": "1", "mechanisms": ["nope"]}, "`mechanisms`"),
        ({"epsilons": "1", "point_time_limit": 0}, "`point_time_limit`"),
        ({"epsilons": "1", "time_limit": float("inf")}, "`time_limit`"),
        ({"epsilons": "1", "gap": 1.0}, "`gap`"),
        ({"epsilons": "1", "solver": "cplex"}, "`solver`"),
    ],
)
def test_bad_curve_arguments_raise_invalid_input_naming_them(hamming, kwargs, argument):
    with pytest.raises(ms.InvalidInputError, match=argument) as info:
        ms.curve(hamming, **kwargs)
    assert isinstance(info.value, ValueError)


def test_bad_problem_and_verify_arguments(hamming):
    assert issubclass(ms.InvalidInputError, ValueError)
    with pytest.raises(ms.InvalidInputError, match="`problem`"):
        ms.curve("ldp-hamming-5.toml", epsilons="1")
    with pytest.raises(ms.InvalidInputError, match="`problem`"):
        ms.verify({"size": 3})
    with pytest.raises(ms.InvalidInputError, match="`time_limit`"):
        ms.verify(hamming, time_limit=-1)
    with pytest.raises(ms.InvalidInputError, match="`solver`"):
        ms.verify(hamming, solver="cplex")
