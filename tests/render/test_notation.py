"""One notation per lesson: the notation table at the lesson's start names every symbol its
math uses, each in one row with one meaning (no ";" joining two uses), no letter in two rows,
and the query's position one letter (issue 29)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import sympy as sp

from proofs.render import lesson_blocks as lb
from proofs.render.lesson import build_lesson
from proofs.render.lesson_parts import NAMES
from proofs.render.lesson_source import lesson_folder, section_names
from proofs.render.options import RenderOptions

# A whole the lesson names (lesson_parts.NAMES) that prints as one letter, with a subscript or a
# transpose (M_k, M_{k_0}, P^T, I), is that letter; other wholes are formulas, not symbols.
_LETTER = re.compile(r"([A-Za-z])(_\{.*\})?(\^\{\\mathsf\{T\}\})?")


def pieces_of(block: object) -> Iterator[object]:
    """Every piece of prose and math in a block, its solutions' included."""
    if isinstance(block, lb.Para | lb.Quote):
        yield from block.pieces
    elif isinstance(block, lb.Items):
        for item in block.items:
            yield from item
    elif isinstance(block, lb.ProseTable):
        for cell in (*block.header, *(c for row in block.rows for c in row)):
            yield from cell
    elif isinstance(block, lb.Equations):
        yield from block.lines
    elif isinstance(block, lb.TheoremStatement):
        yield from block.formulas
    elif isinstance(block, lb.Chain):
        yield from block.intro
        if block.lead is not None:
            yield block.lead
        for step in block.derivation.steps:
            yield step.expr
    elif isinstance(block, lb.TableBlock):
        for cell in (*block.header, *block.labels):
            yield from cell
        if not isinstance(block.caption, str):
            yield from block.caption
    elif isinstance(block, lb.Figure | lb.Listing):
        yield from getattr(block, "caption", getattr(block, "intro", ()))
    elif isinstance(block, lb.Solution):
        for inner in block.blocks:
            yield from pieces_of(inner)


def symbols_in(piece: object) -> set[str]:
    """The symbols a piece of math uses: its atoms' names, its functions' names, and the
    one-letter wholes as their letter."""
    out: set[str] = set()
    if not isinstance(piece, sp.Basic) or isinstance(piece, lb.Tex):
        return out
    for node in sp.preorder_traversal(piece):
        if isinstance(node, sp.core.function.AppliedUndef):
            out.add(type(node).__name__)
        elif isinstance(node, sp.Symbol | sp.MatrixSymbol) and not isinstance(node, lb.Tex):
            name = node.name
            if name in NAMES:
                letter = _LETTER.fullmatch(NAMES[name])
                if letter:
                    out.add(letter.group(1))
            elif not name.startswith("_"):
                out.add(name)
    return out


def named_by(piece: object) -> set[str]:
    """The symbols a cell of the table's first column names: a function applied names the
    function alone."""
    if isinstance(piece, sp.core.function.AppliedUndef):
        return {type(piece).__name__}
    return symbols_in(piece)


def covers(named: set[str], name: str) -> bool:
    """Whether the table names a symbol: itself, or, for a member with an integer subscript
    (theta_24, S_0), its family's row with a letter subscript (theta_i, S_j)."""
    if name in named:
        return True
    member = re.fullmatch(r"(.+)_([0-9]+)", name)
    return member is not None and any(
        re.fullmatch(re.escape(member.group(1)) + r"_[a-z]", n) for n in named
    )


def letter(name: str) -> str:
    """A symbol's letter: its name before a subscript (omega_i → omega, k_0 → k)."""
    return name.split("_")[0]


@pytest.fixture(scope="module", params=[10, 11], ids=["module10", "module11"])
def lesson_and_table(request, checked_notes, lesson_tables):
    module = request.param
    assert "notation" in section_names(lesson_folder(module)), (
        f"module {module}'s lesson has no notation section (proofs/lesson/module{module}/"
        "notation.md, listed in contents.txt)"
    )
    options = RenderOptions(module=module, edition="author")
    lesson = build_lesson(checked_notes, lesson_tables, options)
    (notation,) = [s for s in lesson.sections if s.name == "notation"]
    (table,) = [b for b in notation.blocks if isinstance(b, lb.ProseTable)]
    return lesson, table


def rows(table: lb.ProseTable) -> list[tuple[set[str], str]]:
    """Each row's symbols and its meaning in words."""
    out = []
    for symbol_cell, meaning in table.rows:
        # A function is named applied, PE(pos): the row names PE, not its argument.
        symbols = set().union(*(named_by(p) for p in symbol_cell))
        words = "".join(p for p in meaning if isinstance(p, str))
        out.append((symbols, words))
    return out


def test_the_table_comes_first_and_names_every_symbol_the_math_uses(lesson_and_table):
    lesson, table = lesson_and_table
    assert [s.name for s in lesson.sections].index("notation") <= 1
    named = set().union(*(symbols for symbols, _ in rows(table)))
    used: dict[str, set[str]] = {}
    for section in lesson.sections:
        if section.name in ("notation", "appendix"):
            continue
        for block in section.blocks:
            for piece in pieces_of(block):
                for name in symbols_in(piece):
                    used.setdefault(name, set()).add(section.name)
    missing = {name: sorted(where) for name, where in used.items() if not covers(named, name)}
    assert not missing, f"symbols the notation table does not name: {missing}"


def test_each_symbol_and_each_letter_has_one_row(lesson_and_table):
    _, table = lesson_and_table
    seen: dict[str, int] = {}
    for j, (symbols, _) in enumerate(rows(table)):
        for name in symbols:
            assert seen.setdefault(letter(name), j) == j, f"{name} is in two rows"


def two_uses(words: str) -> str | None:
    """What in a row's meaning joins two uses of its symbols, or None: a ";" outside
    parentheses (one inside, "(first, next; any)", lists the members of one family), or
    "in the decay" followed by "in scaling"."""
    depth = 0
    for char in words:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == ";" and depth == 0:
            return '";" outside parentheses'
    if re.search(r"\bin the decay\b.*\bin scaling\b", words):
        return '"in the decay" … "in scaling"'
    return None


def test_two_uses_in_one_row_are_caught() -> None:
    # The rows issue 29 found in module 11, before they were split.
    assert two_uses("any angle a pair is rotated by; the frequency of pair i")
    assert two_uses("in the decay, the distance m − n; in scaling, the turns L/λ_i")
    assert two_uses("in the decay, the distance m − n, and in scaling, the turns L/λ_i")
    assert two_uses("an offset, and k_0 the one a head looks back") is None
    assert two_uses("the frequency of pair i (first, next; any)") is None


def test_each_row_has_one_meaning(lesson_and_table):
    _, table = lesson_and_table
    joined = {
        ", ".join(sorted(symbols)): (words, why)
        for symbols, words in rows(table)
        if (why := two_uses(words))
    }
    assert not joined, f"rows whose meaning joins two uses (split them): {joined}"


def test_the_query_position_is_one_letter(lesson_and_table):
    _, table = lesson_and_table
    query = [s for s, words in rows(table) if "position of the query" in words]
    assert len(query) == 1 and len(query[0]) == 1, query
    (name,) = query[0]
    assert len(name) == 1, name
