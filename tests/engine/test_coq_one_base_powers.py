"""A linear system in powers of one base (layouts' unpaired_no_map: 10^(k/7)) has its Coq
theorem: the powers rewritten as powers of 10^(1/7), a polynomial combination that is σ times a
number, that number nonzero by its enclosure. coqc accepts it, and rejects it without the
hypothesis σ ≠ 0 (marked slow: the foundation compiles first)."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy as sp

from proofs.engine.coq.development import FOUNDATION
from proofs.engine.coq.facts import _one_base_powers, linear_system
from proofs.engine.coq.module import HEADER, INTERVAL
from proofs.engine.facts import LinearSystem
from proofs.theorems.sinusoidal.layouts import even_derivative_equations, row_unknowns
from tests.engine.coq_tools import FORBIDDEN, compiled, coqc, needs_coqc

D_ODD = 7


def unpaired(equations=None) -> LinearSystem:
    return LinearSystem(
        "unpaired_no_map",
        "no map",
        equations or even_derivative_equations(D_ODD),
        row_unknowns(D_ODD),
        "inconsistent",
    )


def test_the_system_in_powers_of_one_base_gets_a_theorem() -> None:
    lemma = linear_system("unpaired_no_map", unpaired())
    assert lemma.statement.startswith("forall (sigma : R),\n    sigma <> 0 -> ~ (exists a_0")
    assert "Rpower 10 (5 / 7)" in lemma.statement
    proof = "\n".join(lemma.proof)
    assert "P5 : Rpower 10 (5 / 7) = Rpower 10 (1 / 7) ^ 5" in proof
    assert FORBIDDEN.findall(proof) == []


def test_only_positive_powers_of_one_integer_base_are_rewritten() -> None:
    third = sp.Rational(1, 3)
    x = sp.Symbol("x", real=True)
    base, q, powers = _one_base_powers([x * 10 ** sp.Rational(2, 7) - 10 ** sp.Rational(1, 3)])
    assert (base, q, len(powers)) == (10, 21, 2)
    assert _one_base_powers([x * 2**third - 3**third]) is None
    assert _one_base_powers([x * 10 ** sp.Rational(1, 7) - 1])[:2] == (10, 7)
    assert _one_base_powers([x - 1]) is None


def module_text(lemma) -> str:
    header = HEADER.replace("Require Import PeProofs.", f"{INTERVAL}\nRequire Import PeProofs.")
    return f"{header}\n\n{lemma.text()}\n"


@needs_coqc
@pytest.mark.slow
def test_coqc_accepts_it_and_rejects_it_without_sigma_nonzero(tmp_path: Path) -> None:
    folder = compiled(tmp_path, FOUNDATION)
    lemma = linear_system("unpaired_no_map", unpaired())
    (folder / "Unpaired.v").write_text(module_text(lemma))
    run = coqc(folder, "Unpaired.v")
    assert run.returncode == 0, run.stdout + run.stderr
    # Without σ ≠ 0 the statement is false (σ = 0 and every a_i = 0 solve the system): the
    # same text with that hypothesis dropped must not compile.
    wrong = lemma.text().replace("sigma <> 0 -> ", "", 1)
    assert wrong != lemma.text()
    (folder / "Wrong.v").write_text(module_text(lemma).replace(lemma.text(), wrong))
    assert coqc(folder, "Wrong.v").returncode != 0
