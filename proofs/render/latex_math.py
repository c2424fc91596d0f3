"""Expressions in LaTeX: SymPy's printer, tuned for the notes.

Every expression is set by SymPy's LaTeX printer (NotesLatexPrinter below), with two layout
rules added: terms are ordered for reading (pos before k, sin before cos, coefficients before
variables) and large matrices are shown block-wise or with the middle elided. Wide expressions
are broken at top-level operators into rows that fit a budget in pt.

One file because it is one printer: NotesLatexPrinter (a SymPy LatexPrinter subclass) and
the layout rules that decide where its output may break.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.printing.conventions import split_super_sub
from sympy.printing.latex import LatexPrinter, greek_letters_set
from sympy.printing.precedence import PRECEDENCE, precedence_traditional
from sympy.simplify.radsimp import fraction

from proofs.render.structure import is_structured, structure_latex, structure_latex_lines
from proofs.render.tex_width import tex_width
from proofs.theorems.sinusoidal.definitions import LATEX_NAMES

Display = tuple[tuple[sp.Basic, sp.Basic], ...]

# Matrices up to this size are printed whole; larger ones block-wise or elided.
MATRIX_LIMIT = 4
# Column vectors up to this height are printed whole (PE(pos) for d_model = 8 fits).
VECTOR_LIMIT = 8
# Beyond MATRIX_LIMIT a permutation is said by its rule (permutation_rule), any other matrix
# shown block-wise or by its corners: no dense matrix beyond 4×4.
# The widths in pt an aligned row may take in the PDF (11pt article, 2cm margins, letter paper,
# a text width of about 500 pt): beside a justification column, or alone.
SIDE_BUDGET = 320.0
FULL_BUDGET = 460.0
# Symbols read in this order: the position, then the offset.
VARIABLE_RANK = {"pos": 0, "p": 0, "q": 0, "m": 0, "j": 1, "k": 2}
FUNCTION_RANK = {"sin": 0, "cos": 1}

_NAMES = {s.name: tex for s, tex in LATEX_NAMES.items()}


def _variable_rank(expr: sp.Basic) -> int:
    ranks = [VARIABLE_RANK[s.name] for s in expr.free_symbols if s.name in VARIABLE_RANK]
    return min(ranks, default=len(VARIABLE_RANK))


def _is_greek(symbol: sp.Symbol) -> bool:
    return split_super_sub(symbol.name)[0].lower() in greek_letters_set


def _is_frequency(symbol: sp.Symbol) -> bool:
    """ω_i, θ and the like: read after the position they multiply (pos·ω_i); other Greek
    letters are coefficients (αp)."""
    return _is_greek(symbol) and split_super_sub(symbol.name)[0] in ("omega", "theta")


def _factor_key(factor: sp.Basic) -> tuple[int, int, int]:
    """Reading order of a product's factors: numbers, coefficients, pos, k, frequencies, sin, cos.

    A frequency is a Greek symbol such as omega_i or a power of a number such as 10000**(-2i/d).
    """
    if factor.is_Number:
        return (0, 0, 0)
    if isinstance(factor, sp.Function):
        return (
            3,
            _variable_rank(factor),
            FUNCTION_RANK.get(type(factor).__name__, len(FUNCTION_RANK)) * 100
            + sp.count_ops(factor),
        )
    rank = _variable_rank(factor)
    if rank < len(VARIABLE_RANK):
        return (1, 1 + rank, 0)
    frequency = (isinstance(factor, sp.Symbol) and _is_frequency(factor)) or (
        factor.is_Pow and factor.base.is_Number
    )
    return (2, 0, 0) if frequency else (1, 0, 0)


def _frequency(term: sp.Basic) -> float:
    """The largest numeric rate at which a sin or cos in term turns with pos or k (0 if none).

    Orders a written-out sum over the pairs as the course does: pair 0 (ω_0 = 1) first.
    """
    rates = [0.0]
    for f in term.atoms(sp.sin, sp.cos):
        for var in f.args[0].free_symbols:
            if var.name in VARIABLE_RANK:
                rate = sp.expand(f.args[0]).coeff(var)
                if rate.is_number and rate.is_real:
                    rates.append(abs(float(rate)))
    return max(rates)


def _term_key(term: sp.Basic) -> tuple[bool, bool, int, float, tuple[int, ...]]:
    """Reading order of a sum's terms: positive first, a constant first (1 + sin x), pos before
    k, pair by pair (fastest first), then sin before cos."""
    factors = sorted(sp.Mul.make_args(term), key=_factor_key)
    trig = tuple(_factor_key(f)[2] for f in factors if isinstance(f, sp.Function))
    return (
        term.could_extract_minus_sign(),
        not term.is_number,
        _variable_rank(term),
        -_frequency(term),
        trig,
    )


def _numeric_base(factor: sp.Basic) -> bool:
    """A number or a power of a number: two of them side by side need a \\cdot."""
    return factor.is_Number or (factor.is_Pow and factor.base.is_Number)


def _upright(factor: sp.Basic) -> bool:
    return isinstance(factor, sp.Symbol) and _NAMES.get(factor.name, "").startswith(r"\mathrm")


class NotesLatexPrinter(LatexPrinter):
    """SymPy's LaTeX printer with the notes' symbol names, reading order and matrix layout."""

    def __init__(
        self, names: Mapping[str, str] | None = None, display: Display = (), *, fold: bool = False
    ) -> None:
        super().__init__({"symbol_names": LATEX_NAMES})
        self.names = {**_NAMES, **(names or {})}
        # Fractions in a superscript or a sum's limits (and, with fold, everywhere: inline math
        # in prose) are set on the line, a/b, not stacked.
        self.fold = fold
        self.script = 0
        # Display substitutions are applied while printing, not by rebuilding the expression:
        # rebuilding would re-evaluate a step kept unevaluated to show a rule (cos(−x) = cos x).
        self.display = {old: new for old, new in display}
        self.display.update({1 / old: 1 / new for old, new in display})

    def _print(self, expr: object, **kwargs: object) -> str:
        if self.display and isinstance(expr, sp.Basic) and expr in self.display:
            expr = self.display[expr]
        return super()._print(expr, **kwargs)

    def _in_script(self, expr: sp.Basic) -> str:
        self.script += 1
        try:
            return self._print(expr)
        finally:
            self.script -= 1

    def _helper_print_standard_power(self, expr: sp.Pow, template: str) -> str:
        exponent = self._in_script(expr.exp)
        base = self.parenthesize(expr.base, precedence_traditional(expr))
        if expr.base.is_Symbol:
            base = self.parenthesize_super(base)
        return template % (base, exponent)

    def _print_Sum(self, expr: sp.Sum) -> str:
        if len(expr.limits) != 1:
            return super()._print_Sum(expr)
        index, low, high = (self._in_script(e) for e in expr.limits[0])
        body = self._print(expr.function)
        if isinstance(expr.function, sp.Add):
            body = rf"\left({body}\right)"
        return rf"\sum_{{{index}={low}}}^{{{high}}} {body}"

    def _print_Function(self, expr: sp.Basic, exp: str | None = None) -> str:
        tex = super()._print_Function(expr, exp)
        # A named function of the lesson (PE, R, r) takes plain brackets around a short argument,
        # so R(kω_0) and R(kω_{d/2−1}) match; \left( \right) only around a tall one.
        match = re.fullmatch(r"(.*?)\{\\left\((.*) \\right\)\}", tex, flags=re.S)
        if isinstance(expr, AppliedUndef) and match and not re.search(r"\\frac|matrix", match[2]):
            return f"{match[1]}({match[2]})"
        return tex

    def _print_re(self, expr: sp.Basic, exp: str | None = None) -> str:
        # The real part as an upright Re (SymPy sets a lowercase re, easily read as a product).
        tex = r"\operatorname{Re}" + self.parenthesize(expr.args[0], PRECEDENCE["Atom"])
        return self._do_exponent(tex, exp)

    def _print_Rational(self, expr: sp.Rational) -> str:
        if expr.q != 1 and (self.script or self.fold):
            return f"{'- ' if expr.p < 0 else ''}{abs(expr.p)}/{expr.q}"
        return super()._print_Rational(expr)

    def _print_Transpose(self, expr: sp.Basic) -> str:
        return rf"{self.parenthesize(expr.arg, precedence_traditional(expr))}^{{\mathsf{{T}}}}"

    def _fraction(self, numer: sp.Basic, denom: sp.Basic) -> str:
        """numer/denom: stacked in display, on the line in a script or folded inline math."""
        if not (self.script or self.fold):
            return rf"\frac{{{self._product(numer)}}}{{{self._product(denom)}}}"
        top = self._product(numer)
        if isinstance(numer, sp.Add):
            top = rf"\left({top}\right)"
        bottom = self._product(denom)
        if isinstance(denom, sp.Add) or len(sp.Mul.make_args(denom)) > 1:
            bottom = rf"\left({bottom}\right)"
        return f"{top}/{bottom}"

    def _print_Symbol(self, expr: sp.Symbol, style: str = "plain") -> str:
        # Theorems may use a variant of pos or k with extra assumptions; set it the same way.
        if expr.name in self.names:
            return self.names[expr.name]
        return super()._print_Symbol(expr, style=style)

    def _as_ordered_terms(self, expr: sp.Basic, order: str | None = None) -> list[sp.Basic]:
        terms = sorted(super()._as_ordered_terms(expr, order=order), key=_term_key)
        if not any(t.atoms(sp.Function) for t in terms):
            # A polynomial reads constant last, as the module writes it: 2i + 1, d/2 − 1.
            terms = [t for t in terms if not t.is_number] + [t for t in terms if t.is_number]
        return terms

    def _negated_sine(self, expr: sp.Mul) -> str | None:
        """−sin(k − pos) printed as sin(pos − k): the module's way round."""
        if len(expr.args) == 2 and expr.args[0] == -1 and isinstance(expr.args[1], sp.sin):
            arg = expr.args[1].args[0]
            leading = [
                s for s in arg.free_symbols if VARIABLE_RANK.get(s.name) == _variable_rank(arg)
            ]
            if isinstance(arg, sp.Add) and leading and arg.coeff(leading[0]).is_negative:
                return rf"\sin{{\left({self._print(-arg)} \right)}}"
        return None

    def _print_Mul(self, expr: sp.Basic) -> str:
        if isinstance(expr, sp.Pow) and expr.exp == -1 and (self.script or self.fold):
            base = self._print(expr.base)
            return f"1/{base}" if not isinstance(expr.base, sp.Add) else rf"1/\left({base}\right)"
        if not isinstance(expr, sp.Mul):
            return super()._print_Mul(expr)  # SymPy routes some powers through here
        if sp.Mul(*expr.args).args != expr.args:
            # A product left unevaluated to show a form: keep its factors, only reorder them.
            if expr.args[0] == -1:
                return "- " + self._product(sp.Mul(*expr.args[1:], evaluate=False))
            return self._product(expr)
        flipped = self._negated_sine(expr)
        if flipped is not None:
            return flipped
        if expr.could_extract_minus_sign():
            inner = -expr
            tex = self._print(inner)
            return "- " + (rf"\left({tex}\right)" if inner.is_Add else tex)
        numer, denom = fraction(expr, exact=True)
        if denom == 1:
            return self._product(expr)
        return self._fraction(numer, denom)

    def _product(self, expr: sp.Basic) -> str:
        factors = sorted(sp.Mul.make_args(expr), key=_factor_key)
        out = []
        for j, factor in enumerate(factors):
            tex = self._print(factor)
            if len(factors) > 1 and self._needs_mul_brackets(
                factor, first=j == 0, last=j == len(factors) - 1
            ):
                tex = rf"\left({tex}\right)"
            if out and (
                (_numeric_base(factors[j - 1]) and _numeric_base(factor))
                or (factors[j - 1].is_number and factor.is_Pow and factor.base.is_Number)
                or (out[-1].startswith(r"\frac") and tex.startswith(r"\frac"))
            ):
                out.append(r"\cdot")
            elif out and (
                _upright(factors[j - 1]) or _upright(factor) or isinstance(factor, AppliedUndef)
            ):
                out.append(r"\,")  # a thin space keeps pos and omega_i, or a and r(pos), apart
            out.append(tex)
        return " ".join(out)

    def _print_MatrixBase(self, expr: sp.MatrixBase) -> str:
        rows, cols = expr.shape
        if (cols == 1 and rows <= VECTOR_LIMIT) or (rows <= MATRIX_LIMIT and cols <= MATRIX_LIMIT):
            return super()._print_MatrixBase(expr)
        rule = permutation_rule(expr, self._print)
        if rule is not None:
            return rule
        if cols == 1:
            cells = [[self._print(e)] for e in expr[: VECTOR_LIMIT // 2]]
            cells += [[r"\vdots"]] + [[self._print(e)] for e in expr[-2:]]
            return _matrix(cells)
        blocks = diagonal_blocks(expr)
        if len(blocks) > 1:
            return self._block_diagonal(expr, blocks)
        return self._corners(expr)

    def _block_diagonal(self, expr: sp.MatrixBase, blocks: list[tuple[int, int]]) -> str:
        # Blank entries are zero blocks; past three blocks, only the first and last are shown.
        chosen = [blocks[0], None, blocks[-1]] if len(blocks) > 3 else list(blocks)
        cells = []
        for j, block in enumerate(chosen):
            row = [""] * len(chosen)
            row[j] = (
                r"\ddots"
                if block is None
                else self._print(sp.ImmutableMatrix(expr[block[0] : block[1], block[0] : block[1]]))
            )
            cells.append(row)
        return _matrix(cells)

    def _corners(self, expr: sp.MatrixBase) -> str:
        rows, cols = expr.shape
        keep_r = [0, 1, None, rows - 1] if rows > MATRIX_LIMIT else list(range(rows))
        keep_c = [0, 1, None, cols - 1] if cols > MATRIX_LIMIT else list(range(cols))
        cells = []
        for r in keep_r:
            row = []
            for c in keep_c:
                if r is None and c is None:
                    row.append(r"\ddots")
                elif r is None:
                    row.append(r"\vdots")
                elif c is None:
                    row.append(r"\cdots")
                else:
                    row.append(self._print(expr[r, c]))
            cells.append(row)
        return _matrix(cells)


def permutation_rule(
    matrix: sp.MatrixBase, show: Callable[[sp.MatrixBase], str] = sp.latex
) -> str | None:
    r"""A permutation matrix beyond MATRIX_LIMIT said without printing it whole, or None for any
    other matrix: the same small block down the diagonal (one per head) as diag(B, B), shown by
    show; the interleaving of the two halves and its inverse by their rule; any other
    permutation by the index each entry of Px comes from.

    >>> interleave = sp.Matrix(6, 6, lambda r, c: int(c == (r // 2 if r % 2 == 0 else 3 + r // 2)))
    >>> permutation_rule(interleave)
    'P\\ \\text{with}\\ (Px)_{2i} = x_{i},\\ (Px)_{2i+1} = x_{3+i}\\ (0 \\le i < 3)'
    >>> permutation_rule(interleave.T)
    'P\\ \\text{with}\\ (Px)_{i} = x_{2i},\\ (Px)_{3+i} = x_{2i+1}\\ (0 \\le i < 3)'
    >>> permutation_rule(sp.diag(sp.Matrix([[0, 1], [1, 0]]), sp.Matrix([[0, 1], [1, 0]])))
    '\\operatorname{diag}\\left(\\left[\\begin{matrix}0 & 1\\\\1 & 0\\end{matrix}\\right], \\left[\\begin{matrix}0 & 1\\\\1 & 0\\end{matrix}\\right]\\right)'
    >>> permutation_rule(sp.Matrix([[0, 1, 0], [1, 0, 0], [0, 0, 1]])), permutation_rule(2 * sp.eye(2))
    ('P\\ \\text{with}\\ Px = (x_{1}, x_{0}, x_{2})', None)
    """
    n = matrix.rows
    if matrix.cols != n or not all(e in (0, 1) for e in matrix):
        return None
    source = []
    for r in range(n):
        ones = [c for c in range(n) if matrix[r, c] == 1]
        if len(ones) != 1:
            return None
        source.append(ones[0])
    if sorted(source) != list(range(n)):
        return None
    for size in range(2, MATRIX_LIMIT + 1):
        if n % size or n == size:
            continue
        first = matrix[:size, :size]
        if sp.diag(*[first] * (n // size)) == matrix:
            shown = [show(first)] * (n // size)
            inner = ", ".join(shown) if len(shown) <= 3 else f"{shown[0]}, \\dots, {shown[0]}"
            return rf"\operatorname{{diag}}\left({inner}\right)"
    h = n // 2
    bound = rf"\ (0 \le i < {h})"
    if n % 2 == 0 and source == [i if r % 2 == 0 else h + i for i in range(h) for r in (0, 1)]:
        return rf"P\ \text{{with}}\ (Px)_{{2i}} = x_{{i}},\ (Px)_{{2i+1}} = x_{{{h}+i}}{bound}"
    if n % 2 == 0 and source == [2 * i for i in range(h)] + [2 * i + 1 for i in range(h)]:
        return rf"P\ \text{{with}}\ (Px)_{{i}} = x_{{2i}},\ (Px)_{{{h}+i}} = x_{{2i+1}}{bound}"
    entries = ", ".join(f"x_{{{c}}}" for c in source)
    return rf"P\ \text{{with}}\ Px = ({entries})"


def _matrix(cells: list[list[str]]) -> str:
    body = r" \\ ".join(" & ".join(row) for row in cells)
    return rf"\left[\begin{{matrix}}{body}\end{{matrix}}\right]"


def diagonal_blocks(matrix: sp.MatrixBase) -> list[tuple[int, int]]:
    """The [start, stop) ranges of the finest square block-diagonal partition of matrix."""
    n = matrix.rows
    if matrix.cols != n:
        return [(0, n)]
    blocks = []
    start = 0
    stop = 1
    while start < n:
        # Grow the block until nothing couples it to the rows and columns after it.
        while stop < n and any(
            matrix[r, c] != 0 or matrix[c, r] != 0
            for r in range(start, stop)
            for c in range(stop, n)
        ):
            stop += 1
        blocks.append((start, stop))
        start, stop = stop, stop + 1
    return blocks


def latex_math(
    expr: sp.Basic,
    display: Display = (),
    names: Mapping[str, str] | None = None,
    *,
    fold: bool = False,
) -> str:
    """expr set by the notes' SymPy printer, after the derivation's display substitutions.

    names: extra symbol name -> LaTeX pairs (the lesson's names for vectors and matrices).
    fold: fractions on the line, a/b (inline math in prose).
    """
    if is_structured(expr):
        return structure_latex(expr)
    return NotesLatexPrinter(names, display, fold=fold).doprint(integer_brackets_dropped(expr))


def integer_brackets_dropped(expr: sp.Basic) -> sp.Basic:
    r"""expr with the ceiling or floor of an integer literal, kept unevaluated in a step, written
    as that integer (⌈64⌉ is 64); nothing else is evaluated.

    >>> step = sp.Mul(2, sp.ceiling(sp.Integer(64), evaluate=False), evaluate=False)
    >>> latex_math(step)
    '2 \\cdot 64'
    """
    if not isinstance(expr, sp.Basic):
        return expr
    literal = {b: b.args[0] for b in expr.atoms(sp.ceiling, sp.floor) if b.args[0].is_Integer}
    if not literal:
        return expr
    with sp.evaluate(False):
        return expr.xreplace(literal)


def _pieces(printer: NotesLatexPrinter, expr: sp.Basic) -> tuple[list[str], str, str] | None:
    """expr split where a line may break: a sum into signed terms, a product of matrices into
    factors, a 1×1 matrix into the terms of its entry (with the bracket around them).

    Returns (pieces, opening, closing); each piece after the first starts with its operator.
    None when expr has no top-level place to break.
    """
    if isinstance(expr, sp.MatrixBase) and expr.shape == (1, 1) and expr[0, 0].is_Add:
        inner = _pieces(printer, expr[0, 0])
        return None if inner is None else (inner[0], r"\left[", r"\right]")
    if isinstance(expr, sp.Add):
        pieces = []
        for term in printer._as_ordered_terms(expr):
            sign = "- " if term.could_extract_minus_sign() else "+ "
            body = -term if sign == "- " else term
            tex = printer._print(body)
            if printer._needs_add_brackets(body):
                tex = rf"\left({tex}\right)"
            pieces.append(tex if not pieces and sign == "+ " else sign + tex)
        return pieces, "", ""
    if isinstance(expr, sp.MatMul):
        factors = [printer.parenthesize(f, precedence_traditional(expr)) for f in expr.args]
        return [factors[0]] + [r"\cdot " + f for f in factors[1:]], "", ""
    return None


def math_lines(
    expr: sp.Basic,
    display: Display = (),
    budget: float = FULL_BUDGET,
    names: Mapping[str, str] | None = None,
) -> list[str]:
    """expr as one or more lines of at most budget pt where it can break (see _pieces).

    Lines after the first start with \\quad and the operator that continues the expression,
    ready for the aligned rows of a derivation: "&\\quad + ...".
    """
    if is_structured(expr):
        return structure_latex_lines(expr)
    printer = NotesLatexPrinter(names, display=display)
    expr = integer_brackets_dropped(expr)
    whole = printer.doprint(expr)
    split = _pieces(printer, expr) if tex_width(whole) > budget else None
    if split is None:
        return [whole]
    pieces, opening, closing = split
    lines = [pieces[0]]
    for piece in pieces[1:]:
        joined = f"{lines[-1]} {piece}"
        if tex_width(joined) + 20.0 > budget:
            lines.append(r"\quad {} " + piece)  # {} keeps the operator binary
        else:
            lines[-1] = joined
    return _bracketed(lines, opening, closing)


def _bracketed(lines: list[str], opening: str, closing: str) -> list[str]:
    if not opening:
        return lines
    if len(lines) == 1:
        return [f"{opening} {lines[0]} {closing}"]
    # \left and \right must pair within each aligned row.
    out = [rf"{opening} {lines[0]} \right."]
    out += [rf"\left. {line} \right." for line in lines[1:-1]]
    out.append(rf"\left. {lines[-1]} {closing}")
    return out


# A row that cannot break and is still wider than its budget is scaled down, but never below.
SMALLEST_SCALE = 0.6


def fit(row: str, budget: float = 0.85 * FULL_BUDGET) -> str:
    """An aligned row ("& ..." or "&= ...") scaled to budget pt if it cannot fit otherwise.

    For the PDF only: \\scalebox is graphicx, which MathJax and KaTeX do not have.
    """
    lead, _, body = row.partition(" ")
    width = tex_width(body)
    if width <= budget or not lead.startswith("&"):
        return row
    scale = max(SMALLEST_SCALE, budget / width)
    return rf"{lead} \scalebox{{{scale:.2f}}}{{$\displaystyle {body}$}}"
