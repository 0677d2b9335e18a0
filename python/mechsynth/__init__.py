"""mechsynth: synthesize and certify optimal local privacy mechanisms.

A mechanism is a channel ``Q[x, y] = P(Y = y | X = x)``, a float64 numpy array of shape
(inputs, outputs). :class:`Problem` states a design problem (domain, prior, privacy
constraints, objective), :func:`solve` returns the certified optimal channel with a rigorous
bound on the optimum, and the other functions audit, compose, sample from and estimate with
channels. Bad input raises :class:`InvalidInputError`, a ``ValueError`` whose message names the
key, the value and the fix.
"""

from ._native import (
    InvalidInputError,
    NoCertifiedChannelError,
    SolverError,
    TimeLimitError,
    __version__,
)
from ._collect import (
    AuditResult,
    ComposeResult,
    EstimateResult,
    PlanResult,
    SimulateResult,
    audit,
    baseline,
    compose,
    estimate,
    leakage,
    plan,
    privatize,
    simulate,
)
from ._curve import CurveResult, VerifyResult, curve, verify
from ._problem import Problem
from ._result import SolveResult, solve

__all__ = [
    "CurveResult",
    "VerifyResult",
    "curve",
    "verify",
    "InvalidInputError",
    "NoCertifiedChannelError",
    "Problem",
    "SolveResult",
    "SolverError",
    "__version__",
    "solve",
    # collect
    "AuditResult",
    "ComposeResult",
    "EstimateResult",
    "PlanResult",
    "SimulateResult",
    "TimeLimitError",
    "audit",
    "baseline",
    "compose",
    "estimate",
    "leakage",
    "plan",
    "privatize",
    "simulate",
]
