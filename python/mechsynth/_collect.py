"""Channels outside a solve: leakage, audit, baselines, composition, and collections
(privatize, estimate, simulate, plan), each the command line's subcommand of the same name.

A channel ``Q`` is a float64 array of shape (inputs, outputs) with ``Q[x, y] = P(Y = y | X =
x)``; it is checked as a channel file's rows are (finite, non-negative, every row summing to
1 within 1e-9), and an :class:`InvalidInputError` names the entry that is not (``Q[2][1]``).
Every long computation runs without the GIL.
"""

from __future__ import annotations

import json
import numbers
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native
from ._problem import PrivacyArg, _floats
from ._result import _number

__all__ = [
    "AuditResult",
    "ComposeResult",
    "EstimateResult",
    "PlanResult",
    "SimulateResult",
    "audit",
    "baseline",
    "compose",
    "estimate",
    "leakage",
    "plan",
    "privatize",
    "simulate",
]

ArrayLike = Any
Names = Union[str, Sequence[str]]
MetricArg = Union[str, ArrayLike]

_MAX_SEED = 2**64


# ----------------------------------------------------------------------------------------
# Arguments


def _invalid(message: str) -> Exception:
    return _native.InvalidInputError(message)


def _channel(Q: ArrayLike, name: str = "Q") -> np.ndarray:
    """``Q`` as a 2-D float64 array (the numbers are checked natively)."""
    try:
        array = np.asarray(Q, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise _invalid(f"invalid `{name}`: not an array of numbers ({e})") from None
    if array.ndim != 2:
        raise _invalid(
            f"invalid `{name}`: an array of shape {array.shape}; a channel is 2-D, "
            "one row per input and one column per output"
        )
    return array


def _float(name: str, value: Any, optional: bool = False) -> Optional[float]:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise _invalid(f"invalid `{name}` = {value!r}: give a number")
    return float(value)


def _int(name: str, value: Any, optional: bool = False, low: int = 0) -> Optional[int]:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise _invalid(f"invalid `{name}` = {value!r}: give a whole number")
    value = int(value)
    if value < low:
        raise _invalid(f"invalid `{name}` = {value}: must be at least {low}")
    return value


def _seed(value: Any) -> Optional[int]:
    """A seed: None, or an integer in [0, 2**64)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise _invalid(
            f"invalid `seed` = {value!r}: give a whole number in [0, 2**64), or None "
            "for a generator seeded by the operating system"
        )
    if not 0 <= int(value) < _MAX_SEED:
        raise _invalid(f"invalid `seed` = {value}: must be in [0, 2**64)")
    return int(value)


def _names(name: str, value: Names) -> List[str]:
    """One name or a sequence of names."""
    if isinstance(value, str):
        return [value]
    try:
        names = list(value)
    except TypeError:
        raise _invalid(f"invalid `{name}` = {value!r}: give a name or a list of names") from None
    if not all(isinstance(v, str) for v in names):
        raise _invalid(f"invalid `{name}` = {value!r}: give a name or a list of names")
    return names


def _name(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise _invalid(f"invalid `{name}` = {value!r}: give a name (a string)")
    return value


def _domain(domain: Optional[Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    if domain is None:
        return None
    if not isinstance(domain, Mapping):
        raise _invalid(
            f"invalid `domain` = {domain!r}: give a dict with the keys of a problem file's "
            "[domain], e.g. {\"values\": [0, 1, 2]}"
        )
    return dict(domain)


def _metric(metric: Optional[MetricArg], distances: Optional[ArrayLike]) -> Any:
    """The d-privacy metric: a name, or an n x n distance matrix (as nested lists)."""
    if metric is not None and distances is not None:
        raise _invalid("invalid `distances`: give `metric` or `distances`, not both")
    value = distances if distances is not None else metric
    if value is None or isinstance(value, str):
        return value
    key = "distances" if distances is not None else "metric"
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise _invalid(f"invalid `{key}`: give an n x n array of distances") from None
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise _invalid(
            f"invalid `{key}`: an array of shape {array.shape}; give an n x n array of distances"
        )
    return array.tolist()


def _indices(name: str, values: ArrayLike, labels: Optional[Sequence[Any]] = None) -> np.ndarray:
    """Integer indices as a C-contiguous int64 array (read in place when it already is one);
    with ``labels``, values are looked up among them."""
    if labels is not None:
        lookup = {label: i for i, label in enumerate(labels)}
        raw = np.asarray(values)
        unique, inverse = np.unique(raw, return_inverse=True)
        try:
            codes = np.array([lookup[u.item() if hasattr(u, "item") else u] for u in unique],
                             dtype=np.int64)
        except KeyError as e:
            raise _invalid(
                f"invalid `{name}`: {e.args[0]!r} is not one of `labels`"
            ) from None
        return np.asarray(codes[inverse].reshape(raw.shape), order="C")
    array = np.asarray(values)
    if array.dtype.kind not in "iu":
        raise _invalid(
            f"invalid `{name}`: an array of dtype {array.dtype}; give integer indices"
            + (" (or labels with `labels=`)" if name == "values" else "")
        )
    # Not ascontiguousarray, which makes a 0-d array 1-d.
    return np.asarray(array, dtype=np.int64, order="C")


# ----------------------------------------------------------------------------------------
# Results


class _Report:
    """A report of the library, kept as its JSON text (the command line's ``--format json``)."""

    __slots__ = ("_json", "_report")

    def __init__(self, report_json: str) -> None:
        self._json = report_json
        self._report: Dict[str, Any] = json.loads(report_json)

    def __reduce__(self):
        return (type(self), (self._json,))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._report == other._report  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._json)

    def to_dict(self) -> Dict[str, Any]:
        """The report as a dict (the command line's ``--format json``)."""
        return json.loads(self._json)

    def to_json(self) -> str:
        """The report as JSON text (the command line's ``--format json``)."""
        return self._json

    @property
    def warnings(self) -> List[str]:
        """Non-fatal findings."""
        return list(self._report.get("warnings", []))


def _numbers(values: Sequence[Any]) -> np.ndarray:
    return np.array([np.nan if v is None else _number(v) for v in values], dtype=np.float64)


class AuditResult(_Report):
    """What :func:`audit` found: the leakage under every notion, the objectives, and each
    stated constraint with its verdict.

    Attributes
    ----------
    leakage : dict of str to float
        The smallest parameter for which each notion holds, outward rounded (``inf`` when
        unbounded): ``ldp``, ``lip``, ``max-leakage``, ``mutual-information``,
        ``identifiability``, ``d-privacy`` (with a metric or a domain with positions), and
        the (eps, delta) rows of ``epsilons``/``deltas``.
    objectives : dict of str to float
        Every objective that applies, under the domain prior.
    checks : list of dict
        One per stated constraint: ``constraint``, ``requested``, ``achieved``, ``verdict``
        (``"holds"``, ``"holds-up-to-rounding"`` or ``"violated"``) and ``excess``.
    all_hold, all_certified : bool
        No constraint violated; every constraint holds exactly (the command line's exit code
        is 5 unless ``all_hold``, or with ``--strict`` unless ``all_certified``).
    channel : numpy.ndarray
        The channel audited; ``labels`` its input labels.
    warnings : list of str
    """

    __slots__ = ()

    @property
    def leakage(self) -> Dict[str, float]:
        """The channel's leakage under every notion that applies, from its own numbers."""
        return {k: _number(v) for k, v in self._report["leakage"].items()}

    @property
    def objectives(self) -> Dict[str, float]:
        """Every objective that applies, evaluated under the domain prior."""
        return {k: _number(v) for k, v in self._report["objectives"].items()}

    @property
    def checks(self) -> List[Dict[str, Any]]:
        """One dict per stated constraint: requested, achieved and the verdict."""
        out = []
        for c in self._report["checks"]:
            c = dict(c)
            for key in ("requested", "achieved", "excess"):
                c[key] = _number(c[key])
            out.append(c)
        return out

    @property
    def all_hold(self) -> bool:
        """Whether every stated constraint holds (up to rounding)."""
        return bool(self._report["all_hold"])

    @property
    def all_certified(self) -> bool:
        """Whether every stated constraint holds without the rounding allowance."""
        return bool(self._report["all_certified"])

    @property
    def labels(self) -> List[str]:
        """The input labels."""
        return list(self._report["labels"])

    @property
    def channel(self) -> np.ndarray:
        """The audited channel (float64, inputs x outputs)."""
        return np.array(self._report["channel"], dtype=np.float64)

    def __repr__(self) -> str:
        leak = ", ".join(f"{k}={v:.6g}" for k, v in self.leakage.items())
        return f"AuditResult({leak}; all_hold={self.all_hold})"


class ComposeResult(_Report):
    """What :func:`compose` found: the exact leakage of the joint release under every notion,
    beside the bound the papers state.

    Attributes
    ----------
    rows : list of dict
        One per notion: ``notion``, ``exact``, ``bound``, ``bound_source``, ``ratio``
        (bound / exact) and ``gap`` (bound - exact; negative when the bound fails).
    exact, bound : dict of str to float
        The exact leakage of each notion, and its bound (notions with one).
    releases, inputs, outputs : int
        The releases composed and the size of the product channel.
    prior, single_ldp, single_lip : numpy.ndarray
        The prior, and the exact LDP and LIP of each single release.
    """

    __slots__ = ()

    @property
    def rows(self) -> List[Dict[str, Any]]:
        """One dict per notion: the exact leakage of the releases and the bound."""
        out = []
        for r in self._report["rows"]:
            r = dict(r)
            for key in ("exact", "bound", "ratio", "gap"):
                r[key] = None if r[key] is None else _number(r[key])
            out.append(r)
        return out

    @property
    def exact(self) -> Dict[str, float]:
        """The exact leakage of the product channel, by notion."""
        return {r["notion"]: r["exact"] for r in self.rows}

    @property
    def bound(self) -> Dict[str, float]:
        """The composition bound, by notion (where one is known)."""
        return {r["notion"]: r["bound"] for r in self.rows if r["bound"] is not None}

    @property
    def releases(self) -> int:
        """The number of independent releases."""
        return int(self._report["releases"])

    @property
    def inputs(self) -> int:
        """The number of inputs of one release."""
        return int(self._report["inputs"])

    @property
    def outputs(self) -> int:
        """The number of outputs of one release."""
        return int(self._report["outputs"])

    @property
    def prior(self) -> np.ndarray:
        """The prior the notions that need one were evaluated under."""
        return _numbers(self._report["prior"])

    @property
    def single_ldp(self) -> np.ndarray:
        """The LDP leakage of one release."""
        return _numbers(self._report["single_ldp"])

    @property
    def single_lip(self) -> np.ndarray:
        """The LIP leakage of one release."""
        return _numbers(self._report["single_lip"])

    def __repr__(self) -> str:
        exact = ", ".join(f"{k}={v:.6g}" for k, v in self.exact.items())
        return f"ComposeResult({self.releases} releases; exact {exact})"


class EstimateResult(_Report):
    """What :func:`estimate` found: every query answered by every estimator.

    ``estimates``, ``standard_errors``, ``lower`` and ``upper`` are the frequencies of the
    input symbols (one per symbol, in domain order) by the first estimator, as float64 arrays
    (NaN where the channel does not identify a frequency; empty when ``"frequencies"`` was not
    asked); :meth:`frequencies` gives them for another estimator and :attr:`rows` holds every
    answer.

    Attributes
    ----------
    rows : list of dict
        One per answer: ``estimator``, ``quantity`` (``frequency[a]``, ``range[a..c]``,
        ``mean``, ``sum``), ``estimate``, ``std_error``, ``low``, ``high`` (None when it
        cannot be estimated), ``interval`` (how it was obtained) and ``estimand``.
    users : int
        The number of reports; ``counts`` the reports per output.
    level : float
        The confidence level of the intervals; ``estimand`` what they are for.
    """

    __slots__ = ()

    @property
    def rows(self) -> List[Dict[str, Any]]:
        """Every answer: estimator, quantity, estimate, standard error and interval."""
        out = []
        for e in self._report["estimates"]:
            interval = e.get("estimate") or {}
            out.append(
                {
                    "estimator": e["estimator"],
                    "quantity": e["quantity"],
                    "estimate": _opt(interval.get("value")),
                    "std_error": _opt(interval.get("std_error")),
                    "low": _opt(interval.get("low")),
                    "high": _opt(interval.get("high")),
                    "interval": e.get("interval"),
                    "estimand": e.get("estimand"),
                }
            )
        return out

    @property
    def estimators(self) -> List[str]:
        """The estimators, in the order they were asked."""
        seen: List[str] = []
        for e in self._report["estimates"]:
            if e["estimator"] not in seen:
                seen.append(e["estimator"])
        return seen

    def frequencies(self, estimator: Optional[str] = None) -> Dict[str, np.ndarray]:
        """The frequency estimates of ``estimator`` (default: the first): a dict of float64
        arrays ``estimate``, ``std_error``, ``low``, ``high``, one entry per symbol."""
        names = self.estimators
        if estimator is None:
            estimator = names[0] if names else ""
        elif estimator not in names:
            raise _invalid(
                f"invalid `estimator` = {estimator!r}: the estimate has {', '.join(names)}"
            )
        rows = [
            r
            for r in self.rows
            if r["estimator"] == estimator and r["quantity"].startswith("frequency[")
        ]
        return {
            key: np.array([np.nan if r[key] is None else r[key] for r in rows], dtype=np.float64)
            for key in ("estimate", "std_error", "low", "high")
        }

    @property
    def estimates(self) -> np.ndarray:
        """The estimated frequency of each symbol (the first estimator's), NaN where it cannot be estimated."""
        return self.frequencies()["estimate"]

    @property
    def standard_errors(self) -> np.ndarray:
        """The standard error of each estimate."""
        return self.frequencies()["std_error"]

    @property
    def lower(self) -> np.ndarray:
        """The lower end of each interval."""
        return self.frequencies()["low"]

    @property
    def upper(self) -> np.ndarray:
        """The upper end of each interval."""
        return self.frequencies()["high"]

    @property
    def users(self) -> int:
        """The number of reports."""
        return int(self._report["users"])

    @property
    def counts(self) -> np.ndarray:
        """The number of reports of each output."""
        return np.array(self._report["counts"], dtype=np.int64)

    @property
    def output_labels(self) -> List[str]:
        """The labels of the outputs."""
        return list(self._report["output_labels"])

    @property
    def level(self) -> float:
        """The confidence level of the intervals."""
        return float(self._report["level"])

    @property
    def estimand(self) -> str:
        """``"sample"`` or ``"population"``."""
        return str(self._report["estimand"])

    def __repr__(self) -> str:
        return (
            f"EstimateResult({self.users} reports, {len(self._report['estimates'])} answers, "
            f"{100 * self.level:g}% intervals for the {self.estimand} estimand)"
        )


def _opt(value: Any) -> Optional[float]:
    return None if value is None else _number(value)


class SimulateResult(_Report):
    """What :func:`simulate` found: each measured error's empirical mean over the trials,
    with its interval, beside the analytic value.

    Attributes
    ----------
    metrics : list of dict
        ``estimator``, ``name`` (``frequency-mse``, ``mean-squared-error``, ``mmse-sum``,
        ...), ``empirical``, ``std_error``, ``low``, ``high``, ``analytic`` (or None) and
        ``agrees`` (whether the analytic value lies in the empirical interval, or None).
    users, trials : int
        Users per trial, and the trials run (fewer than asked when the time limit stopped
        the run; a warning says so).
    estimand : str
    warnings : list of str
    """

    __slots__ = ()

    @property
    def metrics(self) -> List[Dict[str, Any]]:
        """One dict per estimator and quantity: empirical error beside the analytic value."""
        out = []
        for m in self._report["metrics"]:
            e = m["empirical"]
            out.append(
                {
                    "estimator": m["estimator"],
                    "name": m["name"],
                    "empirical": _opt(e["value"]),
                    "std_error": _opt(e["std_error"]),
                    "low": _opt(e["low"]),
                    "high": _opt(e["high"]),
                    "analytic": _opt(m.get("analytic")),
                    "agrees": m.get("agrees"),
                }
            )
        return out

    def metric(self, name: str, estimator: str = "inversion") -> Dict[str, Any]:
        """The measured error ``name`` of ``estimator``."""
        for m in self.metrics:
            if m["name"] == name and m["estimator"] == estimator:
                return m
        raise _invalid(
            f"invalid `name` = {name!r}: no such metric for estimator {estimator!r}"
        )

    @property
    def users(self) -> int:
        """Users per trial."""
        return int(self._report["users"])

    @property
    def trials(self) -> int:
        """The number of trials."""
        return int(self._report["trials"])

    @property
    def estimand(self) -> str:
        """``"sample"`` or ``"population"``."""
        return str(self._report["estimand"])

    def __repr__(self) -> str:
        return f"SimulateResult({self.users} users x {self.trials} trials, {len(self.metrics)} metrics)"


class PlanResult(_Report):
    """What :func:`plan` found: one row per mechanism (the channel, then the baselines).

    Attributes
    ----------
    rows : list of dict
        ``mechanism``, ``epsilon`` (its parameter, or None), ``ldp``, ``per_user_variance``
        (RMSE = sqrt(v / N)), ``users_needed`` and ``rmse_at_users`` (None where not
        computed).
    target : dict
        ``{"kind": "frequency"}``, ``{"kind": "prevalence", "symbol": k}`` or ``{"kind":
        "mean"}``; ``rmse``, ``estimand`` and ``users`` as asked.
    notes : list of str
        Mechanisms the time limit left out (the command line exits 4 then).
    """

    __slots__ = ()

    @property
    def rows(self) -> List[Dict[str, Any]]:
        """One dict per mechanism: epsilon, per-user variance, users needed or RMSE reached."""
        out = []
        for r in self._report["rows"]:
            r = dict(r)
            for key in ("epsilon", "ldp", "per_user_variance", "rmse_at_users"):
                r[key] = _opt(r.get(key))
            out.append(r)
        return out

    def columns(self) -> Dict[str, Any]:
        """The rows as columns: ``mechanism`` a list, the others float64 arrays (NaN where a
        row has no value)."""
        rows = self.rows
        out: Dict[str, Any] = {"mechanism": [r["mechanism"] for r in rows]}
        for key in ("epsilon", "ldp", "per_user_variance", "users_needed", "rmse_at_users"):
            out[key] = np.array(
                [np.nan if r[key] is None else float(r[key]) for r in rows], dtype=np.float64
            )
        return out

    @property
    def target(self) -> Dict[str, Any]:
        """What the RMSE is of."""
        return dict(self._report["target"])

    @property
    def rmse(self) -> float:
        """The target RMSE."""
        return float(self._report["rmse"])

    @property
    def estimand(self) -> str:
        """``"sample"`` or ``"population"``."""
        return str(self._report["estimand"])

    @property
    def users(self) -> Optional[int]:
        """The number of users planned for, when given."""
        u = self._report.get("users")
        return None if u is None else int(u)

    @property
    def notes(self) -> List[str]:
        """Mechanisms left out (a time limit) and other notes."""
        return list(self._report.get("notes", []))

    @property
    def warnings(self) -> List[str]:
        """The notes (the command line prints them as warnings)."""
        return self.notes

    def __repr__(self) -> str:
        return f"PlanResult(rmse {self.rmse:g}, {len(self.rows)} mechanisms)"


# ----------------------------------------------------------------------------------------
# Functions


def leakage(
    Q: ArrayLike,
    notion: Optional[str] = None,
    *,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[Mapping[str, Any]] = None,
    distances: Optional[ArrayLike] = None,
    metric: Optional[MetricArg] = None,
) -> Union[float, Dict[str, float]]:
    """The leakage of channel ``Q`` under ``notion``: the smallest parameter for which the
    notion holds, recomputed from the numbers with outward rounding (the value ``mechsynth
    audit`` reports; ``inf`` when unbounded).

    Parameters
    ----------
    Q
        The channel, shape (inputs, outputs).
    notion
        ``"ldp"``, ``"lip"``, ``"max-leakage"``, ``"mutual-information"``,
        ``"identifiability"`` or ``"d-privacy"``. ``None`` returns the dict of every notion
        that applies (``audit(Q, ...).leakage``).
    prior
        The prior of LIP, max-leakage, mutual information and identifiability (default
        uniform, or the domain's).
    domain
        A dict with the keys of a problem file's ``[domain]`` (``{"values": [...]}``,
        ``{"grid": {"rows": 3, "cols": 3}}``...): its positions give d-privacy's natural
        distance, its prior the prior.
    distances, metric
        d-privacy's distance: an n x n array (``distances``), or a metric name over the
        domain's positions (``metric="line"`` for symbol indices, ``"euclidean"``...).

    Raises
    ------
    InvalidInputError
        ``Q`` is not a channel, the notion is unknown, or d-privacy has no distance.
    """
    Q = _channel(Q)
    metric_arg = _metric(metric, distances)
    prior_arg = _floats("prior", prior)
    if notion is None:
        return audit(Q, prior=prior_arg, domain=domain, metric=metric_arg).leakage
    return _native.leakage(
        Q,
        _name("notion", notion),
        prior=prior_arg,
        domain=_domain(domain),
        metric=metric_arg,
    )


def audit(
    Q: ArrayLike,
    *,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[Mapping[str, Any]] = None,
    privacy: Optional[PrivacyArg] = None,
    metric: Optional[MetricArg] = None,
    distances: Optional[ArrayLike] = None,
    epsilons: Sequence[float] = (),
    deltas: Sequence[float] = (),
) -> AuditResult:
    """What channel ``Q`` really guarantees (``mechsynth audit``): its leakage under every
    notion, its objectives, and each stated constraint with a verdict.

    Parameters
    ----------
    privacy
        Constraints to check: a dict with the keys of a ``[[privacy]]`` entry (``{"notion":
        "ldp", "epsilon": 1.0}``) or a list of them.
    metric, distances
        Adds ``d-privacy`` to the leakage under this metric (see :func:`leakage`).
    epsilons, deltas
        Also the smallest delta of (eps, delta)-LDP and -LIP at each eps, and the smallest eps
        at each delta (the command line's ``--epsilon`` and ``--delta``).
    prior, domain
        As for :func:`leakage`.
    """
    return AuditResult(
        _native.audit(
            _channel(Q),
            prior=_floats("prior", prior),
            domain=_domain(domain),
            privacy=privacy,
            metric=_metric(metric, distances),
            epsilons=[_float("epsilons", e) for e in epsilons],
            deltas=[_float("deltas", d) for d in deltas],
        )
    )


def baseline(
    name: str,
    k: Optional[int] = None,
    epsilon: Optional[float] = None,
    *,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[Mapping[str, Any]] = None,
    sensitive: Optional[Sequence[Union[int, str]]] = None,
    blocks: Optional[Sequence[Sequence[Union[int, str]]]] = None,
) -> np.ndarray:
    """The channel of a named baseline mechanism at ``epsilon`` (``mechsynth privatize
    --baseline NAME``), a float64 array of shape (inputs, outputs).

    Parameters
    ----------
    name
        ``"k-rr"``, ``"warner"``, ``"mangat"``, ``"geometric"``, ``"truncated-geometric"``,
        ``"exponential"``, ``"planar-laplace"``, ``"hadamard"``, ``"hadamard-high-low"`` or
        ``"hadamard-block"``.
    k
        The domain: the symbols 0..k-1. Or ``domain``, a dict with the keys of ``[domain]``
        (a grid for planar Laplace, values for the exponential mechanism...).
    epsilon
        The privacy parameter, in [0, 500].
    prior
        Replaces the domain's prior (it matters to no baseline's channel; it is checked).
    sensitive
        The sensitive symbols of ``hadamard-high-low`` (labels or indices).
    blocks
        The blocks of ``hadamard-block``: a partition of the symbols (labels or indices).
    """
    return _native.baseline(
        _name("name", name),
        _int("k", k, optional=True),
        _float("epsilon", epsilon, optional=True),
        prior=_floats("prior", prior),
        domain=_domain(domain),
        sensitive=None if sensitive is None else list(sensitive),
        blocks=None if blocks is None else [list(b) for b in blocks],
    )[0]


def compose(
    Q: Union[ArrayLike, Sequence[ArrayLike]],
    releases: int = 2,
    *,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[Mapping[str, Any]] = None,
    delta_prime: Optional[float] = None,
    bp_priors: Optional[Sequence[Sequence[float]]] = None,
    time_limit: Optional[float] = None,
) -> ComposeResult:
    """The exact leakage of ``releases`` independent releases of ``Q`` under every notion,
    beside the bounds the papers state (``mechsynth compose``).

    Parameters
    ----------
    Q
        A channel, or a list of channels over the same inputs (each released ``releases``
        times: the product of all).
    releases
        How many times each channel is released (1 to 1000).
    prior, domain
        The prior of LIP and the other prior-dependent notions.
    delta_prime
        delta' in (0, 1) for advanced composition, and the exact eps at it.
    bp_priors
        Vertices of a prior set for bounded-prior LIP (Cor. 4).
    time_limit
        Seconds; :class:`TimeLimitError` when they run out.
    """
    if isinstance(Q, np.ndarray) and Q.ndim == 2:
        channels = [_channel(Q)]
    elif isinstance(Q, (list, tuple)) and Q and not isinstance(Q[0], numbers.Real):
        arrays = [np.asarray(q) for q in Q]
        if all(a.ndim == 2 for a in arrays):
            many = len(arrays) > 1
            channels = [_channel(a, f"Q[{i}]" if many else "Q") for i, a in enumerate(arrays)]
        else:
            channels = [_channel(Q)]
    else:
        channels = [_channel(Q)]
    return ComposeResult(
        _native.compose(
            channels,
            _int("releases", releases),
            prior=_floats("prior", prior),
            domain=_domain(domain),
            delta_prime=_float("delta_prime", delta_prime, optional=True),
            bp_priors=None
            if bp_priors is None
            else [_floats(f"bp_priors[{i}]", p) for i, p in enumerate(bp_priors)],
            time_limit=_float("time_limit", time_limit, optional=True),
        )
    )


def privatize(
    Q: ArrayLike,
    values: ArrayLike,
    *,
    seed: Optional[int] = None,
    labels: Optional[Sequence[Any]] = None,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[Mapping[str, Any]] = None,
    privacy: Optional[PrivacyArg] = None,
) -> np.ndarray:
    """Randomize input values through channel ``Q`` (``mechsynth privatize``).

    Each value ``x`` becomes an output ``y`` drawn with probability exactly ``Q[x, y] /
    sum(Q[x])`` (the library's exact sampler: the rational numbers the row's float64 entries
    denote, however small). The sampling runs without the GIL.

    Parameters
    ----------
    values
        Input indices 0..n-1, an integer array of any shape (an int64 C-contiguous array is
        read in place). With ``labels``, the values are looked up among the labels instead.
    seed
        ``None`` (default): a ChaCha20 generator seeded from the operating system, as
        privatizing needs. An integer makes the output reproducible by anyone who knows it,
        hence not private: a warning says so; for tests only.
    labels
        One label per input (row of ``Q``), when ``values`` are labels.
    privacy
        The constraints the channel states (as :func:`audit`'s ``privacy``): the channel the
        sampler realizes (each row divided by its exact sum) is checked against them first,
        and :class:`NoCertifiedChannelError` is raised when one is exceeded beyond rounding
        (the command line's exit code 5); nothing is drawn then.
    prior, domain
        The domain of the inputs (for constraints that need one).

    Returns
    -------
    numpy.ndarray
        The output indices, int64, of the shape of ``values``.
    """
    Q = _channel(Q)
    seed = _seed(seed)
    if labels is not None:
        labels = list(labels)
        if len(labels) != Q.shape[0]:
            raise _invalid(
                f"invalid `labels`: {len(labels)} labels; give one per input (row of Q, {Q.shape[0]})"
            )
    indices = _indices("values", values, labels)
    if seed is not None:
        warnings.warn(_native.seed_warning("seed"), UserWarning, stacklevel=2)
    return _native.privatize(
        Q,
        indices,
        seed=seed,
        prior=_floats("prior", prior),
        domain=_domain(domain),
        privacy=privacy,
    )


def estimate(
    Q: ArrayLike,
    reports: Optional[ArrayLike] = None,
    *,
    counts: Optional[ArrayLike] = None,
    estimator: Names = "inversion",
    level: float = 0.95,
    estimand: str = "sample",
    queries: Optional[Names] = None,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[Mapping[str, Any]] = None,
    time_limit: float = 3600.0,
) -> EstimateResult:
    """Estimates with standard errors and intervals from reports through ``Q`` (``mechsynth
    estimate``).

    Parameters
    ----------
    reports
        Output indices 0..m-1 (an integer array of any shape), or instead:
    counts
        The number of reports of each output (m non-negative integers).
    estimator
        ``"inversion"`` (unbiased, analytic intervals), ``"projected"``, ``"em"``,
        ``"posterior-mean"``, or a list of them.
    level
        Confidence level of the intervals, in (0, 1).
    estimand
        ``"sample"``: the frequencies among the users who reported (randomizer variance only);
        ``"population"``: the distribution they were drawn from.
    queries
        ``"frequencies"`` (default), ``"mean"``, ``"sum"``, ``"range:FROM..TO"`` (labels, or
        ``#K`` for index K), or a list of them.
    prior, domain
        The domain of the inputs: labels, values (for the mean and sum), the prior of the
        posterior mean.
    time_limit
        Seconds before an EM fit stops (:class:`TimeLimitError`).
    """
    Q = _channel(Q)
    return EstimateResult(
        _native.estimate(
            Q,
            None if reports is None else _indices("reports", reports),
            counts=None if counts is None else _indices("counts", counts).reshape(-1),
            estimators=_names("estimator", estimator),
            queries=_names("queries", "frequencies" if queries is None else queries),
            level=_float("level", level),
            estimand=_name("estimand", estimand),
            prior=_floats("prior", prior),
            domain=_domain(domain),
            time_limit=_float("time_limit", time_limit),
        )
    )


def simulate(
    Q: ArrayLike,
    users: Optional[int] = None,
    *,
    trials: int = 1000,
    seed: Optional[int] = 1,
    sampling: str = "iid",
    estimator: Names = "inversion",
    priors: Optional[Sequence[Tuple[int, Sequence[float]]]] = None,
    noncompliance: float = 0.0,
    level: float = 0.95,
    estimand: str = "sample",
    prior: Optional[Sequence[float]] = None,
    domain: Optional[Mapping[str, Any]] = None,
    time_limit: float = 600.0,
) -> SimulateResult:
    """A Monte Carlo of a collection through ``Q``: the empirical errors of the estimators
    beside their analytic values (``mechsynth simulate``).

    Parameters
    ----------
    users
        Users per trial (1 to 10**15); or ``priors``.
    trials
        Trials (2 to 1,000,000).
    seed
        The seed (default 1, as the command line's); ``None`` seeds from the operating system.
    sampling
        ``"iid"``: inputs drawn from the prior in each trial; ``"fixed"``: a fixed composition.
    estimator
        The estimators whose error is measured (a name or a list).
    priors
        Groups of users with their own priors: a list of ``(users, prior)`` pairs (replaces
        ``users``).
    noncompliance
        Fraction of users who report a uniformly random output instead.
    level, estimand
        As for :func:`estimate`.
    time_limit
        Seconds after which no trial is started (a warning gives the trials run).
    """
    Q = _channel(Q)
    groups = None
    if priors is not None:
        groups = [
            (_int(f"priors[{i}].users", u), _floats(f"priors[{i}]", p))
            for i, (u, p) in enumerate(priors)
        ]
    return SimulateResult(
        _native.simulate(
            Q,
            _int("users", users, optional=True),
            trials=_int("trials", trials),
            seed=_seed(seed),
            sampling=_name("sampling", sampling),
            estimators=_names("estimator", estimator),
            priors=groups,
            noncompliance=_float("noncompliance", noncompliance),
            level=_float("level", level),
            estimand=_name("estimand", estimand),
            prior=_floats("prior", prior),
            domain=_domain(domain),
            time_limit=_float("time_limit", time_limit),
        )
    )


def plan(
    Q: Optional[ArrayLike] = None,
    *,
    rmse: float,
    target: str = "frequency",
    symbol: Optional[Union[int, str]] = None,
    users: Optional[int] = None,
    epsilon: Optional[float] = None,
    size: Optional[int] = None,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[Mapping[str, Any]] = None,
    baseline: Optional[str] = None,
    estimand: str = "sample",
    time_limit: float = 600.0,
) -> PlanResult:
    """Users needed for an RMSE target, or with ``users`` the smallest epsilon of each
    baseline, for ``Q`` and the baselines side by side (``mechsynth plan``).

    Parameters
    ----------
    Q
        The channel to plan for (its LDP leakage is the baselines' epsilon unless
        ``epsilon`` is given); or ``baseline`` (a name, with ``epsilon``); or neither, with
        ``size`` or ``domain``.
    rmse
        The target RMSE.
    target
        ``"frequency"`` (the worst symbol's), ``"prevalence"`` (one ``symbol``'s: a label, an
        index, or ``"#K"``) or ``"mean"`` (of the domain's values).
    users
        A number of users: find each baseline's smallest epsilon meeting the target.
    epsilon
        The baselines' epsilon.
    size, domain, prior
        The domain without ``Q``, and the planning prior.
    estimand
        ``"sample"`` or ``"population"`` (as for :func:`estimate`).
    time_limit
        Seconds; mechanisms not started by then are left out, with a note.
    """
    if symbol is not None and not isinstance(symbol, str):
        symbol = f"#{_int('symbol', symbol)}"
    return PlanResult(
        _native.plan(
            None if Q is None else _channel(Q),
            rmse=_float("rmse", rmse),
            target=_name("target", target),
            symbol=symbol,
            users=_int("users", users, optional=True),
            epsilon=_float("epsilon", epsilon, optional=True),
            size=_int("size", size, optional=True),
            prior=_floats("prior", prior),
            domain=_domain(domain),
            baseline=None if baseline is None else _name("baseline", baseline),
            estimand=_name("estimand", estimand),
            time_limit=_float("time_limit", time_limit),
        )
    )
