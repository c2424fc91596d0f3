"""Chain links as Coq lemmas and parts as Coq theorems: each lemma states its step as written,
about omega, with the hypotheses it uses, proved by the cited rule; a part is composed from its
links; a wrong or unstateable step gets no lemma, and its part none, with the reason."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import sympy as sp

from proofs import registry
from proofs.engine.citation import Lemma, Termwise
from proofs.engine.coq.development import HANDWRITTEN, REPORT, build_development
from proofs.engine.coq.module import COQ_DIR, theorem_module
from proofs.engine.derivation import Derivation, Step
from proofs.engine.rules import (
    ALGEBRA,
    ANGLE_ADDITION,
    ANGLE_SUBTRACTION,
    CANCEL,
    COMMON_ANGLE,
    COMPLEX_FORM,
    COUNT_TERMS,
    EXPONENT_LAWS,
    EXPONENTIAL_FORM,
    HALF_PERIOD,
    INTEGER_PARTS,
    MATRIX_PRODUCT,
    PARITY,
    PERIOD,
    POWER_LAWS,
    PYTHAGOREAN,
    SIMPLIFY,
    TRANSPOSE,
)
from proofs.engine.theorem import Theorem
from tests.engine.coq_tools import FORBIDDEN, compiled, coqc, needs_coqc

x, y = sp.symbols("x y", real=True)
ANGLE_SUM = (sp.sin(x + y), sp.sin(x) * sp.cos(y) + sp.cos(x) * sp.sin(y))
WRONG_ANGLE_SUM = (sp.sin(x + y), sp.sin(x) * sp.cos(y) - sp.cos(x) * sp.sin(y))
# What a cited rule's Coq proof must contain, a pattern (ALGEBRA and CANCEL end every proof).
RULE_TEXT = {
    ANGLE_ADDITION.name: "rewrite sin_plus",
    ANGLE_SUBTRACTION.name: "rewrite sin_minus",
    COMMON_ANGLE.name: "rewrite sin_plus",
    HALF_PERIOD.name: "sin_half_period",
    PARITY.name: "sin_neg",
    PYTHAGOREAN.name: "rewrite !pyth",
    PERIOD.name: "sin_period_Z",
    EXPONENT_LAWS.name: "Rpower_plus",
    COUNT_TERMS.name: "sum_cte",
    MATRIX_PRODUCT.name: "mat_unfold",
    TRANSPOSE.name: "mat_unfold",
    COMPLEX_FORM.name: "complex_parts",
    POWER_LAWS.name: "Rpower_mult|Rpower_1_base|Rpower_at_0|Rpower_plus|Rpower_Ropp",
    EXPONENTIAL_FORM.name: "sinh_exp|cosh_exp|exp_plus|exp_Ropp|exp_at_0",
    INTEGER_PARTS.name: r"Rfloor_at|Rceil_at|Rmax_(left|right)|Rmin_(left|right)",
}


def toy(*parts) -> Theorem:
    return Theorem("toy", "t", "s", tuple(parts), twin="x.y")


def chain(name: str, *steps) -> Derivation:
    return Derivation(name, name, tuple(steps))


def lemma_text(module_text: str, name: str) -> str:
    """The text of the lemma or theorem called name, from its header to its Qed."""
    match = re.search(rf"^(Lemma|Theorem) {name} :.*?^Qed\.", module_text, re.M | re.S)
    assert match, name
    return match[0]


@pytest.fixture(scope="module")
def development():
    """The development of every registered theorem at d_model = 8."""
    return build_development([registry.build(n) for n in registry.names()])


@pytest.mark.slow
def test_a_matrix_product_link_shows_the_product_and_its_result(development) -> None:
    rotation = next(m for m in development.modules if m.theorem.name == "rotation")
    text = lemma_text(rotation.text(), "rotation_pair_shift_link1")
    left, right = text.split(".\nProof.")[0].split(" = ")
    assert "mmul 2 (rot_mat (k * omega i d_model)) (col [sin (pos * omega i d_model)" in left
    assert right.startswith("col [cos (k * omega i d_model) * sin (pos * omega i d_model)")


@pytest.mark.slow
def test_the_parity_link_is_cos_of_minus_x(development) -> None:
    dot = next(m for m in development.modules if m.theorem.name == "dot_product")
    text = lemma_text(dot.text(), "dot_product_pair_dot_even_link2")
    assert "rows [[cos (- (k * omega i d_model))]] = rows [[cos (k * omega i d_model)]]." in text
    assert "rewrite ?sin_neg, ?cos_neg" in text


@pytest.mark.slow
def test_every_link_is_proved_by_its_cited_rule_or_lemma(development) -> None:
    checked = 0
    for module in development.modules:
        text = module.text()
        for entry, step in _linked_steps(module):
            if not entry.lemma:
                continue
            proof = lemma_text(text, entry.lemma).split("Proof.", 1)[1]
            citation = step.by
            if isinstance(citation, Termwise):
                assert "apply sum_eq." in proof, entry
                citation = citation.inner
            if isinstance(citation, Lemma):
                cited = citation.derivation.name
                assert re.search(rf"\b{module.theorem.name}_{cited}_link\d|\b{cited}\b", proof)
            else:
                rules = citation if isinstance(citation, tuple) else (citation,)
                for rule in rules:
                    if rule not in (ALGEBRA, CANCEL):
                        assert re.search(RULE_TEXT[rule.name], proof), (entry, rule.name)
            checked += 1
    linked = [e for m in development.modules for e in m.entries if e.kind == "link"]
    assert checked == sum(1 for e in linked if e.lemma) and checked > len(linked) / 2


def _linked_steps(module):
    parts = {p.name: p for p in module.theorem.parts}
    for entry in module.entries:
        if entry.kind == "link":
            yield entry, parts[entry.part].steps[entry.link]


@pytest.mark.slow
def test_links_are_about_omega_with_only_the_hypotheses_they_use(development) -> None:
    modules = {m.theorem.name: m.text() for m in development.modules}
    pair = lemma_text(modules["rotation"], "rotation_pair_shift_link2")
    assert "omega i d_model" in pair and "->" not in pair.split("Proof.")[0]
    assert "w0" not in modules["rotation"] and "0 < omega" not in modules["rotation"]
    ratio = lemma_text(modules["frequencies"], "frequencies_omega_ratio_link1")
    assert "d_model <> 0 -> omega (1 + i) d_model / omega i d_model" in ratio
    summed = lemma_text(modules["dot_product"], "dot_product_dot_sum_link1")
    assert "forall (n : nat) (k pos : R)," in summed
    assert "omega (INR i) (INR (2 * S n))" in summed


@pytest.mark.slow
def test_each_part_is_one_theorem_composed_from_its_links(development) -> None:
    rotation = next(m for m in development.modules if m.theorem.name == "rotation")
    text = lemma_text(rotation.text(), "pair_shift")
    assert text.startswith("Theorem pair_shift :")
    assert "exact (eq_trans (rotation_pair_shift_link1 d_model i k pos) (eq_trans" in text
    assert "Section pair_shift." in rotation.text() and "End pair_shift." in rotation.text()
    for module in development.modules:
        for part in module.theorem.parts:
            own = [e for e in module.entries if e.part == part.name and e.kind != "link"]
            assert len(own) == 1, part.name
            (entry,) = own
            assert bool(entry.lemma) != entry.reason.startswith("no proof found"), entry
            if entry.lemma:
                assert f"Section {entry.lemma}." in module.text()


def test_a_wrong_link_gets_no_lemma_and_its_part_no_theorem() -> None:
    wrong = chain(
        "wrong_sum", Step(WRONG_ANGLE_SUM[0]), Step(WRONG_ANGLE_SUM[1], by=ANGLE_ADDITION)
    )
    right = chain("right_sum", Step(ANGLE_SUM[0]), Step(ANGLE_SUM[1], by=ANGLE_ADDITION))
    module = theorem_module(toy(right, wrong))
    entries = {(e.part, e.kind): e for e in module.entries}
    assert entries["right_sum", "link"].lemma == "toy_right_sum_link1"
    assert entries["right_sum", "part"].lemma == "right_sum"
    assert entries["wrong_sum", "link"].reason.startswith("no proof found: lhs − rhs is not 0")
    assert entries["wrong_sum", "part"].reason == (
        "no proof found: link 1 of the chain has no lemma, so the chain is not composed"
    )
    assert "toy_wrong_sum_link1" not in module.text()


def test_a_wrong_citation_is_no_proof_even_for_a_true_step() -> None:
    # True, but parity alone does not prove an angle sum: the script follows the citation.
    cited_wrongly = chain("sum", Step(ANGLE_SUM[0]), Step(ANGLE_SUM[1], by=PARITY))
    (link, _) = theorem_module(toy(cited_wrongly)).entries
    assert link.reason.startswith("no proof found: lhs − rhs is not 0 by algebra after parity")


@pytest.mark.parametrize(
    ("step", "reason"),
    [
        (Step(sp.sin(x) ** 2, by=SIMPLIFY), "the cited rule simplify has no Coq tactic"),
        (Step(sp.tan(x) * 1, by=ALGEBRA), "tan has no Coq counterpart"),
        (Step(sp.Float(0.5) * x, by=ALGEBRA), "not an exact rational"),
    ],
)
def test_what_cannot_be_stated_or_proved_is_no_proof_found_with_the_reason(
    step: Step, reason: str
) -> None:
    module = theorem_module(toy(chain("c", Step(sp.Integer(1) - sp.cos(x) ** 2), step)))
    link = module.entries[0]
    assert link.reason.startswith("no proof found") and reason in link.reason


I = sp.Symbol("i", integer=True, nonnegative=True)
N = sp.Symbol("n", integer=True, positive=True)


@pytest.mark.parametrize(
    ("steps", "reason"),
    [
        (
            (
                Step(sp.MatMul(sp.MatrixSymbol("M", 2, 2), sp.ImmutableMatrix([x, y]))),
                Step(sp.ImmutableMatrix([x, y]), by=MATRIX_PRODUCT),
            ),
            "MatrixSymbol is not printed",
        ),
        (
            (Step(sp.Piecewise((x, x > 0), (0, True))), Step(sp.Max(x, 0), by=ALGEBRA)),
            "Piecewise has no Coq counterpart",
        ),
        (
            (Step(sp.Sum(sp.sin(x * I), (I, 1, N))), Step(sp.Sum(sp.sin(x * I), (I, 1, N)))),
            "not at d/2 − 1 for an even d > 0",
        ),
        (
            (Step(sp.exp(x + y)), Step(sp.exp(x) * sp.exp(y), by=EXPONENT_LAWS)),
            "not 0 by algebra after exponent laws",
        ),
    ],
    ids=["matrix symbol", "piecewise", "other sum", "exponent laws off their domain"],
)
def test_any_theorem_gets_a_module_and_what_it_cannot_prove_is_listed(steps, reason) -> None:
    module = theorem_module(toy(chain("c", *steps)))
    link, part = module.entries
    assert link.reason.startswith("no proof found") and reason in link.reason
    assert part.reason.startswith("no proof found")


def test_a_step_that_is_x_equals_x_as_printed_gets_no_lemma() -> None:
    same = chain("same", Step(sp.sin(x)), Step(sp.sin(x, evaluate=False), by=ALGEBRA))
    (link, part) = theorem_module(toy(same)).entries
    assert "the same Coq term: a tautology" in link.reason and not part.lemma


@pytest.mark.slow
def test_every_link_and_part_is_a_lemma_or_listed_with_its_reason(development) -> None:
    report = development.files()[REPORT]
    for module in development.modules:
        chains = [p for p in module.theorem.parts if isinstance(p, Derivation)]
        links = [e for e in module.entries if e.kind == "link"]
        assert len(links) == sum(len(p.steps) - 1 for p in chains)
        for entry in module.entries:
            assert bool(entry.lemma) != bool(entry.reason), entry
            if not entry.lemma:
                assert f"- {entry.where}, {entry.title}: {entry.reason}" in report
    assert "not expressible" not in report.lower()


@pytest.mark.slow
def test_the_helpers_are_shared_and_nothing_is_assumed(development) -> None:
    files = development.files()
    assert files["_CoqProject"].splitlines()[0] == "-R . PeProofs"
    assert set(files["_CoqProject"].splitlines()[1:]) == {n for n in files if n.endswith(".v")}
    for name, text in files.items():
        if not name.endswith(".v"):
            continue
        code = re.sub(r"\(\*.*?\*\)", "", text, flags=re.DOTALL)
        assert FORBIDDEN.findall(code) == [], name
        if name not in HANDWRITTEN:
            assert "Lemma pyth" not in code and "Require Import PeProofs.Headline" in code
    assert (COQ_DIR / "Helpers.v").read_text().count("Lemma pyth :") == 1


@pytest.fixture(scope="module")
def foundation(tmp_path_factory) -> Path:
    """A folder with PiIrrational.v, Headline.v and Helpers.v compiled."""
    return compiled(tmp_path_factory.mktemp("coq"), ("PiIrrational.v", "Headline.v", "Helpers.v"))


@needs_coqc
@pytest.mark.slow
def test_coqc_accepts_a_module_and_rejects_a_wrong_statement_with_the_same_proof(
    foundation: Path, tmp_path: Path
) -> None:
    for name in ("PiIrrational.vo", "Headline.vo", "Helpers.vo"):
        shutil.copy(foundation / name, tmp_path)
    text = theorem_module(registry.build("rotation")).text()
    (tmp_path / "Rotation.v").write_text(text)
    accepted = coqc(tmp_path, "Rotation.v")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    right = "cos (k * omega i d_model) * cos (pos * omega i d_model) - sin"
    wrong = "cos (k * omega i d_model) * cos (pos * omega i d_model) + sin"
    statement, rest = text.split("Proof.", 1)
    assert right in rest.split("Lemma rotation_pair_shift_link2 :")[1].split("Proof.")[0]
    start = text.index("Lemma rotation_pair_shift_link2 :")
    end = text.index("Proof.", start)
    broken = text[:start] + text[start:end].replace(right, wrong) + text[end:]
    (tmp_path / "Rotation.v").write_text(broken)
    rejected = coqc(tmp_path, "Rotation.v")
    assert rejected.returncode != 0
    assert "Error" in rejected.stderr and "Syntax error" not in rejected.stderr, rejected.stderr
    del statement
