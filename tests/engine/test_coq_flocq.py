"""The precision theorem's roundings in Coq are Flocq's round to nearest even, in the formats'
real parameters, proved from the parts (whose floor-and-ceiling formula Helpers' round_NE_at ties
to Flocq). The compile checks are slow (RopePrecision.v takes about ten seconds); tests needing
coqc skip, with that reason, where it is missing."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from proofs import registry
from proofs.engine.coq.agreement import ROUNDINGS
from proofs.engine.coq.development import FOUNDATION, build_development
from proofs.engine.coq.module import FLOCQ, theorem_module
from tests.engine.coq_tools import REAL_AXIOMS, assumptions, compiled, coqc, needs_coqc

# Format -> (emin, prec) as Flocq's FLT_exp takes them: the least exponent of a subnormal's
# spacing and the bits of the significand.
FORMATS = {"bf16": (-133, 8), "fp16": (-24, 11), "fp32": (-149, 24)}
ROUND = re.compile(r"round radix2 \(FLT_exp \((-?\d+)\) (\d+)\) ZnearestE")


@pytest.fixture(scope="module")
def precision():
    return theorem_module(registry.build("rope_precision"))


def flocq_statements(module) -> dict[str, str]:
    """Name -> statement of the module's theorems that name Flocq's rounding."""
    return {n: s for n, s in module.statements if "ZnearestE" in s}


def test_each_precision_part_named_for_a_format_rounds_in_that_format(precision) -> None:
    stated = flocq_statements(precision)
    rounded = {n for n in stated if ROUND.search(stated[n])}
    # fp32 2^24 and 2^24 + 1, fp16 2049, 10002 and the score at fp16 positions, the bf16
    # collision and inv_freq (bf16(257) is the pinned Headline theorem, restated by its type).
    assert len(rounded) == 7, sorted(rounded)
    for name in rounded:
        fmt = next((f for f in FORMATS if f in name), None)
        assert fmt, name
        assert {tuple(map(int, m)) for m in ROUND.findall(stated[name])} == {FORMATS[fmt]}, name


def test_the_rounding_statements_are_about_rounding_not_numerals(precision) -> None:
    for name, statement in flocq_statements(precision).items():
        if name.startswith("bf16_257_from"):
            assert statement == "ltac:(let T := type of bf16_257 in exact T)"
            continue
        assert "Rceil" not in statement and "Rfloor" not in statement, name


def test_every_rounding_is_proved_from_its_part(precision) -> None:
    entries = {e.part: e for e in precision.entries if e.kind != "link"}
    for (theorem, part), _ in ROUNDINGS.items():
        assert theorem == "rope_precision"
        entry = entries[part]
        assert entry.lemma and f"{entry.lemma}_in_flocq" in entry.agreements, part


def test_flocq_is_imported_before_the_project_only_where_used(precision) -> None:
    text = precision.text()
    assert text.index(FLOCQ) < text.index("Require Import PeProofs.")
    assert FLOCQ not in theorem_module(registry.build("rope_group")).text()
    assert FLOCQ in build_development([registry.build("rope_precision")]).no_tautology()


def compile_precision(folder: Path, text: str) -> subprocess.CompletedProcess:
    """Compile the foundation and RopePrecision.v (text) in folder; coqc's result for the module."""
    compiled(folder, FOUNDATION)
    (folder / "RopePrecision.v").write_text(text)
    return coqc(folder, "RopePrecision.v")


@needs_coqc
@pytest.mark.slow
def test_the_flocq_roundings_compile_on_the_real_number_axioms_only(precision, tmp_path) -> None:
    names = list(flocq_statements(precision))
    run = compile_precision(tmp_path, precision.text())
    assert run.returncode == 0, run.stdout + run.stderr
    query = tmp_path / "Assumptions.v"
    query.write_text(
        "Require Import PeProofs.RopePrecision.\n"
        + "".join(f"Print Assumptions {n}.\n" for n in names)
    )
    run = coqc(tmp_path, query.name)
    assert run.returncode == 0, run.stdout + run.stderr
    sections = assumptions(run.stdout)
    assert len(sections) == len(names), run.stdout
    for name, axioms in zip(names, sections, strict=True):
        assert axioms and axioms <= REAL_AXIOMS, (name, axioms - REAL_AXIOMS)


@needs_coqc
@pytest.mark.slow
def test_a_wrong_rounding_is_rejected(precision, tmp_path) -> None:
    # fp16's spacing above 8192 is 8, so 10002 rounds to 10000, never to 10008.
    right = "round radix2 (FLT_exp (-24) 11) ZnearestE 10002 = 10000."
    text = precision.text()
    assert text.count(right) == 1
    wrong = text.replace(right, right.replace("10000", "10008"))
    run = compile_precision(tmp_path, wrong)
    assert run.returncode != 0
    # The error is in the wrong theorem's proof, nowhere before it.
    lines = wrong.splitlines()
    start = lines.index("Theorem fp16_10002_in_flocq :")
    end = lines.index("End fp16_10002.")
    where = re.search(r'File "\./RopePrecision\.v", line (\d+),', run.stdout + run.stderr)
    assert where and start < int(where.group(1)) <= end, run.stdout + run.stderr
