"""The PDF's layout as a reader sees it: figures kept out of proofs, no dense matrix beyond 4×4,
no ceiling of an integer literal, short names never split across lines, and one-letter
variables in Unicode prose set in math italic like the formulas."""

from __future__ import annotations

import re

import pytest
import sympy as sp

from proofs.render.latex_lesson import PREAMBLE, block_tex, lesson_tex, piece_tex
from proofs.render.latex_math import latex_math
from proofs.render.lesson import build_lesson
from proofs.render.lesson_blocks import Items, Mono, ProseTable, TheoremStatement
from proofs.render.options import RenderOptions
from proofs.render.tex_prose import tex_text


def matrix_widths(tex: str) -> list[int]:
    """The number of columns of every matrix in tex."""
    widths = []
    for body in re.findall(r"\\begin\{matrix\}(.*?)\\end\{matrix\}", tex, flags=re.S):
        # A matrix inside this one (a block of diag(B, B)) is counted on its own.
        inner = re.sub(r"\\begin\{matrix\}.*?\\end\{matrix\}", "", body, flags=re.S)
        widths += [row.count("&") + 1 for row in inner.split(r"\\")]
    return widths


def test_a_head_by_head_permutation_is_shown_as_its_4_by_4_blocks():
    block = sp.Matrix([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])
    tex = latex_math(sp.diag(block, block))
    assert tex.startswith(r"\operatorname{diag}\left(") and max(matrix_widths(tex)) == 4


def test_an_interleaving_permutation_is_said_by_its_rule():
    n = 8
    interleave = sp.Matrix(n, n, lambda r, c: int(c == (r // 2 if r % 2 == 0 else 4 + r // 2)))
    tex = latex_math(interleave)
    assert r"(Px)_{2i} = x_{i}" in tex and r"(Px)_{2i+1} = x_{4+i}" in tex
    assert "matrix" not in tex
    # A dense matrix that is not a permutation is still elided, never printed whole.
    assert max(matrix_widths(latex_math(sp.Matrix(8, 8, lambda r, c: r + c + 1)))) <= 4


def test_the_ceiling_of_an_integer_is_that_integer():
    step = sp.Mul(
        2,
        sp.Add(
            sp.ceiling(sp.Integer(64), evaluate=False),
            sp.floor(sp.Rational(129, 2), evaluate=False),
            evaluate=False,
        ),
        evaluate=False,
    )
    tex = latex_math(step)
    assert r"\lceil" not in tex and "64" in tex and r"\left\lfloor{\frac{129}{2}}" in tex


def test_a_short_name_in_code_is_never_split_across_lines():
    assert "allowbreak" not in piece_tex(Mono("d_model"), False)
    assert "allowbreak" not in piece_tex(Mono("sinusoidal_pe(max_len, d_model)"), False)
    assert r"rotate\_\allowbreak{}half" in piece_tex(Mono("rotate_half"), False)
    assert r"ntk\_\allowbreak{}parameters" in piece_tex(Mono("dynamic_ntk_parameters"), False)


def test_a_list_of_code_is_set_ragged_right_and_a_list_of_prose_justified():
    code = Items((("read as ", Mono("L = 1000; m_max = 1000; base = 4300; table = true")),))
    prose = Items((("Permute ", Mono("W_k"), " with the number of key heads, not query heads"),))
    assert block_tex(code, RenderOptions()).startswith("{\\raggedright\n\\begin{itemize}")
    assert block_tex(prose, RenderOptions()).startswith("\\begin{itemize}")


@pytest.mark.parametrize(
    ("prose", "tex"),
    [
        ("any real k ≠ 0", r"any real $k \neq$ 0"),
        ("a·r(pos) for all pos", r"$a \cdot$r(pos) for all pos"),
        ("for x ∈ S.", r"for $x \in S$."),
        ("a ramp, then ≤ 1", r"a ramp, then $\leq$ 1"),
    ],
)
def test_a_one_letter_variable_beside_unicode_math_is_set_in_math_italic(prose, tex):
    assert tex_text(prose) == tex


def test_a_figure_waiting_for_room_is_set_out_before_the_next_theorem():
    statement = TheoremStatement(1, "thm", "Title", ("Every x.",), ())
    assert block_tex(statement, RenderOptions()).startswith("\\FloatBarrier\n\\begin{theorem}")
    assert "\\usepackage{flafter}" in PREAMBLE and "\\newcommand\\FloatBarrier" in PREAMBLE
    # The barrier ends the page; it does not clear it, which set a waiting figure alone on a page.
    assert "\\endgroup\\newpage\\fi}" in PREAMBLE and "\\endgroup\\clearpage" not in PREAMBLE


@pytest.mark.slow
@pytest.mark.parametrize("module", [10, 11])
def test_no_lesson_pdf_prints_a_dense_matrix_a_ceiling_of_an_integer_or_splits_d_model(
    checked_notes, lesson_tables, module
):
    for edition in ("student", "author"):
        options = RenderOptions(module=module, edition=edition)
        tex = lesson_tex(build_lesson(checked_notes, lesson_tables, options))
        assert max(matrix_widths(tex)) <= 4, (module, edition)
        assert not re.search(r"\\lceil\{?-?\d+\}?\\right\\rceil", tex), (module, edition)
        assert not re.search(r"\\lfloor\{?-?\d+\}?\\right\\rfloor", tex), (module, edition)
        assert r"d\_\allowbreak{}model" not in tex and r"max\_\allowbreak{}len" not in tex
        # Every figure sits outside the theorems and their proofs in the source.
        for theorem in re.findall(r"\\begin\{theorem\}.*?\\hfill\$\\square\$", tex, flags=re.S):
            assert "\\begin{figure}" not in theorem, (module, edition, theorem[:200])


@pytest.mark.parametrize(
    ("prose", "tex"),
    [
        ("s = e^λ", r"s = $e^{\lambda }$"),
        ("b′^0 = 1", r"$b'^{0}$ = 1"),
        ("b·(…)^(d/(d−2))", r"$b \cdot (\dots )^{d/(d- 2)}$"),
        ("10⁴^(−19/32)", r"$(10^{4})^{- 19/32}$"),
    ],
)
def test_a_power_of_a_greek_primed_bracketed_or_raised_base_is_no_literal_caret(prose, tex):
    assert tex_text(prose) == tex


def test_a_long_prose_table_may_break_across_pages_and_a_column_of_symbols_is_narrow():
    rows = tuple((("$d$",), ("the width of one attention head, even",)) for _ in range(12))
    long = block_tex(ProseTable((("Symbol",), ("Meaning",)), rows), RenderOptions())
    assert "\\begin{longtable}" in long and "\\endhead" in long
    assert long.count("p{0.2") == 1  # the symbols' column takes the narrowest share
    short = block_tex(ProseTable((("Symbol",), ("Meaning",)), rows[:3]), RenderOptions())
    assert "\\begin{tabular}" in short and "longtable" not in short
