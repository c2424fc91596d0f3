"""How the terminal output looks: Style (width, Unicode or ASCII, color, detail), the status
marks, and prose transliterated to ASCII.
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sympy as sp

MARK = {"proved": "✓", "refuted": "✗", "undecided": "?"}
ASCII_MARK = {"proved": "ok", "refuted": "NO", "undecided": "??"}
COLOR = {"proved": "32", "refuted": "31", "undecided": "33"}

DEFAULT_WIDTH = 100
# Prose is wrapped at most this wide, however wide the terminal: longer lines read badly. Math
# may use the whole width.
PROSE_WIDTH = 100


_NBSP = "\u00a0"
_RELATION = re.compile(r"\S+ (?:≠|≤|≥|!=|<=|>=) \S+")
# A short bracketed group, one level of nesting at most: "r(pos + k)", "[pos/L, 1]".
_GROUP = re.compile(r"[(\[](?:[^()\[\]]|\([^()]*\)){1,24}[)\]]")


@dataclass(frozen=True)
class Style:
    """How to print: width in columns, Unicode or ASCII, ANSI color, check details per link."""

    width: int = DEFAULT_WIDTH
    unicode: bool = True
    color: bool = False
    verbose: bool = False

    def mark(self, status: str) -> str:
        """The status mark (✓ ✗ ?, or ok NO ??), colored if color is on."""
        return self.paint((MARK if self.unicode else ASCII_MARK)[status], COLOR[status])

    def paint(self, text: str, code: str) -> str:
        """text in the ANSI color or attribute code ("1" bold, "2" dim, "32" green) if on."""
        return f"\033[{code}m{text}\033[0m" if self.color else text

    def text(self, words: str) -> str:
        """words as they can be printed: in Unicode with the prose's product dot (· not SymPy's
        ⋅), transliterated in ASCII."""
        return words.replace("⋅", "·") if self.unicode else ascii_text(words)

    def marked(self, status: str, words: str, indent: int = 0, hang: int = 2) -> list[str]:
        """The status mark, then words, wrapped like wrap (the mark counted at its printed width)."""
        plain = (MARK if self.unicode else ASCII_MARK)[status]
        lines = self.wrap(f"{plain} {words}", indent, hang)
        lines[0] = lines[0].replace(plain, self.mark(status), 1)
        return lines

    def wrap(self, words: str, indent: int = 0, hang: int = 0) -> list[str]:
        """words wrapped at the width: first line indented by indent, the rest by indent + hang."""
        # A relation such as "k ≠ 0" stays on one line: its spaces are made unbreakable.
        # So does a short bracketed group such as "PE(pos + k)".
        text = _RELATION.sub(lambda m: m[0].replace(" ", _NBSP), self.text(words))
        text = _GROUP.sub(lambda m: m[0].replace(" ", _NBSP), text)
        lines = textwrap.wrap(
            text,
            width=max(20, min(self.width, PROSE_WIDTH)),
            initial_indent=" " * indent,
            subsequent_indent=" " * (indent + hang),
            break_on_hyphens=False,
        )
        return [line.replace(_NBSP, " ") for line in lines] or [""]


_ASCII = {
    "ω": "omega",
    "θ": "theta",
    "λ": "lambda",
    "σ": "sigma",
    "π": "pi",
    "ε": "eps",
    "δ": "delta",
    "Σ": "sum",
    "·": "*",
    "⋅": "*",
    "×": "x",
    "−": "-",
    "–": "-",
    "—": "--",
    "≠": "!=",
    "≤": "<=",
    "≥": ">=",
    "‖": "||",
    "⟨": "<",
    "⟩": ">",
    "↦": "|->",
    "→": "->",
    "√": "sqrt",
    "∝": "~",
    "…": "...",
    "⋯": "...",
    "⁻": "^-",
    "ᵀ": "^T",
    "²": "^2",
    "³": "^3",
    "¹": "^1",
    "⁰": "^0",
    "━": "=",
    "✓": "ok",
    "✗": "NO",
    "ℂ": "C",
    "κ": "kappa",
    "“": '"',
    "”": '"',
}


def ascii_text(words: str) -> str:
    """words in plain ASCII: mathematical symbols spelled out, accents and subscripts dropped."""
    out = []
    for char in words:
        if char.isascii():
            out.append(char)
        elif char in _ASCII:
            out.append(_ASCII[char])
        elif unicodedata.name(char, "").startswith(
            ("GREEK SMALL LETTER ", "GREEK CAPITAL LETTER ")
        ):
            # Every Greek letter by its name: α -> alpha, Φ -> Phi.
            letter = unicodedata.name(char).split()[-1].lower()
            out.append(letter if "SMALL" in unicodedata.name(char) else letter.capitalize())
        else:
            # Subscripts and accented letters decompose to ASCII (ᵢ -> i, é -> e).
            base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
            out.append(base or "?")
    return "".join(out)


def shown(expr: sp.Basic, display: tuple[tuple[sp.Basic, sp.Basic], ...]) -> sp.Basic:
    """expr with the derivation's display substitutions applied (structure only, no evaluation)."""
    mapping = {}
    for old, new in display:
        mapping[old] = new
        mapping[1 / old] = 1 / new
    return expr.xreplace(mapping) if mapping else expr
