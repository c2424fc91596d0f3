"""Fixtures shared by test files: the course notes, verified once per test session."""

from __future__ import annotations

import pytest

from numeric.module_tables import module_report
from numeric.table import Table
from proofs.cli import verify
from proofs.render import notes


@pytest.fixture(scope="session")
def checked_notes() -> list[notes.Checked]:
    """Every theorem verified once, with its twin's table (about 10 s)."""
    return verify.check()


@pytest.fixture(scope="session")
def module_tables() -> list[Table]:
    """The course module's tables and exercises, recomputed."""
    return module_report()
