"""`curve` and `verify`, and their results."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native
from ._problem import Problem

__all__ = ["CurveResult", "VerifyResult", "curve", "verify"]

GridArg = Union[str, Sequence[float], np.ndarray]

# The grid arguments of `curve`, with the axis each one varies.
_AXES: Tuple[Tuple[str, str], ...] = (
    ("epsilons", "epsilon"),
    ("sizes", "domain-size"),
    ("priors", "prior"),
    ("users", "users"),
)

# The plot size of the command line's `curve --svg`, in pixels.
_FIGURE_SIZE = (900, 560)


def _check_problem(problem: Any) -> Problem:
    if not isinstance(problem, Problem):
        raise _native.InvalidInputError(
            f"invalid `problem`: a {type(problem).__name__}; give a mechsynth.Problem "
            "(Problem(...), Problem.from_toml(text) or Problem.from_file(path))"
        )
    return problem


def _names(name: str, value: Union[None, str, Sequence[str]]) -> List[str]:
    """A comma list or a sequence of names (``compare``, ``mechanisms``)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    try:
        return [str(v) for v in value]
    except TypeError:
        raise _native.InvalidInputError(
            f"invalid `{name}` = {value!r}: give a list of names or a comma-separated string"
        ) from None


def _grid(name: str, value: GridArg) -> Union[str, List[float]]:
    if isinstance(value, str):
        return value
    array = np.asarray(value, dtype=float)
    if array.ndim == 0:
        array = array.reshape(1)
    if array.ndim != 1:
        raise _native.InvalidInputError(
            f"invalid `{name}`: an array of shape {array.shape}; give a 1-D grid"
        )
    return array.tolist()


class CurveResult:
    """The result of :func:`curve`: one row per grid point and series, as the command line's CSV.

    Attributes
    ----------
    x : numpy.ndarray
        The grid values that were computed, float64 of shape (points,), in grid order.
    names : list of str
        The series, in the order of their first row (the certified optimum first).
    series : dict of str to numpy.ndarray
        Each series' objective value at every point of ``x`` (float64, NaN where the series
        has no row or no value).
    bounds, leakage : dict of str to numpy.ndarray
        The rigorous bound (optimum series) and the achieved parameter of the first privacy
        constraint, likewise aligned with ``x``.
    statuses : dict of str to numpy.ndarray
        Each series' status at every point (``"optimal"``, ``"feasible"``,
        ``"violates-constraint"``, ``"no-channel:..."``, ``""`` without a row), a numpy
        unicode array.
    values : numpy.ndarray
        ``series`` as one float64 array of shape (points, len(names)).
    rows : list of dict
        The CSV's rows: ``series``, ``x``, ``value``, ``status``, ``bound``, ``leakage``,
        ``notes`` (absent numbers are ``None``).
    axis : str
        ``"epsilon"``, ``"domain-size"``, ``"prior"`` or ``"users"``.
    timed_out, cut : numpy.ndarray
        Grid values the overall ``time_limit`` left out, and those whose point time limit cut
        their solve short (kept, with ``stopped at the time limit`` in the notes).
    """

    __slots__ = ("_csv", "_meta", "_columns", "_wide")

    def __init__(self, csv: str, meta_json: str) -> None:
        self._csv = csv
        self._meta: Dict[str, Any] = json.loads(meta_json)
        series, x, value, status, bound, leakage, notes = _native.curve_columns(csv)
        self._columns = {
            "series": series,
            "x": x,
            "value": value,
            "status": status,
            "bound": bound,
            "leakage": leakage,
            "notes": notes,
        }
        self._wide = self._pivot()

    def _pivot(self) -> Dict[str, Any]:
        c = self._columns
        xs: List[float] = []
        index: Dict[float, int] = {}
        for v in c["x"].tolist():
            if v not in index:
                index[v] = len(xs)
                xs.append(v)
        names: List[str] = []
        for s in c["series"]:
            if s not in names:
                names.append(s)
        column = {n: j for j, n in enumerate(names)}
        shape = (len(xs), len(names))
        values = np.full(shape, np.nan)
        bounds = np.full(shape, np.nan)
        leakage = np.full(shape, np.nan)
        statuses = np.full(shape, "", dtype=object)
        for k, (s, v) in enumerate(zip(c["series"], c["x"].tolist())):
            i, j = index[v], column[s]
            values[i, j] = c["value"][k]
            bounds[i, j] = c["bound"][k]
            leakage[i, j] = c["leakage"][k]
            statuses[i, j] = c["status"][k]
        x = np.array(xs, dtype=np.float64)
        for a in (x, values, bounds, leakage):
            a.flags.writeable = False
        return {
            "x": x,
            "names": names,
            "values": values,
            "bounds": bounds,
            "leakage": leakage,
            "statuses": statuses.astype(str),
        }

    @classmethod
    def _from_csv(cls, csv: str, meta_json: str) -> "CurveResult":
        return cls(csv, meta_json)

    def __reduce__(self):
        return (CurveResult._from_csv, (self._csv, json.dumps(self._meta)))

    @property
    def x(self) -> np.ndarray:
        """The grid values computed, in grid order (float64, shape (points,))."""
        return self._wide["x"]

    @property
    def names(self) -> List[str]:
        """The series, in the order of their first row."""
        return list(self._wide["names"])

    def _by_name(self, key: str) -> Dict[str, np.ndarray]:
        table = self._wide[key]
        return {n: table[:, j] for j, n in enumerate(self._wide["names"])}

    @property
    def series(self) -> Dict[str, np.ndarray]:
        """Each series' objective values aligned with ``x`` (NaN where absent)."""
        return self._by_name("values")

    @property
    def bounds(self) -> Dict[str, np.ndarray]:
        """Each series' rigorous bound aligned with ``x`` (NaN where absent)."""
        return self._by_name("bounds")

    @property
    def leakage(self) -> Dict[str, np.ndarray]:
        """Each series' achieved parameter of the first constraint, aligned with ``x``."""
        return self._by_name("leakage")

    @property
    def statuses(self) -> Dict[str, np.ndarray]:
        """Each series' status at every point of ``x`` (``""`` where absent)."""
        return self._by_name("statuses")

    @property
    def values(self) -> np.ndarray:
        """The series' values as one array of shape (points, len(names))."""
        return self._wide["values"]

    @property
    def rows(self) -> List[Dict[str, Any]]:
        """The CSV's rows as dicts (absent numbers are None)."""
        c = self._columns

        def num(v: float) -> Optional[float]:
            return None if np.isnan(v) else float(v)

        return [
            {
                "series": c["series"][k],
                "x": float(c["x"][k]),
                "value": num(c["value"][k]),
                "status": c["status"][k],
                "bound": num(c["bound"][k]),
                "leakage": num(c["leakage"][k]),
                "notes": c["notes"][k],
            }
            for k in range(len(c["series"]))
        ]

    @property
    def axis(self) -> str:
        """The parameter varied: epsilon, domain-size, prior or users."""
        return self._meta["axis"]

    @property
    def timed_out(self) -> np.ndarray:
        """Grid values the overall time limit left out."""
        return np.array(self._meta.get("timed_out", []), dtype=np.float64)

    @property
    def cut(self) -> np.ndarray:
        """Grid values whose point time limit cut their solve short."""
        return np.array(self._meta.get("cut", []), dtype=np.float64)

    @property
    def complete(self) -> bool:
        """Whether every grid point ran to the end (nothing left out or cut by a time limit)."""
        return len(self.timed_out) == 0 and len(self.cut) == 0

    def to_csv(self) -> str:
        """The CSV text ``mechsynth curve`` writes for the same problem, grid and options."""
        return self._csv

    def to_dict(self) -> Dict[str, Any]:
        """The curve as a dict: ``axis``, ``x``, ``series`` (name to list of values), ``rows``,
        ``timed_out`` and ``cut`` (lists; NaN for a missing value)."""
        return {
            "axis": self.axis,
            "x": self.x.tolist(),
            "series": {n: v.tolist() for n, v in self.series.items()},
            "rows": self.rows,
            "timed_out": self.timed_out.tolist(),
            "cut": self.cut.tolist(),
        }

    def to_pandas(self):
        """The rows as a pandas DataFrame (columns of the CSV); needs pandas."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError(
                "CurveResult.to_pandas needs pandas, which is not installed "
                "(pip install pandas); to_dict(), rows and the numpy arrays need nothing more"
            ) from None
        return pd.DataFrame(self.rows, columns=list(self._columns))

    def svg(
        self,
        title: Optional[str] = None,
        *,
        x_label: Optional[str] = None,
        y_label: str = "objective",
        size: Tuple[int, int] = _FIGURE_SIZE,
    ) -> str:
        """The curve as SVG, drawn as ``mechsynth curve --svg`` draws it.

        Parameters
        ----------
        title
            The caption (default: the problem's name, else ``"curve"``).
        x_label, y_label
            Axis labels (default: the axis with its unit, and ``"objective"``).
        size
            Width and height in pixels.
        """
        width, height = size
        return _native.curve_svg(
            self._csv,
            title=self._meta["title"] if title is None else title,
            x_label=self._meta["x_label"] if x_label is None else x_label,
            y_label=y_label,
            width=int(width),
            height=int(height),
        )

    def _repr_svg_(self) -> str:
        return self.svg()

    def __len__(self) -> int:
        return len(self._columns["series"])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CurveResult):
            return NotImplemented
        return self._csv == other._csv and self._meta == other._meta

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"CurveResult(axis={self.axis!r}, {len(self.x)} points, "
            f"series={self.names!r})"
        )


def curve(
    problem: Problem,
    *,
    epsilons: Optional[GridArg] = None,
    sizes: Optional[GridArg] = None,
    priors: Optional[GridArg] = None,
    users: Optional[GridArg] = None,
    compare: Union[None, str, Sequence[str]] = None,
    registry: bool = True,
    mechanisms: Union[None, str, Sequence[str]] = None,
    time_limit: Optional[float] = None,
    point_time_limit: float = 600.0,
    gap: Optional[float] = None,
    solver: str = "clarabel",
) -> CurveResult:
    """Solve ``problem`` over a grid of one parameter (the command line's ``mechsynth curve``).

    Give exactly one grid. The points run in parallel on all cores with the GIL released; the
    rows are in grid order, so the result is the same whatever the number of threads, and
    :meth:`CurveResult.to_csv` is the CSV the command line writes.

    Parameters
    ----------
    epsilons, sizes, priors, users
        The grid: a string (``"0.1:5:25"`` linear, ``"log:0.1:10:20"`` log-spaced,
        ``"1,2,3"``) or a sequence of numbers. ``epsilons`` sets every privacy constraint's
        epsilon, ``sizes`` the domain's ``size`` or ``line`` (the prior becomes uniform),
        ``priors`` ``P(X = 1)`` of a binary domain, ``users`` the objective's ``users``.
    compare
        Also draw the optimum under other notions: ``["lip", "ldp*2"]`` or ``"lip,ldp*2"``
        (``NOTION*F``: at F times the epsilon).
    registry
        Draw the registry's closed forms that apply at each point.
    mechanisms
        Only these registry mechanisms (default: all that apply).
    time_limit
        Overall seconds: points not started by then are left out (``timed_out``).
    point_time_limit
        Seconds for each point's solves.
    gap
        Relative gap below which a channel counts as optimal (default 1e-6, plus 1e-9
        absolute).
    solver
        ``"clarabel"`` or ``"highs"`` (in a build with it).

    Raises
    ------
    InvalidInputError
        No grid or several, a bad grid, comparison, mechanism or limit (a ``ValueError``;
        the message names the argument).
    """
    problem = _check_problem(problem)
    grids = zip(_AXES, (epsilons, sizes, priors, users))
    given = [(name, axis, value) for (name, axis), value in grids if value is not None]
    if len(given) != 1:
        detail = (
            "none was given"
            if not given
            else "got " + ", ".join(name for name, _, _ in given)
        )
        raise _native.InvalidInputError(
            f"invalid grid: give exactly one of `epsilons`, `sizes`, `priors`, `users` ({detail})"
        )
    name, axis, value = given[0]
    csv, meta = _native.curve(
        problem.to_json(),
        axis=axis,
        grid=_grid(name, value),
        compare=_names("compare", compare),
        registry=bool(registry),
        mechanisms=_names("mechanisms", mechanisms),
        time_limit=None if time_limit is None else float(time_limit),
        point_time_limit=float(point_time_limit),
        gap=None if gap is None else float(gap),
        solver=solver,
    )
    return CurveResult(csv, meta)


class VerifyResult:
    """The result of :func:`verify`: every registry entry that applies, checked.

    Attributes
    ----------
    checks : list of dict
        One per registry entry: ``name``, ``citation``, ``channel``, ``valid_channel``,
        ``feasible``, ``leakage``, ``objective``, ``claimed_value``, ``claims_optimal``,
        ``optimum``, ``gap``, ``claim_holds``, ``failures``, ...
    all_hold : bool
        Whether every claim holds (the command line exits 6 when one does not).
    optimum, optimum_status
        mechsynth's certified optimum and the status of that solve.
    notes : list of str
    sweep : dict or None
        The sweep over epsilons and priors, when it ran.
    """

    __slots__ = ("_json", "_report", "_table")

    def __init__(self, report_json: str, table: str) -> None:
        self._json = report_json
        self._report: Dict[str, Any] = json.loads(report_json)
        self._table = table

    @classmethod
    def _from_json(cls, report_json: str, table: str) -> "VerifyResult":
        return cls(report_json, table)

    def __reduce__(self):
        return (VerifyResult._from_json, (self._json, self._table))

    @property
    def checks(self) -> List[Dict[str, Any]]:
        """One dict per registry entry that applies."""
        return json.loads(json.dumps(self._report.get("checks", [])))

    @property
    def all_hold(self) -> bool:
        """Whether every claim holds."""
        return bool(self._report["all_hold"])

    @property
    def optimum(self) -> Optional[float]:
        """mechsynth's certified optimum (None without one)."""
        v = self._report.get("optimum")
        return None if v is None else float(v)

    @property
    def optimum_status(self) -> str:
        """The status of the optimum's solve."""
        return self._report["optimum_status"]

    @property
    def notes(self) -> List[str]:
        """Why no entry applies, when none does."""
        return list(self._report.get("notes", []))

    @property
    def sweep(self) -> Optional[Dict[str, Any]]:
        """The sweep over epsilons and priors, when it ran."""
        s = self._report.get("sweep")
        return None if s is None else json.loads(json.dumps(s))

    @property
    def failures(self) -> List[str]:
        """Every failed claim, as ``"name: reason"``."""
        return [f"{c['name']}: {f}" for c in self._report.get("checks", []) for f in c["failures"]]

    def to_dict(self) -> Dict[str, Any]:
        """The report as a dict (the command line's ``verify --format json``)."""
        return json.loads(self._json)

    def to_json(self, indent: Optional[int] = None) -> str:
        """The report as JSON text (the command line's ``verify --format json``)."""
        return self._json if indent is None else json.dumps(self._report, indent=indent)

    def to_table(self) -> str:
        """The report as the command line's table."""
        return self._table

    def __bool__(self) -> bool:
        return self.all_hold

    def __repr__(self) -> str:
        held = sum(1 for c in self._report.get("checks", []) if c.get("claim_holds"))
        return (
            f"VerifyResult(all_hold={self.all_hold}, {held} of "
            f"{len(self._report.get('checks', []))} claims hold, optimum={self.optimum!r})"
        )


def verify(
    problem: Problem,
    *,
    sweep: bool = False,
    solver: str = "clarabel",
    time_limit: float = 600.0,
) -> VerifyResult:
    """Check the published mechanisms that apply to ``problem`` (``mechsynth verify``).

    Each registry entry that applies is built, its privacy checked from its numbers, its
    objective evaluated and compared with the certified optimum and with what its source
    claims. Runs with the GIL released.

    Parameters
    ----------
    sweep
        Also run the registry over a grid of epsilons and priors (the problem's ``sweep``, else
        defaults); a problem with a ``sweep`` section always runs it, as on the command line.
    solver
        ``"clarabel"`` or ``"highs"``.
    time_limit
        Seconds for the optimum, and for the whole sweep.

    Raises
    ------
    InvalidInputError
        Bad arguments (a ``ValueError``).
    TimeoutError
        The sweep ran out of ``time_limit`` (the command line's exit code 4).
    NoCertifiedChannelError, SolverError
        The optimum could not be certified, or the backend failed.
    """
    problem = _check_problem(problem)
    report, table = _native.verify(
        problem.to_json(), sweep=bool(sweep), solver=solver, time_limit=float(time_limit)
    )
    return VerifyResult(report, table)
