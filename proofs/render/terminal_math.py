"""Math for the terminal: SymPy's pretty printer with rules for large matrices and long sums,
broken where it may break to fit the terminal's width.

Large matrices print by their block structure or with the middle elided, long sums with their
middle terms elided, so the output does not grow with d_model.

One file because it is one printer: SymPy's PrettyPrinter subclass with the rules for large
matrices and long sums, and the width fitting that uses them.
"""

from __future__ import annotations

import copy
import textwrap

import sympy as sp
from sympy.printing.conventions import split_super_sub
from sympy.printing.precedence import PRECEDENCE, precedence_traditional
from sympy.printing.pretty.pretty import PrettyPrinter
from sympy.printing.pretty.pretty_symbology import pretty_use_unicode
from sympy.printing.pretty.stringpict import prettyForm

# The notes' reading order (pos before k, coefficients before frequencies, sin before cos),
# so that the terminal writes (pos + k)·ω_i as the notes and the module do.
from proofs.render.latex_math import _factor_key as factor_key
from proofs.render.latex_math import _term_key as term_key
from proofs.render.structure import is_structured, structure_text
from proofs.render.text_style import DEFAULT_WIDTH, Style, ascii_text

# ---- typeset math ------------------------------------------------------------------------------

# Matrices larger than this (rows or columns) print by block structure or elided.
MATRIX_LIMIT = 4
# A column or row with more entries than this, or a column taller than VECTOR_HEIGHT lines,
# keeps its first and last ELIDED_KEEP entries with a ⋮ or ⋯ between them.
VECTOR_LIMIT = 8
VECTOR_HEIGHT = 16
ELIDED_KEEP = 2
# A diag(...) of more blocks than this shows the first two and the last.
BLOCK_LIMIT = 4
# A sum of more terms than this shows its first three and last two terms around ⋯.
SUM_LIMIT = 8
# A power of ten at least this large prints as 10ⁿ, not as its digits.
POWER_OF_TEN = 10**7
# In Unicode, the prose's product dot and minus sign, not SymPy's ⋅ and hyphen.
UNICODE_SIGNS = str.maketrans({"⋅": "·", "-": "−"})


def _rotation(block: sp.MatrixBase) -> tuple[sp.Expr, bool] | None:
    """(θ, transposed) if block is the module's R(θ) = [[cos θ, sin θ], [-sin θ, cos θ]] or its
    transpose, else None."""
    if block.shape != (2, 2) or not isinstance(block[0, 0], sp.cos):
        return None
    theta = block[0, 0].args[0]
    c, s = sp.cos(theta), sp.sin(theta)
    if tuple(block) == (c, s, -s, c):
        return theta, False
    if tuple(block) == (c, -s, s, c):
        return theta, True
    return None


def diagonal_blocks(matrix: sp.MatrixBase) -> list[tuple[int, int]]:
    """The [start, stop) ranges of the finest square block-diagonal partition of matrix."""
    n = matrix.rows
    if matrix.cols != n:
        return [(0, n)]
    # last[r]: the furthest row or column coupled to row r; a block ends where none reaches on.
    last = [
        max([c for c in range(n) if matrix[r, c] != 0 or matrix[c, r] != 0], default=r)
        for r in range(n)
    ]
    blocks, start, reach = [], 0, 0
    for r in range(n):
        reach = max(reach, last[r])
        if reach == r:
            blocks.append((start, r + 1))
            start = r + 1
    return blocks


class TerminalPrinter(PrettyPrinter):
    """SymPy's pretty printer with this module's rules for large matrices and long sums.

    budget: the columns an expression may take; a matrix wider than that prints by its block
    structure or with its middle elided.
    """

    def __init__(self, unicode: bool, budget: int = DEFAULT_WIDTH) -> None:
        super().__init__({"use_unicode": unicode, "wrap_line": False})
        self.unicode = unicode
        self.budget = budget
        self._keep_order: set[int] = set()
        self._typeset: dict[sp.Basic, prettyForm] = {}

    def _print(self, expr: object, **kwargs: object) -> prettyForm:
        # _fit typesets an expression whole, and again piece by piece when it is too wide: each
        # picture is made once per printer. SymPy's printer sets the baseline of a picture it
        # was given (a Sum's body), so each use gets a copy. Matrices depend on the budget:
        # anything holding one is typeset afresh.
        if kwargs or not isinstance(expr, sp.Basic) or expr.has(sp.MatrixBase, sp.MatrixExpr):
            return super()._print(expr, **kwargs)
        form = self._typeset.get(expr)
        if form is None:
            form = self._typeset[expr] = super()._print(expr)
        return copy.copy(form)

    def _print_Symbol(self, e: sp.Symbol, bold_name: bool = False) -> prettyForm:
        # d_model and max_len are words, not d with subscript "model".
        head, _, tail = e.name.partition("_")
        if head and len(tail) > 1 and tail.isalpha():
            return prettyForm(e.name)
        base, sups, subs = split_super_sub(e.name)
        if self.unicode and subs and not sups:
            # A subscript as the prose writes it: ω_i, ω_(i+1), a_11, not ωᵢ.
            index = "".join(subs)
            index = index if index.isalnum() else f"({index})"
            return prettyForm(super()._print_Symbol(sp.Symbol(base)).s + "_" + index)
        return super()._print_Symbol(e, bold_name)

    def _print_Rational(self, expr: sp.Rational) -> prettyForm:
        # 10²¹, not 1000000000000000000000: a Vandermonde system's denominators stay readable.
        if expr.q == 1 and abs(expr.p) >= POWER_OF_TEN and _power_of_ten(abs(expr.p)):
            power = self._print(sp.Pow(10, len(str(abs(expr.p))) - 1, evaluate=False))
            return prettyForm(*power.left("-")) if expr.p < 0 else power
        if expr.q >= POWER_OF_TEN and _power_of_ten(expr.q):
            return self._print(sp.Mul(expr.p, sp.Pow(expr.q, -1, evaluate=False), evaluate=False))
        return super()._print_Rational(expr)

    def _print_Max(self, expr: sp.Max) -> prettyForm:
        return self._print_Function(sp.Function("max")(*expr.args))

    def _print_Mul(self, product: sp.Mul) -> prettyForm:
        if not isinstance(product, sp.Mul):
            return super()._print_Mul(product)  # SymPy routes some powers through here
        if sp.Mul(*product.args).args != product.args:
            return self._shown_product(product)
        return self._product(sorted(product.args, key=factor_key))

    def _shown_product(self, product: sp.Mul) -> prettyForm:
        """A product kept unevaluated to show a step (the exponent −2·0/d_model before it is
        0): every factor stays, but a factor 1 goes, a −1 is a sign, a reciprocal a
        denominator, and the larger numbers come first ((pos + 2000·π)/10, not …⋅1/10)."""
        args = list(product.args)
        negative = args.count(sp.S.NegativeOne) % 2 == 1
        args = [a for a in args if a not in (sp.S.One, sp.S.NegativeOne)] or [sp.S.One]
        numbers = sorted((a for a in args if a.is_Number), key=lambda n: -abs(n))
        others = sorted((a for a in args if not a.is_Number), key=factor_key)
        form = self._product([*numbers, *others], keep_numbers=True)
        return prettyForm(*form.left("-"), binding=prettyForm.NEG) if negative else form

    def _product(self, factors: list[sp.Basic], keep_numbers: bool = False) -> prettyForm:
        """factors multiplied in the order given, reciprocals as one denominator (SymPy's
        _print_Mul, without its own reordering); keep_numbers: 2·0 stays 2·0."""
        top: list[sp.Basic] = []
        bottom: list[sp.Basic] = []
        for item in factors:
            if item.is_commutative and item.is_Pow and item.exp.is_Rational and item.exp < 0:
                bottom.append(sp.Pow(item.base, -item.exp, evaluate=item.exp == -1))
            elif item.is_Rational and not keep_numbers:
                if item.p != 1:
                    top.append(sp.Rational(item.p))
                if item.q != 1:
                    bottom.append(sp.Rational(item.q))
            elif item.is_Rational and item.q != 1:
                if item.p != 1:
                    top.append(sp.Rational(item.p))
                bottom.append(sp.Rational(item.q))
            else:
                top.append(item)
        numerator = [self._print(a) for a in top] or [self._print(sp.S.One)]
        if not bottom:
            return prettyForm.__mul__(*numerator)
        denominator = [self._print(b) for b in bottom]
        return prettyForm.__mul__(*numerator) / prettyForm.__mul__(*denominator)

    def _dots(self, kind: str) -> sp.Symbol:
        return sp.Symbol({"h": "⋯", "v": "⋮", "d": "⋱"}[kind] if self.unicode else "...")

    def _as_ordered_terms(self, expr: sp.Basic, order: str | None = None) -> list[sp.Basic]:
        if id(expr) in self._keep_order:
            return list(expr.args)
        terms = sorted(super()._as_ordered_terms(expr, order=order), key=term_key)
        if not any(t.atoms(sp.Function) for t in terms):
            # A polynomial reads constant last, as the module writes it: 2i + 1, d_model/2 − 1.
            terms = [t for t in terms if not t.is_number] + [t for t in terms if t.is_number]
        return terms

    def _print_Add(self, expr: sp.Add, order: str | None = None) -> prettyForm:
        terms = super()._as_ordered_terms(expr, order=order)
        if len(terms) <= SUM_LIMIT:
            return super()._print_Add(expr, order=order)
        kept = [*terms[:3], self._dots("h"), *terms[-2:]]
        elided = sp.Add(*kept, evaluate=False)
        self._keep_order.add(id(elided))
        try:
            return super()._print_Add(elided, order=order)
        finally:
            self._keep_order.discard(id(elided))

    def _print_MatrixBase(self, expr: sp.MatrixBase, lparens: str = "[", rparens: str = "]"):
        rows, cols = expr.shape
        if rows == cols == 1:
            # A row times a column is a number, not a 1×1 matrix.
            return self._print(expr[0, 0])
        if rows <= MATRIX_LIMIT and cols <= MATRIX_LIMIT:
            return super()._print_MatrixBase(expr)
        if rows == cols and expr == sp.eye(rows):
            return self._print(sp.Symbol(f"I_{rows}"))
        # Printing every entry of a 64×64 matrix only to elide it would be slow: only small
        # matrices are tried whole.
        if rows <= VECTOR_LIMIT and cols <= VECTOR_LIMIT:
            whole = super()._print_MatrixBase(expr)
            if whole.height() <= VECTOR_HEIGHT and whole.width() <= self.budget:
                return whole
        blocks = diagonal_blocks(expr) if rows == cols else []
        if len(blocks) > 1:
            return self._diag(expr, blocks)
        return self._grid(self.shown_cells(expr).tolist())

    def shown_cells(self, expr: sp.MatrixBase) -> sp.ImmutableMatrix:
        """The cells a large matrix is printed with: a column or row keeps its first and last
        ELIDED_KEEP entries around ⋮ or ⋯, any other matrix its corners around ⋱."""
        rows, cols = expr.shape
        if rows <= MATRIX_LIMIT and cols <= MATRIX_LIMIT:
            return sp.ImmutableMatrix(expr)
        if cols == 1:
            return sp.ImmutableMatrix(self._elided_cells(expr, rows, "v"))
        if rows == 1:
            return sp.ImmutableMatrix(self._elided_cells(expr.T, cols, "h")).T
        return self._corners(expr)

    def _elided_cells(self, column: sp.MatrixBase, n: int, kind: str) -> list[list[sp.Basic]]:
        """The first and last ELIDED_KEEP entries of a column with dots between, as cells."""
        keep = [*column[:ELIDED_KEEP], self._dots(kind), *column[n - ELIDED_KEEP :]]
        return [[e] for e in keep]

    def _corners(self, expr: sp.MatrixBase) -> sp.ImmutableMatrix:
        rows, cols = expr.shape
        keep_r = [0, 1, None, rows - 1] if rows > MATRIX_LIMIT else list(range(rows))
        keep_c = [0, 1, None, cols - 1] if cols > MATRIX_LIMIT else list(range(cols))
        cells = [
            [
                self._dots("d" if r is None and c is None else "v" if r is None else "h")
                if r is None or c is None
                else expr[r, c]
                for c in keep_c
            ]
            for r in keep_r
        ]
        return sp.ImmutableMatrix(cells)

    def _grid(self, cells: list) -> prettyForm:
        """A bracketed matrix of cells: a list of rows, or one row."""
        grid = cells if isinstance(cells[0], list) else [cells]
        return super()._print_MatrixBase(sp.ImmutableMatrix(grid))

    def _print_matrix_contents(self, e: sp.MatrixBase) -> prettyForm:
        # As SymPy's, but a blank line separates two rows only when one of them is tall.
        forms = [[self._print(e[i, j]) for j in range(e.cols)] for i in range(e.rows)]
        widths = [max(forms[i][j].width() for i in range(e.rows)) for j in range(e.cols)]
        picture, previous_tall = None, False
        for row in forms:
            line = None
            for j, cell in enumerate(row):
                cell = prettyForm(*cell.left(" " * ((widths[j] - cell.width()) // 2)))
                cell = prettyForm(*cell.right(" " * (widths[j] - cell.width())))
                line = cell if line is None else prettyForm(*line.right("  ", cell))
            tall = any(cell.height() > 1 for cell in row)
            if picture is None:
                picture = line
            else:
                if tall or previous_tall:
                    picture = prettyForm(*picture.below(" "))
                picture = prettyForm(*picture.below(line))
            previous_tall = tall
        return picture or prettyForm("")

    def _diag(self, expr: sp.MatrixBase, blocks: list[tuple[int, int]]) -> prettyForm:
        """diag(B_0, B_1, …): a rotation block as R(θ) (or R(θ)ᵀ), a 1×1 block as its entry."""
        chosen = [*blocks[:2], None, blocks[-1]] if len(blocks) > BLOCK_LIMIT else blocks
        args = []
        for block in chosen:
            if block is None:
                args.append(self._print(self._dots("h")))
                continue
            sub = sp.ImmutableMatrix(expr[block[0] : block[1], block[0] : block[1]])
            rotation = _rotation(sub)
            if rotation is None:
                args.append(self._print(sub[0, 0] if sub.shape == (1, 1) else sub))
                continue
            form = self._print(sp.Function("R")(rotation[0]))
            if rotation[1]:
                form = prettyForm(*form.right("ᵀ" if self.unicode else "^T"))
            args.append(form)
        body = args[0]
        for arg in args[1:]:
            body = prettyForm(*body.right(", ", arg))
        return prettyForm(*prettyForm(*body.parens()).left("diag"))


def _power_of_ten(n: int) -> bool:
    return str(n).rstrip("0") == "1"


def _render(form: prettyForm) -> list[str]:
    return form.render(wrap_line=False).split("\n")


def _pieces(printer: TerminalPrinter, expr: sp.Basic) -> list[tuple[str, sp.Basic]] | None:
    """expr cut where a line may break, as (operator, operand) pairs: a sum into its terms, a
    product into its factors, an equation into its sides. The first operator is ""."""
    if isinstance(expr, sp.MatrixBase) and expr.shape == (1, 1):
        return _pieces(printer, expr[0, 0])
    if isinstance(expr, sp.Add):
        terms = printer._as_ordered_terms(expr)
        if len(terms) > SUM_LIMIT:
            terms = [*terms[:3], printer._dots("h"), *terms[-2:]]
        out = []
        for term in terms:
            negative = term.could_extract_minus_sign()
            out.append(("- " if negative else "+ " if out else "", -term if negative else term))
        return out
    if isinstance(expr, sp.MatMul | sp.Mul):
        dot = "⋅" if printer.unicode else "*"
        return [("" if j == 0 else dot, f) for j, f in enumerate(expr.args)]
    if isinstance(expr, sp.MatAdd):
        return [("" if j == 0 else "+ ", a) for j, a in enumerate(expr.args)]
    if isinstance(expr, sp.Equality):
        return [("", expr.lhs), ("= ", expr.rhs)]
    return None


def _lines_form(lines: list[str], baseline: int) -> prettyForm:
    # prettyForm centres lines of unequal length; these are laid out from the left.
    width = max(len(line) for line in lines)
    return prettyForm("\n".join(line.ljust(width) for line in lines), baseline=baseline)


def _fit(printer: TerminalPrinter, expr: sp.Basic, width: int) -> prettyForm:
    """expr typeset in at most width columns where it can be broken.

    A sum breaks after whole terms, a product after whole factors (continuation rows indented,
    starting with their operator); a Σ keeps its sign and breaks its body. As a last resort
    SymPy cuts the picture into column strips.
    """
    printer.budget = width
    form = printer._print(expr)
    if form.width() <= width:
        return form
    if isinstance(expr, sp.Sum):
        return _fit_sum(printer, expr, width)
    if isinstance(expr, sp.MatrixBase) and expr.shape != (1, 1):
        return _fit_entries(printer, expr, width)
    pieces = _pieces(printer, expr)
    if pieces is None:
        strips = form.render(
            wrap_line=True, num_columns=max(20, width), use_unicode=printer.unicode
        )
        return _lines_form(strips.split("\n"), 0)
    forms = []
    for operator, operand in pieces:
        part = _fit(printer, operand, width - len(operator) - 4)
        factor = isinstance(expr, sp.Mul | sp.MatMul) or (
            isinstance(expr, sp.MatrixBase) and isinstance(expr[0, 0], sp.Mul)
        )
        if factor and precedence_traditional(operand) < PRECEDENCE["Mul"]:
            part = prettyForm(*part.parens())
        forms.append(prettyForm(*part.left(operator)) if operator else part)
    rows: list[prettyForm] = []
    for piece in forms:
        if rows and rows[-1].width() + 1 + piece.width() <= width:
            rows[-1] = prettyForm(*rows[-1].right(" ", piece))
        else:
            rows.append(piece if not rows else prettyForm(*piece.left("  ")))
    lines = []
    for row in rows:
        lines += _render(row)
    return _lines_form(lines, rows[0].baseline)


def _fit_sum(printer: TerminalPrinter, expr: sp.Sum, width: int) -> prettyForm:
    """A Σ too wide for width: the sign and its limits, then the body broken beside it."""
    mark = sp.Symbol("◊")
    sign_lines = _render(printer._print(sp.Sum(mark, *expr.limits)))
    row = next(n for n, line in enumerate(sign_lines) if "◊" in line)
    column = sign_lines[row].index("◊")
    sign = _lines_form([line[:column] for line in sign_lines], row)
    body = _fit(printer, expr.function, width - column - 2)
    if expr.function.is_Add:
        body = prettyForm(*body.parens())
    return prettyForm(*sign.right(body))


def _fit_entries(printer: TerminalPrinter, expr: sp.MatrixBase, width: int) -> prettyForm:
    """A matrix too wide for width: the entries it shows named e₁, e₂, …, each given below."""
    cells = printer.shown_cells(expr)
    dots = {printer._dots(kind) for kind in "hvd"}
    names, entries = [], []
    for cell in cells:
        if cell in dots:
            names.append(cell)
        else:
            names.append(sp.Symbol(f"e_{len(entries) + 1}"))
            entries.append((names[-1], cell))
    shape = printer._print(sp.ImmutableMatrix(cells.rows, cells.cols, names))
    lines, baseline = _render(shape), shape.baseline
    for name, entry in entries:
        lines += _render(_fit(printer, sp.Eq(name, entry, evaluate=False), width - 2))
    return _lines_form(lines, baseline)


def math_lines(expr: sp.Basic, width: int, unicode: bool = True) -> tuple[list[str], int]:
    """expr typeset in at most width columns (see _fit), and the index of its baseline."""
    if is_structured(expr):
        # A block statement is one line of text, whatever d_model: wrap it at its spaces.
        line = structure_text(expr) if unicode else ascii_text(structure_text(expr))
        return textwrap.wrap(line, max(width, 20), subsequent_indent="    "), 0
    # The printer's big symbols (Σ, brackets) follow a module-wide Unicode switch that only
    # sp.pretty() sets; set it here too, or a Sum printed first fails to find its glyphs.
    was = pretty_use_unicode(unicode)
    try:
        form = _fit(TerminalPrinter(unicode, width), expr, width)
        lines = [line.rstrip() for line in _render(form)]
        if unicode:
            lines = [line.translate(UNICODE_SIGNS) for line in lines]
        return lines, form.baseline
    finally:
        pretty_use_unicode(was)


def pretty_lines(expr: sp.Basic) -> tuple[list[str], int]:
    """expr as Unicode lines, unwrapped, and the index of its baseline."""
    return math_lines(expr, 10**6)


def block(expr: sp.Basic, lead: str, style: Style, indent: int = 4, tail: str = "") -> list[str]:
    """expr typeset to fit the width after indent + lead, lead (and tail) on its baseline row."""
    lines, baseline = math_lines(expr, style.width - indent - len(lead) - len(tail), style.unicode)
    pad = " " * len(lead)
    out = []
    for n, line in enumerate(lines):
        text = (lead if n == baseline else pad) + line
        if tail and n == baseline:
            text = text.ljust(len(pad) + max(map(len, lines))) + tail
        out.append((" " * indent + text).rstrip())
    return out
