"""Chain links as Coq lemmas: SymPy finds the script, a wrong claim gets no lemma or is rejected."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import sympy as sp

from proofs import registry
from proofs.engine.coq.development import REPORT, build_development
from proofs.engine.coq.links import link_lemma, theorem_module
from proofs.engine.coq.printer import coq_term
from proofs.engine.coq.script import PYTH_LEMMA, NoProofError
from proofs.engine.derivation import Derivation, Step
from proofs.engine.theorem import Theorem

needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")

x, y = sp.symbols("x y", real=True)
L = sp.Symbol("L", positive=True)
D = sp.Symbol("d_model", positive=True, integer=True, even=True)
I = sp.Symbol("i", integer=True, nonnegative=True)
OMEGA = sp.Symbol("omega_i", positive=True)

ANGLE_SUM = (sp.sin(x + y), sp.sin(x) * sp.cos(y) + sp.cos(x) * sp.sin(y))
WRONG_ANGLE_SUM = (sp.sin(x + y), sp.sin(x) * sp.cos(y) - sp.cos(x) * sp.sin(y))
FORBIDDEN = re.compile(r"\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Conjecture)\b")
HEADER = "Require Import Reals Lra.\nOpen Scope R_scope.\n\n" + PYTH_LEMMA + "\n\n"


def coqc(folder: Path, text: str) -> subprocess.CompletedProcess:
    (folder / "Claim.v").write_text(HEADER + text)
    return subprocess.run(
        ["coqc", "-q", "Claim.v"], cwd=folder, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(
    "claim",
    [
        WRONG_ANGLE_SUM,
        (sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(2)),
        (x / L + y / L, (x - y) / L),
        (sp.cos(x - y), sp.cos(x) * sp.cos(y) - sp.sin(x) * sp.sin(y)),
    ],
    ids=["angle sum sign", "pythagoras off by one", "sign in a quotient", "cos difference"],
)
def test_a_wrong_link_gets_no_lemma(claim: tuple[sp.Expr, sp.Expr]) -> None:
    with pytest.raises(NoProofError):
        link_lemma("wrong", *claim)


def test_the_script_uses_the_rule_the_link_needs() -> None:
    angle, _ = link_lemma("angle", *ANGLE_SUM)
    assert "rewrite sin_plus" in angle and "pyth" not in angle.split("Proof.")[1]
    pythagoras, _ = link_lemma("pythagoras", sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1))
    assert "rewrite !pyth" in pythagoras
    quotient, _ = link_lemma("quotient", x / L + y / L, (x + y) / L)
    assert "forall L x y : R,\n    0 < L -> " in quotient and "field" in quotient


def test_a_bound_is_a_square_and_a_wrong_bound_gets_no_lemma() -> None:
    half = (sp.sin(x / 2) - sp.cos(x / 2)) ** 2
    text, _ = link_lemma("bound", 1 - sp.sin(x), half, nonnegative=True)
    assert "0 <= 1 - sin x." in text and "apply pow2_ge_0" in text
    with pytest.raises(NoProofError, match="does not reduce"):
        link_lemma("wrong", 1 - sp.cos(x), half, nonnegative=True)
    with pytest.raises(NoProofError, match="not built from squares"):
        link_lemma("unsquared", 1 - sp.sin(x), 1 - sp.sin(x), nonnegative=True)


def test_a_frequency_becomes_an_abstract_positive_real_and_the_lemma_says_so() -> None:
    w = sp.Integer(10000) ** (-2 * I / D)
    text, substitutions = link_lemma(
        "pair", sp.sin((x + y) * w), sp.sin(x * w + y * w), display=((w, OMEGA),)
    )
    assert "forall omega_i x y : R,\n    0 < omega_i ->" in text
    assert substitutions and "omega_i stands for 10000**(-2*i/d_model)" in substitutions[0]
    assert "Substitution: omega_i stands for" in text and "Rpower" not in text


def test_a_sum_over_the_pairs_is_stated_for_every_even_d_model() -> None:
    w = sp.Integer(10000) ** (-2 * I / D)
    pairs = (I, 0, D / 2 - 1)
    square = sp.sin(x * w) ** 2 + sp.cos(x * w) ** 2
    text, substitutions = link_lemma("norm", sp.Sum(square, pairs), sp.Sum(1, pairs))
    assert "forall (n : nat) (w : nat -> R) (x : R)," in text and "apply sum_eq." in text
    assert "sum_f_R0 (fun i => 1) n" in text and "d_model = 2(n + 1)" in substitutions[0]
    count, _ = link_lemma("count", sp.Sum(1, pairs), D / 2)
    assert "sum_f_R0 (fun i => 1) n = 1 + INR n." in count and "sum_cte" in count
    with pytest.raises(NoProofError):
        link_lemma("wrong", sp.Sum(sp.sin(x * w) ** 2, pairs), sp.Sum(1, pairs))
    with pytest.raises(NoProofError):
        link_lemma("wrong count", sp.Sum(1, pairs), D)


def test_a_link_that_needs_the_frequency_keeps_it_exact() -> None:
    # 10000^(-2·0/d_model) = 1 is false for an abstract frequency: the exact power is kept.
    power = sp.Pow(10000, sp.Mul(-2, 0, 1 / D, evaluate=False), evaluate=False)
    text, substitutions = link_lemma("first", power, sp.Integer(1))
    assert substitutions == () and "Rpower_O" in text


@needs_coqc
def test_coqc_accepts_a_bound_and_rejects_a_wrong_one_with_the_same_proof(
    tmp_path: Path,
) -> None:
    text, _ = link_lemma("bound", 1 + sp.cos(x), 2 * sp.cos(x / 2) ** 2, nonnegative=True)
    assert coqc(tmp_path, text).returncode == 0
    statement, proof = text.split("Proof.")
    wrong = statement.replace("0 <= 1 + cos x.", "0 <= - 1 - cos x.")
    assert wrong != statement
    assert coqc(tmp_path, wrong + "Proof." + proof).returncode != 0


@needs_coqc
def test_coqc_accepts_the_lemma_and_rejects_a_wrong_statement_with_the_same_proof(
    tmp_path: Path,
) -> None:
    text, _ = link_lemma("claim", *ANGLE_SUM)
    accepted = coqc(tmp_path, text)
    assert accepted.returncode == 0, accepted.stderr
    statement, proof = text.split("Proof.")
    right, wrong = coq_term(ANGLE_SUM[1]), coq_term(WRONG_ANGLE_SUM[1])
    assert statement.count(right) == 1
    rejected = coqc(tmp_path, statement.replace(right, wrong) + "Proof." + proof)
    assert rejected.returncode != 0
    assert "Error" in rejected.stderr and "Syntax error" not in rejected.stderr, rejected.stderr


def test_a_wrong_link_in_a_theorem_is_listed_with_its_reason_not_dropped() -> None:
    wrong = Derivation("wrong_sum", "wrong", (Step(WRONG_ANGLE_SUM[0]), Step(WRONG_ANGLE_SUM[1])))
    right = Derivation("right_sum", "right", (Step(ANGLE_SUM[0]), Step(ANGLE_SUM[1])))
    module = theorem_module(Theorem("made_up", "t", "s", (right, wrong), twin="x.y"))
    first, second = module.links
    assert first.lemma == "made_up_right_sum_link1" and not first.reason
    assert second.lemma == "" and second.reason.startswith("no proof script found")
    assert "made_up_wrong_sum_link1" not in module.text()
    assert f"Not generated: part 2, link 1, wrong: {second.reason}" in module.text()


@pytest.fixture(scope="module")
def development():
    """The development of a few theorems at d_model = 4 (the full one is built in tests/cli)."""
    return build_development([registry.build(n, d_model=4) for n in ("rotation", "ramp", "unique")])


def test_every_link_is_a_lemma_or_listed_with_a_reason(development) -> None:
    report = development.files()[REPORT]
    for module in development.modules:
        chains = [p for p in module.theorem.parts if isinstance(p, Derivation)]
        links = [link for link in module.links if link.link]
        assert len(links) == sum(len(p.steps) - 1 for p in chains)
        for link in module.links:
            assert bool(link.lemma) != bool(link.reason), link
            if link.lemma:
                assert f"Lemma {link.lemma} :" in module.text()
            else:
                assert f"- {link.where}, {link.title}: {link.reason}" in report


def test_the_pair_links_are_generated_and_concrete_matrices_are_listed(development) -> None:
    rotation = next(m for m in development.modules if m.theorem.name == "rotation")
    marks = {(link.part, link.link): link for link in rotation.links}
    assert all(marks[1, j].lemma for j in (1, 2, 3))
    unique = next(m for m in development.modules if m.theorem.name == "unique")
    concrete = [link for link in unique.links if "concrete" in (link.reason or "")]
    assert concrete and all(not link.lemma for link in concrete)


def test_no_generated_file_assumes_or_skips_anything(development) -> None:
    files = development.files()
    assert files["_CoqProject"].splitlines()[0] == "-R . PeProofs"
    assert set(files["_CoqProject"].splitlines()[1:]) == {n for n in files if n.endswith(".v")}
    for name, text in files.items():
        if name.endswith(".v"):
            # Comments quote the chains' prose ("the ramp does admit an affine map").
            code = re.sub(r"\(\*.*?\*\)", "", text, flags=re.DOTALL)
            assert FORBIDDEN.findall(code) == [], name
