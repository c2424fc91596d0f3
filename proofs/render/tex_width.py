"""The printed width of a LaTeX math string, in pt, estimated from its tokens.

Used to decide where a long expression must break and when a row must be scaled to fit.
"""

from __future__ import annotations

import re

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
