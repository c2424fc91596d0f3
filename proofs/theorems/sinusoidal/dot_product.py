"""Theorem (dot_product): PE(p)·PE(p+k) = Σ_i cos(k·ω_i) depends on the offset k only, evenly.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.dot_product.dot_product_table.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.blocks import BlockEquation, BlockSum, Inner, Label
from proofs.engine.citation import Lemma, Termwise
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Blockwise, FreeOf, Refutation
from proofs.engine.rules import ANGLE_ADDITION, MATRIX_PRODUCT, PARITY, PYTHAGOREAN
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import (
    D_MODEL,
    OMEGA_I,
    POS,
    I,
    K,
    omega,
    omegas,
    pair_bindings,
    pairs,
    pe_blocks,
    pe_pair,
)

NAME = "dot_product"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "For all real pos and k, PE(pos)·PE(pos + k) = Σ_i cos(kω_i) and "
    "‖PE(pos + k) − PE(pos)‖² = Σ_i (2 − 2cos(kω_i)), free of pos; the dot product is "
    "even in k, so it cannot tell k before from k after."
)


def _dot(a: sp.ImmutableMatrix, b: sp.ImmutableMatrix) -> sp.MatMul:
    """aᵀ·b, kept unevaluated for display."""
    return sp.MatMul(a.T, b, evaluate=False)


def _scalar(expr: sp.Expr) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix([[expr]])


def offset_sum(k: sp.Expr, d_model: int, *, evaluate: bool = True) -> sp.Expr:
    """f(k) = Σ_i cos(k·ω_i) written out for a concrete d_model (for tests; the theorem uses
    offset_terms); evaluate=False keeps cos(−x) as written."""
    terms = [sp.cos(k * w, evaluate=evaluate) for w in omegas(d_model)]
    return sp.Add(*terms, evaluate=evaluate)


def pair_dot_derivation() -> Derivation:
    """PE_i(pos)·PE_i(pos + k) = cos(k·ω_i), with i and d_model symbolic."""
    w = omega()
    a, b = pe_pair(POS, w), pe_pair(POS + K, w)
    return Derivation(
        "pair_dot",
        "One pair: PE_i(pos)·PE_i(pos + k) = cos(kω_i)",
        (
            Step(_dot(a, b)),
            Step(_scalar((a.T * b)[0]), by=MATRIX_PRODUCT),
            Step(
                _scalar(sp.cos(K * w)),
                by=(ANGLE_ADDITION, PYTHAGOREAN),
                note="split (pos + k)ω_i; then sin² + cos² = 1",
            ),
        ),
        display=((w, OMEGA_I),),
    )


PAIRS = (I, 0, D_MODEL / 2 - 1)


def general_dot_derivation(pair: Derivation) -> Derivation:
    """PE(pos)·PE(pos + k) = Σ_i cos(k·ω_i) with d_model symbolic: the pair identity summed."""
    w = omega()
    a, b = pe_pair(POS, w), pe_pair(POS + K, w)
    return Derivation(
        "dot_sum",
        "The whole vector, any d_model: PE(pos)·PE(pos + k) = Σ_i cos(kω_i)",
        (
            Step(sp.Sum((a.T * b)[0], PAIRS)),
            Step(sp.Sum(sp.cos(K * w), PAIRS), by=Termwise(Lemma(pair))),
        ),
        display=((w, OMEGA_I),),
    )


def general_distance_derivation(pair: Derivation) -> Derivation:
    """‖PE(pos + k) − PE(pos)‖² = Σ_i (2 − 2cos(k·ω_i)) with d_model symbolic."""
    w = omega()
    diff = pe_pair(POS + K, w) - pe_pair(POS, w)
    return Derivation(
        "distance_sum",
        "The whole vector, any d_model: ‖PE(pos + k) − PE(pos)‖² = Σ_i (2 − 2cos(kω_i))",
        (
            Step(sp.Sum((diff.T * diff)[0], PAIRS)),
            Step(sp.Sum(2 - 2 * sp.cos(K * w), PAIRS), by=Termwise(Lemma(pair))),
        ),
        display=((w, OMEGA_I),),
    )


def pair_distance_derivation() -> Derivation:
    """‖PE_i(pos + k) − PE_i(pos)‖² = 2 − 2cos(k·ω_i), with i and d_model symbolic."""
    w = omega()
    diff = pe_pair(POS + K, w) - pe_pair(POS, w)
    return Derivation(
        "pair_distance",
        "One pair: ‖PE_i(pos + k) − PE_i(pos)‖² = 2 − 2cos(kω_i)",
        (
            Step(_dot(diff, diff)),
            Step(_scalar((diff.T * diff)[0]), by=MATRIX_PRODUCT),
            Step(
                _scalar(2 - 2 * sp.cos(K * w)),
                by=(ANGLE_ADDITION, PYTHAGOREAN),
                note="split (pos + k)ω_i; then sin² + cos² = 1 twice",
            ),
        ),
        display=((w, OMEGA_I),),
    )


def pair_even_derivation(pair: Derivation) -> Derivation:
    """PE_i(pos)·PE_i(pos − k) = PE_i(pos)·PE_i(pos + k), with i and d_model symbolic."""
    w = omega()
    here = pe_pair(POS, w)
    return Derivation(
        "pair_dot_even",
        "One pair, k before and k after: PE_i(pos)·PE_i(pos − k) = PE_i(pos)·PE_i(pos + k)",
        (
            Step(_dot(here, pe_pair(POS - K, w))),
            Step(
                _scalar(sp.cos(-K * w, evaluate=False)),
                by=Lemma(pair, {K: -K}),
                note="the pair identity with −k in place of k",
            ),
            Step(_scalar(sp.cos(K * w)), by=PARITY, note="cos is even"),
            Step(
                _dot(here, pe_pair(POS + K, w)),
                by=Lemma(pair),
                note="the pair identity, read backwards",
            ),
        ),
        display=((w, OMEGA_I),),
    )


def offset_terms(k: sp.Expr, d_model: int) -> BlockSum:
    """f(k) = Σ_i cos(k·ω_i) for a concrete d_model, one term per pair."""
    text, latex = ("k", "k") if k == K else ("−k", "-k")
    label = Label(f"cos({text}ω_" + "{i})", rf"\cos\left({latex}\,\omega_" + "{{i}}\\right)")
    return BlockSum(pairs(_scalar(sp.cos(k * omega())), d_model), label)


def _blockwise(
    name: str, title: str, lhs, rhs, lemma: Derivation | None, d_model: int
) -> Blockwise:
    return Blockwise(
        name, title, BlockEquation(lhs, rhs), lemma, pair_bindings(d_model) if lemma else None
    )


def vector_dot_fact(d_model: int, lemma: Derivation | None = None) -> Blockwise:
    """PE(pos)·PE(pos + k) = Σ_i cos(k·ω_i) for a concrete d_model, pair by pair."""
    return _blockwise(
        "dot_concrete",
        f"The whole vector, d_model = {d_model}: PE(pos)·PE(pos + k) = Σ_i cos(kω_i)",
        Inner(pe_blocks(POS, d_model), pe_blocks(POS + K, d_model)),
        offset_terms(K, d_model),
        lemma or pair_dot_derivation(),
        d_model,
    )


def vector_distance_fact(d_model: int, lemma: Derivation | None = None) -> Blockwise:
    """‖PE(pos + k) − PE(pos)‖² = Σ_i (2 − 2cos(k·ω_i)) for a concrete d_model, pair by pair."""
    diff = pe_blocks(POS + K, d_model) - pe_blocks(POS, d_model)
    label = Label("2 − 2cos(kω_" + "{i})", r"2 - 2\cos\left(k\,\omega_" + "{{i}}\\right)")
    return _blockwise(
        "distance_concrete",
        f"The whole vector, d_model = {d_model}: ‖PE(pos + k) − PE(pos)‖² = Σ_i (2 − 2cos(kω_i))",
        Inner(diff, diff),
        BlockSum(pairs(_scalar(2 - 2 * sp.cos(K * omega())), d_model), label),
        lemma or pair_distance_derivation(),
        d_model,
    )


def vector_even_fact(d_model: int, lemma: Derivation | None = None) -> Blockwise:
    """f(−k) = f(k): PE(pos)·PE(pos − k) = PE(pos)·PE(pos + k) for a concrete d_model, pair by pair."""
    here = pe_blocks(POS, d_model)
    return _blockwise(
        "even_concrete",
        f"f is even, d_model = {d_model}: PE(pos)·PE(pos − k) = PE(pos)·PE(pos + k)",
        Inner(here, pe_blocks(POS - K, d_model)),
        Inner(here, pe_blocks(POS + K, d_model)),
        lemma or pair_even_derivation(pair_dot_derivation()),
        d_model,
    )


def not_odd_fact(d_model: int) -> Blockwise:
    """f(k) + f(−k) = 2f(k), term by term: cos(−kω_i) = cos(kω_i)."""
    both = BlockSum(
        # cos(−kω_i) kept as written: SymPy would make the sum 2·cos(kω_i) on sight.
        pairs(
            _scalar(
                sp.Add(
                    sp.cos(K * omega()),
                    sp.cos(sp.Mul(-1, K, omega(), evaluate=False), evaluate=False),
                    evaluate=False,
                )
            ),
            d_model,
        ),
        Label(
            "cos(kω_{i}) + cos(−kω_{i})",
            r"\cos\left(k\,\omega_{{i}}\right) + \cos\left(-k\,\omega_{{i}}\right)",
        ),
    )
    twice = BlockSum(
        pairs(_scalar(2 * sp.cos(K * omega())), d_model),
        Label("2cos(kω_{i})", r"2\cos\left(k\,\omega_{{i}}\right)"),
    )
    return _blockwise(
        "not_odd_concrete",
        f"Not odd, d_model = {d_model}: f(k) + f(−k) = 2·Σ_i cos(kω_i) (cos is even, term by term)",
        both,
        twice,
        None,
        d_model,
    )


def offset_function(k: sp.Expr) -> sp.Sum:
    """f(k) = Σ_{i=0}^{d_model/2 − 1} cos(k·ω_i) with d_model symbolic, k as written (cos(−k·ω_i)
    is kept, not made cos(k·ω_i))."""
    argument = sp.Mul(k, omega(), evaluate=False)
    return sp.Sum(sp.cos(argument, evaluate=False), PAIRS)


def not_odd_refutation(d_model: int) -> Refutation:
    """The claim that f is odd, f(−k) = −f(k) for every even d_model and real k, refuted at
    k = 0 and this d_model: there f(0) + f(0) = d_model ≠ 0."""
    return Refutation(
        "not_odd",
        f"f is odd: f(−k) = −f(k) for every even d_model and real k (tried at d_model = "
        f"{d_model}, k = 0, where f(0) = d_model/2 is not −f(0))",
        sp.Eq(offset_function(sp.Mul(-1, K, evaluate=False)), -offset_function(K), evaluate=False),
        ((D_MODEL, sp.Integer(d_model)), (K, sp.Integer(0))),
    )


def build(d_model: int = 8) -> Theorem:
    """The relative dot-product theorem; d_model sets the size of the whole-vector statements."""
    w = omega()
    f_sum = offset_terms(K, d_model)
    pair = pair_dot_derivation()
    lemmas = (pair, pair_distance_derivation(), pair_even_derivation(pair))
    return Theorem(
        name=NAME,
        title="The dot product of two encodings depends only on their offset, and evenly",
        statement=STATEMENT,
        formulas=(
            sp.Eq(
                _dot(pe_pair(POS, OMEGA_I), pe_pair(POS + K, OMEGA_I)),
                _scalar(sp.cos(K * OMEGA_I)),
                evaluate=False,
            ),
        ),
        parts=(
            lemmas[0],
            FreeOf("cos_free_of_pos", "cos(kω_i) does not depend on pos", sp.cos(K * w), (POS,)),
            lemmas[1],
            lemmas[2],
            general_dot_derivation(lemmas[0]),
            general_distance_derivation(lemmas[1]),
            vector_dot_fact(d_model, lemmas[0]),
            FreeOf(
                "dot_concrete_free_of_pos",
                f"Σ_i cos(kω_i) (d_model = {d_model}) does not depend on pos",
                f_sum,
                (POS,),
            ),
            vector_distance_fact(d_model, lemmas[1]),
            vector_even_fact(d_model, lemmas[2]),
            not_odd_fact(d_model),
            not_odd_refutation(d_model),
        ),
        twin="numeric.checks.dot_product.dot_product_table",
        twin_kwargs={"d_model": d_model},
        remarks=(
            "The pair statements and the sums over the d_model/2 pairs hold with i and d_model "
            "symbolic; the concrete-d_model parts instantiate the pair statements at each pair.",
            "Evenness is a limitation: attention scores built from PE(p)·PE(q) alone see |p − q|, "
            "not its sign. The rotation theorem's M_k does distinguish k from −k.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
