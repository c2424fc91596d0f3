"""The RoPE theorems (and attention) in Coq: every part one theorem or listed with its reason,
the Interval tactic kept off the kernel's primitive floats, each module compiled, a wrong step
rejected, RoFormer's decay refuted in Coq (and its refutation turned around rejected)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from proofs import registry
from proofs.engine.coq.development import FOUNDATION, LOGICAL_ROOT
from proofs.engine.coq.module import COQ_DIR, HEADER, module_name, theorem_module, uses_interval
from proofs.engine.coq.trial import Trial, coqtop_available, rejected_in_output
from tests.engine.coq_tools import REAL_AXIOMS, coqc

ROPE = ("attention", "rope_layouts", "rope_group", "rope_scaling", "rope_decay", "rope_precision")
needs_coq = pytest.mark.skipif(not coqtop_available(), reason="coqc and coqtop are not installed")


@pytest.fixture(scope="module")
def modules():
    return {name: theorem_module(registry.build(name)) for name in ROPE}


def test_every_rope_link_part_and_fact_is_a_theorem_or_no_proof_found(modules) -> None:
    for name, module in modules.items():
        for entry in module.entries:
            assert entry.lemma or entry.reason.startswith("no proof found: "), entry
        if name in ("rope_layouts", "rope_group", "rope_scaling", "rope_precision", "rope_decay"):
            assert all(e.lemma for e in module.entries), name


def test_the_decay_refutations_state_the_claim_over_the_encoding(modules) -> None:
    # ~ (forall r t, f(r + t) <= f(r)) with f written as nested sum_f_R0 over RoFormer's θ_k.
    text = modules["rope_decay"].text()
    for part in ("decay_not_monotone", "decay_rises_at_18"):
        start = text.index(f"Theorem {part} :")
        statement = text[start : text.index("Proof.", start)]
        assert "~ (forall (r t : Z)," in statement
        f_later = (
            "sum_f_R0 (fun j => sqrt (sum_f_R0 (fun k => cos (omega (INR k) 128 * "
            "(IZR r + IZR t))) j ^ 2 + sum_f_R0 (fun k => sin (omega (INR k) 128 * "
            "(IZR r + IZR t))) j ^ 2)) 63 / 64"
        )
        f_now = f_later.replace("omega (INR k) 128 * (IZR r + IZR t)", "IZR r * omega (INR k) 128")
        assert f"{f_later} <= {f_now}" in " ".join(statement.split())


def test_interval_never_runs_on_the_primitive_floats(modules) -> None:
    # At 53 bits, or with Interval's default floats, the tactic computes with the kernel's
    # primitive floats and integers, whose specifications Print Assumptions lists as axioms;
    # below and above 53 the StdZ floats compute (the decay's bounds ask for 30 and 40 bits,
    # and the slow test below prints their assumptions).
    users = 0
    for module in modules.values():
        text = module.text()
        if not uses_interval(text):
            continue
        users += 1
        head, _ = text.split("Require Import PeProofs.", 1)
        assert "Import StdZInterval." in head
        for call in re.findall(r"\binterval\b[^|\]\)]*", text):
            precision = re.fullmatch(r"interval with \(i_prec (\d+)", call.strip())
            assert precision and int(precision[1]) != 53, call
    assert users >= 3


def test_a_lemma_whose_sentence_failed_is_rejected_with_coqs_message() -> None:
    mark = "@@pe-proofs-lemma"
    output = f'{mark} "good"\ngood is defined\n{mark} "bad"\nError: Unable to unify x with y.\n'
    assert rejected_in_output(output, ["good", "bad", "late"], True) == {
        "bad": "Unable to unify x with y.",
        "late": "Coq did not reach it",
    }
    # Cut off by the time budget: the last lemma reached is the one that did not finish.
    unfinished = rejected_in_output(
        output.replace("Error: Unable to unify x with y.", ""), [], False
    )
    assert unfinished == {"bad": "Coq did not finish its proof within the time budget"}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> Path:
    """A folder with the foundation and the RoPE and attention modules compiled, but for
    RoPE's decay: its module does not depend on d_model, and the whole development's test
    (tests/cli/test_coq_command.py) compiles it and prints its assumptions with every other
    theorem's; compiling it takes two CPU minutes."""
    folder = tmp_path_factory.mktemp("coq-rope")
    names = [*FOUNDATION]
    for name in FOUNDATION:
        shutil.copy(COQ_DIR / name, folder)
    for theorem in (t for t in ROPE if t != "rope_decay"):
        name = f"{module_name(theorem)}.v"
        (folder / name).write_text(theorem_module(registry.build(theorem)).text())
        names.append(name)
    for name in names:
        run = coqc(folder, name)
        assert run.returncode == 0, f"{name}: {run.stdout}{run.stderr}"
    return folder


@needs_coq
@pytest.mark.slow
def test_the_rope_modules_compile_and_rest_only_on_the_real_number_axioms(compiled: Path) -> None:
    # Theorems whose proofs call interval, and one that does not.
    theorems = (
        "RopeScaling.yarn_paper_is_not_code",
        "RopePrecision.fp16_positions_not_relative",
        "RopeLayouts.mixed_layout_not_relative",
        "RopeGroup.head_cache_shift_rotate_half",
    )
    modules = " ".join(f"{LOGICAL_ROOT}.{t.split('.')[0]}" for t in theorems)
    lines = [f"Require {modules}."] + [f"Print Assumptions {LOGICAL_ROOT}.{t}." for t in theorems]
    (compiled / "Assumptions.v").write_text("\n".join(lines) + "\n")
    run = coqc(compiled, "Assumptions.v")
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("Axioms:") == len(theorems)
    named = set(re.findall(r"^(\S+) :", run.stdout, re.MULTILINE))
    named |= set(re.findall(r"^(\S+)$", run.stdout, re.MULTILINE)) - {"Axioms:"}
    assert named == REAL_AXIOMS, named - REAL_AXIOMS


@needs_coq
@pytest.mark.slow
def test_coq_rejects_a_wrong_rope_step_and_accepts_the_right_one() -> None:
    foundation = {name: (COQ_DIR / name).read_text(encoding="utf-8") for name in FOUNDATION}
    text = theorem_module(registry.build("rope_group")).text()
    # G(nθ)·G(Δθ)'s top-left entry is cos Δθ cos nθ − sin Δθ sin nθ; a + there is wrong.
    start = text.index("Lemma rope_group_pair_compose_link1 :")
    end = text.index("Proof.", start)
    right = "rows [[cos (Delta * theta) * cos (n * theta) - sin (Delta * theta) * sin (n * theta);"
    assert text[start:end].count(right) == 1
    wrong = right.replace(" - sin", " + sin")
    broken = text[:start] + text[start:end].replace(right, wrong) + text[end:]
    with Trial(foundation, LOGICAL_ROOT) as trial:
        assert trial.rejected(text) == {}
        rejected = trial.rejected(broken)
    assert "rope_group_pair_compose_link1" in rejected
    assert "Syntax error" not in rejected["rope_group_pair_compose_link1"]
    # The part built on it is rejected too; the other parts stand.
    assert "pair_compose" in rejected and "pair_cache_shift" not in rejected


@needs_coq
@pytest.mark.slow
def test_coq_rejects_the_decay_refutation_turned_around(compiled: Path) -> None:
    # f(19) >= f(18) holds: the same proof of its negation must fail (at lra, the bounds agree).
    text = theorem_module(registry.build("rope_decay")).text()
    start = text.index("Theorem decay_rises_at_18 :")
    lemma = text[start : text.index("Qed.", start) + len("Qed.")]
    assert lemma.count("63 / 64 <= sum_f_R0") == 1
    wrong = lemma.replace("63 / 64 <= sum_f_R0", "63 / 64 >= sum_f_R0").replace(
        "decay_rises_at_18", "decay_falls_at_18"
    )
    head = text[: text.index("Open Scope R_scope.") + len("Open Scope R_scope.")]
    assert HEADER.splitlines()[0] in head
    (compiled / "Turned.v").write_text(f"{head}\n\n{wrong}\n")
    run = coqc(compiled, "Turned.v")
    assert run.returncode != 0
    assert "Error" in run.stderr and "Syntax error" not in run.stderr, run.stderr
