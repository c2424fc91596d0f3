"""Fixtures of the notes' tests: the tables the lesson shows, computed once per session."""

from __future__ import annotations

import pytest

from numeric.result_table import Table
from proofs.cli.notes_output import lesson_tables as compute_lesson_tables


@pytest.fixture(scope="session")
def lesson_tables() -> dict[str, Table]:
    """The module's tables by name and the conventions table (proofs.cli.notes_output)."""
    return compute_lesson_tables()
