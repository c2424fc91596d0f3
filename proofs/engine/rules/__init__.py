"""The rules a step may cite, each a small named rewrite (in the manner of SymPy's fu.py).

A step cites a rule (or a short sequence of rules, or a lemma: proofs.engine.citation), and the
checker applies exactly that: the link closes when both sides, rewritten by the cited rules in
order, are equal by algebra (proofs.engine.rules.normal_form). The exact rules rewrite by
identities that hold everywhere; the uncertified ones (trigsimp, simplify, Sum.doit) are
computer-algebra answers that can be wrong, whose zeros need certified confirmation.

Each rule is declared once, as a module-level Rule in its own file here (proofs.engine.rules.rule
says what a declaration holds). This package collects them: every Rule constant of every module
is importable from here under its own name (`from proofs.engine.rules import ANGLE_ADDITION`),
and RULES maps each rule's name to it. The search order for uncited claims
(proofs.engine.strategies), the Coq generator (proofs.engine.coq.script) and the Trust table
(docs/make_trust_table.py) are built from these declarations.
"""

from __future__ import annotations

import importlib
import pkgutil

from proofs.engine.rules.rule import Rule


def _declared() -> dict[str, Rule]:
    """Every Rule constant of the package's modules, by its constant's name: module by module in
    alphabetical order, each in the order of its declarations."""
    found: dict[str, Rule] = {}
    for module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        for constant, value in vars(importlib.import_module(f"{__name__}.{module}")).items():
            if isinstance(value, Rule) and constant.isupper():
                if constant in found and found[constant] is not value:
                    raise ImportError(f"two rules are both called {constant}")
                found[constant] = value
    return found


_CONSTANTS = _declared()
globals().update(_CONSTANTS)

RULES: dict[str, Rule] = {rule.name: rule for rule in _CONSTANTS.values()}
if len(RULES) != len(_CONSTANTS):
    raise ImportError("two rule constants share a rule name")

__all__ = [*sorted(_CONSTANTS), "RULES", "Rule"]
