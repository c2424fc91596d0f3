"""Fixtures shared by test files: the course notes, verified once per test session."""

from __future__ import annotations

import pytest

from proofs.cli import verify
from proofs.render import notes


@pytest.fixture(scope="session")
def checked_notes() -> list[notes.Checked]:
    """Every theorem verified once, with its twin's table and its figure (about 10 s)."""
    return verify.check()
