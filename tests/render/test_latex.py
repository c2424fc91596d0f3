"""The LaTeX backend: SymPy-printed math in reading order, readable matrices, sound structure."""

from __future__ import annotations

import re
from functools import cache

import pytest
import sympy as sp

from numeric.result_table import Table
from proofs.engine.facts import Blockwise
from proofs.render import (
    latex_chains,
    latex_lesson,
    latex_math,
    latex_tables,
    tex_prose,
    tex_width,
)
from proofs.render.lesson_blocks import TableBlock
from proofs.render.steps import step_text
from proofs.theorems.sinusoidal import rotation
from proofs.theorems.sinusoidal.definitions import D_MODEL, OMEGA_I, POS, K, dense_shift_matrix


@cache
def rotation_result():
    return rotation.build(d_model=8).verify()


def balanced(tex: str) -> bool:
    stack = []
    for kind, env in re.findall(r"\\(begin|end)\{([^}]*)\}", tex):
        if kind == "begin":
            stack.append(env)
        elif not stack or stack.pop() != env:
            return False
    return not stack


def test_symbol_names_read_well():
    assert latex_math.latex_math(POS) == r"\mathrm{pos}"
    assert latex_math.latex_math(D_MODEL) == r"d_{\mathrm{model}}"
    assert latex_math.latex_math(OMEGA_I) == r"\omega_{i}"
    # A variant of pos with other assumptions is set the same way.
    assert latex_math.latex_math(sp.Symbol("pos", nonzero=True)) == r"\mathrm{pos}"


def test_reading_order_sin_before_cos_and_pos_before_k():
    d = rotation.pair_derivation()
    product = latex_math.latex_math(d.steps[1].expr, d.display)
    first_row = product.split(r"\\")[0]
    assert first_row.index(r"\sin{\left(\mathrm{pos}") < first_row.index(r"\cos{\left(k")
    assert first_row.index(r"\sin{\left(\mathrm{pos}") < first_row.index(r"\cos{\left(\mathrm{pos}")
    summed = latex_math.latex_math(d.steps[2].expr, d.display)
    assert r"\mathrm{pos} \, \omega_{i} + k \omega_{i}" in summed
    factored = latex_math.latex_math(d.steps[3].expr, d.display)
    assert r"\left(\mathrm{pos} + k\right) \omega_{i}" in factored
    # cos a cos b - sin a sin b: the positive term first.
    second_row = product.split(r"\\")[1]
    assert second_row.index(r"\cos") < second_row.index("-")


def test_rotation_matrix_comes_before_the_vector():
    d = rotation.pair_derivation()
    lhs = latex_math.latex_math(d.lhs, d.display)
    assert lhs.index(r"\cos{\left(k \omega_{i}") < lhs.index(r"\sin{\left(\mathrm{pos}")


def test_block_diagonal_m_k_is_shown_block_wise_with_the_middle_elided():
    tex = latex_math.latex_math(dense_shift_matrix(K, 8))
    assert r"\ddots" in tex
    assert r"\frac{k}{1000}" in tex and r"\frac{k}{100}" not in tex
    assert latex_math.diagonal_blocks(dense_shift_matrix(K, 8)) == [(0, 2), (2, 4), (4, 6), (6, 8)]


def test_small_matrices_print_whole_and_dense_large_ones_by_corners():
    assert r"\ddots" not in latex_math.latex_math(dense_shift_matrix(K, 4))
    # A permutation beyond 4 by 4 is said by where each entry of Px comes from, not printed.
    cycle = latex_math.latex_math(sp.ImmutableMatrix(8, 8, lambda r, c: int(c == (r + 1) % 8)))
    assert "matrix" not in cycle and cycle.endswith(
        "Px = (x_{1}, x_{2}, x_{3}, x_{4}, x_{5}, x_{6}, x_{7}, x_{0})"
    )
    dense = sp.ImmutableMatrix(6, 6, lambda r, c: sp.sin((r + c + 1) * POS))
    assert latex_math.diagonal_blocks(dense) == [(0, 6)]
    tex = latex_math.latex_math(dense)
    assert r"\cdots" in tex and r"\vdots" in tex and r"\ddots" in tex


def test_estimated_widths_grow_with_the_expression():
    short = tex_width.tex_width(latex_math.latex_math(sp.sin(POS)))
    assert 15 < short < 60
    assert tex_width.tex_width(latex_math.latex_math(sp.sin(POS) + sp.cos(POS))) > 2 * short


def test_a_long_sum_breaks_into_continuation_rows_within_the_budget():
    d = sp.Symbol("d")
    long_sum = sum(sp.sin(POS / 10**j) * sp.sin((POS + K) / 10**j) for j in range(8))
    lines = latex_math.math_lines(sp.ImmutableMatrix([[long_sum]]), budget=300)
    assert len(lines) > 2
    assert lines[0].startswith(r"\left[") and lines[-1].endswith(r"\right]")
    assert all(r"\quad {} + " in line for line in lines[1:])
    assert all(tex_width.tex_width(line) <= 300 for line in lines)
    # Pair by pair, fastest first: sin(pos) sin(pos + k) leads.
    assert lines[0].startswith(r"\left[ \sin{\left(\mathrm{pos} \right)}")
    assert latex_math.math_lines(long_sum + d, budget=10_000) == [
        latex_math.latex_math(long_sum + d)
    ]


def test_long_vectors_are_elided():
    tex = latex_math.latex_math(sp.ImmutableMatrix([sp.Symbol(f"x{j}") for j in range(20)]))
    assert r"\vdots" in tex and "x_{19}" in tex and "x_{10}" not in tex


def test_prose_is_escaped_and_unicode_math_is_set():
    assert tex_prose.tex_text("50% & $5 #1") == r"50\% \& \$5 \#1"
    assert tex_prose.tex_text("d_model") == r"$d_{\mathrm{model}}$"
    assert tex_prose.tex_text("R(kω_i)") == r"R($k \omega_{i}$)"  # k in math italic too
    assert tex_prose.tex_text("k ≠ 0") == r"$k \neq$ 0"  # the variable in math italic, not upright
    assert (
        tex_prose.tex_text("M_j·M_kᵀ = M_(j+k)") == r"$M_{j} \cdot M_{k} ^{\mathsf{T}}$ = $M_{j+k}$"
    )
    assert tex_prose.tex_text("rotation_table") == r"rotation\_table"
    assert tex_prose.tex_text("2^-53") == r"$2^{-53}$"
    with pytest.raises(ValueError, match="U\\+2603"):
        tex_prose.tex_text("snow ☃")


def test_derivation_is_an_align_chain_with_text_justifications():
    d = rotation.pair_derivation()
    rows = latex_chains.derivation_rows(d)
    assert balanced("\n".join(rows))
    assert len(rows) == len(d.steps)
    for row, step in zip(rows[1:], d.steps[1:], strict=True):
        assert "&= " in row and r"&& \text{" in row
        assert tex_prose.tex_text(step_text(step)) in row


def test_table_is_booktabs_with_numbers_in_math():
    table = Table(
        "t", ("k", "residual", "ok"), ((1, -2.5e-16, True), (-3, 0.5, False)), (".0f", ".2e", "")
    )
    tex = latex_lesson.table_tex(TableBlock(table, "caption"))
    assert all(rule in tex for rule in (r"\toprule", r"\midrule", r"\bottomrule"))
    assert r"$-2.50\times 10^{-16}$" in tex and "$-3$" in tex
    assert r"\begin{tabular}{@{}rrl@{}}" in tex and balanced(tex)
    assert "check passed" not in tex  # a passed check is not stated in the body


def test_wide_tables_of_text_wrap_their_text_columns():
    table = Table(
        "wide",
        ("used by", "source", "n"),
        (
            (
                "a library with a long name and more words",
                "a/very/long/path/to/the/source/file.py function_name",
                1,
            ),
        ),
    )
    tex = latex_lesson.table_tex(TableBlock(table, "caption"))
    assert tex.count(r"p{") == 2 and r"\resizebox" not in tex and balanced(tex)


def test_polynomials_read_constant_last_as_the_module_writes_them():
    i = sp.Symbol("i", integer=True, nonnegative=True)
    assert latex_math.latex_math(2 * i + 1) == "2 i + 1"
    assert latex_math.latex_math(D_MODEL / 2 - 1).endswith("- 1")
    assert latex_math.latex_math(1 + sp.sin(POS)).startswith("1 + ")


def test_a_block_structured_fact_prints_by_its_blocks():
    result = rotation_result()
    blockwise = [p for p in result.theorem.parts if isinstance(p, Blockwise)]
    assert blockwise
    for part in blockwise:
        (caption, rows), *_ = latex_chains.shown_fact(part)
        tex = "\n".join(rows)
        assert caption.startswith("Block by block") and r"\operatorname{diag}" in tex
        assert r"\dots" in tex and balanced(tex) and "Matrix" not in tex


def test_a_negated_sine_reads_sin_of_pos_minus_k():
    tex = latex_math.latex_math(-sp.sin(K - POS))
    assert tex == r"\sin{\left(\mathrm{pos} - k \right)}"
    assert latex_math.latex_math(-sp.sin(K)) == r"- \sin{\left(k \right)}"


def test_display_substitution_does_not_re_evaluate_a_step_kept_for_show():
    w = sp.Integer(10000) ** (-2 * sp.Symbol("i", integer=True, nonnegative=True) / D_MODEL)
    minus = sp.Mul(-1, K, w, evaluate=False)
    tex = latex_math.latex_math(sp.cos(minus, evaluate=False), ((w, OMEGA_I),))
    assert tex == r"\cos{\left(- k \omega_{i} \right)}"


def test_two_powers_of_numbers_side_by_side_get_a_dot():
    a = sp.Pow(10000, sp.Symbol("x"), evaluate=False)
    b = sp.Pow(10000, sp.Symbol("y"), evaluate=False)
    assert r"\cdot" in latex_math.latex_math(sp.Mul(a, b, evaluate=False))


def test_extra_names_set_whole_objects():
    tex = latex_math.latex_math(sp.Symbol("M_kT", commutative=False), names={"M_kT": "M_{k}^{T}"})
    assert tex == "M_{k}^{T}"


def test_a_cell_starting_with_a_bracket_is_not_read_as_a_row_skip():
    assert latex_tables.cell_tex("[sin | cos]", "").startswith("{}[")
    assert latex_tables.cell_tex("paper", "") == "paper"
