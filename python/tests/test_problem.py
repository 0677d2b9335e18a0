"""`Problem`: keyword arguments, TOML, pickling and the errors of bad input."""

import pickle
from pathlib import Path

import numpy as np
import pytest

import mechsynth as ms

ROOT = Path(__file__).resolve().parents[2]

LDP1 = {"notion": "ldp", "epsilon": 1.0}
HAMMING = {"kind": "expected-loss", "loss": "hamming"}


def test_keyword_arguments_equal_the_same_problem_read_from_toml():
    text = """
        name = "survey"
        [domain]
        labels = ["yes", "no", "maybe"]
        prior = [0.2, 0.5, 0.3]
        [[privacy]]
        notion = "lip"
        epsilon = 0.7
        [[privacy]]
        notion = "ldp"
        epsilon = 2.0
        [objective]
        kind = "mmse-histogram"
    """
    built = ms.Problem(
        name="survey",
        labels=["yes", "no", "maybe"],
        prior=np.array([0.2, 0.5, 0.3]),
        privacy=[{"notion": "lip", "epsilon": 0.7}, {"notion": "ldp", "epsilon": 2.0}],
        objective="mmse-histogram",
    )
    read = ms.Problem.from_toml(text)
    assert built == read
    assert built.to_dict() == read.to_dict()
    assert ms.Problem.from_toml(built.to_toml()) == built
    assert built.labels == ["yes", "no", "maybe"]


def test_every_problem_file_reads_and_writes_back_unchanged():
    for path in sorted((ROOT / "problems").glob("*.toml")):
        text = path.read_text()
        if "[continuous]" in text:
            continue
        problem = ms.Problem.from_file(path)
        assert ms.Problem.from_toml(problem.to_toml(), str(path)) == problem, path.name


def test_problems_pickle_unchanged():
    p = ms.Problem(grid=(3, 3), privacy={"notion": "d-privacy", "epsilon": 0.5, "metric": "manhattan"},
                   objective={"kind": "expected-loss", "loss": "absolute"})
    q = pickle.loads(pickle.dumps(p))
    assert q == p and q.to_toml() == p.to_toml()


def test_with_epsilon_replaces_every_epsilon_and_drops_the_expected_optimum():
    p = ms.Problem.from_file(ROOT / "problems/ldp-hamming-5.toml")
    q = p.with_epsilon(2.5)
    assert [c["epsilon"] for c in q.to_dict()["privacy"]] == [2.5]
    assert "expected" in p.to_dict() and "expected" not in q.to_dict()


# (keyword arguments, text the message must hold)
BAD_PROBLEMS = [
    (dict(size=3, prior=[0.5, 0.5], privacy=LDP1, objective=HAMMING), "domain.prior"),
    (dict(size=3, prior=[0.5, 0.6, -0.1], privacy=LDP1, objective=HAMMING), "domain.prior"),
    (dict(size=3, privacy={"notion": "ldp", "epsilon": -1.0}, objective=HAMMING), "privacy[0]"),
    (dict(size=3, privacy={"notion": "ldpp", "epsilon": 1.0}, objective=HAMMING), "ldpp"),
    (dict(size=3, privacy=[LDP1, {"notion": "lip"}], objective=HAMMING), "privacy[1]"),
    (dict(size=3, privacy=LDP1, objective="no-such-kind"), "no-such-kind"),
    (dict(size=3, privacy=LDP1, objective={"kind": "expected-loss", "loss": "cubic"}), "cubic"),
    (dict(privacy=LDP1, objective=HAMMING), "domain"),
    (dict(size=3, privacy=LDP1), "objective"),
    (dict(size=3, objective=HAMMING), "privacy"),
    (dict(size=3, labels=["a", "b", "c"], privacy=LDP1, objective=HAMMING), "domain"),
    (dict(size=3, domain={"size": 3}, privacy=LDP1, objective=HAMMING), "domain"),
    (dict(size=3, prior=[[0.5, 0.5]], privacy=LDP1, objective=HAMMING), "prior"),
    (dict(size=3, privacy=42, objective=HAMMING), "privacy"),
]


@pytest.mark.parametrize("kwargs,needle", BAD_PROBLEMS)
def test_bad_problems_raise_a_value_error_naming_the_key(kwargs, needle):
    with pytest.raises(ms.InvalidInputError) as info:
        ms.Problem(**kwargs)
    assert isinstance(info.value, ValueError)
    assert needle in str(info.value), str(info.value)


def test_the_messages_are_the_command_lines():
    # The same bad prior in a file: the CLI's message is the library's, which Python raises.
    text = '[domain]\nsize = 3\nprior = [0.5, 0.5]\n[[privacy]]\nnotion = "ldp"\nepsilon = 1\n' \
           '[objective]\nkind = "expected-loss"\nloss = "hamming"\n'
    with pytest.raises(ms.InvalidInputError) as from_file:
        ms.Problem.from_toml(text)
    with pytest.raises(ms.InvalidInputError) as from_kwargs:
        ms.Problem(size=3, prior=[0.5, 0.5], privacy=LDP1, objective=HAMMING)
    assert str(from_file.value) == str(from_kwargs.value)
    assert "has 2 entries but the domain has 3 symbols" in str(from_file.value)


def test_a_bad_toml_file_names_its_origin():
    with pytest.raises(ms.InvalidInputError) as info:
        ms.Problem.from_toml("[domain\nsize = 3", "survey.toml")
    assert "survey.toml" in str(info.value)
