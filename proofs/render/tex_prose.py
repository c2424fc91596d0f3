"""Prose in LaTeX: escape text for \\text{} and paragraphs, and set its Unicode math in $...$."""

from __future__ import annotations

import re
import unicodedata

from sympy.printing.latex import greek_letters_set

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
_SCRIPTS = str.maketrans(
    "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ᵀⁱⁿ₀₁₂₃₄₅₆₇₈₉₊₋ᵢⱼₖₘₙₚ₍₎", "0123456789+-Tin0123456789+-ijkmnp()"
)
_SUPERSCRIPTS = set("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ᵀⁱⁿ")
_SUBSCRIPTS = set("₀₁₂₃₄₅₆₇₈₉₊₋ᵢⱼₖₘₙₚ₍₎")
# A name with a subscript in prose, such as d_model, ω_i, PE_i or the d_h of 2d_h (a number's
# multiple): set in math like the formulas. Short names only: a longer word with an underscore is
# an identifier and stays text.
_SUBSCRIPTED = re.compile(
    r"(?:(?<![A-Za-z_.])([A-Za-z]{1,2})|([\u0370-\u03ff]))_([A-Za-z0-9]{1,5}|\([^()\s]{1,8}\))(?![A-Za-z0-9_])"
)
# A power in prose, such as 2^-53, 2^(10), 10000^(−2i/d_model), e^λ, b′^0, ξ^m or (7/2)^(1/2):
# set as a superscript; a bracketed exponent is taken whole, up to its matching bracket (one
# level of nesting). The base is a name or number (Greek, primed, with Unicode superscripts) or
# a bracket without brackets inside.
_POWER = re.compile(
    r"(?:(?<![A-Za-z0-9_.\u0370-\u03ff])([A-Za-z0-9.\u0370-\u03ff]+′?[⁰¹²³⁴⁵⁶⁷⁸⁹]*)|(\([^()]*\)))"
    r"\^(?:\(((?:[^()]|\([^()]*\))*)\)|([-−]?[A-Za-z0-9\u0370-\u03ff]+))"
)


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


def _math_text(text: str) -> str:
    """Plain characters of prose as math: symbols and Greek as LaTeX, superscripts raised."""
    out = []
    for char in text:
        if char in _SUPERSCRIPTS:
            out.append("^{" + char.translate(_SCRIPTS) + "}")
        elif char == "…":
            out.append(r"\dots ")
        elif char == "′":
            out.append("'")
        else:
            out.append(_math_char(char) + " " if _math_char(char) else char)
    return "".join(out)


def _power(match: re.Match[str]) -> str:
    name, bracket, bracketed, plain = match.groups()
    base = _math_text(name or bracket)
    # A base that ends in a superscript (10⁴) is bracketed, so its power reads as a power of it.
    base = f"({base})" if name and name[-1] in _SUPERSCRIPTS else base
    exponent = _SUBSCRIPTED.sub(lambda m: _subscript(m)[1:-1], bracketed or plain)
    tex = "".join(_math_char(c) + " " if _math_char(c) else c for c in exponent)
    # Function names in an exponent are upright, as in the formulas: \max, not max.
    tex = re.sub(r"\b(max|min|log|exp|sin|cos)\b", r"\\\1 ", tex)
    return f"\x00{base}^{{{tex}}}\x01"


def _quotes(text: str) -> str:
    # Straight quotes in prose become TeX's opening and closing quotes.
    text = re.sub(r'(^|[\s(])"', r"\1``", text)
    text = re.sub(r"(^|[\s(])'", r"\1`", text)
    return text.replace('"', "''")


# A variable of one letter at the end of prose, or at its start, beside a run of math.
_LETTER_BEFORE_MATH = re.compile(r"(?<![A-Za-z0-9_'’.\\])([A-Za-z])\s*$")
_LETTER_AFTER_MATH = re.compile(r"^\s*([A-Za-z])(?![A-Za-z0-9_'’(])")


def _lone_letters(runs: list[tuple[bool, str]]) -> list[tuple[bool, str]]:
    """runs with each one-letter variable beside a run of math (the k of "k ≠ 0") moved into
    that math, so it is set in math italic like the formulas, not upright in the prose."""
    out = list(runs)
    for j, (is_math, run) in enumerate(out):
        if not is_math:
            continue
        if j > 0 and (before := _LETTER_BEFORE_MATH.search(out[j - 1][1])):
            out[j - 1] = (False, out[j - 1][1][: before.start()])
            run = f"{before[1]} {run}"
        if j + 1 < len(out) and (after := _LETTER_AFTER_MATH.match(out[j + 1][1])):
            out[j + 1] = (False, out[j + 1][1][after.end() :])
            run = f"{run} {after[1]}"
        out[j] = (True, run)
    merged: list[tuple[bool, str]] = []
    for is_math, run in out:
        if not run:
            continue
        if merged and merged[-1][0] == is_math:
            merged[-1] = (is_math, merged[-1][1] + (" " if is_math else "") + run)
        else:
            merged.append((is_math, run))
    return merged


def prose_runs(text: str) -> list[tuple[bool, str]]:
    """text as runs of prose (as written) and of math (as LaTeX), in order: (True, tex) for math
    (names with subscripts, powers, Unicode math symbols, and a one-letter variable beside
    them), (False, words) for prose. Adjacent math runs are joined into one.

    >>> for is_math, run in prose_runs("For every d_model, x ≠ 0 and a·r(pos) ≤ 1."):
    ...     print(is_math, repr(run) if not is_math else run)
    False 'For every '
    True d_{\\mathrm{model}}
    False ', '
    True x \\neq
    False ' 0 and '
    True a \\cdot
    False 'r(pos) '
    True \\leq
    False ' 1.'
    """
    # \x00 ... \x01 mark spans that are already math.
    marked = _SUBSCRIPTED.sub(_subscript, _POWER.sub(_power, text))
    runs: list[tuple[bool, str]] = []

    def add(is_math: bool, piece: str) -> None:
        if runs and runs[-1][0] == is_math:
            # Adjacent math joins into one; the space keeps \cdot and M apart.
            runs[-1] = (is_math, runs[-1][1] + (" " if is_math else "") + piece)
        else:
            runs.append((is_math, piece))

    j = 0
    while j < len(marked):
        char = marked[j]
        if char in "\x00\x01":
            math_run = char == "\x00"
            end = marked.index("\x01", j) if math_run else j
            if math_run:
                add(True, marked[j + 1 : end])
            j = end + 1
            continue
        if char in _SUPERSCRIPTS or char in _SUBSCRIPTS:
            kind = _SUPERSCRIPTS if char in _SUPERSCRIPTS else _SUBSCRIPTS
            end = j
            while end < len(marked) and marked[end] in kind:
                end += 1
            mark = "^" if kind is _SUPERSCRIPTS else "_"
            script = marked[j:end].translate(_SCRIPTS)
            # One transpose symbol in the notes: the formulas' upright T.
            script = r"\mathsf{T}" if script == "T" else script
            add(True, f"{mark}{{{script}}}")
            j = end
            continue
        prose = (
            char in _TEXT_ESCAPES
            or char in _TEXT_UNICODE
            or ord(char) < 128
            or (unicodedata.category(char).startswith("L") and ord(char) < 0x180)
        )
        math = None if prose else _math_char(char)
        if math is None:
            add(False, char)
        else:
            add(True, math)
        j += 1
    return _lone_letters(runs)


def tex_text(text: str) -> str:
    """Prose as LaTeX text: specials escaped, Unicode math symbols set in inline math.

    Raises ValueError for a character pdflatex cannot set, naming it.
    """
    out: list[str] = []
    for is_math, run in prose_runs(_quotes(text)):
        if is_math:
            out.append(f"${run}$")
            continue
        for char in run:
            if char in _TEXT_ESCAPES:
                out.append(_TEXT_ESCAPES[char])
            elif char in _TEXT_UNICODE:
                out.append(_TEXT_UNICODE[char])
            elif ord(char) < 128 or (
                unicodedata.category(char).startswith("L") and ord(char) < 0x180
            ):
                out.append(char)
            else:
                raise ValueError(
                    f"cannot set the character {char!r} (U+{ord(char):04X}) in LaTeX text: {text!r}"
                )
    return "".join(out)
