"""Facts in Coq: each fact's statement as it decides it, with a proof; whole-vector facts over
pe and shift; what has no proof is listed "no proof found", never "not expressible"."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import sympy as sp

from proofs import registry
from proofs.engine.blocks import BlockEquation, Product
from proofs.engine.blockwise import Blockwise
from proofs.engine.coq.module import COQ_DIR, theorem_module
from proofs.engine.facts import FreeOf, LinearSystem, NonNegative, NonZero, ShiftMapFact
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import (
    POS,
    K,
    L,
    identity_blocks,
    pe_blocks,
    pe_pair,
    shift_blocks,
)


def statement(module_text: str, name: str) -> str:
    """The statement of the theorem called name, whitespace collapsed."""
    match = re.search(rf"^Theorem {name} :\n(.*?)\.\nProof\.", module_text, re.M | re.S)
    assert match, name
    return " ".join(match[1].split())


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return {n: theorem_module(registry.build(n)).text() for n in registry.names()}


@pytest.mark.parametrize(
    ("theorem", "fact", "expected"),
    [
        (
            "attention",
            "ramp_step_free_of_q",
            "forall (L alpha beta delta gamma p : R), L <> 0 -> exists M : R, forall (q : R), "
            "(delta + beta * p / L + gamma * (1 + q) / L + alpha * p * (1 + q) / L ^ 2) + "
            "(- delta - beta * p / L - gamma * q / L - alpha * p * q / L ^ 2) = M",
        ),
        ("ramp", "obstruction_nonzero", "forall (L k : R), 0 < L -> k <> 0 -> k / L <> 0"),
        (
            "ramp",
            "no_linear_map",
            "forall (L k : R), 0 < L -> k <> 0 -> ~ (exists a : R, (- 1 + a) / L = 0 /\\ "
            "- (k / L) = 0)",
        ),
        (
            "ramp",
            "identity_at_zero_offset",
            "forall (L : R), 0 < L -> forall a : R, (- 1 + a) / L = 0 /\\ 0 = 0 <-> a = 1",
        ),
        ("unique", "first_pairs_differ", "forall (n : Z), n <> 0%Z -> - 1 + cos (IZR n) <> 0"),
        (
            "unique",
            "n_is_not_2pi_times_m",
            "forall (m n : Z), m <> 0%Z -> n <> 0%Z -> IZR n - 2 * (PI * IZR m) <> 0",
        ),
        (
            "bounded",
            "sin_at_most_1",
            "forall (d_model i pos : R), 0 <= 1 - sin (pos * omega i d_model)",
        ),
        (
            "shift_maps",
            "lone_sine_no_map",
            "forall (k : R), sin k <> 0 -> ~ (exists M : mat, forall pos : R, "
            "mmul 1 M (rows [[sin pos]]) = rows [[sin (pos + k)]])",
        ),
        (
            "shift_maps",
            "pair_has_map",
            "forall (k omega_i : R), exists M : mat, forall pos : R, mmul 2 M "
            "(col [sin (pos * omega_i); cos (pos * omega_i)]) = "
            "col [sin ((pos + k) * omega_i); cos ((pos + k) * omega_i)]",
        ),
        (
            "rotation",
            "vector_shift",
            "forall (k pos : R) (j : nat), (j < 8)%nat -> shift 8 k (pe 8 pos) j = pe 8 (k + pos) j",
        ),
        (
            "dot_product",
            "dot_concrete",
            "forall (k pos : R), sum_f_R0 (fun j => pe 8 pos j * pe 8 (k + pos) j) 7 = "
            "sum_f_R0 (fun i => cos (k * omega (INR i) (INR 8))) 3",
        ),
        (
            "group",
            "compose_concrete",
            "forall (j k : R) (v : nat -> R) (j1 : nat), (j1 < 8)%nat -> "
            "shift 8 j (shift 8 k v) j1 = shift 8 (j + k) v j1",
        ),
        (
            "layouts",
            "concatenated_shift_map",
            "forall (k : R) (v : nat -> R) (j : nat), (j < 8)%nat -> shift_concat 3 k v j = "
            "bmat_concat 4 (fun i => rot_mat (k * omega (INR i) (INR 8))) v j",
        ),
    ],
)
@pytest.mark.slow
def test_a_fact_is_the_statement_it_decides(texts, theorem: str, fact: str, expected: str) -> None:
    assert statement(texts[theorem], fact) == expected


@pytest.mark.slow
def test_the_nonzero_facts_rest_on_pi_being_irrational(texts) -> None:
    unique = texts["unique"]
    assert "apply cos_int_minus_1" in unique and "apply int_minus_pi_multiple" in unique


def test_a_fact_built_as_x_equals_x_has_no_theorem() -> None:
    # M_(−k) with cos(−kω_i) evaluated to cos(kω_i), against the transpose of M_k entry by entry:
    # both sides are the same blocks, so the fact says nothing and gets no theorem.
    same = Blockwise(
        "same_blocks",
        "M_(−k) = M_kᵀ, both built evaluated",
        BlockEquation(shift_blocks(-K, 4), shift_blocks(K, 4).transpose()),
    )
    (entry,) = [e for e in theorem_module(_toy(same)).entries if e.part == "same_blocks"]
    assert entry.reason.startswith("no proof found") and "tautology" in entry.reason


@pytest.mark.slow
def test_no_fact_of_a_shipped_theorem_is_x_equals_x() -> None:
    for name in registry.names():
        for entry in theorem_module(registry.build(name)).entries:
            assert "tautology" not in entry.reason, (name, entry.part, entry.reason)


def _toy(*parts) -> Theorem:
    return Theorem("toy", "t", "s", tuple(parts), twin="x.y")


def test_each_fact_kind_gets_a_theorem_or_no_proof_found() -> None:
    x = sp.Symbol("x", real=True)
    n = sp.Symbol("n", integer=True, nonzero=True)
    facts = (
        FreeOf("free", "f", sp.cos(K), (POS,)),
        NonZero("ratio", "n", 3 / L),
        # No script: π beside an integer symbol outside the forms the scripts know.
        NonZero("unknown", "u", sp.sin(n) + sp.pi),
        # A number's bound: cos x is enclosed in [−1, 1] whatever x is.
        NonZero("enclosed", "e", sp.cos(x) + 2),
        NonNegative("square", "s", (sp.sin(x) - 1) ** 2, (sp.sin(x) - 1) ** 2),
        # An even power in a denominator: L⁴ > 0 since L > 0.
        NonNegative("quartic", "q", (sp.sin(x) - 1) ** 2 / L**4, (sp.sin(x) - 1) ** 2 / L**4),
        LinearSystem(
            "system",
            "l",
            (sp.Symbol("a", real=True) - 2,),
            (sp.Symbol("a", real=True),),
            {sp.Symbol("a", real=True): sp.Integer(2)},
        ),
        NonZero("int", "i", sp.cos(n) - 1),
        ShiftMapFact("pair", "p", pe_pair(POS, sp.Symbol("w", positive=True)), POS, K, True),
    )
    entries = {e.part: e for e in theorem_module(_toy(*facts)).entries}
    assert entries["unknown"].reason.startswith("no proof found: no proof that sin(n) + pi")
    # Alone, "cos k does not contain pos" would be exists M, forall pos, cos k = M: true of
    # every expression without pos.
    assert entries["free"].reason.startswith("no proof found: the statement would say nothing")
    for name in ("ratio", "enclosed", "square", "quartic", "system", "int", "pair"):
        assert entries[name].lemma == name, entries[name]
    # A part named like a Helpers tactic gets the theorem's name in front.
    (entry,) = theorem_module(_toy(NonZero("nonzero", "n", 3 / L))).entries
    assert entry.lemma == "toy_nonzero"


def test_a_blockwise_fact_outside_the_vocabulary_is_no_proof_found() -> None:
    odd = Blockwise(
        "odd",
        "o",
        BlockEquation(Product((shift_blocks(K, 4), pe_blocks(POS, 4))), pe_blocks(POS + K, 4)),
    )
    (entry,) = theorem_module(_toy(odd)).entries
    # No lemma: block i's two sides must then be equal by algebra as they stand; they are not.
    assert entry.reason == "no proof found: the fact cites no lemma and a block's two sides differ"
    free = FreeOf("free", "f", shift_blocks(K, 4), (POS,))
    (entry,) = theorem_module(_toy(free)).entries
    assert entry.reason.startswith("no proof found: the statement would say nothing")


def test_a_free_of_fact_is_stated_through_the_chain_that_ends_in_it() -> None:
    # dot_sum: Σ_i PE_i(p)·PE_i(p + k) = Σ_i cos(kω_i); the fact is that this is free of p.
    module = theorem_module(registry.build("similarity"))
    stated = dict(module.statements)["dot_sum_free_of_p"]
    head, _, body = stated.partition("forall (p : R), ")
    assert "exists M : R" in head
    assert re.search(r"\(p \* omega", body), body
    assert body.endswith(" = M")
    (entry,) = [e for e in module.entries if e.part == "dot_sum_free_of_p"]
    assert entry.lemma == "dot_sum_free_of_p"
    assert "exact (dot_sum n k p)." in module.text()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")
def test_the_toy_facts_compile(tmp_path: Path) -> None:
    x = sp.Symbol("x", real=True)
    a = sp.Symbol("a", real=True)
    facts = (
        FreeOf("free", "f", sp.cos(K), (POS,)),
        NonZero("ratio", "n", 3 / L),
        NonNegative("square", "s", (sp.sin(x) - 1) ** 2, (sp.sin(x) - 1) ** 2),
        NonNegative("quartic", "q", (sp.sin(x) - 1) ** 2 / L**4, (sp.sin(x) - 1) ** 2 / L**4),
        LinearSystem("system", "l", (a - 2,), (a,), {a: sp.Integer(2)}),
        NonZero("int", "i", sp.cos(sp.Symbol("n", integer=True, nonzero=True)) - 1),
        ShiftMapFact("pair", "p", pe_pair(POS, sp.Symbol("w", positive=True)), POS, K, True),
        Blockwise(
            "identity",
            "o",
            BlockEquation(Product((identity_blocks(4), pe_blocks(POS, 4))), pe_blocks(POS, 4)),
        ),
    )
    for name in ("PiIrrational.v", "Headline.v", "Helpers.v"):
        shutil.copy(COQ_DIR / name, tmp_path)
    (tmp_path / "Toy.v").write_text(theorem_module(_toy(*facts)).text())
    for name in ("PiIrrational.v", "Headline.v", "Helpers.v", "Toy.v"):
        run = subprocess.run(
            ["coqc", "-q", "-R", ".", "PeProofs", name],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 0, run.stdout + run.stderr


def test_the_inverse_is_stated_with_the_inverse_map() -> None:
    # M_(−k) kept as written, so it prints as shift 8 (- k), not as M_kᵀ's blocks.
    stated = dict(theorem_module(registry.build("group")).statements)
    assert "shift 8 k (shift 8 (- k) v) j" in stated["inverse_concrete"]
    assert stated["inverse_concrete"] != stated["orthogonal_concrete"]
