"""Theorem (papers): the ledger's verdicts as engine facts, so `pe-proofs prove papers` and the
Coq export check them as every theorem is checked.

Its parts are the facts the claim modules state (proofs.theorems.papers: each module's
`facts`): a Refutation for a claim that fails at a point (Men et al.'s and Su's criterion at the
first distance that breaks it, Vaswani's top wavelength, T5's last bucket), an enclosure for a
closed formula's value (Liu et al., YaRN, gpt-oss). Entries that rest on an exhaustive sweep (a
tabulated base that satisfies the criterion at every distance) have no fact: the engine states
no claim over a million positions; the ledger's sweep decides them (common.rope_sum).

Numeric twin: numeric.checks.papers.papers_table (B(m) at each refuted distance, with mpmath).
"""

from __future__ import annotations

from proofs.engine.theorem import Theorem
from proofs.theorems.papers import checked

NAME = "papers"
STATEMENT = (
    "The papers' numeric claims, as the ledger (pe-proofs papers) decides them: each failing "
    "claim refuted at a certified counterexample, each closed formula's value enclosed."
)


def build(d_model: int = 8) -> Theorem:
    """The ledger's facts as one theorem; d_model is not used (the claims fix their sizes)."""
    del d_model
    entries, facts = checked()
    # The distances where a tabulated base breaks the criterion, for the twin to recompute.
    points = tuple(
        sorted(
            {(e.witness["base"], e.witness["m"]) for e in entries if e.facts and "m" in e.witness},
            key=lambda point: point[1],
        )
    )
    return Theorem(
        name=NAME,
        title="The papers' numeric claims, checked",
        statement=STATEMENT,
        parts=tuple(facts),
        twin="numeric.checks.papers.papers_table",
        twin_kwargs={"points": points},
        remarks=(
            "Entries that hold at every distance below a context length rest on the ledger's "
            "exhaustive sweep, not on a fact here (pe-proofs papers shows them).",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
