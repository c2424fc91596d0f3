"""Terminal printer: a theorem's derivation in Unicode math, each link with its two checks."""

from __future__ import annotations

import sympy as sp
from sympy.printing.pretty.pretty import PrettyPrinter
from sympy.printing.pretty.pretty_symbology import pretty_use_unicode

from proofs.engine.derivation import Derivation, Verdict
from proofs.engine.facts import LinearSystem, Part
from proofs.engine.theorem import TheoremResult
from proofs.render.structure import is_structured, structure_text

MARK = {"proved": "✓", "refuted": "✗", "undecided": "?"}


def shown(expr: sp.Basic, display: tuple[tuple[sp.Basic, sp.Basic], ...]) -> sp.Basic:
    """expr with the derivation's display substitutions applied (structure only, no evaluation)."""
    mapping = {}
    for old, new in display:
        mapping[old] = new
        mapping[1 / old] = 1 / new
    return expr.xreplace(mapping) if mapping else expr


def pretty_lines(expr: sp.Basic) -> tuple[list[str], int]:
    """expr as Unicode lines and the index of its baseline."""
    if is_structured(expr):
        return [structure_text(expr)], 0
    # The printer's big symbols (Σ, brackets) follow a module-wide Unicode switch that only
    # sp.pretty() sets; set it here too, or a Sum printed first fails to find its glyphs.
    was = pretty_use_unicode(True)
    try:
        form = PrettyPrinter({"use_unicode": True, "wrap_line": False})._print(expr)
        lines = form.render(wrap_line=False).split("\n")
    finally:
        pretty_use_unicode(was)
    return lines, form.baseline


def block(expr: sp.Basic, lead: str, tail: str = "", indent: int = 4) -> list[str]:
    """expr pretty-printed with lead before and tail after its baseline row."""
    lines, baseline = pretty_lines(expr)
    pad = " " * len(lead)
    width = max(len(line) for line in lines)
    return [
        " " * indent
        + (lead if n == baseline else pad)
        + line.ljust(width) * bool(tail)
        + (tail if n == baseline else "")
        if tail
        else " " * indent + (lead if n == baseline else pad) + line
        for n, line in enumerate(lines)
    ]


def _chain(derivation: Derivation, verdict: Verdict) -> list[str]:
    out = []
    for j, step in enumerate(derivation.steps):
        out += block(shown(step.expr, derivation.display), "  " if j == 0 else "= ", indent=2)
        if j > 0:
            link = verdict.links[j - 1]
            out.append(f"      └ {MARK[link.status]} {step.justification}")
            out.append(f"        {link.symbolic.summary()} · {link.numeric.summary()}")
            if link.numeric.counterexample:
                out.append(f"        counterexample {link.numeric.counterexample.describe()}")
    return out


def _fact(part: Part, verdict: Verdict) -> list[str]:
    evidence = getattr(part, "evidence", None)
    if evidence is not None:
        # A fact that shows its evidence (a map found, a certificate): captions and formulas.
        lines = []
        for caption, content in evidence():
            lines.append(f"    {caption}")
            if isinstance(content, Derivation):
                lines += _chain(content, verdict)
            else:
                for formula in content if isinstance(content, tuple) else (content,):
                    lines += block(formula, "")
        return lines
    if isinstance(part, LinearSystem):
        lines = []
        for eq in part.equations:
            lines += block(eq, "", " = 0")
        return lines
    return []


def render_part(part: Part, verdict: Verdict, number: int) -> str:
    """One part: its title, its chain or fact, and its verdict."""
    out = [f"[{number}] {part.title}"]
    out += _chain(part, verdict) if isinstance(part, Derivation) else _fact(part, verdict)
    out.append(f"    {MARK[verdict.status]} {verdict}")
    if verdict.counterexample and not isinstance(part, Derivation):
        out.append(f"    counterexample {verdict.counterexample.describe()}")
    return "\n".join(out)


def render_theorem(result: TheoremResult) -> str:
    """A whole theorem: heading, statement, parts, remarks and the one-line verdict."""
    th = result.theorem
    out = [f"━━ {th.name}: {th.title}", th.statement, ""]
    for n, pr in enumerate(result.parts, 1):
        out.append(render_part(pr.part, pr.verdict, n))
        out.append("")
    out += [f"Note: {r}" for r in th.remarks]
    counts = {s: sum(p.verdict.status == s for p in result.parts) for s in MARK}
    out.append(
        f"{MARK[result.status]} {th.name}: {result.status.upper()} "
        f"({counts['proved']}/{len(result.parts)} parts proved"
        + (f", {counts['refuted']} refuted" if counts["refuted"] else "")
        + (f", {counts['undecided']} undecided" if counts["undecided"] else "")
        + ")"
    )
    return "\n".join(out)
