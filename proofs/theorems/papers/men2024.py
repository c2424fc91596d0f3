"""Men, Xu et al. 2024, "Base of RoPE Bounds Context Length" (arXiv 2405.14591), Table 2.

The paper requires B(m) = Σ_{i<d/2} cos(m·θ_i) ≥ 0, θ_i = b^(−2i/d), d = 128, for every
relative distance m up to the context length L ("long-term semantic aggregation"), and
tabulates the smallest such base b_L for eleven lengths. Open in the paper: whether "K" is 1000
or 1024 (and "1M" is K²), and whether m runs over [0, L] or [0, L − 1] (Su's re-derivation). One
entry per length and reading: the claim holds when the tabulated base satisfies the criterion
and is the smallest base on the paper's search grid (i + j/10)·10^x (i = 1..9, j = 0..9,
x ≥ 0) that does; it fails at the first m that breaks the criterion (B(m) enclosed), or by the
smaller grid base that satisfies it. The witness also says whether the next SPAN grid bases
above the least all satisfy it (if one does not, the satisfying bases do not form an interval).
Every m is decided (common.rope_sum: a float64 pass with a rigorous error bound, arb near zero).
"""

from __future__ import annotations

import sympy as sp
from flint import fmpq

from proofs.engine.facts import Refutation
from proofs.theorems.papers.common.balls import enclosure
from proofs.theorems.papers.common.entry import Entry
from proofs.theorems.papers.common.rope_sum import DIM, Criterion

PAPER = 'Men, Xu et al. 2024, "Base of RoPE Bounds Context Length" (arXiv 2405.14591)'
WHERE = "Table 2 (criterion: Eq. 10-11)"
# (label, multiple of K; "1M" is K·K) and b_L as Table 2 prints it.
TABLE = (
    ("1K", 1, fmpq(4300)),
    ("2K", 2, fmpq(16000)),
    ("4K", 4, fmpq(27000)),
    ("8K", 8, fmpq(84000)),
    ("16K", 16, fmpq(310000)),
    ("32K", 32, fmpq(640000)),
    ("64K", 64, fmpq(2100000)),
    ("128K", 128, fmpq(7800000)),
    ("256K", 256, fmpq(36000000)),
    ("512K", 512, fmpq(64000000)),
    ("1M", None, fmpq(510000000)),
)
KS = (1000, 1024)
# m ≤ L (the paper's [0, L]) or m ≤ L − 1 (Su's {0, …, L − 1}): the offset of the last m.
RANGES = (("m_le_L", 0, "m in [0, L]"), ("m_lt_L", 1, "m in [0, L - 1]"))
# How many grid bases above the smallest satisfying one are checked for the interval question.
SPAN = 5


def grid(top_exponent: int = 10) -> list[fmpq]:
    """The paper's search grid (i + j/10)·10^x, i = 1..9, j = 0..9, x = 0..top_exponent − 1,
    ascending.

    >>> [str(b) for b in grid()[:3]], str(grid()[-1])
    (['1', '11/10', '6/5'], '9900000000')
    """
    return [
        fmpq(10 * i + j) * fmpq(10) ** x / 10
        for x in range(top_exponent)
        for i in range(1, 10)
        for j in range(10)
    ]


def length(k: int, multiple: int | None) -> int:
    """L for a label under the reading K = k: multiple·k, or k² for "1M"."""
    return k * k if multiple is None else multiple * k


class _Search:
    """The criteria of the grid bases and the tabulated ones, shared across entries (each base's
    sweep is extended, never repeated)."""

    def __init__(self) -> None:
        self.grid = grid()
        self.criteria: dict[fmpq, Criterion] = {}
        self.start = 0  # every grid base below this index fails for every n asked so far

    def criterion(self, base: fmpq) -> Criterion:
        if base not in self.criteria:
            self.criteria[base] = Criterion(base, DIM)
        return self.criteria[base]

    def smallest(self, n: int) -> tuple[int | None, str]:
        """The grid index of the smallest grid base satisfying the criterion on [0, n] (n must
        not decrease between calls), or None with the reason."""
        for index in range(self.start, len(self.grid)):
            verdict, m = self.criterion(self.grid[index]).decide(n)
            if verdict == "holds":
                self.start = index
                return index, ""
            if verdict == "undecided":
                return None, f"undecided at base {self.grid[index]}, m = {m}"
        return None, "no grid base up to 9.9e9 satisfies it"

    def above(self, index: int, n: int) -> dict:
        """The next SPAN grid bases above index: the first that fails on [0, n], if any."""
        checked = self.grid[index + 1 : index + 1 + SPAN]
        for base in checked:
            criterion = self.criterion(base)
            verdict, m = criterion.decide(n)
            if verdict == "fails" and m is not None:
                return {
                    "checked": [str(b) for b in checked],
                    "first_failing": {
                        "base": str(base),
                        "m": m,
                        "value": enclosure(criterion.ball_at(m)),
                    },
                }
        return {"checked": [str(b) for b in checked], "first_failing": None}


def entries(labels: tuple[str, ...] | None = None) -> list[Entry]:
    """One entry per Table 2 length (all, or those labelled), reading of K and range of m."""
    return check_table("men2024.table2", PAPER, WHERE, TABLE, labels)


# The relative distance and the pair index of the criterion, as the engine states it.
DISTANCE = sp.Symbol("m", integer=True, nonnegative=True)
PAIR = sp.Symbol("i", integer=True, nonnegative=True)


def criterion(base: fmpq, m: sp.Expr = DISTANCE) -> sp.Sum:
    """B(m) = Σ_{i=0}^{63} cos(m·b^(−2i/128)), as the engine states it."""
    b = sp.Rational(int(base.p), int(base.q))
    frequency = sp.Pow(b, -2 * PAIR / DIM, evaluate=False)
    return sp.Sum(sp.cos(m * frequency), (PAIR, 0, DIM // 2 - 1))


def criterion_refutation(base: fmpq, m: int) -> Refutation:
    """The claim B(m) ≥ 0 for every m ≥ 0 at base b (d = 128), refuted at m."""
    return Refutation(
        f"criterion_fails_b{str(base).replace('/', '_over_')}_m{m}",
        f"B(m) = Σ_i cos(m·b^(−2i/128)) ≥ 0 for every relative distance m ≥ 0, at b = {base} "
        f"(tried at m = {m}, the first distance that breaks it)",
        sp.Ge(criterion(base), 0, evaluate=False),
        ((DISTANCE, sp.Integer(m)),),
    )


def facts(found: list[Entry]) -> dict[str, Refutation]:
    """Each entry that fails at a distance m: the Refutation of the criterion at its base there
    (one fact per base and m, shared by the entries that find it). An entry that holds, or fails
    by a smaller grid base, rests on an exhaustive sweep, which no engine fact states."""
    return {
        e.id: criterion_refutation(fmpq(e.witness["base"]), e.witness["m"])
        for e in found
        if e.verdict == "fails" and "m" in e.witness
    }


def check_table(
    prefix: str,
    paper: str,
    where: str,
    table: tuple[tuple[str, int | None, fmpq], ...],
    labels: tuple[str, ...] | None = None,
) -> list[Entry]:
    """The entries for a table of least bases by length (label, multiple of K, base): one per
    length, reading of K and range of m, with ids prefix.label.K<k>.<range>."""
    search = _Search()
    cases = sorted(
        (length(k, multiple) - offset, label, k, key, text, base, length(k, multiple))
        for label, multiple, base in table
        if labels is None or label in labels
        for k in KS
        for key, offset, text in RANGES
    )
    found: dict[str, Entry] = {}
    for n, label, k, key, text, base, big_l in cases:
        index, reason = search.smallest(n)
        first_m, value = search.criterion(base).first_failure(n)
        tabulated = search.criterion(base)
        pending = [m for m in tabulated.undecided if m <= n]
        # The claim is that the tabulated base is the least one satisfying the criterion (on the
        # paper's grid): it fails at a distance m, or by a smaller grid base that satisfies it.
        if first_m is not None:
            verdict = "fails"
        elif pending or index is None:
            verdict = "undecided"
        else:
            verdict = "holds" if search.grid[index] == base else "fails"
        witness: dict = {"L": big_l, "m_max": n, "base": str(base)}
        if first_m is not None and value is not None:
            witness |= {"m": first_m, "value": enclosure(value)}
        if pending:
            witness["undecided_m"] = pending[0]
        if index is None:
            witness["smallest_grid_base"] = None
            witness["smallest_grid_base_note"] = reason
        else:
            smallest = search.grid[index]
            witness["smallest_grid_base"] = str(smallest)
            witness["tabulated_is_smallest"] = smallest == base
            witness["grid_above_smallest"] = search.above(index, n)
        entry_id = f"{prefix}.{label}.K{k}.{key}"
        found[entry_id] = Entry(
            id=entry_id,
            paper=paper,
            where=where,
            claim=(
                f"for context length {label}, b = {float(base.p) / float(base.q):.1e} is the least "
                f"base (on the search grid) with B(m) = sum_i cos(m*b^(-2i/128)) >= 0 for every "
                f"relative distance m"
            ),
            reading=f'"K" = {k} (L = {big_l}), {text}',
            verdict=verdict,
            witness=witness,
        )
    order = [t[0] for t in table]
    return [found[k] for k in sorted(found, key=lambda i: (order.index(i.split(".")[-3]), i))]
