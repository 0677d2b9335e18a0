"""`Problem`: a channel design problem, built from keyword arguments or read from TOML."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

__all__ = ["Problem"]

PrivacyArg = Union[Mapping[str, Any], Sequence[Mapping[str, Any]]]


def _floats(name: str, values: Any) -> Optional[List[float]]:
    """A 1-D sequence of floats (a list, tuple or numpy array), or None."""
    if values is None:
        return None
    array = np.asarray(values, dtype=float)
    if array.ndim != 1:
        raise _native.InvalidInputError(
            f"invalid `{name}`: an array of shape {array.shape}; give one number per symbol"
        )
    return array.tolist()


class Problem:
    """A channel design problem: a domain with its prior, privacy constraints and an objective.

    The keyword arguments mirror the sections of a problem file, and the problem is checked as
    a file is, with the same messages (an :class:`InvalidInputError` names the key, e.g.
    ``domain.prior`` or ``privacy[0].epsilon``).

    Parameters
    ----------
    size, labels, values, line, grid
        The domain, in one of the file's forms: ``size=5`` (symbols 0..4), ``labels=[...]``,
        ``values=[...]`` (points on a line), ``line=n``, ``grid=(rows, cols)``. Or
        ``domain={...}`` with the keys of ``[domain]`` (for ``points`` from a CSV file).
    prior
        One probability per symbol (default uniform).
    privacy
        One constraint or a list of them, each a dict with the keys of a ``[[privacy]]`` entry,
        e.g. ``{"notion": "ldp", "epsilon": 1.0}``.
    objective
        A dict with the keys of ``[objective]`` (``{"kind": "expected-loss", "loss":
        "hamming"}``), or the name of a kind without keys (``"mmse-histogram"``).
    name, description, expected
        A title, free text, and the known optimum ``{"objective": v, "tolerance": t}``.

    Examples
    --------
    >>> import mechsynth as ms
    >>> p = ms.Problem(size=5, privacy={"notion": "ldp", "epsilon": 1.0},
    ...                objective={"kind": "expected-loss", "loss": "hamming"})
    >>> p == ms.Problem.from_toml(p.to_toml())
    True
    """

    __slots__ = ("_json",)

    def __init__(
        self,
        *,
        size: Optional[int] = None,
        labels: Optional[Sequence[str]] = None,
        values: Optional[Sequence[float]] = None,
        line: Optional[int] = None,
        grid: Optional[Tuple[int, int]] = None,
        domain: Optional[Mapping[str, Any]] = None,
        prior: Optional[Sequence[float]] = None,
        privacy: Optional[PrivacyArg] = None,
        objective: Optional[Union[str, Mapping[str, Any]]] = None,
        name: Optional[str] = None,
        description: Optional[str] = None,
        expected: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self._json = _native.build_problem(
            name=name,
            description=description,
            domain=dict(domain) if domain is not None else None,
            size=size,
            labels=list(labels) if labels is not None else None,
            values=_floats("values", values),
            line=line,
            grid=tuple(grid) if grid is not None else None,
            prior=_floats("prior", prior),
            privacy=privacy,
            objective=objective,
            expected=dict(expected) if expected is not None else None,
        )

    @classmethod
    def _from_json(cls, text: str) -> "Problem":
        problem = cls.__new__(cls)
        problem._json = text
        return problem

    @classmethod
    def from_toml(cls, text: str, origin: str = "<string>") -> "Problem":
        """A problem from the text of a problem file (``origin`` names it in messages)."""
        return cls._from_json(_native.problem_from_toml(text, origin))

    @classmethod
    def from_file(cls, path: Union[str, "os.PathLike[str]"]) -> "Problem":
        """A problem read from a problem file (a relative ``points.file`` is relative to it)."""
        path = os.fspath(path)
        with open(path, encoding="utf-8") as f:
            return cls._from_json(_native.problem_from_toml(f.read(), path))

    def to_toml(self) -> str:
        """The problem as the text of a problem file."""
        return _native.problem_to_toml(self._json)

    def to_dict(self) -> Dict[str, Any]:
        """The problem as a dict with the keys of a problem file."""
        return json.loads(self._json)

    def to_json(self) -> str:
        """The problem as JSON (the dict of :meth:`to_dict`)."""
        return self._json

    def with_epsilon(self, epsilon: float) -> "Problem":
        """The same problem with every privacy constraint at ``epsilon`` (as ``--epsilon``)."""
        return Problem._from_json(_native.problem_with_epsilon(self._json, float(epsilon)))

    @property
    def labels(self) -> List[str]:
        """The labels of the domain's symbols."""
        return _native.problem_labels(self._json)

    @property
    def name(self) -> Optional[str]:
        """The problem's title, if it has one."""
        return self.to_dict().get("name")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Problem):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(self._json)

    def __repr__(self) -> str:
        d = self.to_dict()
        notions = ", ".join(p.get("notion", "?") for p in d.get("privacy", []))
        kind = d.get("objective", {}).get("kind", "?")
        title = f"{d['name']!r}, " if "name" in d else ""
        return f"Problem({title}{len(self.labels)} symbols, privacy: {notions}, objective: {kind})"

    def __reduce__(self):
        return (Problem._from_json, (self._json,))
