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
) -> Tuple[
    str,
    Optional[npt.NDArray[np.float64]],
    Tuple[str, str, Optional[float], Optional[float], Optional[float], Optional[float]],
]: ...
def channel_svg(
    channel: npt.NDArray[np.float64], inputs: List[str], outputs: List[str], title: str
) -> str: ...
