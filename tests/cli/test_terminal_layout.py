"""The terminal printer keeps to the terminal's width, and its size does not grow with d_model."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs.definitions import POS, K, dense_shift_matrix, pe_vector
from proofs.render.terminal_math import math_lines
from proofs.render.text import render_theorem
from proofs.render.text_style import Style


@pytest.mark.parametrize("width", [80, 100, 120])
def test_every_theorem_fits_the_width(checked_notes, width):
    style = Style(width=width)
    for checked in checked_notes:
        lines = render_theorem(checked, style).splitlines()
        widest = max(lines, key=len)
        assert len(widest) <= width, f"{checked.theorem.name}: {widest!r}"


def test_the_default_run_is_not_a_flood(checked_notes):
    # Before the terminal printer was rewritten, the first eleven theorems alone took about
    # 2,000 lines, 180 a theorem; a budget per theorem holds as theorems are added.
    total = sum(len(render_theorem(c).splitlines()) for c in checked_notes)
    assert total < 130 * len(checked_notes)


def test_ascii_style_prints_only_ascii(checked_notes):
    for checked in checked_notes:
        assert render_theorem(checked, Style(unicode=False)).isascii()


def _shape(expr: sp.Basic, width: int = 80) -> tuple[int, int]:
    lines, _ = math_lines(expr, width)
    return len(lines), max(map(len, lines))


@pytest.mark.parametrize("d_model", [16, 64])
def test_whole_vector_statements_print_by_block_structure(d_model):
    lines, _ = math_lines(dense_shift_matrix(K, d_model), 80)
    text = "\n".join(lines)
    assert "diag" in text and "R(k)" in text and "⋯" in text
    assert text.count("R") == 3  # the first two blocks and the last


def test_output_size_does_not_grow_with_d_model():
    for build in (lambda d: dense_shift_matrix(K, d), lambda d: pe_vector(POS, d)):
        small, large = _shape(build(16)), _shape(build(64))
        assert large[1] <= 80 and large[0] <= small[0] + 2
    product = sp.MatMul(dense_shift_matrix(K, 64), pe_vector(POS, 64), evaluate=False)
    height, width = _shape(product)
    assert width <= 80 and height <= 20


def test_a_long_sum_keeps_its_ends():
    terms = sp.Add(*[sp.cos(K / (j + 2)) for j in range(32)])
    lines, _ = math_lines(terms, 100)
    text = "\n".join(lines)
    assert "⋯" in text and len(lines) <= 4 and max(map(len, lines)) <= 100


def test_a_matrix_too_wide_names_its_entries():
    a, b = sp.symbols("a b")
    wide = sp.ImmutableMatrix([[sp.sin(a) * sp.cos(b) + sp.cos(a) * sp.sin(b)] * 2] * 2)
    lines, _ = math_lines(wide, 40)
    assert lines[0].startswith("⎡e₁  e₂⎤") and max(map(len, lines)) <= 40
    assert any(line.startswith("e₄ = ") for line in lines)
    long_row = sp.ImmutableMatrix([[sp.sin(a + j * b) * sp.cos(a - j * b) for j in range(64)]])
    lines, _ = math_lines(long_row, 40)
    assert lines[0] == "[e₁  e₂  ⋯  e₃  e₄]" and len(lines) == 5


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rotation", "dot_product", "group"])
def test_a_large_d_model_prints_as_much_as_a_small_one(name):
    from proofs import registry

    sizes = {}
    for d_model in (8, 64):
        text = render_theorem(registry.build(name, d_model=d_model).verify(), Style(width=80))
        lines = text.splitlines()
        assert max(map(len, lines)) <= 80
        sizes[d_model] = len(lines)
    assert sizes[64] <= sizes[8] * 1.2


def test_reused_pictures_typeset_exactly_as_fresh_ones(monkeypatch) -> None:
    # The printer keeps each subexpression's picture while an expression is fitted; SymPy sets
    # the baseline of a picture it is given (a Sum's or an Integral's body), so a kept picture
    # must never be the one it changed.
    from sympy.printing.pretty.pretty import PrettyPrinter

    from proofs.render import terminal_math

    x, n, i = sp.symbols("x n i")
    body = sum(sp.sin(x / (k + 2)) ** 2 / (x + k) for k in range(6))
    exprs = [
        sp.Sum(body * i, (i, 0, n - 1)) + sp.Sum(body, (i, 0, n)) + body,
        sp.Integral(body, x) * sp.Sum(body, (i, 1, n)) - body / (1 + body),
        sp.Sum(sp.Sum(body * i, (i, 0, n)), (n, 1, 3)) + (body + 1) ** 2,
    ]
    widths = (30, 60, 100)
    kept = [terminal_math.math_lines(e, w) for e in exprs for w in widths]
    monkeypatch.setattr(terminal_math.TerminalPrinter, "_print", PrettyPrinter._print)
    fresh = [terminal_math.math_lines(e, w) for e in exprs for w in widths]
    assert kept == fresh
