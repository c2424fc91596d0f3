"""Checked: one verified theorem with its numeric twin's table, as the notes printers take it."""

from __future__ import annotations

from dataclasses import dataclass

from numeric.table import Table
from proofs.engine.theorem import TheoremResult


@dataclass(frozen=True)
class Checked:
    """One theorem, verified, with its numeric twin's table."""

    result: TheoremResult
    table: Table | None

    @property
    def name(self) -> str:
        return self.result.theorem.name

    @property
    def ok(self) -> bool:
        """Proved, and the twin did not fail."""
        return self.result.status == "proved" and (
            self.table is None or self.table.passed is not False
        )
