"""The ledger of the field's numeric claims (issue 32): one module per claim, each with a
certified verdict.

Every module directly in this package (not the helpers in common/) is one claim of one paper
and defines `entries() -> list[Entry]`: one entry per reading of the claim where the paper is
ambiguous; and, where the engine can state the verdict, `facts(entries)`, a dict from each
entry's id to its fact or tuple of facts (a Refutation of a failing claim, an enclosure of a
value) that theorem `papers` (common.theorem) proves, so `pe-proofs prove papers` and the Coq export reach it. The ledger is whatever modules the package holds, so adding a claim is one file and
its test (docs/reference/papers.md). Verdicts come from ball arithmetic (python-flint's arb):
a ball that excludes the boundary decides; otherwise the entry says `undecided`.

>>> "vaswani2017" in claim_modules()
True
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import pkgutil
from typing import TYPE_CHECKING

from proofs.theorems.papers.common.entry import Entry

if TYPE_CHECKING:
    from proofs.engine.facts import Fact


def claim_modules() -> list[str]:
    """The names of the claim modules, in alphabetical order (helpers in subpackages excluded)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.ispkg)


def ledger(only: str | None = None) -> list[Entry]:
    """Every entry of every claim module, in module order, each naming its facts; only: one
    module's (ValueError if there is no such module)."""
    return checked(only)[0]


def checked(only: str | None = None) -> tuple[list[Entry], list[Fact]]:
    """The ledger's entries (as ledger gives them) and the facts they name, each fact once, in
    entry order."""
    if only is not None and only not in claim_modules():
        raise ValueError(
            f"only must name a claim module, got {only!r} (modules: {', '.join(claim_modules())})"
        )
    found, facts = _computed(only)
    return list(found), list(facts)


# The ledger's values are computed once per process: `pe-proofs prove papers`, the papers
# command and the Coq export each need them, and they are the same every time (exact inputs,
# ball arithmetic at fixed precision). The facts are verified wherever they are used.
@functools.cache
def _computed(only: str | None) -> tuple[tuple[Entry, ...], tuple[Fact, ...]]:
    chosen = claim_modules() if only is None else [only]
    found: list[Entry] = []
    facts: dict[str, Fact] = {}
    for name in chosen:
        module = importlib.import_module(f"{__name__}.{name}")
        entries = module.entries()
        stated = module.facts(entries) if hasattr(module, "facts") else {}
        for entry in entries:
            given = stated.get(entry.id, ())
            given = given if isinstance(given, tuple) else (given,)
            for fact in given:
                facts.setdefault(fact.name, fact)
            found.append(dataclasses.replace(entry, facts=tuple(f.name for f in given)))
    return tuple(found), tuple(facts.values())
