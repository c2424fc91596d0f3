"""The terminal printer keeps to the terminal's width, and its size does not grow with d_model."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs.render.terminal_math import math_lines
from proofs.render.text import render_summary, render_theorem, summary_table
from proofs.render.text_style import Style
from proofs.theorems.sinusoidal.definitions import POS, K, dense_shift_matrix, pe_vector


@pytest.mark.parametrize(
    "width",
    [80, pytest.param(100, marks=pytest.mark.slow), pytest.param(120, marks=pytest.mark.slow)],
)
def test_every_theorem_fits_the_width(checked_notes, width):
    style = Style(width=width)
    for checked in checked_notes:
        lines = render_theorem(checked, style).splitlines()
        widest = max(lines, key=len)
        assert len(widest) <= width, f"{checked.theorem.name}: {widest!r}"


@pytest.mark.parametrize("width", [80, 100, 120])
def test_every_summary_fits_the_width(checked_notes, width):
    style = Style(width=width)
    for checked in checked_notes:
        lines = render_summary(checked, style).splitlines()
        assert max(map(len, lines)) <= width, checked.theorem.name
        assert len(lines) <= 9, checked.theorem.name


@pytest.mark.slow
def test_every_chain_is_not_a_flood(checked_notes):
    # Before the terminal printer was rewritten, the theorems alone took about 2,000 lines.
    total = sum(len(render_theorem(c).splitlines()) for c in checked_notes)
    assert total < 130 * len(checked_notes)


def test_the_closing_total_is_the_wall_clock_time(checked_notes):
    # The theorems run in parallel: their times add up to more than the run took.
    table = summary_table(list(checked_notes), 0.5, Style())
    total = table.splitlines()[-2]
    assert total.startswith("total") and total.endswith("0.5 s")
    assert sum(c.seconds for c in checked_notes) > 0.5


@pytest.mark.slow
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
    assert lines[0].startswith("⎡e_1  e_2⎤") and max(map(len, lines)) <= 40
    assert any(line.startswith("e_4 = ") for line in lines)
    long_row = sp.ImmutableMatrix([[sp.sin(a + j * b) * sp.cos(a - j * b) for j in range(64)]])
    lines, _ = math_lines(long_row, 40)
    assert lines[0] == "[e_1  e_2  ⋯  e_3  e_4]" and len(lines) == 5


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


@pytest.mark.slow
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


def test_the_printer_writes_products_and_numbers_as_the_prose_does():
    omega, k, pos, d = sp.symbols("omega_i k pos d_model")

    def text(expr: sp.Basic) -> str:
        return "\n".join(math_lines(expr, 80)[0])

    assert text(sp.sin(omega * (k + pos))) == "sin((pos + k)·ω_i)"
    assert text(sp.ImmutableMatrix([[sp.cos(k * omega)]])) == "cos(k·ω_i)"
    # A step kept unevaluated shows its numbers, but no factor 1 and no ⋅1/10.
    shown = sp.sin(sp.Mul(1, pos + 2000 * sp.pi, evaluate=False))
    assert text(shown) == "sin(pos + 2000·π)"
    tenth = text(sp.sin(sp.Mul(sp.Rational(1, 10), pos, evaluate=False)))
    assert "1·" not in tenth and "10" in tenth
    exponent = text(sp.Pow(10000, sp.Mul(-1, 0, 2, 1 / d, evaluate=False), evaluate=False))
    assert "2·0" in exponent and "·1" not in exponent
    # A power of ten with many digits is 10ⁿ.
    small = text(sp.Symbol("sigma") / 10**21)
    assert "10000000" not in small and "21" in small
