"""Type stubs of the native module `mechsynth._native` (the Rust side of the package)."""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

class InvalidInputError(ValueError):
    """Bad input: a key, value or argument, named in the message with what to fix."""

class NoCertifiedChannelError(RuntimeError):
    """No channel could be certified."""

class SolverError(RuntimeError):
    """The backend failed."""

# problem
def build_problem(
    *,
    name: Optional[str] = ...,
    description: Optional[str] = ...,
    domain: Optional[Dict[str, Any]] = ...,
    size: Optional[int] = ...,
    labels: Optional[List[str]] = ...,
    values: Optional[List[float]] = ...,
    line: Optional[int] = ...,
    grid: Optional[Tuple[int, int]] = ...,
    prior: Optional[List[float]] = ...,
    privacy: Optional[Union[Dict[str, Any], Sequence[Dict[str, Any]]]] = ...,
    objective: Optional[Union[str, Dict[str, Any]]] = ...,
    expected: Optional[Dict[str, Any]] = ...,
) -> str: ...
def problem_from_toml(text: str, origin: str = ...) -> str: ...
def problem_to_toml(spec_json: str) -> str: ...
def problem_with_epsilon(spec_json: str, epsilon: float) -> str: ...
def problem_labels(spec_json: str) -> List[str]: ...

# solve
def solve(
    spec_json: str,
    *,
    method: str = ...,
    solver: str = ...,
    time_limit: float = ...,
    gap: Optional[float] = ...,
    profile: str = ...,
) -> Tuple[
    str,
    Optional[npt.NDArray[np.float64]],
    Tuple[str, str, Optional[float], Optional[float], Optional[float], Optional[float]],
]: ...
def channel_svg(
    channel: npt.NDArray[np.float64], inputs: List[str], outputs: List[str], title: str
) -> str: ...

# collect
class TimeLimitError(RuntimeError): ...

def leakage(
    q: npt.NDArray[np.float64],
    notion: str,
    *,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[dict] = None,
    metric: Optional[Any] = None,
) -> float: ...
def audit(
    q: npt.NDArray[np.float64],
    *,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[dict] = None,
    privacy: Optional[Any] = None,
    metric: Optional[Any] = None,
    epsilons: Sequence[float] = ...,
    deltas: Sequence[float] = ...,
) -> str: ...
def baseline(
    name: str,
    k: Optional[int] = None,
    epsilon: Optional[float] = None,
    *,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[dict] = None,
    sensitive: Optional[Sequence[Any]] = None,
    blocks: Optional[Sequence[Sequence[Any]]] = None,
) -> Tuple[npt.NDArray[np.float64], List[str]]: ...
def compose(
    channels: Sequence[npt.NDArray[np.float64]],
    releases: int = 1,
    *,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[dict] = None,
    delta_prime: Optional[float] = None,
    bp_priors: Optional[Sequence[Sequence[float]]] = None,
    time_limit: Optional[float] = None,
) -> str: ...
def privatize(
    q: npt.NDArray[np.float64],
    values: npt.NDArray[np.int64],
    *,
    seed: Optional[int] = None,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[dict] = None,
    privacy: Optional[Any] = None,
) -> npt.NDArray[np.int64]: ...
def seed_warning(name: str) -> str: ...
def estimate(
    q: npt.NDArray[np.float64],
    reports: Optional[npt.NDArray[np.int64]] = None,
    *,
    counts: Optional[npt.NDArray[np.int64]] = None,
    estimators: Sequence[str] = ...,
    queries: Sequence[str] = ...,
    level: float = 0.95,
    estimand: str = "sample",
    prior: Optional[Sequence[float]] = None,
    domain: Optional[dict] = None,
    time_limit: float = 3600.0,
) -> str: ...
def simulate(
    q: npt.NDArray[np.float64],
    users: Optional[int] = None,
    *,
    trials: int = 1000,
    seed: Optional[int] = None,
    sampling: str = "iid",
    estimators: Sequence[str] = ...,
    priors: Optional[Sequence[Tuple[int, Sequence[float]]]] = None,
    noncompliance: float = 0.0,
    level: float = 0.95,
    estimand: str = "sample",
    prior: Optional[Sequence[float]] = None,
    domain: Optional[dict] = None,
    time_limit: float = 600.0,
) -> str: ...
def plan(
    q: Optional[npt.NDArray[np.float64]] = None,
    *,
    rmse: float,
    target: str = "frequency",
    symbol: Optional[str] = None,
    users: Optional[int] = None,
    epsilon: Optional[float] = None,
    size: Optional[int] = None,
    prior: Optional[Sequence[float]] = None,
    domain: Optional[dict] = None,
    baseline: Optional[str] = None,
    estimand: str = "sample",
    time_limit: float = 600.0,
) -> str: ...
# end collect

# curve and verify
def curve(
    spec_json: str,
    *,
    axis: str,
    grid: Union[str, Sequence[float]],
    compare: Sequence[str] = ...,
    registry: bool = ...,
    mechanisms: Sequence[str] = ...,
    time_limit: Optional[float] = ...,
    point_time_limit: float = ...,
    gap: Optional[float] = ...,
    solver: str = ...,
) -> Tuple[str, str]: ...
def curve_columns(
    csv: str,
) -> Tuple[
    List[str],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    List[str],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    List[str],
]: ...
def curve_svg(
    csv: str, *, title: str, x_label: str, y_label: str, width: int = ..., height: int = ...
) -> str: ...
def verify(
    spec_json: str, *, sweep: bool = ..., solver: str = ..., time_limit: float = ...
) -> Tuple[str, str]: ...
