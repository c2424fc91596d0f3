"""`pe-proofs coq --out DIR` and `prove --coq`: the development compiles, marks are honest."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from proofs import registry
from proofs.cli import coq_check
from proofs.cli.main import main
from proofs.engine.coq.development import EVERY_SIZE, NO_TAUTOLOGY, REPORT, build_development
from proofs.engine.coq.module import COQ_DIR, Entry
from proofs.engine.facts import Blockwise
from proofs.registry import build
from tests.engine.coq_tools import REAL_AXIOMS, assumptions, coqc, needs_coqc


def run(folder: Path, *command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> tuple[Path, str]:
    """A folder holding `pe-proofs coq --d-model 4`'s output, and what the command printed."""
    folder = tmp_path_factory.mktemp("coq")
    with pytest.MonkeyPatch.context() as patch:
        lines: list[str] = []
        patch.setattr("builtins.print", lambda *a, **k: lines.append(" ".join(map(str, a))))
        assert main(["coq", "--out", str(folder), "--d-model", "4"]) == 0
    return folder, "\n".join(lines)


@pytest.mark.slow
def test_the_command_writes_the_development_and_lists_what_has_no_theorem(written) -> None:
    folder, stdout = written
    project = (folder / "_CoqProject").read_text().splitlines()
    assert project[0] == "-R . PeProofs"
    assert {"Headline.v", "Helpers.v", "Rotation.v", NO_TAUTOLOGY} <= set(project)
    assert all((folder / name).is_file() for name in project[1:])
    report = (folder / REPORT).read_text()
    listed = [line for line in stdout.splitlines() if line.startswith("  ") and "no proof" in line]
    assert listed and all(line.split(": ", 1)[1] in report for line in listed)
    for name in (*registry.names(), *registry.ledger_names()):
        assert re.search(
            rf"^  {name}: \d+/\d+ parts, \d+/\d+ links, \d+/\d+ facts$", stdout, re.MULTILINE
        ), name


def test_the_report_says_why_each_part_stated_at_one_size_stays_there() -> None:
    development = build_development([build(n) for n in registry.names()])
    section = development.report().split("# Parts stated for one d_model", 1)[1]
    headline = (COQ_DIR / "Headline.v").read_text()
    blockwise = {
        (m.theorem.name, p.name)
        for m in development.modules
        for p in m.theorem.parts
        if isinstance(p, Blockwise)
    }
    assert len(blockwise) == 25
    # Every every-size theorem named is a Headline theorem, for a part stated at one size.
    assert set(EVERY_SIZE) <= blockwise
    for names in EVERY_SIZE.values():
        assert all(re.search(rf"^Theorem {n} :", headline, re.MULTILINE) for n in names), names
    for theorem, part in blockwise:
        (line,) = [
            x
            for x in section.splitlines()
            if x.startswith(f"- {theorem} part ") and f"({part})," in x
        ]
        said = "shift_inverse (Headline.v)" if part == "inverse_concrete" else "every number"
        assert said in line, line


def test_a_bad_out_is_one_line_and_status_2(tmp_path: Path, capsys) -> None:
    (tmp_path / "file").write_text("")
    assert main(["coq", "--out", str(tmp_path / "file" / "sub")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_prove_without_coqc_says_so_in_one_line_and_still_proves(monkeypatch, capsys) -> None:
    monkeypatch.setattr(coq_check, "coqc_available", lambda: False)
    assert main(["prove", "ramp", "--coq", "--no-twin", "--jobs", "1"]) == 0
    out, err = capsys.readouterr()
    assert err.strip() == coq_check.COQC_MISSING
    assert "ramp: PROVED" in out and "Coq kernel:" not in out
    assert main(["prove", "ramp", "--coq", "--no-twin", "--jobs", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)[0]["coq"] is None and err.strip() == coq_check.COQC_MISSING


def _module(name: str):
    return build_development([build(name)]).modules[0]


def test_a_compile_error_fails_its_lemma_and_what_comes_after_it() -> None:
    module = _module("ramp")
    lemmas = [e for e in module.entries if e.lemma]
    line = module.text().splitlines().index(f"Theorem {lemmas[2].lemma} :") + 3
    marks, _ = coq_check.module_marks(module, coq_check.Compiled(False, line, "Error: boom"), set())
    by_lemma = {e.lemma: (mark, why) for e, mark, why in marks if e.lemma}
    assert by_lemma[lemmas[0].lemma] == ("kernel-checked", "")
    assert by_lemma[lemmas[2].lemma] == ("failed", "Error: boom")
    assert by_lemma[lemmas[-1].lemma][0] == "failed"


def test_a_tautology_and_an_unchained_link_are_not_kernel_checked() -> None:
    module = _module("rotation")
    link = next(e for e in module.entries if e.kind == "link")
    marks, _ = coq_check.module_marks(
        module, coq_check.Compiled(True), {f"{module.name}.{link.lemma}"}
    )
    assert dict((e.lemma, m) for e, m, _ in marks)[link.lemma] == "tautology"
    layouts = _module("layouts")
    marks, _ = coq_check.module_marks(layouts, coq_check.Compiled(True), set())
    unchained = [e for e, m, _ in marks if m == "not chained"]
    missing = [e for e, m, _ in marks if m == "no proof found"]
    assert missing and all(e.kind in ("link", "part", "fact") for e in missing)
    for entry in unchained:
        assert (
            entry.kind == "link"
            and not next(
                e for e in layouts.entries if e.part == entry.part and e.kind == "part"
            ).lemma
        )


def test_the_summary_counts_parts_links_and_facts_apart() -> None:
    part = Entry("ramp", "p", 1, 0, "part", "t", "", lemma="p")
    link = Entry("ramp", "p", 1, 1, "link", "t", "algebra", lemma="ramp_p_link1")
    fact = Entry("ramp", "f", 2, 0, "fact", "f", "NonZero", reason="no proof found: x")
    marks = coq_check.TheoremMarks(
        "ramp",
        ((part, "kernel-checked", ""), (link, "kernel-checked", ""), (fact, "no proof found", "x")),
        (("ramp_affine_shift", "Headline.v", "kernel-checked"),),
        (("ramp_no_linear_shift", "ramp_no_linear_shift_from_f", "kernel-checked"),),
    )
    assert marks.summary() == (
        "Coq kernel: 1/1 parts, 1/1 links, 0/1 facts kernel-checked (1 no proof found); "
        "headline ramp_affine_shift kernel-checked; proved again from the parts: "
        "ramp_no_linear_shift"
    )
    assert marks.ok
    assert marks.as_json()["counts"]["facts"] == {"kernel_checked": 0, "total": 1}


def interval_installed(folder: Path) -> bool:
    (folder / "Probe.v").write_text("From Interval Require Import Tactic.\n")
    return coqc(folder, "Probe.v").returncode == 0


@pytest.mark.long(240)
@needs_coqc
@pytest.mark.slow
def test_the_whole_development_compiles_with_coq_makefile_and_make(written, tmp_path) -> None:
    folder, _ = written
    if not interval_installed(tmp_path):
        pytest.skip("the Coq Interval library is not installed (Debian package libcoq-interval)")
    build_dir = tmp_path / "build"
    shutil.copytree(folder, build_dir)
    made = run(build_dir, "coq_makefile", "-f", "_CoqProject", "-o", "Makefile")
    assert made.returncode == 0, made.stderr
    made = run(build_dir, "make", "-j2")
    # NoTautology.v compiles: reflexivity alone proves no generated statement.
    assert made.returncode == 0, made.stdout + made.stderr
    assert (build_dir / "NoTautology.vo").is_file()
    # Every generated lemma and theorem rests only on the real numbers' axioms.
    names = [
        (path.stem, m)
        for path in sorted(build_dir.glob("*.v"))
        if path.name not in ("NoTautology.v", "Probe.v")
        for m in re.findall(r"^(?:Lemma|Theorem) (\w+) :", path.read_text(), re.MULTILINE)
        if path.stem not in ("Headline", "PiIrrational", "UniqueBounded", "Helpers")
    ]
    assert len(names) > 100
    # RoFormer's decay refuted in Coq is checked here only (test_coq_rope skips its module).
    decay = {"decay_rises_at_18", "decay_not_monotone", "decay_f_1000", "decay_f_2000"}
    assert {("RopeDecay", name) for name in decay} <= set(names)
    modules = sorted({module for module, _ in names})
    query = "".join(f"Require PeProofs.{m}.\n" for m in modules)
    query += "Definition everything := ({}).\nPrint Assumptions everything.\n".format(
        ", ".join(f"PeProofs.{m}.{name}" for m, name in names)
    )
    (build_dir / "Query.v").write_text(query)
    printed = coqc(build_dir, "Query.v")
    assert printed.returncode == 0, printed.stderr
    (axioms,) = assumptions(printed.stdout)
    assert axioms and axioms <= REAL_AXIOMS, axioms - REAL_AXIOMS


@needs_coqc
@pytest.mark.slow
def test_a_planted_tautology_is_found(tmp_path: Path) -> None:
    development = build_development([build("ramp")])
    compiled = coq_check.compile_development(development, tmp_path)
    assert compiled[NO_TAUTOLOGY].ok, compiled[NO_TAUTOLOGY].message
    text = (tmp_path / NO_TAUTOLOGY).read_text()
    planted = "(* Ramp.planted *)\nGoal forall x : R, x + 0 = x + 0.\n"
    planted += "Proof. intros. Fail reflexivity. Abort.\n\n"
    (tmp_path / NO_TAUTOLOGY).write_text(text + planted)
    again = coq_check._coqc(tmp_path, NO_TAUTOLOGY)
    assert not again.ok
    assert coq_check.tautologies(development, tmp_path, again) == {"Ramp.planted"}


@needs_coqc
@pytest.mark.slow
def test_prove_coq_marks_every_entry_in_json(capsys) -> None:
    # Both have every entry in Coq (rotation's FreeOf facts, alone, have no statement).
    assert main(["prove", "ramp", "similarity", "--coq", "--no-twin", "--json", "--jobs", "1"]) == 0
    for theorem in json.loads(capsys.readouterr().out):
        marks = theorem["coq"]
        assert {e["mark"] for e in marks["entries"]} == {"kernel-checked"}
        assert {h["mark"] for h in marks["headline"]} == {"kernel-checked"}
        counts = marks["counts"]
        assert all(c["kernel_checked"] == c["total"] for c in counts.values())
