"""Fixtures shared by test files: the course notes, verified once per test session."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

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


# In CI (CI=true) the property tests draw the same examples every run, so a red CI always
# reproduces; locally they keep exploring new examples.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
