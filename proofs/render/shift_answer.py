"""The answer of find_shift_map in the module's notation: the verified map as a matrix in sin
and cos of k, or one sentence saying which equation no map can meet; the certificate's algebra
(coefficient equations, the chain M(k)·f(pos) = f(pos + k)) with verbose; and as JSON.
"""

from __future__ import annotations

import re
from typing import Any

import sympy as sp

from proofs.engine.number_size import largest_number_bits
from proofs.engine.shift_decision import ShiftMap
from proofs.render.terminal_math import block
from proofs.render.text import render_part
from proofs.render.text_style import Style

# ---- the module's notation ----------------------------------------------------------------


def in_notation(expr: sp.Basic, components: tuple[sp.Expr, ...]) -> sp.Basic:
    """expr with every power of a number written in the base the components use.

    SymPy's simplify turns 10000**(-2i/d_model) into 10**(-8i/d_model); this turns it back,
    so one answer never mixes two spellings of the same frequency.
    """
    bases = {
        p.base
        for c in components
        for p in c.atoms(sp.Pow)
        if p.base.is_Integer and p.base > 1 and not p.exp.is_Number
    }
    roots = {b: sp.perfect_power(b) or (b, 1) for b in bases}

    def rewrite(power: sp.Pow) -> sp.Expr:
        root, m = sp.perfect_power(power.base) or (power.base, 1)
        for base, (base_root, n) in roots.items():
            if base_root == root and base != power.base:
                return sp.Pow(base, power.exp * sp.Rational(m, n))
        return power

    return expr.replace(
        lambda e: (
            isinstance(e, sp.Pow) and e.base.is_Integer and e.base > 1 and not e.exp.is_Number
        ),
        rewrite,
    )


def words(expr: sp.Basic, style: Style) -> str:
    """expr on one line, as in the module: k/L, sin(k), 10000^(-2i/d_model)."""
    text = sp.sstr(expr).replace("**", "^").replace("*", "·")
    text = re.sub(r"\bI\b", "i", text)
    return style.text(text)


# factor() reads exp(k) and exp((1 + 10**-30)*k) as powers of exp(k/10**30), a polynomial of
# degree 10**30: a value holding a number wider than this is not factored.
_FACTOR_MAX_NUMBER_BITS = 64


def _nonzero_core(value: sp.Expr) -> sp.Expr:
    """value without the factors the hypotheses make nonzero (k/L -> k for L > 0)."""
    wide = largest_number_bits(value) > _FACTOR_MAX_NUMBER_BITS
    factors = sp.Mul.make_args(value if wide else sp.factor(value))
    return sp.Mul(*[f for f in factors if f.is_zero is not False])


def refusal(found: ShiftMap, style: Style) -> str:
    """Why no map exists, in one sentence."""
    cert = found.certificate
    value = in_notation(cert.value, found.components)
    need = f"a{'n' if found.affine else ''} {found.kind} map would need 0 = {words(value, style)} for every pos"
    core = _nonzero_core(value)
    if core.is_number:
        return f"{need}, which never holds."
    neq = "≠" if style.unicode else "!="
    if isinstance(core, sp.Symbol):
        return f"{need}, which fails for {core} {neq} 0."
    return f"{need}, which fails whenever {words(core, style)} {neq} 0."


# ---- the answer -------------------------------------------------------------------------------


def _question(found: ShiftMap) -> str:
    question = "M(k)·f(pos) + b(k)" if found.affine else "M(k)·f(pos)"
    return (
        f"Is there {'an' if found.affine else 'a'} {found.kind} map, M(k) free of pos, "
        f"with {question} = f(pos + k) for all real pos?"
    )


def render(found: ShiftMap, style: Style | None = None) -> str:
    """The answer as text: the question, then the map, the refusal, or why it is undecided."""
    style = style or Style()
    out = block(sp.ImmutableMatrix(list(found.components)), "f(pos) = ", style, indent=0)
    out += style.wrap(_question(found))
    out.append("")
    if found.exists:
        out += style.marked("proved", "Yes: the map, checked symbolically and numerically:")
        out += block(in_notation(found.matrix, found.components), "M(k) = ", style)
        if found.affine:
            out += block(in_notation(found.offset, found.components), "b(k) = ", style)
        if found.free:
            out += style.wrap(f"(entries {', '.join(found.free)} are free; set to 0)", indent=4)
        if style.verbose:
            out += ["", *_basis(found, style), ""]
            out.append(render_part(found.derivation, found.verdict, 1, style))
    elif found.exists is False:
        out += style.marked("refuted", f"No: {refusal(found, style)}")
        if style.verbose:
            out += ["", *_basis(found, style), *_certificate(found, style)]
    else:
        out += style.marked("undecided", f"Undecided: {found.reason}")
    return "\n".join(out)


def _basis(found: ShiftMap, style: Style) -> list[str]:
    basis = ", ".join(words(in_notation(b, found.components), style) for b in found.basis)
    return style.wrap(
        f"The components were rewritten over the independent functions {basis}.", hang=2
    )


def _unknowns(eq: sp.Expr) -> sp.Expr:
    """The solver's unknowns _m11, _b1 shown as m11, b1."""
    return eq.xreplace({u: sp.Symbol(u.name) for u in eq.free_symbols if isinstance(u, sp.Dummy)})


def _certificate(found: ShiftMap, style: Style) -> list[str]:
    cert = found.certificate
    out = style.wrap("Matching coefficients, the map's entries would have to satisfy:", hang=2)
    for weight, row, basis, eq in cert.equations:
        out += style.wrap(
            f"row {row + 1}, coefficient of {words(basis, style)} (weight {words(weight, style)}):",
            indent=2,
            hang=2,
        )
        out += block(_unknowns(eq), "", style, indent=6, tail=" = 0")
    out += style.wrap("Their weighted sum leaves", hang=2)
    out += block(sp.Eq(0, in_notation(cert.value, found.components), evaluate=False), "", style)
    out += style.wrap(f"which is false: {cert.proof}; it holds for {cert.holds_for}.", hang=2)
    return out


def as_json(found: ShiftMap, style: Style | None = None) -> dict[str, Any]:
    """The answer as a JSON-ready dict (expressions in SymPy's string form, in the components'
    notation), with the one-sentence answer and the certificate's algebra."""
    style = style or Style()

    def text(expr: sp.Basic) -> str:
        return sp.sstr(in_notation(expr, found.components))

    result: dict[str, Any] = {
        "components": [sp.sstr(c) for c in found.components],
        "kind": found.kind,
        "exists": found.exists,
        "answer": refusal(found, style) if found.exists is False else found.reason,
        "reason": found.reason,
        "basis": [text(b) for b in found.basis],
        "matrix": None
        if found.matrix is None
        else [[text(e) for e in row] for row in found.matrix.tolist()],
        "offset": None if found.offset is None else [text(e) for e in found.offset],
        "free_entries_set_to_zero": list(found.free),
        "derivation": None,
        "certificate": None,
    }
    if found.exists:
        result["derivation"] = {
            "status": found.verdict.status,
            "steps": [
                {"expr": text(step.expr), "cited": step.cited, "note": step.note}
                for step in found.derivation.steps
            ],
        }
    if found.certificate is not None:
        cert = found.certificate
        result["certificate"] = {
            "equations": [
                {
                    "weight": sp.sstr(w),
                    "row": row + 1,
                    "basis_function": text(b),
                    "equation": sp.sstr(_unknowns(e)),
                }
                for w, row, b, e in cert.equations
            ],
            "value": text(cert.value),
            "proof": cert.proof,
            "holds_for": cert.holds_for,
        }
    return result
