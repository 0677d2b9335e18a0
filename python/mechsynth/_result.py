"""`solve` and its result."""

from __future__ import annotations

import html
import json
from typing import Any, Dict, List, Optional

import numpy as np

from . import _native
from ._problem import Problem

__all__ = ["SolveResult", "solve"]


class SolveResult:
    """The result of :func:`solve`: status, certified channel, objective, bound and gap.

    Attributes
    ----------
    status : str
        ``"optimal"`` (certified, within the gap tolerance of a rigorous bound),
        ``"feasible"`` (certified, without that proof), ``"local-optimum"``, or without a
        channel the backend's status (``"infeasible"``, ``"unbounded"``, ``"time-limit"``...).
    channel : numpy.ndarray or None
        The certified channel, float64 of shape (inputs, outputs); ``None`` without one.
    objective, bound : float or None
        The channel's objective, and a rigorous bound on the optimum.
    gap : float or None
        How far the optimum can be from ``objective`` (absolute); ``relative_gap`` relative.
    leakage : dict
        The channel's leakage under every notion that applies, recomputed from its numbers.
    certificate, timings : dict
        The requested vs achieved check of each constraint, and the times in milliseconds.
    warnings : list of str
    """

    __slots__ = ("_json", "_parsed", "_channel", "_summary")

    def __init__(self, report_json: str, channel: Optional[np.ndarray],
                 summary: Optional[tuple] = None,
                 parsed: Optional[Dict[str, Any]] = None) -> None:
        self._json = report_json
        self._parsed: Optional[Dict[str, Any]] = parsed
        if channel is not None:
            channel.flags.writeable = False
        self._channel = channel
        if summary is None:
            r = self._report
            gap = r.get("gap") or {}
            summary = (r["status"], r["method"], _number(r.get("objective")),
                       _number(r.get("bound")), _number(gap.get("absolute")),
                       _number(gap.get("relative")))
        self._summary = summary

    @property
    def _report(self) -> Dict[str, Any]:
        # The report's JSON is parsed on the first read of a field outside the summary.
        if self._parsed is None:
            self._parsed = json.loads(self._json)
        return self._parsed

    @classmethod
    def _from_json(cls, report_json: str) -> "SolveResult":
        # One parse: the channel and the summary both come from it.
        report = json.loads(report_json)
        rows = report.get("channel")
        channel = None if rows is None else np.array(rows, dtype=np.float64)
        return cls(report_json, channel, parsed=report)

    def __reduce__(self):
        return (SolveResult._from_json, (self._json,))

    @property
    def status(self) -> str:
        """``"optimal"``, ``"feasible"``, ``"local-optimum"``, or the backend's status without a channel."""
        return self._summary[0]

    @property
    def optimal(self) -> bool:
        """Whether the channel is certified optimal within the gap tolerance."""
        return self.status == "optimal"

    @property
    def channel(self) -> Optional[np.ndarray]:
        """The certified channel, float64 (inputs, outputs), read-only; ``None`` without one."""
        return self._channel

    @property
    def objective(self) -> Optional[float]:
        """The objective of the emitted channel (``None`` without one)."""
        return self._summary[2]

    @property
    def bound(self) -> Optional[float]:
        """A rigorous bound on the optimum (lower when minimizing, upper when maximizing)."""
        return self._summary[3]

    @property
    def gap(self) -> Optional[float]:
        """How far the optimum can be from :attr:`objective` (absolute)."""
        return self._summary[4]

    @property
    def relative_gap(self) -> Optional[float]:
        """The gap relative to the objective's magnitude."""
        return self._summary[5]

    @property
    def method(self) -> str:
        """The method that found the channel (``"LP"``, ``"column generation"``, ...)."""
        return self._summary[1]

    @property
    def leakage(self) -> Dict[str, float]:
        """The channel's leakage under every notion that applies, from its own numbers."""
        return {k: _number(v) for k, v in self._report.get("leakage", {}).items()}

    @property
    def objectives(self) -> Dict[str, float]:
        """Every objective that applies, evaluated for the channel."""
        return {k: _number(v) for k, v in self._report.get("objectives", {}).items()}

    @property
    def certificate(self) -> Optional[Dict[str, Any]]:
        """Each constraint requested vs achieved (outward rounded), and whether all hold."""
        return self._report.get("certificate")

    @property
    def timings(self) -> Dict[str, float]:
        """``solve_ms``, ``certify_ms``, ``leakage_profile_ms``, ``objective_profile_ms`` and
        ``total_ms`` of the library."""
        return dict(self._report.get("timings", {}))

    @property
    def warnings(self) -> List[str]:
        """Findings that are not errors (a nearly singular channel, a renormalized prior...)."""
        return list(self._report.get("warnings", []))

    @property
    def labels(self) -> List[str]:
        """The input labels (rows of the channel)."""
        return list(self._report.get("labels", []))

    @property
    def output_labels(self) -> List[str]:
        """The output labels (columns of the channel)."""
        return list(self._report.get("output_labels", []))

    @property
    def problem(self) -> Problem:
        """The problem as solved."""
        return Problem._from_json(json.dumps(self._report["problem"]))

    def to_dict(self) -> Dict[str, Any]:
        """The report as a dict (the command line's ``--format json``)."""
        return json.loads(self._json)

    def to_json(self) -> str:
        """The report as JSON text (the command line's ``--format json``)."""
        return self._json

    def svg(self) -> str:
        """The channel as an SVG heatmap (the command line's ``--svg``)."""
        if self._channel is None:
            raise _native.NoCertifiedChannelError(
                f"no channel to draw: the status is {self.status}"
            )
        return _native.channel_svg(
            np.ascontiguousarray(self._channel),
            self.labels,
            self.output_labels,
            self._report.get("name", "channel"),
        )

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(k)}</td><td>{v:.6g}</td></tr>" for k, v in self.leakage.items()
        )
        gap = "" if self.gap is None else f", gap {self.gap:.3g} ({self.relative_gap:.3g} relative)"
        objective = "" if self.objective is None else f"objective {self.objective:.6g}"
        picture = self.svg() if self._channel is not None else ""
        return (
            f"<div><p><b>{html.escape(self._report.get('name', ''))}</b>: "
            f"status <b>{html.escape(self.status)}</b>; {objective}{gap}</p>"
            f"<table><tr><th>notion</th><th>leakage</th></tr>{rows}</table>{picture}</div>"
        )

    def __repr__(self) -> str:
        shape = None if self._channel is None else self._channel.shape
        return (
            f"SolveResult(status={self.status!r}, objective={self.objective!r}, "
            f"gap={self.gap!r}, channel shape={shape})"
        )


def _number(value: Any) -> Optional[float]:
    """A JSON number, or the strings the report writes for infinities."""
    if value is None:
        return None
    if isinstance(value, str):
        return {"inf": float("inf"), "-inf": float("-inf")}.get(value, float("nan"))
    return float(value)


def solve(
    problem: Problem,
    *,
    method: str = "auto",
    solver: str = "clarabel",
    time_limit: float = 600.0,
    gap: Optional[float] = None,
    profile: str = "auto",
) -> SolveResult:
    """Solve ``problem`` to a certified channel (the command line's ``mechsynth solve``).

    The GIL is released while it runs, so threads solve problems in parallel.

    Parameters
    ----------
    method
        ``"auto"`` or one method: ``"lp"``, ``"lazy-rows"``, ``"decomposition"``,
        ``"ldp-interior-point"``, ``"ratio-interior-point"``, ``"lip-interior-point"``, ``"line"``,
        ``"tiled"``, ``"first-order"``.
    solver
        ``"clarabel"`` (pure Rust) or ``"highs"`` (in a build with it).
    time_limit
        Seconds for the whole solve.
    gap
        Relative gap to the rigorous bound below which the channel counts as optimal
        (default 1e-6, plus 1e-9 absolute).
    profile
        How much of the report's leakage and objective profiles to compute: ``"auto"`` every
        entry that costs O(n^2) (the O(n^3) ones, ``inversion-mse``, ``frequency-mse`` and
        ``d-privacy`` on points that are not a line, up to 100 inputs), ``"full"`` every entry,
        ``"none"`` none. What is left out is said in ``to_dict()["profile_notes"]``.

    Raises
    ------
    InvalidInputError
        Bad arguments or a method that does not apply (a ``ValueError``).
    NoCertifiedChannelError
        No channel could be certified (a ``RuntimeError``). An infeasible problem is not an
        error: its result has the status ``"infeasible"`` and no channel.
    """
    if not isinstance(problem, Problem):
        raise _native.InvalidInputError(
            f"invalid `problem`: a {type(problem).__name__}; give a mechsynth.Problem "
            "(Problem(...), Problem.from_toml(text) or Problem.from_file(path))"
        )
    report, channel, summary = _native.solve(
        problem.to_json(), method=method, solver=solver, time_limit=float(time_limit), gap=gap,
        profile=profile,
    )
    return SolveResult(report, channel, summary)
