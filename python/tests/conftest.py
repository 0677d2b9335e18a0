"""Shared paths for the tests of the Python package."""

from pathlib import Path

import pytest

#: The repository's root (python/tests/ is two levels below it).
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def root() -> Path:
    return ROOT
