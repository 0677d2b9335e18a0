"""Type stubs of `mechsynth._native`, the Rust side of the package."""

from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

# Functions not declared below are untyped (an incomplete stub).
def __getattr__(name: str) -> Any: ...

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
