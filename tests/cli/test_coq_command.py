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
from proofs.engine.coq.development import REPORT, build_development
from proofs.engine.coq.links import Link, Module
from proofs.registry import build

needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")
REAL_AXIOMS = {
    "ClassicalDedekindReals.sig_forall_dec",
    "ClassicalDedekindReals.sig_not_dec",
    "FunctionalExtensionality.functional_extensionality_dep",
    "Classical_Prop.classic",
}


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


def test_the_command_writes_the_development_and_lists_what_has_no_lemma(written) -> None:
    folder, stdout = written
    project = (folder / "_CoqProject").read_text().splitlines()
    assert project[0] == "-R . PeProofs"
    assert {"Headline.v", "UniqueBounded.v", "Rotation.v", "DotProduct.v"} <= set(project)
    assert all((folder / name).is_file() for name in project[1:])
    report = (folder / REPORT).read_text()
    listed = [line for line in stdout.splitlines() if line.startswith("  ")]
    assert listed and all(line.split(": ", 1)[1] in report for line in listed)
    # Whole-vector statements are block-structured facts now, checked by the engine only.
    assert "a Blockwise fact, not an equality chain" in report and "(-1)**n" in report
    modules = len(registry.names())
    assert re.search(rf"^\d+ lemmas in {modules} modules", stdout, re.MULTILINE)


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


def test_a_compile_error_fails_its_lemma_and_those_after_it() -> None:
    module = build_development([build("ramp")]).modules[0]
    lemmas = module.lemmas
    line = module.text().splitlines().index(f"Lemma {lemmas[1].lemma} :") + 3
    marks = coq_check.module_marks(module, coq_check.Compiled(False, line, "Error: boom"))
    by_lemma = {link.lemma: (mark, why) for link, mark, why in marks if link.lemma}
    assert by_lemma[lemmas[0].lemma] == ("kernel-checked", "")
    assert by_lemma[lemmas[1].lemma] == ("failed", "Error: boom")
    assert by_lemma[lemmas[2].lemma][0] == "failed"
    facts = {mark for link, mark, _ in marks if not link.lemma}
    assert facts == {"not expressible"}


def test_the_summary_counts_links_and_facts_apart() -> None:
    module = Module(build("ramp"), "Ramp", ())
    link = Link("ramp", 1, 1, "t", "j", lemma="l")
    fact = Link("ramp", 2, 0, "f", "", reason="a fact")
    marks = coq_check.TheoremMarks(
        module.theorem.name,
        ((link, "kernel-checked", ""), (fact, "not expressible", "a fact")),
        (("ramp_affine_shift", "Headline.v", "kernel-checked"),),
    )
    assert marks.summary() == (
        "Coq kernel: 1/1 links kernel-checked, 0 not expressible; 0/1 facts kernel-checked; "
        "headline ramp_affine_shift kernel-checked"
    )


def interval_installed(folder: Path) -> bool:
    (folder / "Probe.v").write_text("From Interval Require Import Tactic.\n")
    return run(folder, "coqc", "-q", "Probe.v").returncode == 0


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
    assert made.returncode == 0, made.stdout + made.stderr
    # Every generated lemma rests only on the real numbers' axioms.
    lemmas = [
        (path.stem, m)
        for path in sorted(build_dir.glob("*.v"))
        for m in re.findall(r"^Lemma (\w+_part\d+_link\d+) :", path.read_text(), re.MULTILINE)
    ]
    assert len(lemmas) > 30
    modules = sorted({module for module, _ in lemmas})
    query = "".join(f"Require PeProofs.{m}.\n" for m in modules)
    query += "Definition all_links := ({}).\nPrint Assumptions all_links.\n".format(
        ", ".join(f"PeProofs.{m}.{lemma}" for m, lemma in lemmas)
    )
    (build_dir / "Query.v").write_text(query)
    printed = run(build_dir, "coqc", "-q", "-R", ".", "PeProofs", "Query.v")
    assert printed.returncode == 0, printed.stderr
    axioms = {line.split()[0] for line in printed.stdout.splitlines() if line and line[0] != " "}
    axioms.discard("Axioms:")
    assert axioms and axioms <= REAL_AXIOMS, axioms - REAL_AXIOMS


@needs_coqc
@pytest.mark.slow
def test_prove_coq_marks_every_link_in_json(capsys) -> None:
    assert main(["prove", "ramp", "rotation", "--coq", "--no-twin", "--json", "--jobs", "1"]) == 0
    for theorem in json.loads(capsys.readouterr().out):
        marks = theorem["coq"]
        assert {link["mark"] for link in marks["links"]} <= {"kernel-checked", "not expressible"}
        assert any(link["mark"] == "kernel-checked" for link in marks["links"])
        assert {h["mark"] for h in marks["headline"]} == {"kernel-checked"}
