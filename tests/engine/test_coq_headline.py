"""The hand-written Coq headline development: coqc accepts it, its statements are the agreed ones.

Headline.v and PiIrrational.v (Niven's proof that PI is irrational, which Headline.v requires)
need only Coq's standard library; UniqueBounded.v also needs the Interval library (Debian package
libcoq-interval) and takes longer, so its checks are marked slow. Tests needing coqc skip, with
that reason, where it is missing.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.engine.coq_tools import FORBIDDEN, REAL_AXIOMS, coqc, needs_coqc, squash

COQ_DIR = Path(__file__).resolve().parents[2] / "proofs" / "engine" / "coq"
HEADLINE = COQ_DIR / "Headline.v"
PI_IRRATIONAL = COQ_DIR / "PiIrrational.v"
UNIQUE_BOUNDED = COQ_DIR / "UniqueBounded.v"


DEFINITIONS = """\
Require Import Reals.
Open Scope R_scope.

Definition omega (i d : R) : R := Rpower 10000 (- (2 * i) / d).

Definition pe (d : nat) (pos : R) (j : nat) : R :=
  if Nat.even j then sin (pos * omega (INR (Nat.div2 j)) (INR d))
  else cos (pos * omega (INR (Nat.div2 j)) (INR d)).

Definition shift (d : nat) (k : R) (v : nat -> R) (j : nat) : R :=
  let w := omega (INR (Nat.div2 j)) (INR d) in
  if Nat.even j then cos (k * w) * v j + sin (k * w) * v (S j)
  else - sin (k * w) * v (pred j) + cos (k * w) * v j.

Definition rot (t : R) (v : R * R) : R * R :=
  (cos t * fst v + sin t * snd v, - sin t * fst v + cos t * snd v).
"""

# Theorem name -> its statement, exactly as agreed (compared with whitespace collapsed).
HEADLINE_THEOREMS = {
    "rotation_pair": "forall pos k w : R, cos (k * w) * sin (pos * w) + sin (k * w) * cos (pos * w) = sin ((pos + k) * w) /\\ - sin (k * w) * sin (pos * w) + cos (k * w) * cos (pos * w) = cos ((pos + k) * w)",
    "rotation_vector": "forall (d : nat) (pos k : R) (j : nat), shift d k (pe d pos) j = pe d (pos + k) j",
    "ramp_no_linear_shift": "forall L k : R, 0 < L -> k <> 0 -> ~ (exists a : R, forall pos : R, a * (pos / L) = (pos + k) / L)",
    "ramp_affine_shift": "forall L k : R, 0 < L -> exists b : R, forall pos : R, pos / L + b = (pos + k) / L",
    "pe_bounded": "forall d pos j, -1 <= pe d pos j <= 1",
    "pe_norm": "forall (n : nat) (pos : R), sum_f_R0 (fun j => (pe (2 * S n) pos j) ^ 2) (pred (2 * S n)) = INR (S n)",
    "pe_dot": "forall (n : nat) (pos k : R), sum_f_R0 (fun j => pe (2 * S n) pos j * pe (2 * S n) (pos + k) j) (pred (2 * S n)) = sum_f_R0 (fun i => cos (k * omega (INR i) (INR (2 * S n)))) n",
    "pe_dot_even": "forall (n : nat) (pos k : R), sum_f_R0 (fun j => pe (2 * S n) pos j * pe (2 * S n) (pos + k) j) (pred (2 * S n)) = sum_f_R0 (fun j => pe (2 * S n) pos j * pe (2 * S n) (pos - k) j) (pred (2 * S n))",
    "pe_unique": "(forall n m : Z, m <> 0%Z -> IZR n <> IZR m * PI) -> forall (d : nat) (p q : Z), p <> q -> pe d (IZR p) 0 <> pe d (IZR q) 0 \\/ pe d (IZR p) 1 <> pe d (IZR q) 1",
    "rotation_compose": "forall a b v, rot a (rot b v) = rot (a + b) v",
    "rotation_inverse": "forall a v, rot (- a) (rot a v) = v",
    "rotation_preserves_dot": "forall t u v, fst (rot t u) * fst (rot t v) + snd (rot t u) * snd (rot t v) = fst u * fst v + snd u * snd v",
    "rotation_preserves_norm": "forall t v, fst (rot t v) ^ 2 + snd (rot t v) ^ 2 = fst v ^ 2 + snd v ^ 2",
    "rope_relative": "forall (p m t : R) (q kk : R * R), fst (rot (p * t) q) * fst (rot (m * t) kk) + snd (rot (p * t) q) * snd (rot (m * t) kk) = fst q * fst (rot ((m - p) * t) kk) + snd q * snd (rot ((m - p) * t) kk)",
    # Issue 23: every theorem in general, and uniqueness without a hypothesis about PI.
    "pi_irrational": "forall n m : Z, m <> 0%Z -> IZR n <> IZR m * PI",
    "pe_unique_int": "forall (d : nat) (p q : Z), p <> q -> pe d (IZR p) 0 <> pe d (IZR q) 0 \\/ pe d (IZR p) 1 <> pe d (IZR q) 1",
    "omega_succ": "forall i d, d <> 0 -> omega (i + 1) d = Rpower 10000 (- 2 / d) * omega i d",
    "omega_decreasing": "forall i d, 0 < d -> omega (i + 1) d < omega i d",
    "pe_period": "forall d pos j, pe d (pos + 2 * PI / omega (INR (Nat.div2 j)) (INR d)) j = pe d pos j",
    "raw_index_no_linear_shift": "forall k, k <> 0 -> ~ (exists a, forall pos, a * pos = pos + k)",
    "lone_sine_no_linear_shift": "forall k, sin k <> 0 -> ~ (exists a, forall pos, a * sin pos = sin (pos + k))",
    "ramp_similarity_depends_on_p": "forall L k, 0 < L -> ~ (exists c, forall p, (p / L) * ((p + k) / L) = c)",
    "shift_compose": "forall d j k v i, shift d j (shift d k v) i = shift d (j + k) v i",
    "shift_inverse": "forall d k v i, shift d (- k) (shift d k v) i = v i",
    "shift_orthogonal": "forall n k u v, sum_f_R0 (fun j => shift (2 * S n) k u j * shift (2 * S n) k v j) (pred (2 * S n)) = sum_f_R0 (fun j => u j * v j) (pred (2 * S n))",
    "rope_vector": "forall n p m q u, sum_f_R0 (fun j => shift (2 * S n) p q j * shift (2 * S n) m u j) (pred (2 * S n)) = sum_f_R0 (fun j => q j * shift (2 * S n) (m - p) u j) (pred (2 * S n))",
    "concat_perm": "forall h j : nat, (j < 2 * h)%nat -> (concat_index h j < 2 * h)%nat /\\ (to_concat h j < 2 * h)%nat /\\ to_concat h (concat_index h j) = j /\\ concat_index h (to_concat h j) = j",
    "pe_concat_perm": "forall (n : nat) (pos : R) (j : nat), pe_concat n pos j = pe (2 * S n) pos (concat_index (S n) j)",
    "shift_concat_blocks": "forall (n : nat) (k : R) (v : nat -> R) (j : nat), shift_concat n k v j = if Nat.ltb j (S n) then cos (k * omega (INR j) (INR (2 * S n))) * v j + sin (k * omega (INR j) (INR (2 * S n))) * v (S n + j)%nat else - sin (k * omega (INR (j - S n)) (INR (2 * S n))) * v (j - S n)%nat + cos (k * omega (INR (j - S n)) (INR (2 * S n))) * v j",
    "pe_concat_shift": "forall (n : nat) (pos k : R) (j : nat), (j < 2 * S n)%nat -> shift_concat n k (pe_concat n pos) j = pe_concat n (pos + k) j",
    # Issue 33: RoPE with any frequencies in the rotate_half layout on its own.
    "rope_half_compose_any_freq": "forall (h : nat) (theta : nat -> R) (a b : R) (v : nat -> R) (j : nat), (j < 2 * h)%nat -> rope_half h theta a (rope_half h theta b v) j = rope_half h theta (a + b) v j",
    "rope_half_relative_any_freq": "forall (theta : nat -> R) (n : nat) (p m : R) (q u : nat -> R), sum_f_R0 (fun j => rope_half (S n) theta p q j * rope_half (S n) theta m u j) (Nat.pred (2 * S n)) = sum_f_R0 (fun j => q j * rope_half (S n) theta (m - p) u j) (Nat.pred (2 * S n))",
}

# Theorems about natural numbers alone: Coq finds them closed, with no axiom at all.
ABOUT_NAT_ONLY = {"concat_perm"}

# The layouts' definitions, exactly as agreed (compared with whitespace collapsed).
LAYOUT_DEFINITIONS = """\
Definition pe_concat (n : nat) (pos : R) (j : nat) : R :=
  if Nat.ltb j (S n) then sin (pos * omega (INR j) (INR (2 * S n)))
  else cos (pos * omega (INR (j - S n)) (INR (2 * S n))).
Definition concat_index (h j : nat) : nat := if Nat.ltb j h then (2 * j)%nat else S (2 * (j - h)).
Definition to_concat (h i : nat) : nat := if Nat.even i then Nat.div2 i else (h + Nat.div2 i)%nat.
Definition shift_concat (n : nat) (k : R) (v : nat -> R) (j : nat) : R :=
  shift (2 * S n) k (fun i => v (to_concat (S n) i)) (concat_index (S n) j).
"""

PI_THEOREMS = {
    "niven": "forall a b : Z, (0 < b)%Z -> IZR a <> IZR b * PI",
    "pi_irrational": HEADLINE_THEOREMS["pi_irrational"],
}

BOUNDED_THEOREMS = {
    "pe_unique_bounded": "forall (d : nat) (p q : Z), p <> q -> (Z.abs (p - q) <= 10000)%Z -> pe d (IZR p) 0 <> pe d (IZR q) 0 \\/ pe d (IZR p) 1 <> pe d (IZR q) 1",
}


def print_assumptions(
    folder: Path, library: str, names: list[str], prelude: str = ""
) -> dict[str, set[str]]:
    """Name -> the axioms Coq's Print Assumptions lists for it, after loading library and prelude."""
    query = folder / "Assumptions.v"
    query.write_text(
        f"Require Import PeProofs.{library}.\n{prelude}"
        + "".join(f"Print Assumptions {name}.\n" for name in names)
    )
    run = coqc(folder, query.name)
    assert run.returncode == 0, run.stdout + run.stderr
    sections: list[set[str]] = []
    for line in run.stdout.splitlines():
        if line in ("Axioms:", "Closed under the global context"):
            sections.append(set())
        elif line and not line[0].isspace():
            # An axiom's entry starts at column 0 with its name; its type is indented below.
            assert sections, run.stdout
            sections[-1].add(line.split()[0])
    assert len(sections) == len(names), run.stdout
    return dict(zip(names, sections, strict=True))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A folder holding PiIrrational.v and Headline.v (which requires it) compiled by coqc."""
    folder = tmp_path_factory.mktemp("coq")
    for path in (PI_IRRATIONAL, HEADLINE):
        shutil.copy(path, folder)
        run = coqc(folder, path.name)
        assert run.returncode == 0, run.stdout + run.stderr
    return folder


@pytest.fixture(scope="module")
def built_bounded(built: Path) -> Path:
    """The folder of built, with UniqueBounded.v compiled too; skips where Interval is missing."""
    probe = built / "Probe.v"
    probe.write_text("From Interval Require Import Tactic.\n")
    run = coqc(built, probe.name)
    if run.returncode != 0 and "Interval" in run.stdout + run.stderr:
        pytest.skip("the Coq Interval library is not installed (Debian package libcoq-interval)")
    assert run.returncode == 0, run.stdout + run.stderr
    shutil.copy(UNIQUE_BOUNDED, built)
    run = coqc(built, UNIQUE_BOUNDED.name)
    assert run.returncode == 0, run.stdout + run.stderr
    return built


def test_headline_opens_with_the_agreed_definitions() -> None:
    assert HEADLINE.read_text().startswith(DEFINITIONS)


def test_headline_has_the_agreed_layout_definitions() -> None:
    assert squash(LAYOUT_DEFINITIONS) in squash(HEADLINE.read_text())


@pytest.mark.parametrize(
    ("path", "theorems"),
    [
        (HEADLINE, HEADLINE_THEOREMS),
        (PI_IRRATIONAL, PI_THEOREMS),
        (UNIQUE_BOUNDED, BOUNDED_THEOREMS),
    ],
    ids=["Headline", "PiIrrational", "UniqueBounded"],
)
def test_statements_are_the_agreed_ones(path: Path, theorems: dict[str, str]) -> None:
    text = squash(path.read_text())
    for name, statement in theorems.items():
        assert f"Theorem {name} : {squash(statement)}. Proof." in text, name


@pytest.mark.parametrize("path", [HEADLINE, PI_IRRATIONAL, UNIQUE_BOUNDED], ids=lambda p: p.name)
def test_no_unproved_or_assumed_facts(path: Path) -> None:
    assert FORBIDDEN.findall(path.read_text()) == []


def test_headline_does_not_import_zarith_or_pi_irrational() -> None:
    # Importing ZArith (also through PiIrrational, which imports it) would make shift mean
    # Zpower.shift; Headline.v requires PiIrrational without importing it.
    text = HEADLINE.read_text()
    assert "Require PeProofs.PiIrrational." in text
    assert not re.search(r"\b(Import|Export)\b[^.]*\b(ZArith|PiIrrational)\b", text)


@needs_coqc
def test_headline_compiles_and_rests_only_on_the_real_number_axioms(built: Path) -> None:
    # Print Assumptions walks the whole Reals library; one walk over a tuple of all the theorems,
    # whose assumptions are the union of theirs, keeps this fast.
    prelude = f"Definition all_theorems := ({', '.join(HEADLINE_THEOREMS)}).\n"
    axioms = print_assumptions(built, "Headline", ["all_theorems"], prelude)["all_theorems"]
    assert axioms <= REAL_AXIOMS, axioms - REAL_AXIOMS
    # The reals really are axiomatised, so an empty list would mean the parsing went wrong.
    assert axioms


@needs_coqc
def test_each_compiled_theorem_has_the_agreed_statement(built: Path) -> None:
    # The compiled theorems, read back in a fresh file: each must have the agreed statement's
    # type, elaborated with Headline's definitions (so shift is the encoding's shift).
    query = built / "Statements.v"
    query.write_text(
        "Require Import Reals.\nRequire Import PeProofs.Headline.\nOpen Scope R_scope.\n"
        + "".join(f"Check ({name} : {s}).\n" for name, s in HEADLINE_THEOREMS.items())
        + "About shift.\n"
    )
    run = coqc(built, query.name)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Expands to: Constant PeProofs.Headline.shift" in run.stdout, run.stdout


@needs_coqc
@pytest.mark.slow
def test_each_headline_theorem_rests_only_on_the_real_number_axioms(built: Path) -> None:
    for name, axioms in print_assumptions(built, "Headline", list(HEADLINE_THEOREMS)).items():
        if name in ABOUT_NAT_ONLY:
            assert axioms == set(), (name, axioms)
        else:
            assert axioms and axioms <= REAL_AXIOMS, (name, axioms - REAL_AXIOMS)


WRONG_STATEMENTS = {
    "sign flipped in rotation_pair": (
        HEADLINE,
        "cos (k * w) * sin (pos * w) + sin (k * w) * cos (pos * w) = sin ((pos + k) * w) /\\",
        "cos (k * w) * sin (pos * w) - sin (k * w) * cos (pos * w) = sin ((pos + k) * w) /\\",
    ),
    "pe_norm off by one": (
        HEADLINE,
        "(pred (2 * S n)) = INR (S n).",
        "(pred (2 * S n)) = INR n.",
    ),
    "sine for cosine in pe_dot": (
        HEADLINE,
        "sum_f_R0 (fun i => cos (k * omega (INR i) (INR (2 * S n)))) n.",
        "sum_f_R0 (fun i => sin (k * omega (INR i) (INR (2 * S n)))) n.",
    ),
    # Past the last component the conjugated shift map no longer matches the layout.
    "pe_concat_shift without its range": (
        HEADLINE,
        "(j : nat), (j < 2 * S n)%nat ->\n  shift_concat n k (pe_concat n pos) j",
        "(j : nat),\n  shift_concat n k (pe_concat n pos) j",
    ),
    # b = 0 and a = 0 solve b * PI = a.
    "niven for b >= 0": (
        PI_IRRATIONAL,
        "(0 < b)%Z -> IZR a <> IZR b * PI.",
        "(0 <= b)%Z -> IZR a <> IZR b * PI.",
    ),
    "pi_irrational for m = 0 too": (
        PI_IRRATIONAL,
        "forall n m : Z, m <> 0%Z -> IZR n <> IZR m * PI.",
        "forall n m : Z, IZR n <> IZR m * PI.",
    ),
}


@pytest.mark.slow
@needs_coqc
@pytest.mark.parametrize("change", list(WRONG_STATEMENTS), ids=list(WRONG_STATEMENTS))
def test_a_wrong_statement_is_rejected(change: str, built: Path, tmp_path: Path) -> None:
    path, right, wrong = WRONG_STATEMENTS[change]
    if path == HEADLINE:
        shutil.copy(built / "PiIrrational.vo", tmp_path)
    text = path.read_text()
    assert text.count(right) == 1
    (tmp_path / path.name).write_text(text.replace(right, wrong))
    run = coqc(tmp_path, path.name)
    assert run.returncode != 0
    # Rejected by the proof check, not by the parser.
    assert "Error" in run.stderr and "Syntax error" not in run.stderr, run.stderr


@needs_coqc
@pytest.mark.slow
def test_bounded_uniqueness_compiles_and_rests_only_on_the_real_number_axioms(
    built_bounded: Path,
) -> None:
    assumptions = print_assumptions(built_bounded, "UniqueBounded", list(BOUNDED_THEOREMS))
    for name, axioms in assumptions.items():
        assert axioms and axioms <= REAL_AXIOMS, (name, axioms - REAL_AXIOMS)


@needs_coqc
@pytest.mark.slow
def test_a_wrong_enclosure_of_pi_is_rejected(built_bounded: Path, tmp_path: Path) -> None:
    for name in ("PiIrrational.vo", "Headline.vo"):
        shutil.copy(built_bounded / name, tmp_path)
    right = "Definition PI_LO : Z := 3141592653589."
    text = UNIQUE_BOUNDED.read_text()
    assert text.count(right) == 1
    # One unit too high in the last place: PI is not above 3.141592653590.
    (tmp_path / UNIQUE_BOUNDED.name).write_text(text.replace(right, right.replace("589", "590")))
    run = coqc(tmp_path, UNIQUE_BOUNDED.name)
    assert run.returncode != 0
    assert "Numerical evaluation failed" in run.stderr, run.stderr
