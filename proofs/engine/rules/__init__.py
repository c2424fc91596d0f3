"""The rules a step may cite, each a small named rewrite (in the manner of SymPy's fu.py).

A step cites a rule (or a short sequence of rules, or a lemma: proofs.engine.citation), and the
checker applies exactly that: the link closes when both sides, rewritten by the cited rules in
order, are equal by algebra (proofs.engine.rules.normal_form). The exact rules rewrite by
identities that hold everywhere; the uncertified ones (trigsimp, simplify, Sum.doit) are
computer-algebra answers that can be wrong, whose zeros need certified confirmation.
"""

from __future__ import annotations

from proofs.engine.rules.algebra import ALGEBRA, CANCEL, EXPONENT_LAWS, LOGARITHMIC_FORM
from proofs.engine.rules.complex_numbers import COMPLEX_FORM
from proofs.engine.rules.computer_algebra import SIMPLIFY, TRIGSIMP
from proofs.engine.rules.integer_parts import INTEGER_PARTS
from proofs.engine.rules.matrices import MATRIX_PRODUCT, TRANSPOSE
from proofs.engine.rules.powers import EXPONENTIAL_FORM, POWER_LAWS
from proofs.engine.rules.rule import Rule
from proofs.engine.rules.sums import CLOSED_FORM, COUNT_TERMS
from proofs.engine.rules.trigonometry import (
    ANGLE_ADDITION,
    ANGLE_SUBTRACTION,
    COMMON_ANGLE,
    HALF_PERIOD,
    MULTIPLE_ANGLE,
    PARITY,
    PERIOD,
    PYTHAGOREAN,
)

RULES: dict[str, Rule] = {
    rule.name: rule
    for rule in (
        ALGEBRA,
        CANCEL,
        MATRIX_PRODUCT,
        TRANSPOSE,
        ANGLE_ADDITION,
        ANGLE_SUBTRACTION,
        PARITY,
        PYTHAGOREAN,
        PERIOD,
        HALF_PERIOD,
        MULTIPLE_ANGLE,
        COMMON_ANGLE,
        EXPONENT_LAWS,
        COUNT_TERMS,
        LOGARITHMIC_FORM,
        POWER_LAWS,
        EXPONENTIAL_FORM,
        COMPLEX_FORM,
        INTEGER_PARTS,
        CLOSED_FORM,
        TRIGSIMP,
        SIMPLIFY,
    )
}

__all__ = [
    "ALGEBRA",
    "ANGLE_ADDITION",
    "ANGLE_SUBTRACTION",
    "CANCEL",
    "CLOSED_FORM",
    "COMMON_ANGLE",
    "COMPLEX_FORM",
    "COUNT_TERMS",
    "EXPONENTIAL_FORM",
    "EXPONENT_LAWS",
    "HALF_PERIOD",
    "INTEGER_PARTS",
    "LOGARITHMIC_FORM",
    "MATRIX_PRODUCT",
    "MULTIPLE_ANGLE",
    "PARITY",
    "PERIOD",
    "POWER_LAWS",
    "PYTHAGOREAN",
    "RULES",
    "SIMPLIFY",
    "TRANSPOSE",
    "TRIGSIMP",
    "Rule",
]
