"""The ledger of the field's numeric claims (issue 32): one module per claim, each with a
certified verdict.

Every module directly in this package (not the helpers in common/) is one claim of one paper
and defines `entries() -> list[Entry]`: one entry per reading of the claim where the paper is
ambiguous. The ledger is whatever modules the package holds, so adding a claim is one file and
its test (docs/reference/papers.md). Verdicts come from ball arithmetic (python-flint's arb):
a ball that excludes the boundary decides; otherwise the entry says `undecided`.

>>> "vaswani2017" in claim_modules()
True
"""

from __future__ import annotations

import importlib
import pkgutil

from proofs.theorems.papers.common.entry import Entry


def claim_modules() -> list[str]:
    """The names of the claim modules, in alphabetical order (helpers in subpackages excluded)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.ispkg)


def ledger(only: str | None = None) -> list[Entry]:
    """Every entry of every claim module, in module order; only: one module's (ValueError if
    there is no such module)."""
    if only is not None and only not in claim_modules():
        raise ValueError(
            f"only must name a claim module, got {only!r} (modules: {', '.join(claim_modules())})"
        )
    chosen = claim_modules() if only is None else [only]
    found: list[Entry] = []
    for name in chosen:
        module = importlib.import_module(f"{__name__}.{name}")
        found.extend(module.entries())
    return found
