"""Fixtures shared by test files: the course notes, verified once per test session."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from numeric.module_tables import module_report
from numeric.result_table import Table
from proofs import registry
from proofs.engine.theorem import TheoremRun


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked long first, the longest first (long(seconds): about how long it runs
    on two quiet cores), then the others in their order: the other worker takes short tests
    off the end of the queue while the long ones run (--dist worksteal), so neither core is
    left running a minutes-long test alone at the end."""

    def seconds(item: pytest.Item) -> float:
        mark = item.get_closest_marker("long")
        return 0.0 if mark is None else float(mark.args[0])

    items.sort(key=lambda item: -seconds(item))


@pytest.fixture(autouse=True)
def _terminal_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Printed text is wrapped to COLUMNS when stdout is not a terminal: every test sees the
    same 100 columns, whatever the runner's worker inherited (a test may set its own)."""
    monkeypatch.setenv("COLUMNS", "100")


@pytest.fixture(scope="session")
def checked_notes() -> list[TheoremRun]:
    """Every theorem of both course modules verified once, with its twin's table (about 10 s)."""
    return list(registry.run())


@pytest.fixture(scope="session")
def module_tables() -> list[Table]:
    """The course module's tables and exercises, recomputed."""
    return module_report()


# In CI (CI=true) the property tests draw the same examples every run, so a red CI always
# reproduces; locally they keep exploring new examples.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
