"""J. Su 2024, kexue.fm archive 10122: a re-derivation of Men et al.'s criterion, with its own
table of least bases for the same eleven lengths.

Checked exactly as Men et al.'s Table 2 (men2024.check_table): per length, reading of "K"
(1000 or 1024) and range of m ([0, L] or Su's {0, …, L − 1}), whether the tabulated base is
the least base on the grid (i + j/10)·10^x satisfying B(m) ≥ 0 for every m.
"""

from __future__ import annotations

from flint import fmpq

from proofs.engine.facts import Refutation
from proofs.theorems.papers.common.entry import Entry
from proofs.theorems.papers.men2024 import check_table
from proofs.theorems.papers.men2024 import facts as table_facts

PAPER = "J. Su 2024, kexue.fm archive 10122 (a re-derivation of Men et al. 2024)"
WHERE = "the table of least bases by context length"
TABLE = (
    ("1K", 1, fmpq(4300)),
    ("2K", 2, fmpq(12000)),
    ("4K", 4, fmpq(27000)),
    ("8K", 8, fmpq(84000)),
    ("16K", 16, fmpq(230000)),
    ("32K", 32, fmpq(630000)),
    ("64K", 64, fmpq(2100000)),
    ("128K", 128, fmpq(4900000)),
    ("256K", 256, fmpq(24000000)),
    ("512K", 512, fmpq(58000000)),
    ("1M", None, fmpq(65000000)),
)


def entries(labels: tuple[str, ...] | None = None) -> list[Entry]:
    """One entry per length of Su's table (all, or those labelled), reading of K and range."""
    return check_table("su2024.table", PAPER, WHERE, TABLE, labels)


def facts(found: list[Entry]) -> dict[str, Refutation]:
    """As Men et al.'s (men2024.facts): each entry failing at a distance m, its Refutation."""
    return table_facts(found)
