"""Everything the audit found about a table, gathered for its verdicts and sentences
(numeric.table_audit.verdicts, numeric.table_audit.findings)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.audit.grading import Accuracy
from numeric.table_audit.convention import Schedule
from numeric.table_audit.explain import RowPositions
from numeric.table_audit.measure import ErrorMeasure
from numeric.table_audit.naming import Named
from numeric.table_audit.orientation import Oriented
from numeric.table_audit.pairing import Pairing
from numeric.table_audit.positions import course


@dataclass(frozen=True)
class Facts:
    """Everything the verdicts and sentences need; see numeric.table_audit.identify for where
    each comes from. Errors, scale and rotation are in units of `unit`."""

    shape: tuple[int, int]
    dtype: str
    precision: str
    pairing: Pairing
    oriented: Oriented | None
    schedule: Schedule | None
    named: Named | None
    scale: float | None
    scale_name: str | None
    same_amplitude: bool
    constant: float | None
    unit: float
    columns_sinusoidal: bool
    held: RowPositions | None
    errors: ErrorMeasure | None
    accuracy: Accuracy | None
    expected: float
    zero_rows: tuple[int, ...]
    zero_columns: tuple[int, ...]
    distinct: int
    identical: tuple[int, int] | None
    rotation: dict
    # The shift identity on the table as stored, when a constant was taken off (else None).
    rotation_on_table: dict | None = None
    # Pairs whose fitted frequency is not the named schedule's (naming.pairs_off_formula).
    off_formula: tuple[dict, ...] = ()

    @property
    def exact(self) -> bool:
        return self.named is not None and self.named.convention.exact

    @property
    def set_aside(self) -> int:
        """How many rows of no position the accuracy grade leaves out (identify): all of them
        unless no row holds a position."""
        if self.held is None:
            return 0
        count = len(self.held.unexplained)
        return count if count < int(np.count_nonzero(~np.isnan(self.held.positions))) else 0

    @property
    def mirrored(self) -> bool:
        """Whether the rows hold |c − r|: relative positions +r and −r share a row."""
        if self.held is None or not self.exact:
            return False
        return course(self.held.runs, self.named.step).transform == "abs"

    @property
    def layout(self) -> str | None:
        return self.oriented.layout if self.oriented is not None else None

    @property
    def schedule_name(self) -> str | None:
        """'paper', 'tensor2tensor', 'custom', or None (no pairs, or one pair)."""
        if self.named is None:
            return None
        if self.exact:
            return self.named.convention.schedule if len(self.pairing.pairs.slope) > 1 else None
        return "custom"
