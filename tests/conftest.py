"""Fixtures shared by test files: the course notes, verified once per test session."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from proofs.cli import verify
from proofs.render import notes


@pytest.fixture(scope="session")
def checked_notes() -> list[notes.Checked]:
    """Every theorem verified once, with its twin's table and its figure (about 10 s)."""
    return verify.check()


# In CI (CI=true) the property tests draw the same examples every run, so a red CI always
# reproduces; locally they keep exploring new examples.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
