"""LaTeX printer: a theorem's statement, align* derivations, facts and its numeric table.

Every expression is set by SymPy's LaTeX printer (NotesLatexPrinter below); this module only
arranges the printed pieces and escapes prose. Two layout rules are added to the printer:
terms are ordered for reading (pos before k, sin before cos, coefficients before variables)
and large matrices are shown block-wise or with the middle elided.
"""

from __future__ import annotations

import numbers
import re
import unicodedata
from collections.abc import Sequence

import numpy as np
import sympy as sp
from sympy.printing.conventions import split_super_sub
from sympy.printing.latex import LatexPrinter, greek_letters_set
from sympy.printing.precedence import precedence_traditional
from sympy.simplify.radsimp import fraction

from numeric.table import Cell, Table, format_cell
from proofs.derivation import Derivation, Verdict
from proofs.encoding import LATEX_NAMES
from proofs.render.text import shown
from proofs.theorem import FreeOf, LinearSystem, NonZero, Part, TheoremResult

Display = tuple[tuple[sp.Basic, sp.Basic], ...]

# Matrices up to this size are printed whole; larger ones block-wise or elided.
MATRIX_LIMIT = 4
# Column vectors up to this height are printed whole (PE(pos) for d_model = 8 fits).
VECTOR_LIMIT = 8
# A matrix up to VECTOR_LIMIT square whose entries are short (a permutation, say) is printed
# whole when it is at most this wide, in pt.
MATRIX_WIDTH = 200.0
# Text width of the PDF (11pt article, 2cm margins, letter paper) in pt, and the widths an
# aligned row may take: beside a justification column, or alone.
LINE_WIDTH = 500.0
SIDE_BUDGET = 320.0
FULL_BUDGET = 460.0
# Symbols read in this order: the position, then the offset.
VARIABLE_RANK = {"pos": 0, "k": 1}
FUNCTION_RANK = {"sin": 0, "cos": 1}
STATUS_WORD = {"proved": "proved", "refuted": "refuted", "undecided": "undecided"}

_NAMES = {s.name: tex for s, tex in LATEX_NAMES.items()}


def _variable_rank(expr: sp.Basic) -> int:
    ranks = [VARIABLE_RANK[s.name] for s in expr.free_symbols if s.name in VARIABLE_RANK]
    return min(ranks, default=len(VARIABLE_RANK))


def _is_greek(symbol: sp.Symbol) -> bool:
    return split_super_sub(symbol.name)[0].lower() in greek_letters_set


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
            FUNCTION_RANK.get(type(factor).__name__, len(FUNCTION_RANK)),
        )
    rank = _variable_rank(factor)
    if rank < len(VARIABLE_RANK):
        return (1, 1 + rank, 0)
    frequency = (isinstance(factor, sp.Symbol) and _is_greek(factor)) or (
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


def _upright(factor: sp.Basic) -> bool:
    return isinstance(factor, sp.Symbol) and _NAMES.get(factor.name, "").startswith(r"\mathrm")


class NotesLatexPrinter(LatexPrinter):
    """SymPy's LaTeX printer with the notes' symbol names, reading order and matrix layout."""

    def __init__(self) -> None:
        super().__init__({"symbol_names": LATEX_NAMES})

    def _print_Symbol(self, expr: sp.Symbol, style: str = "plain") -> str:
        # Theorems may use a variant of pos or k with extra assumptions; set it the same way.
        if expr.name in _NAMES:
            return _NAMES[expr.name]
        return super()._print_Symbol(expr, style=style)

    def _as_ordered_terms(self, expr: sp.Basic, order: str | None = None) -> list[sp.Basic]:
        return sorted(super()._as_ordered_terms(expr, order=order), key=_term_key)

    def _print_Mul(self, expr: sp.Basic) -> str:
        if not isinstance(expr, sp.Mul):
            return super()._print_Mul(expr)  # SymPy routes some powers through here
        if sp.Mul(*expr.args).args != expr.args:
            # A product left unevaluated to show a form: keep its factors, only reorder them.
            return self._product(expr)
        if expr.could_extract_minus_sign():
            inner = -expr
            tex = self._print(inner)
            return "- " + (rf"\left({tex}\right)" if inner.is_Add else tex)
        numer, denom = fraction(expr, exact=True)
        if denom == 1:
            return self._product(expr)
        return rf"\frac{{{self._product(numer)}}}{{{self._product(denom)}}}"

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
                (factors[j - 1].is_Number and factor.is_Number)
                or (out[-1].startswith(r"\frac") and tex.startswith(r"\frac"))
            ):
                out.append(r"\cdot")
            elif out and (_upright(factors[j - 1]) or _upright(factor)):
                out.append(r"\,")  # a thin space keeps pos and omega_i apart
            out.append(tex)
        return " ".join(out)

    def _print_MatrixBase(self, expr: sp.MatrixBase) -> str:
        rows, cols = expr.shape
        if (cols == 1 and rows <= VECTOR_LIMIT) or (rows <= MATRIX_LIMIT and cols <= MATRIX_LIMIT):
            return super()._print_MatrixBase(expr)
        if rows <= VECTOR_LIMIT and cols <= VECTOR_LIMIT:
            whole = super()._print_MatrixBase(expr)
            if tex_width(whole) <= MATRIX_WIDTH:
                return whole
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


def latex_math(expr: sp.Basic, display: Display = ()) -> str:
    """expr set by the notes' SymPy printer, after the derivation's display substitutions."""
    return NotesLatexPrinter().doprint(shown(expr, display))


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


def math_lines(expr: sp.Basic, display: Display = (), budget: float = FULL_BUDGET) -> list[str]:
    """expr as one or more lines of at most budget pt where it can break (see _pieces).

    Lines after the first start with \\quad and the operator that continues the expression,
    ready for the aligned rows of a derivation: "&\\quad + ...".
    """
    printer = NotesLatexPrinter()
    expr = shown(expr, display)
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


def formula_math(formula: sp.Basic) -> str:
    """A key formula of a statement; an equation too wide for a line is split at its =."""
    whole = latex_math(formula)
    if not isinstance(formula, sp.Equality) or tex_width(whole) <= FULL_BUDGET:
        return whole
    rows = _aligned_rows([math_lines(formula.lhs), math_lines(formula.rhs)])
    return "\\begin{aligned}" + " \\\\ ".join(r for step in rows for r in step) + "\\end{aligned}"


# ---------------------------------------------------------------- widths

_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[{}^_&]|\s+|.")
# Widths in pt at 11pt of what the notes' printer emits (cmr/cmmi 10.95pt, display style).
_COMMAND_WIDTH = {
    "cdot": 7.8,
    "cdots": 14.0,
    "ldots": 14.0,
    "vdots": 6.0,
    "ddots": 13.0,
    ",": 1.8,
    ";": 3.0,
    ":": 2.4,
    "quad": 11.0,
    "qquad": 22.0,
    "neq": 14.0,
    "geq": 14.0,
    "leq": 14.0,
    "times": 12.0,
    "sum": 16.0,
    "prod": 16.0,
    "infty": 11.0,
    "pi": 6.5,
    "|": 5.5,
    "{": 5.5,
    "}": 5.5,
    "\\": 0.0,
    "langle": 4.5,
    "rangle": 4.5,
    "partial": 6.3,
    "to": 14.0,
}
_OPERATORS = {"sin", "cos", "tan", "exp", "log", "det", "diag", "max", "min"}


def tex_width(tex: str) -> float:
    """Estimated width in pt (11pt type, display style) of math set by the notes' printer.

    A measure for layout decisions only (when to break a sum, elide a matrix, move a
    justification); it errs on the wide side. Calibrated against pdflatex to within ~25%.
    """
    tokens = [t for t in _TOKEN.findall(tex) if not t.isspace()]
    width, _ = _sequence(tokens, 0, 1.0, False)
    return 1.1 * width


def _group(tokens, j, scale, small):
    if j < len(tokens) and tokens[j] == "{":
        width, j = _sequence(tokens, j + 1, scale, small)
        return width, j + 1
    width, j = _atom(tokens, j, scale, small)
    return width, j


def _sequence(tokens, j, scale, small, stop=("}",)):
    total = 0.0
    last = 0.0
    while j < len(tokens) and tokens[j] not in stop:
        tok = tokens[j]
        if tok in "^_":
            script, j = _group(tokens, j + 1, max(0.55, scale * 0.73), True)
            if j < len(tokens) and tokens[j] in "^_" and tokens[j] != tok:
                other, j = _group(tokens, j + 1, max(0.55, scale * 0.73), True)
                script = max(script, other)
            if last >= 15.0 * scale and not small:
                # A big operator in display style: limits go above and below it.
                total += max(0.0, script - last)
            else:
                total += script
            continue
        last, j = _atom(tokens, j, scale, small)
        total += last
    return total, j


def _atom(tokens, j, scale, small):
    tok = tokens[j]
    if tok == "{":
        return _group(tokens, j, scale, small)
    if tok.startswith("\\") and len(tok) > 1:
        name = tok[1:]
        if name == "frac":
            s = max(0.55, scale * 0.75) if small else scale
            num, j = _group(tokens, j + 1, s, True if small else small)
            den, j = _group(tokens, j, s, True if small else small)
            return max(num, den) + 2.4 * scale, j
        if name in ("left", "right", "big", "Big", "bigg", "Bigg"):
            delim = tokens[j + 1] if j + 1 < len(tokens) else "."
            return (0.0 if delim == "." else 4.5 * scale), j + 2
        if name in ("mathrm", "text", "operatorname", "mathbf", "textrm"):
            inner, j = _group(tokens, j + 1, scale, small)
            return inner * 0.95, j
        if name == "begin":
            return _environment(tokens, j, scale, small)
        if name in _OPERATORS:
            return (len(name) * 5.0 + 3.0) * scale, j + 1
        if name in _COMMAND_WIDTH:
            return _COMMAND_WIDTH[name] * scale, j + 1
        return 6.5 * scale, j + 1  # a Greek letter or another single symbol
    if tok in "+-=":
        return (8.5 if small else 13.4) * scale, j + 1
    if tok in "()[]|":
        return 4.3 * scale, j + 1
    if tok in ",;":
        return 3.0 * scale, j + 1
    if tok == "&":
        return 0.0, j + 1
    return 5.6 * scale, j + 1


def _environment(tokens, j, scale, small):
    # \begin{name} ... \end{name}: a matrix's width is its widest cells plus column gaps.
    j = tokens.index("}", j) + 1
    rows = [[0.0]]
    depth = 0
    while j < len(tokens):
        tok = tokens[j]
        if tok == "\\end" and depth == 0:
            j = tokens.index("}", j) + 1
            break
        if tok == "\\\\":
            rows.append([0.0])
            j += 1
            continue
        if tok == "&":
            rows[-1].append(0.0)
            j += 1
            continue
        if tok == "\\begin":
            w, j = _environment(tokens, j, scale, True)
            rows[-1][-1] += w
            continue
        w, j = _sequence(tokens, j, scale, True, stop=("}", "&", "\\\\", "\\end", "\\begin"))
        rows[-1][-1] += w
        if j < len(tokens) and tokens[j] == "}":
            j += 1
    cols = max(len(r) for r in rows)
    widths = [max((r[c] if c < len(r) else 0.0) for r in rows) for c in range(cols)]
    return sum(widths) + 10.0 * scale * (cols - 1), j


# ---------------------------------------------------------------- prose

_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "%": r"\%",
    "_": r"\_",
    "^": r"\^{}",
    "~": r"\textasciitilde{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}
_TEXT_UNICODE = {
    "–": "--",
    "—": "---",
    "…": r"\dots{}",
    "‘": "`",
    "’": "'",
    "“": "``",
    "”": "''",
    "\u00a0": "~",
}
_MATH_UNICODE = {
    "−": "-",
    "·": r"\cdot",
    "⋅": r"\cdot",
    "×": r"\times",
    "±": r"\pm",
    "≠": r"\neq",
    "≤": r"\leq",
    "≥": r"\geq",
    "≈": r"\approx",
    "≡": r"\equiv",
    "∈": r"\in",
    "∉": r"\notin",
    "⊂": r"\subset",
    "⊆": r"\subseteq",
    "∪": r"\cup",
    "∩": r"\cap",
    "∅": r"\emptyset",
    "→": r"\to",
    "↦": r"\mapsto",
    "⇒": r"\Rightarrow",
    "⇔": r"\Leftrightarrow",
    "∞": r"\infty",
    "∀": r"\forall",
    "∃": r"\exists",
    "∑": r"\sum",
    "∏": r"\prod",
    "∫": r"\int",
    "√": r"\surd",
    "∂": r"\partial",
    "∇": r"\nabla",
    "∝": r"\propto",
    "≪": r"\ll",
    "≫": r"\gg",
    "∘": r"\circ",
    "⊗": r"\otimes",
    "⊕": r"\oplus",
    "‖": r"\|",
    "⟨": r"\langle",
    "⟩": r"\rangle",
    "′": r"\prime",
    "ℝ": r"\mathbb{R}",
    "ℤ": r"\mathbb{Z}",
    "ℕ": r"\mathbb{N}",
    "ℂ": r"\mathbb{C}",
    "✓": r"\checkmark",
    "✗": r"\times",
}
_SCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ᵀⁱⁿ₀₁₂₃₄₅₆₇₈₉₊₋", "0123456789+-Tin0123456789+-")
_SUPERSCRIPTS = set("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ᵀⁱⁿ")
_SUBSCRIPTS = set("₀₁₂₃₄₅₆₇₈₉₊₋")
# A name with a subscript in prose, such as d_model, ω_i or PE_i: set in math like the formulas.
# Short names only: a longer word with an underscore is an identifier and stays text.
_SUBSCRIPTED = re.compile(
    r"(?:(?<![A-Za-z0-9_.])([A-Za-z]{1,2})|([\u0370-\u03ff]))_([A-Za-z0-9]{1,5}|\([^()\s]{1,8}\))(?![A-Za-z0-9_])"
)
# A power in prose, such as 2^-53 or 2^(10): set as a superscript.
_POWER = re.compile(r"(?<![A-Za-z0-9_.])([A-Za-z0-9.]+)\^\(?([-−]?[A-Za-z0-9]+)\)?")


def _greek(char: str) -> str | None:
    name = unicodedata.name(char, "")
    match = re.fullmatch(r"GREEK (SMALL|CAPITAL) LETTER (\w+)", name)
    if not match:
        return None
    word = match.group(2).lower().replace("lamda", "lambda")
    if match.group(1) == "CAPITAL":
        word = word.capitalize()
        return (
            "\\" + word
            if word
            in {
                "Gamma",
                "Delta",
                "Theta",
                "Lambda",
                "Xi",
                "Pi",
                "Sigma",
                "Upsilon",
                "Phi",
                "Psi",
                "Omega",
            }
            else None
        )
    return "\\" + word if word in greek_letters_set else None


def _math_char(char: str) -> str | None:
    return _MATH_UNICODE.get(char) or _greek(char)


def _subscript(match: re.Match[str]) -> str:
    latin, greek, sub = match.groups()
    base = latin or greek
    base_tex = (len(base) == 1 and _math_char(base)) or (
        base if len(base) == 1 else rf"\mathrm{{{base}}}"
    )
    if sub.startswith("("):
        sub_tex = "".join(_math_char(c) or c for c in sub[1:-1])  # M_(j+k) -> M_{j+k}
    else:
        sub_tex = sub if len(sub) == 1 else rf"\mathrm{{{sub}}}"
    return f"\x00{base_tex}_{{{sub_tex}}}\x01"


def _power(match: re.Match[str]) -> str:
    base, exponent = match.groups()
    return f"\x00{base}^{{{exponent.replace('−', '-')}}}\x01"


def _quotes(text: str) -> str:
    # Straight quotes in prose become TeX's opening and closing quotes.
    text = re.sub(r'(^|[\s(])"', r"\1``", text)
    text = re.sub(r"(^|[\s(])'", r"\1`", text)
    return text.replace('"', "''")


def tex_text(text: str) -> str:
    """Prose as LaTeX text: specials escaped, Unicode math symbols set in inline math.

    Raises ValueError for a character pdflatex cannot set, naming it.
    """
    # \x00 ... \x01 mark spans that are already math.
    marked = _SUBSCRIPTED.sub(_subscript, _POWER.sub(_power, _quotes(text)))
    out: list[str] = []
    j = 0
    while j < len(marked):
        char = marked[j]
        if char in "\x00\x01":
            math_run = char == "\x00"
            end = marked.index("\x01", j) if math_run else j
            if math_run:
                out.append("$" + marked[j + 1 : end] + "$")
            j = end + 1
            continue
        if char in _SUPERSCRIPTS or char in _SUBSCRIPTS:
            kind = _SUPERSCRIPTS if char in _SUPERSCRIPTS else _SUBSCRIPTS
            end = j
            while end < len(marked) and marked[end] in kind:
                end += 1
            mark = "^" if kind is _SUPERSCRIPTS else "_"
            out.append(f"${mark}{{{marked[j:end].translate(_SCRIPTS)}}}$")
            j = end
            continue
        if char in _TEXT_ESCAPES:
            out.append(_TEXT_ESCAPES[char])
        elif char in _TEXT_UNICODE:
            out.append(_TEXT_UNICODE[char])
        elif ord(char) < 128 or (unicodedata.category(char).startswith("L") and ord(char) < 0x180):
            out.append(char)
        elif (math := _math_char(char)) is not None:
            out.append(f"${math}$" if math != "-" else "$-$")
        else:
            raise ValueError(
                f"cannot set the character {char!r} (U+{ord(char):04X}) in LaTeX text: {text!r}"
            )
        j += 1
    # Adjacent inline math pieces join into one; the space keeps \cdot and M apart.
    return "".join(out).replace("$$", " ")


# ---------------------------------------------------------------- derivations and facts


def _justification(text: str, width: str) -> str:
    return rf"\text{{\parbox[c]{{{width}}}{{\raggedright\footnotesize {tex_text(text)}}}}}"


def derivation_lines(derivation: Derivation, budget: float) -> list[list[str]]:
    """Each step's expression as lines of at most budget pt where it can break."""
    return [math_lines(step.expr, derivation.display, budget) for step in derivation.steps]


def _aligned_rows(steps: list[list[str]]) -> list[list[str]]:
    """Per step, its aligned rows: '& lhs' or '&= e_j', then '& \\quad + ...' continuations."""
    return [
        [("& " if j == 0 else "&= ") + lines[0]] + [f"& {line}" for line in lines[1:]]
        for j, lines in enumerate(steps)
    ]


def derivation_math_rows(derivation: Derivation, budget: float = FULL_BUDGET) -> list[list[str]]:
    """The aligned rows of a chain, per step: the left side alone, then '= e_j' for each later
    step; a step wider than budget pt is broken at its top-level + or matrix product."""
    return _aligned_rows(derivation_lines(derivation, budget))


def side_justified(derivation: Derivation) -> bool:
    """Whether every step fits beside a justification column (else each gets its own row)."""
    return all(
        tex_width(line) <= SIDE_BUDGET
        for lines in derivation_lines(derivation, SIDE_BUDGET)
        for line in lines
    )


def derivation_rows(derivation: Derivation, *, justify: str = "parbox") -> list[str]:
    """The chain's aligned rows with each link's justification in a \\text{} column.

    A chain whose expressions leave no room for the column gets each justification on its own
    row under its step instead. justify: "parbox" wraps the justification in a narrow
    paragraph (PDF); "text" keeps it on one line of plain \\text{} (MathJax and KaTeX, which
    have no \\parbox).
    """
    side = side_justified(derivation)
    steps = _aligned_rows(derivation_lines(derivation, SIDE_BUDGET if side else FULL_BUDGET))
    if justify == "parbox":
        steps = [[fit(row) for row in step] for step in steps]
    rows = list(steps[0])
    for step, lines in zip(derivation.steps[1:], steps[1:], strict=True):
        if justify != "parbox":
            just = rf"\text{{{mathjax_text(step.justification)}}}"
        elif side:
            just = _justification(step.justification, "0.27\\linewidth")
        else:
            just = _justification(f"({step.justification})", "0.8\\linewidth")
        rows += lines[:-1]
        rows.append(f"{lines[-1]} && {just}" if side else lines[-1])
        if not side:
            rows.append(rf"& \qquad {just}")
    return rows


def mathjax_text(text: str) -> str:
    """Prose inside \\text{} for MathJax and KaTeX: Unicode kept, specials escaped."""
    return (
        re.sub(r"([{}$&#%_])", r"\\\1", text.replace("\\", "/"))
        .replace("^", "\\^{}")
        .replace("~", " ")
    )


def align_block(derivation: Derivation) -> str:
    """The chain as an align* environment (for the PDF)."""
    return "\\begin{align*}\n" + " \\\\\n".join(derivation_rows(derivation)) + "\n\\end{align*}"


def aligned_block(derivation: Derivation) -> str:
    """The chain as $$\\begin{aligned}...$$, which MathJax and KaTeX both render."""
    rows = derivation_rows(derivation, justify="text")
    return "$$\n\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}\n$$"


def link_checks(verdict: Verdict) -> str:
    """One sentence: how each link of a chain was checked (rules, points, worst difference)."""
    if not verdict.links:
        return ""
    rules = [link.symbolic.rule or "not reduced" for link in verdict.links]
    points = sorted({link.numeric.points for link in verdict.links})
    worst = max(link.numeric.max_relative for link in verdict.links)
    marks = ", ".join(f"({j}) {rule}" for j, rule in enumerate(rules, 1))
    pts = "/".join(str(p) for p in points)
    return (
        f"Symbolic reduction of each link: {marks}. Numeric check: {pts} seeded points per link, "
        f"largest relative difference {worst:.1e}."
    )


def fact_lines(part: Part, display: Display = ()) -> list[str]:
    """The fact's display as aligned rows ("& ..."), wide sums broken like a chain's steps.

    display: substitutions for printing only, such as the theorem's derivations use. Any fact
    type with an expr works; LinearSystem shows its equations, a sign fact its witness.
    """
    if isinstance(part, LinearSystem):
        rows = [f"{latex_math(e, display)} &= {latex_math(sp.Integer(0))}" for e in part.equations]
        return [r"& \left\{\begin{aligned}" + r" \\ ".join(rows) + r"\end{aligned}\right."]
    expr = getattr(part, "expr", None)
    if expr is None:
        raise TypeError(f"cannot print a part of type {type(part).__name__}: it has no expr")
    lines = math_lines(expr, display)
    witness = getattr(part, "witness", None)
    if isinstance(part, NonZero):
        lines[-1] += r" \neq 0"
    elif witness is not None:
        # A sign fact shown through its witness: expr = witness >= 0.
        shown_witness = math_lines(witness, display)
        shown_witness[-1] += r" \geq 0"
        rows = [f"& {line}" for line in lines] + [f"&= {shown_witness[0]}"]
        return rows + [f"& {line}" for line in shown_witness[1:]]
    return [f"& {line}" for line in lines]


def equation_lines(formula: sp.Basic, display: Display = ()) -> list[str]:
    """A formula as aligned rows; an equation is aligned at its = and both sides may break."""
    if isinstance(formula, sp.Equality):
        lhs = math_lines(formula.lhs, display)
        rhs = math_lines(formula.rhs, display)
        if len(lhs) == len(rhs) == 1 and tex_width(f"{lhs[0]} = {rhs[0]}") <= FULL_BUDGET:
            return [f"{lhs[0]} &= {rhs[0]}"]
        return [f"& {line}" for line in lhs] + [f"&= {rhs[0]}"] + [f"& {r}" for r in rhs[1:]]
    return [f"& {line}" for line in math_lines(formula, display)]


def shown_fact(part: Part, display: Display = ()) -> list[tuple[str, Derivation | list[str]]]:
    """What a fact displays: (caption, aligned rows) pairs, or (caption, Derivation) for a
    chain, which each printer sets its own way. A fact with an evidence() method (the shift maps' facts) is shown by its evidence;
    any other by its caption and its expression."""
    evidence = getattr(part, "evidence", None)
    if evidence is None:
        return [(fact_caption(part), fact_lines(part, display))]
    out: list[tuple[str, Derivation | list[str]]] = []
    for caption, content in evidence():
        if isinstance(content, Derivation):
            out.append((caption, content))
        elif isinstance(content, tuple):
            out.append((caption, [r for f in content for r in equation_lines(f, display)]))
        else:
            out.append((caption, equation_lines(content, display)))
    return out


def fact_math(part: Part, display: Display = ()) -> str:
    """The fact's display on one line (see fact_lines), for inline use and tests."""
    return " ".join(
        "= " + row.removeprefix("&= ") if row.startswith("&= ") else row.removeprefix("& ")
        for row in fact_lines(part, display)
    )


def display_math(rows: Sequence[str]) -> str:
    """Aligned rows as \\[...\\] when there is one, as align* when there are more."""
    if len(rows) == 1 and rows[0].startswith("& "):
        return f"\\[\n{rows[0].removeprefix('& ')}\n\\]"
    return "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}"


def theorem_display(result: TheoremResult) -> Display:
    """Every derivation's display substitutions, for printing the theorem's facts alike."""
    pairs: list[tuple[sp.Basic, sp.Basic]] = []
    for pr in result.parts:
        if isinstance(pr.part, Derivation):
            pairs += [p for p in pr.part.display if p not in pairs]
    return tuple(pairs)


def fact_caption(part: Part) -> str:
    """What a fact asserts, in words, with the expression shown below it."""
    if isinstance(part, FreeOf):
        return f"The expression below does not contain {', '.join(s.name for s in part.symbols)}."
    if isinstance(part, NonZero):
        return "The expression below is nonzero."
    if isinstance(part, LinearSystem):
        unknowns = ", ".join(u.name for u in part.unknowns)
        if part.expect == "inconsistent":
            return f"The linear system below, in the unknown {unknowns}, has no solution."
        wanted = ", ".join(f"{u} = {v}" for u, v in part.expect.items())
        return (
            f"The linear system below, in the unknown {unknowns}, has the unique solution {wanted}."
        )
    if getattr(part, "witness", None) is not None:
        return "The expression below equals its witness, which is nonnegative."
    return "The expression this fact is about:"


def _verdict_line(verdict: Verdict) -> str:
    mark = {"proved": r"$\checkmark$", "refuted": r"$\times$", "undecided": "?"}[verdict.status]
    # A reason may quote a long formula in SymPy's plain syntax: let it break at its operators.
    reason = re.sub(r"([*+/,=])(?=[\w(])", r"\1\\allowbreak{}", tex_text(verdict.reason))
    line = rf"\noindent{{\small {mark}\ \textbf{{{verdict.status}}}: {reason}"
    if verdict.counterexample is not None:
        line += ". Counterexample " + tex_text(verdict.counterexample.describe())
    return line + "}"


def part_tex(part: Part, verdict: Verdict, number: int, display: Display = ()) -> str:
    """One part: a numbered paragraph heading, its chain or fact, and how it was checked."""
    out = [rf"\subsubsection*{{{number}.~{tex_text(part.title)}}}"]
    if isinstance(part, Derivation):
        out.append(align_block(part))
        checks = link_checks(verdict)
        out.append(
            _verdict_line(verdict).removesuffix("}")
            + (f". {tex_text(checks)}" if checks else "")
            + "}"
        )
    else:
        for caption, rows in shown_fact(part, display):
            out.append(tex_text(caption))
            if isinstance(rows, Derivation):
                out.append(align_block(rows))
            else:
                out.append(display_math([fit(r) for r in rows]))
        out.append(_verdict_line(verdict))
        if verdict.links:
            out[-1] = out[-1].removesuffix("}") + f". {tex_text(link_checks(verdict))}}}"
    return "\n".join(out)


# ---------------------------------------------------------------- tables


def is_number(cell: Cell) -> bool:
    """True for a numeric table cell (Python or NumPy scalar), False for text and booleans."""
    # NumPy scalars count: a twin may hand over np.int64 or np.float64 cells.
    return isinstance(cell, numbers.Real) and not isinstance(cell, bool | np.bool_)


def _number_tex(text: str) -> str:
    match = re.fullmatch(r"([+-]?\d*\.?\d*)e([+-]?)0*(\d+)", text)
    if match:
        mantissa, sign, exponent = match.groups()
        return rf"${mantissa}\times 10^{{{'-' if sign == '-' else ''}{exponent}}}$"
    return f"${text}$" if re.fullmatch(r"[+-]?[\d.,]+", text) else tex_text(text)


def _cell_tex(cell: Cell, spec: str) -> str:
    if isinstance(cell, bool | np.bool_):
        return r"$\checkmark$" if cell else r"$\times$"
    text = format_cell(cell, spec)
    return _number_tex(text) if is_number(cell) else tex_text(text)


# Tables wider than this many characters are scaled to the text width.
TABLE_CHARS = 78


def table_tex(table: Table) -> str:
    """A numeric Table as a booktabs tabular, with its title above and its note below."""
    specs = table.formats or ("",) * len(table.columns)
    align = "".join(
        "r" if all(is_number(r[c]) or r[c] is None for r in table.rows) and table.rows else "l"
        for c in range(len(table.columns))
    )
    body = [" & ".join(tex_text(c) for c in table.columns) + r" \\", r"\midrule"]
    for row in table.rows:
        body.append(
            " & ".join(_cell_tex(cell, spec) for cell, spec in zip(row, specs, strict=True))
            + r" \\"
        )
    tabular = (
        "\\begin{tabular}{"
        + align
        + "}\n\\toprule\n"
        + "\n".join(body)
        + "\n\\bottomrule\n\\end{tabular}"
    )
    widths = [
        max([len(c), *(len(format_cell(r[j], specs[j])) for r in table.rows)])
        for j, c in enumerate(table.columns)
    ]
    if sum(widths) + 2 * len(widths) > TABLE_CHARS:
        tabular = "\\resizebox{\\linewidth}{!}{%\n" + tabular + "}"
    out = [
        rf"\noindent\textit{{{tex_text(table.title)}}}",
        "\\begin{center}\\small",
        tabular,
        "\\end{center}",
    ]
    if table.note:
        out.append(rf"\noindent{{\small {tex_text(table.note)}}}")
    if table.passed is not None:
        mark = r"$\checkmark$ passed" if table.passed else r"$\times$ failed"
        out.append(rf"\par\noindent{{\small Numeric check: \textbf{{{mark}}}.}}")
    return "\n".join(out)


# ---------------------------------------------------------------- a theorem


def theorem_tex(
    result: TheoremResult,
    table: Table | None,
    *,
    figure: str | None = None,
    label: str | None = None,
    skipped: str = "",
) -> str:
    """The body of one theorem: statement, key formulas, parts, remarks, table and figure.

    figure: the file name of a PNG beside the .tex file, or None. skipped: why the theorem's
    figure could not be drawn (one line in the notes), or "".
    """
    th = result.theorem
    out = [rf"\section{{{tex_text(th.title)}}}\label{{{label or 'thm:' + th.name}}}"]
    out.append(
        rf"\noindent\textbf{{Theorem ({tex_text(th.name)}).}} \emph{{{tex_text(th.statement)}}}"
    )
    if th.formulas:
        out.append(
            "\\begin{gather*}\n"
            + " \\\\\n".join(formula_math(f) for f in th.formulas)
            + "\n\\end{gather*}"
        )
    out.append(r"\subsection*{Proof}")
    for number, pr in enumerate(result.parts, 1):
        out.append(part_tex(pr.part, pr.verdict, number, theorem_display(result)))
    counts = sum(pr.verdict.status == "proved" for pr in result.parts)
    out.append(
        rf"\medskip\noindent\textbf{{Status: {result.status}}} ({counts} of {len(result.parts)} parts proved).\hfill$\square$"
    )
    if th.remarks:
        out.append(r"\subsection*{Remarks}")
        out += [tex_text(r) for r in th.remarks]
    if table is not None:
        out.append(r"\subsection*{Numeric cross-check}")
        out.append(rf"Computed independently with NumPy by \texttt{{{tex_text(th.twin)}}}.")
        out.append(table_tex(table))
    if figure is not None:
        out.append(
            "\\begin{center}\n"
            rf"\includegraphics[width=0.8\linewidth]{{{figure}}}"
            "\n\\end{center}"
        )
    elif skipped:
        out.append(rf"\noindent\textit{{Figure skipped: {tex_text(skipped)}.}}")
    return "\n\n".join(out) + "\n"


PREAMBLE = r"""\documentclass[11pt]{article}
\usepackage[margin=2cm]{geometry}
\usepackage{amsmath,amssymb}
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage{microtype}
\usepackage[hidelinks]{hyperref}
\allowdisplaybreaks
\setlength{\parskip}{0.5\baselineskip}
\setlength{\parindent}{0pt}
"""

# Set by main.tex; a fragment compiled on its own adds its own preamble and \end{document}.
MAIN_FLAG = r"\PEnotesMain"


def standalone_fragment(body: str) -> str:
    """body wrapped so the file compiles on its own and can still be \\input by main.tex."""
    head = (
        f"\\ifx{MAIN_FLAG}\\undefined\n{PREAMBLE}"
        "\\def\\PEnotesBegin{\\begin{document}}\\def\\PEnotesEnd{\\end{document}}\n"
        "\\else\n\\let\\PEnotesBegin\\relax\\let\\PEnotesEnd\\relax\n\\fi\n\\PEnotesBegin\n"
    )
    return head + body + "\\PEnotesEnd\n"


def inline_tex(pieces: Sequence[str | sp.Basic]) -> str:
    """A paragraph of prose pieces and SymPy expressions (set as inline math)."""
    return "".join(tex_text(p) if isinstance(p, str) else f"${latex_math(p)}$" for p in pieces)


def main_document(title: str, intro: Sequence[str], fragments: Sequence[str]) -> str:
    """main.tex: title, introduction paragraphs, then one \\input per theorem fragment."""
    inputs = "\n".join(f"\\input{{{name}}}" for name in fragments)
    paragraphs = "\n\n".join(intro)
    return (
        f"\\def{MAIN_FLAG}{{}}\n{PREAMBLE}"
        f"\\title{{{tex_text(title)}}}\n\\author{{pe-proofs}}\n\\date{{}}\n"
        "\\begin{document}\n\\maketitle\n\n"
        f"{paragraphs}\n\n{inputs}\n\\end{{document}}\n"
    )


def result_latex(result: TheoremResult) -> str:
    """A checked theorem for Jupyter: each derivation as display math (MathJax-safe)."""
    return "\n".join(
        aligned_block(pr.part) for pr in result.parts if isinstance(pr.part, Derivation)
    )
