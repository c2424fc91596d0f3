"""Module 11's lesson holds one notation: a Symbol | Meaning table at its start, each symbol once;
the query's position is m everywhere (never p, which module 10 used), the rotation is G (never
module 10's R), and the student edition has no sentence addressed to the author."""

from __future__ import annotations

import re

import pytest
import sympy as sp

from proofs.render import latex_lesson
from proofs.render.lesson import build_lesson
from proofs.render.lesson_math import read_math
from proofs.render.lesson_source import lesson_folder, section_names
from proofs.render.options import RenderOptions
from proofs.theorems.rope import decay, group, precision, scaling

FOLDER = lesson_folder(11)
MATH = re.compile(r"\{math\}`([^`]*)`")
# Phrases for the course author, or about how the notes were made, that a student never reads.
AUTHOR_PHRASES = (
    "could not be consulted",
    "was not checked",
    "were not checked",
    "was not read",
    "the engine",
    "for these notes",
    "issue ",
    "pe-proofs",
    "the appendix names",
    "a course author",
)


def table_rows() -> list[tuple[str, str]]:
    lines = (FOLDER / "notation.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("| Symbol | Meaning |")
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        symbol, meaning = (cell.strip() for cell in line.strip("|").split(" | ", 1))
        rows.append((symbol, meaning))
    return rows


def student_sections() -> list[str]:
    out = []
    for name in section_names(FOLDER):
        text = (FOLDER / f"{name}.md").read_text(encoding="utf-8")
        if "only: author" not in text.split("---")[1]:
            out.append(name)
    return out


def test_the_notation_comes_second_after_the_introduction():
    assert section_names(FOLDER)[:3] == ["introduction", "notation", "rope"]


def test_each_symbol_of_the_table_is_listed_once_and_reads_as_math():
    rows = table_rows()
    assert len(rows) >= 20
    symbols = [m for symbol, _ in rows for m in MATH.findall(symbol)]
    assert symbols and len(symbols) == len(set(symbols)), symbols
    for symbol in symbols:
        read_math(symbol)
    assert all(meaning for _, meaning in rows)


def lesson_symbols(names: list[str]) -> dict[str, set[str]]:
    """Each symbol name the math of the sections uses -> the sections that use it."""
    used: dict[str, set[str]] = {}
    for name in names:
        text = (FOLDER / f"{name}.md").read_text(encoding="utf-8")
        formulas = MATH.findall(text) + re.findall(r"\$\$\n(.*?)\n\$\$", text, flags=re.S)
        for formula in formulas:
            for line in formula.splitlines():
                expr = read_math(line)
                for atom in expr.atoms(sp.Symbol):
                    used.setdefault(atom.name, set()).add(name)
                for call in expr.atoms(sp.Function):
                    used.setdefault(type(call).__name__, set()).add(name)
    return used


def test_the_query_is_at_m_and_the_rotation_is_g_in_every_section():
    used = lesson_symbols(student_sections())
    assert "m" in used and "n" in used and "G" in used
    # p (module 10's query position, and once a number of bits) and module 10's R never occur.
    assert "p" not in used, used.get("p")
    assert "R" not in used, used.get("R")
    # k is module 10's offset; here a distance is n − m or r.
    assert "k" not in used, used.get("k")


def test_every_single_letter_of_the_lessons_math_is_in_the_table():
    table = {m for symbol, _ in table_rows() for m in MATH.findall(symbol)}
    letters = set()
    for symbol in table:
        expr = read_math(symbol)
        letters |= {a.name for a in expr.atoms(sp.Symbol)}
        letters |= {type(c).__name__ for c in expr.atoms(sp.Function)}
    used = lesson_symbols(student_sections())
    single = {name for name in used if len(name) == 1 or name in {"alpha", "beta", "mu", "nu"}}
    # Numbers of a worked example are not notation: pi, and e (Euler's) are SymPy's own.
    missing = single - letters - {"pi", "E", "I"}
    assert not missing, {name: used[name] for name in missing}


@pytest.fixture(scope="module")
def student_tex(checked_notes, lesson_tables) -> str:
    lesson = build_lesson(
        checked_notes, lesson_tables, RenderOptions(brief=False, edition="student", module=11)
    )
    return re.sub(r"\s+", " ", latex_lesson.lesson_tex(lesson))


def test_the_student_edition_has_no_sentence_for_the_author(student_tex):
    for phrase in AUTHOR_PHRASES:
        assert phrase not in student_tex.lower(), phrase
    body = student_tex.split(r"\begin{document}")[1]
    assert not re.search(r"\\#\s*\d", body), "an issue or pull-request number"


# The appendix states each part of a theorem in the words of its title. The lesson's letters keep
# their meaning there too (issue 29): the decay's bound once wrote w_j = ρ_j e^(iφ_j), with ρ_j
# and φ_j a modulus and an angle (ρ_i are YaRN's turns, φ the ramp's angle), σ_j = |S_j| (σ is
# s − 1), τ_j and Δ_j; scaling wrote s = e^λ beside the wavelengths λ_i, b = e^β_b (β is the
# ramp's end) and d = 2m_d + 2 (m is the query's position); the cache's group law moved a key
# at p, module 10's letter for the query.
@pytest.mark.parametrize(
    ("module", "foreign"),
    [
        (decay, r"[ρφστΔ]"),
        (scaling, r"λ(?!_i)|β_b|m_d|α = s|\bl = L \+ t\b"),
        (group, r"(?<![A-Za-z_])p(?![A-Za-z_])"),
    ],
    ids=["decay", "scaling", "group"],
)
def test_the_appendix_rows_use_the_lessons_letters(module, foreign):
    used = {p.name: m.group(0) for p in module.build().parts if (m := re.search(foreign, p.title))}
    assert not used, f"parts whose titles use a letter the lesson gives another meaning: {used}"


def test_the_precision_rows_write_bits_as_nu_and_a_position_as_m():
    # The lesson writes ν significant bits and the query at m; the appendix once wrote p for both
    # (issue 29: "p becomes a number of bits in the precision section").
    titles = {p.name: p.title for p in precision.build().parts}
    used = {name: title for name, title in titles.items() if re.search(r"\bp\b", title)}
    assert not used, used
    assert "ν bits" in titles["scaled_significand"]
    assert "every position m" in titles["bound_2_to_9_refuted"]
