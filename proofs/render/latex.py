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


def _term_key(term: sp.Basic) -> tuple[bool, int, tuple[int, ...]]:
    """Reading order of a sum's terms: positive first, then pos before k, then sin before cos."""
    factors = sorted(sp.Mul.make_args(term), key=_factor_key)
    trig = tuple(_factor_key(f)[2] for f in factors if isinstance(f, sp.Function))
    return (term.could_extract_minus_sign(), _variable_rank(term), trig)


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


def derivation_math_rows(derivation: Derivation) -> list[str]:
    """The aligned rows of a chain: the left side alone, then '= e_j' for each later step."""
    rows = [f"& {latex_math(derivation.lhs, derivation.display)}"]
    rows += [f"&= {latex_math(step.expr, derivation.display)}" for step in derivation.steps[1:]]
    return rows


def derivation_rows(derivation: Derivation, *, justify: str = "parbox") -> list[str]:
    """The chain's aligned rows with each link's justification in a \\text{} column.

    justify: "parbox" wraps the justification in a narrow paragraph (PDF); "text" keeps it
    on one line of plain \\text{} (MathJax and KaTeX, which have no \\parbox).
    """
    rows = derivation_math_rows(derivation)
    for j, step in enumerate(derivation.steps[1:], 1):
        if justify == "parbox":
            just = _justification(step.justification, "0.27\\linewidth")
        else:
            just = rf"\text{{{mathjax_text(step.justification)}}}"
        rows[j] += f" && {just}"
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


def fact_math(part: Part, display: Display = ()) -> str:
    """The expression a fact is about, set for display (any fact type with an expr works).

    display: substitutions for printing only, such as the theorem's derivations use.
    """
    if isinstance(part, NonZero):
        return latex_math(sp.Ne(part.expr, 0, evaluate=False), display)
    if isinstance(part, LinearSystem):
        rows = [f"{latex_math(e, display)} &= {latex_math(sp.Integer(0))}" for e in part.equations]
        return r"\left\{\begin{aligned}" + r" \\ ".join(rows) + r"\end{aligned}\right."
    witness = getattr(part, "witness", None)
    if witness is not None:
        # A sign fact shown through its witness: expr = witness >= 0.
        return f"{latex_math(part.expr, display)} = {latex_math(sp.Ge(witness, 0, evaluate=False), display)}"
    expr = getattr(part, "expr", None)
    if expr is None:
        raise TypeError(f"cannot print a part of type {type(part).__name__}: it has no expr")
    return latex_math(expr, display)


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
    line = rf"\noindent{{\small {mark}\ \textbf{{{verdict.status}}}: {tex_text(verdict.reason)}"
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
        out.append(tex_text(fact_caption(part)))
        out.append(f"\\[\n{fact_math(part, display)}\n\\]")
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
) -> str:
    """The body of one theorem: statement, key formulas, parts, remarks, table and figure.

    figure: the file name of a PNG beside the .tex file, or None.
    """
    th = result.theorem
    out = [rf"\section{{{tex_text(th.title)}}}\label{{{label or 'thm:' + th.name}}}"]
    out.append(
        rf"\noindent\textbf{{Theorem ({tex_text(th.name)}).}} \emph{{{tex_text(th.statement)}}}"
    )
    if th.formulas:
        out.append(
            "\\begin{gather*}\n"
            + " \\\\\n".join(latex_math(f) for f in th.formulas)
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
