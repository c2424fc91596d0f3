"""The theorems pinned by issue 33, checked against the compiled Headline.v.

Each statement below is copied verbatim from the issue. Against Headline.v as coqc builds it, each
must type-check as the theorem of its name (so it is proved about Headline's own definitions),
rest on nothing but the standard library's real-number axioms (Flocq, used by the two
floating-point theorems, adds none), and a wrong variant of it must be rejected. Tests needing
coqc skip, with that reason, where it is missing; one wrong variant is checked by default, the
others (one coqc run each) are marked slow.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.engine.coq_tools import REAL_AXIOMS, coqc, needs_coqc, squash

COQ_DIR = Path(__file__).resolve().parents[2] / "proofs" / "engine" / "coq"
HEADLINE = COQ_DIR / "Headline.v"
PI_IRRATIONAL = COQ_DIR / "PiIrrational.v"


# The two definitions the issue adds to Headline.v, verbatim.
ROPE_DEFINITIONS = """\
Definition rope (theta : nat -> R) (m : R) (v : nat -> R) (j : nat) : R :=
  let t := m * theta (Nat.div2 j) in
  if Nat.even j then cos t * v j - sin t * v (S j)
  else sin t * v (pred j) + cos t * v j.
"""
ROPE_HALF_DEFINITION = """\
Definition rope_half (h : nat) (theta : nat -> R) (m : R) (v : nat -> R) (j : nat) : R :=
  if Nat.ltb j h then cos (m * theta j) * v j - sin (m * theta j) * v (h + j)%nat
  else sin (m * theta (j - h)%nat) * v (j - h)%nat + cos (m * theta (j - h)%nat) * v j.
"""

# Theorem name -> its statement, verbatim from the issue.
PINNED = {
    "shift_block_diagonal": """\
  forall (n : nat) (k : R), exists M : nat -> nat -> R,
  (forall j l : nat, Nat.div2 j <> Nat.div2 l -> M j l = 0) /\\
  (forall i : nat, (i <= n)%nat ->
     M (2 * i)%nat (2 * i)%nat = cos (k * omega (INR i) (INR (2 * S n))) /\\
     M (2 * i)%nat (S (2 * i)) = sin (k * omega (INR i) (INR (2 * S n))) /\\
     M (S (2 * i)) (2 * i)%nat = - sin (k * omega (INR i) (INR (2 * S n))) /\\
     M (S (2 * i)) (S (2 * i)) = cos (k * omega (INR i) (INR (2 * S n)))) /\\
  (forall (v : nat -> R) (j : nat), (j < 2 * S n)%nat ->
     sum_f_R0 (fun l => M j l * v l) (Nat.pred (2 * S n)) = shift (2 * S n) k v j) /\\
  (forall (pos : R) (j : nat), (j < 2 * S n)%nat ->
     sum_f_R0 (fun l => M j l * pe (2 * S n) pos l) (Nat.pred (2 * S n)) = pe (2 * S n) (pos + k) j)""",
    "linear_feature_no_linear_shift": """\
  forall (n : nat) (c : nat -> R) (k : R), k <> 0 -> (exists j, (j <= n)%nat /\\ c j <> 0) ->
  ~ (exists M : nat -> nat -> R, forall (pos : R) (j : nat), (j <= n)%nat ->
       sum_f_R0 (fun l => M j l * (pos * c l)) n = (pos + k) * c j)""",
    "rope_relative_any_freq": """\
  forall (theta : nat -> R) (n : nat) (p m : R) (q u : nat -> R),
  sum_f_R0 (fun j => rope theta p q j * rope theta m u j) (Nat.pred (2 * S n)) =
  sum_f_R0 (fun j => q j * rope theta (m - p) u j) (Nat.pred (2 * S n))""",
    "rope_layout_conversion": """\
  forall (theta : nat -> R) (n : nat) (m : R) (x : nat -> R) (j : nat), (j < 2 * S n)%nat ->
  rope_half (S n) theta m (fun i => x (concat_index (S n) i)) j = rope theta m x (concat_index (S n) j)""",
    "rope_compose_any_freq": """\
  forall (theta : nat -> R) (a b : R) (v : nat -> R) (j : nat),
  rope theta a (rope theta b v) j = rope theta (a + b) v j""",
    "rope_decay_bound": """\
  forall (h s : nat -> R) (n : nat) (M : R), s 0%nat = 0 -> h (S n) = 0 ->
  (forall i : nat, (i <= n)%nat -> Rabs (h (S i) - h i) <= M) ->
  Rabs (sum_f_R0 (fun i => h i * (s (S i) - s i)) n) <= M * sum_f_R0 (fun i => Rabs (s (S i))) n""",
    "fp_integers_exact": """\
  forall (emin prec n : Z), (0 < prec)%Z -> (emin <= 0)%Z -> (Z.abs n < Z.pow 2 prec)%Z ->
  round radix2 (FLT_exp emin prec) ZnearestE (IZR n) = IZR n""",
    "bf16_257": """\
  round radix2 (FLT_exp (-133) 8) ZnearestE 257 = 256""",
}

# Name -> (a piece of its pinned statement, what replaces it): each variant is false.
WRONG_VARIANTS = {
    # The lower-left entry of G(k w) is -sin.
    "shift_block_diagonal": (
        "M (S (2 * i)) (2 * i)%nat = - sin",
        "M (S (2 * i)) (2 * i)%nat = sin",
    ),
    # Unshifted, the identity map does it, so "no map" is false.
    "linear_feature_no_linear_shift": ("= (pos + k) * c j", "= pos * c j"),
    "rope_relative_any_freq": ("rope theta (m - p) u j", "rope theta (p - m) u j"),
    "rope_layout_conversion": (
        "= rope theta m x (concat_index (S n) j)",
        "= rope theta (- m) x (concat_index (S n) j)",
    ),
    "rope_compose_any_freq": ("rope theta (a + b) v j", "rope theta (a - b) v j"),
    # Without h(n+1) = 0 the boundary term h(n+1) s(n+1) is unbounded.
    "rope_decay_bound": ("h (S n) = 0 ->", ""),
    # 2^prec + 1 is not representable.
    "fp_integers_exact": ("(Z.abs n < Z.pow 2 prec)%Z", "(Z.abs n <= Z.pow 2 prec + 1)%Z"),
    # 257 needs 9 bits; bf16 has 8.
    "bf16_257": ("= 256", "= 257"),
}

# Loaded before Headline, so Headline's shift (not Zpower.shift) is the one the statements name.
PRELUDE = (
    "Require Import Reals.\nFrom Flocq Require Import Core.\n"
    "Require Import PeProofs.Headline.\nOpen Scope R_scope.\n"
)


def checked_as(name: str, statement: str) -> str:
    """Coq text that compiles exactly when the theorem name proves statement."""
    return f"Definition stated_{name} : Prop :=\n{statement}.\n" + (
        f"Lemma pinned_{name} : stated_{name}.\nProof. exact {name}. Qed.\n"
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A folder holding PiIrrational.v and Headline.v (which requires it) compiled by coqc."""
    folder = tmp_path_factory.mktemp("coq")
    for path in (PI_IRRATIONAL, HEADLINE):
        shutil.copy(path, folder)
        run = coqc(folder, path.name)
        assert run.returncode == 0, run.stdout + run.stderr
    return folder


def test_headline_has_the_rope_definitions_verbatim() -> None:
    text = HEADLINE.read_text()
    assert ROPE_DEFINITIONS in text
    assert ROPE_HALF_DEFINITION in text


def test_headline_states_each_pinned_theorem_as_pinned() -> None:
    text = squash(HEADLINE.read_text())
    for name, statement in PINNED.items():
        assert f"Theorem {name} : {squash(statement)}. Proof." in text, name


def test_each_wrong_variant_changes_its_statement() -> None:
    for name, (right, wrong) in WRONG_VARIANTS.items():
        assert PINNED[name].count(right) == 1, name
        assert squash(PINNED[name].replace(right, wrong)) != squash(PINNED[name]), name


@needs_coqc
def test_each_pinned_statement_is_proved_on_the_real_number_axioms_only(built: Path) -> None:
    query = built / "Pinned.v"
    query.write_text(
        PRELUDE
        + "".join(checked_as(name, statement) for name, statement in PINNED.items())
        + "".join(f"Print Assumptions {name}.\n" for name in PINNED)
    )
    run = coqc(built, query.name)
    assert run.returncode == 0, run.stdout + run.stderr
    sections: list[set[str]] = []
    for line in run.stdout.splitlines():
        if line in ("Axioms:", "Closed under the global context"):
            sections.append(set())
        elif line and not line[0].isspace():
            # An axiom's entry starts at column 0 with its name; its type is indented below.
            assert sections, run.stdout
            sections[-1].add(line.split()[0])
    assert len(sections) == len(PINNED), run.stdout
    for name, axioms in zip(PINNED, sections, strict=True):
        # Every pinned theorem is about the reals, so an empty list would mean the parsing failed.
        assert axioms and axioms <= REAL_AXIOMS, (name, axioms - REAL_AXIOMS)


def wrong_variant_rejected(name: str, built: Path) -> None:
    """Assert that coqc rejects the theorem name as a proof of its wrong variant, well-formed."""
    right, wrong = WRONG_VARIANTS[name]
    query = built / f"Wrong_{name}.v"
    query.write_text(PRELUDE + checked_as(name, PINNED[name].replace(right, wrong)))
    run = coqc(built, query.name)
    assert run.returncode != 0, f"{name}: the wrong variant was accepted"
    output = run.stdout + run.stderr
    # The variant itself elaborates; it is the proof that fails, at the Lemma, by a type mismatch.
    lemma_line = query.read_text().splitlines().index(f"Lemma pinned_{name} : stated_{name}.") + 2
    assert re.search(rf'File "\./Wrong_{name}\.v", line {lemma_line},', output), output
    assert "expected to have type" in output or "Unable to unify" in output, output


@needs_coqc
def test_a_wrong_variant_of_bf16_257_is_rejected(built: Path) -> None:
    wrong_variant_rejected("bf16_257", built)


@pytest.mark.slow
@needs_coqc
@pytest.mark.parametrize("name", [name for name in WRONG_VARIANTS if name != "bf16_257"])
def test_a_wrong_variant_is_rejected(name: str, built: Path) -> None:
    wrong_variant_rejected(name, built)
