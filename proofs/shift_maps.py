"""Theorem (shift maps): which encodings have a position-independent map from pos to pos + k.

Statement. For real k, decided by proofs.engine.shift_decision.find_shift_map (coefficient matching over
the independent functions pos^n·e^{λ·pos}, no equation dropped):
    - the sinusoidal pair at any frequency ω_i > 0, and the whole sinusoidal vector, have a
      linear map M(k) (the rotation blocks R(kω_i));
    - the ramp pos/L has no linear map (for k ≠ 0) but has the affine map r ↦ r + k/L;
    - the raw index pos has no linear map (for k ≠ 0);
    - the ramp with a constant feature appended, [pos/L, 1], has a linear map: the constant
      carries the offset;
    - a lone sine sin(pos), without its cosine, has no linear map (for sin k ≠ 0).
Each part is proved exactly when find_shift_map gives the correct answer together with its
verified derivation (a map) or its certificate (no map).

Numeric twin: numeric.checks.shift_maps.shift_fit_table.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import sympy as sp

from proofs.definitions import OMEGA_I, POS, K, L, pe_pair, pe_vector
from proofs.engine.derivation import Derivation, Verdict
from proofs.engine.facts import FreeOf
from proofs.engine.shift_decision import ShiftMap, find_shift_map
from proofs.engine.theorem import Theorem

NAME = "shift_maps"

# find_shift_map solves for all n² entries of M, so the whole-vector part is capped here.
WHOLE_VECTOR_MAX = 8


@dataclass(frozen=True)
class ShiftMapFact:
    """Fact: find_shift_map decides the encoding expr as expected, with its evidence.

    expr: the encoding f(pos) as a column. expect: whether a map (linear, or affine if
    affine) exists. Proved only when the answer matches and carries a verified derivation
    (exists) or a certificate whose constant was shown nonzero (does not exist).
    """

    title: str
    expr: sp.ImmutableMatrix
    expect: bool
    affine: bool = False

    def answer(self) -> ShiftMap:
        return _answer(self.expr, self.affine)

    def evidence(self) -> tuple[tuple[str, sp.Basic | Derivation | tuple[sp.Basic, ...]], ...]:
        """What the notes show, as (caption, content) pairs: the encoding, then the map with
        its verified chain M(k)·f(pos) = f(pos + k), or the certificate's coefficient equations
        and the contradiction 0 = c they force."""
        found = self.answer()
        shown: list[tuple[str, sp.Basic | Derivation | tuple[sp.Basic, ...]]] = [
            ("The encoding f(pos):", self.expr)
        ]
        if found.exists and found.derivation is not None:
            m_k = sp.Function("M")(K)
            shown.append(
                ("The map find_shift_map found:", sp.Eq(m_k, found.matrix, evaluate=False))
            )
            if self.affine:
                b_k = sp.Function("b")(K)
                shown.append(("and its offset:", sp.Eq(b_k, found.offset, evaluate=False)))
            shown.append(("Checked link by link:", found.derivation))
        elif found.exists is False:
            cert = found.certificate
            # The solver's unknowns are named _m11, ...; show them as m_11, ...
            names = {
                u: sp.Symbol(u.name.lstrip("_"))
                for _, _, _, eq in cert.equations
                for u in eq.free_symbols
                if u.name.startswith("_")
            }
            shown.append(
                (
                    "A map would need these coefficient equations (each reads ... = 0) to hold:",
                    tuple(
                        sp.Eq(eq.xreplace(names), 0, evaluate=False)
                        for _, _, _, eq in cert.equations
                    ),
                )
            )
            shown.append(
                (
                    f"Their weighted sum forces a contradiction for {cert.holds_for}:",
                    sp.Eq(sp.Integer(0), cert.value, evaluate=False),
                )
            )
        return tuple(shown)

    def verify(self, *, seed: int = 0) -> Verdict:
        del seed  # the derivation inside the answer is checked with its own seeded points
        found = self.answer()
        if found.exists is None:
            return Verdict("undecided", found.reason)
        if found.exists != self.expect:
            said = "a map exists" if found.exists else "no map exists"
            return Verdict(
                "refuted", f"find_shift_map says {said}, the opposite of the known answer"
            )
        if found.exists:
            entries = sp.ImmutableMatrix(list(found.matrix) + list(found.offset or []))
            if not (found.verdict.proved and FreeOf("", entries, (POS,)).verify().proved):
                return Verdict("undecided", "the map returned did not verify")
            shown = "M(k) and b(k) found" if self.affine else "M(k) found"
            return Verdict("proved", f"{shown}; {found.verdict.reason}", links=found.verdict.links)
        cert = found.certificate
        return Verdict(
            "proved",
            f"the coefficient equations force 0 = {sp.sstr(cert.value)}, false for {cert.holds_for}",
        )


@cache
def _answer(expr: sp.ImmutableMatrix, affine: bool) -> ShiftMap:
    # Cached: verifying and printing a fact both need the same answer.
    return find_shift_map(list(expr), POS, K, affine=affine)


def _column(*entries: sp.Expr) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix(list(entries))


def build(d_model: int = 8) -> Theorem:
    """The five encodings; the whole sinusoidal vector is taken at min(d_model, 8)."""
    width = min(d_model, WHOLE_VECTOR_MAX)
    ramp = POS / L
    return Theorem(
        name=NAME,
        title="Which encodings have a position-independent shift map",
        statement=(
            "A linear map M(k) with M(k)·f(pos) = f(pos + k) exists for the sinusoidal encoding "
            "and for [pos/L, 1], not for the ramp, the raw index or a lone sine (k ≠ 0); "
            "the ramp has an affine one."
        ),
        formulas=(
            sp.Eq(
                sp.MatMul(sp.MatrixSymbol("M", 2, 2), pe_pair(POS, OMEGA_I), evaluate=False),
                pe_pair(POS + K, OMEGA_I),
                evaluate=False,
            ),
        ),
        parts=(
            ShiftMapFact(
                "Sinusoidal pair at any frequency ω_i > 0: a linear map exists",
                pe_pair(POS, OMEGA_I),
                True,
            ),
            ShiftMapFact(
                f"Whole sinusoidal vector, d_model = {width}: a linear map exists",
                pe_vector(POS, width),
                True,
            ),
            ShiftMapFact("Ramp pos/L: no linear map", _column(ramp), False),
            ShiftMapFact("Ramp pos/L: an affine map exists", _column(ramp), True, affine=True),
            ShiftMapFact("Raw index pos: no linear map", _column(POS), False),
            ShiftMapFact(
                "Ramp with a constant feature, [pos/L, 1]: a linear map exists",
                _column(ramp, sp.Integer(1)),
                True,
            ),
            ShiftMapFact(
                "Lone sine sin(pos) without its cosine: no linear map", _column(sp.sin(POS)), False
            ),
        ),
        twin="numeric.checks.shift_maps.shift_fit_table",
        twin_kwargs={"d_model": width},
        remarks=(
            "'No map' is for k ≠ 0 (and, for the lone sine, sin k ≠ 0): at k = 0 the identity works.",
            "Appending a constant feature turns the ramp's affine map into a linear one: the "
            "obstruction is the missing constant, and a single ramp value has no linear shift.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
