"""Theorem (rope_decay): RoFormer's Abel-summation bound holds, and its "long-term decay" does not.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.rope_decay.rope_decay_table.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import NonNegative, Refutation
from proofs.engine.rules import (
    ALGEBRA,
    ANGLE_SUBTRACTION,
    COMMON_ANGLE,
    PYTHAGOREAN,
)
from proofs.engine.theorem import Theorem
from proofs.theorems.rope.definitions import enclosure_fact

NAME = "rope_decay"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "RoFormer's Abel-summation bound holds, but the average (2/d)·Σ_j |S_j(r)| is not "
    "non-increasing: at d = 128, b = 10⁴ it rises from r = 1000 to r = 2000, and already "
    "from r = 18 to r = 19."
)

# The Abel identity and the bound are written out pair by pair: their size grows as d and d²
# (the identity is checked up to RoFormer's own d = 128, the bound at 2 to 4 pairs).
MAX_ABEL_D, MAX_BOUND_D = 128, 8
# The setting for the refutation.
DECAY_D, DECAY_BASE = 128, 10000


def _pairs(d_model: int, cap: int) -> int:
    return min(d_model, cap) // 2


def abel_sides(h: list[sp.Expr], partial: list[sp.Expr]) -> tuple[sp.Expr, sp.Expr]:
    """Σ h_i (S_{i+1} − S_i) and −Σ S_{i+1}(h_{i+1} − h_i), with S_0 = 0 and h_n = 0, as written;
    partial = [S_1, …, S_n]."""
    n = len(h)
    before = [sp.Integer(0), *partial[:-1]]
    telescoped = sp.Add(
        *(
            sp.Mul(h[i], sp.Add(partial[i], -before[i], evaluate=False), evaluate=False)
            for i in range(n)
        ),
        evaluate=False,
    )
    nxt = [*h[1:], sp.Integer(0)]
    by_parts = sp.Mul(
        -1,
        sp.Add(
            *(
                sp.Mul(partial[i], sp.Add(nxt[i], -h[i], evaluate=False), evaluate=False)
                for i in range(n)
            ),
            evaluate=False,
        ),
        evaluate=False,
    )
    return telescoped, by_parts


def _symbols(name: str, n: int, start: int = 0, **assumptions) -> list[sp.Symbol]:
    return list(sp.symbols(f"{name}_{start}:{start + n}", **assumptions))


def abel_derivation(n: int) -> Derivation:
    """Σ h_i z_i = −Σ S_{i+1}(h_{i+1} − h_i) for n pairs and any complex h_i, z_i."""
    h, partial = _symbols("h", n), _symbols("S", n, start=1)
    telescoped, by_parts = abel_sides(h, partial)
    return Derivation(
        "abel_summation",
        f"Summation by parts, {n} pairs (d = {2 * n}), any complex h_i and z_i: with "
        "S_j = z_0 + … + z_(j−1), each z_i = S_(i+1) − S_i (S_0 = 0), and with h_(d/2) = 0, "
        "Σ h_i z_i = −Σ S_(i+1)(h_(i+1) − h_i)",
        (
            Step(telescoped),
            Step(by_parts, by=ALGEBRA, note="collect each S_j"),
        ),
    )


def bound_facts(n: int) -> tuple[NonNegative, NonNegative]:
    """The bound in two steps: the triangle inequality, then each |h_(j+1) − h_j| ≤ M. The
    letters are none of the lesson's (ρ_i are YaRN's turns, φ and τ angles of its own, σ = s − 1,
    Δ a cache shift): a_j, ψ_j for a modulus and an angle, A_j for |S_(j+1)|, χ_j."""
    rho = _symbols("a", n, nonnegative=True)
    phi = _symbols("psi", n, real=True)
    real = sp.Add(*(rho[j] * sp.cos(phi[j]) for j in range(n)))
    imaginary = sp.Add(*(rho[j] * sp.sin(phi[j]) for j in range(n)))
    turning = sp.Add(
        *(
            4 * rho[j] * rho[k] * sp.sin((phi[j] - phi[k]) / 2) ** 2
            for j in range(n)
            for k in range(j + 1, n)
        )
    )
    sigma = _symbols("A", n, nonnegative=True)
    tau = _symbols("chi", n, real=True)
    big = sp.Symbol("M", nonnegative=True)
    return (
        NonNegative(
            "triangle_inequality",
            f"The bound, first step ({n} pairs): for w_j = a_j e^(iψ_j), "
            "(Σ|w_j|)² − |Σ w_j|² = Σ_(j<k) 4a_j a_k sin²((ψ_j − ψ_k)/2) ≥ 0, so "
            "|Σ S_(j+1)(h_(j+1) − h_j)| ≤ Σ |S_(j+1)|·|h_(j+1) − h_j| "
            "(w_j = S_(j+1)(h_(j+1) − h_j), both sides ≥ 0)",
            sp.Add(*rho) ** 2 - real**2 - imaginary**2,
            turning,
            (ANGLE_SUBTRACTION, COMMON_ANGLE, PYTHAGOREAN),
        ),
        NonNegative(
            "max_step_bound",
            f"Second step ({n} pairs): if every |h_(j+1) − h_j| ≤ M, write it as M·cos²χ_j; "
            "then with A_j = |S_(j+1)|, M·ΣA_j − ΣA_j·M·cos²χ_j = M·ΣA_j sin²χ_j ≥ 0, so "
            "Σ|S_(j+1)|·|h_(j+1) − h_j| ≤ M·Σ|S_(j+1)|, M the largest |h_(j+1) − h_j|",
            big * sp.Add(*sigma)
            - sp.Add(*(sigma[j] * big * sp.cos(tau[j]) ** 2 for j in range(n))),
            big * sp.Add(*(sigma[j] * sp.sin(tau[j]) ** 2 for j in range(n))),
            PYTHAGOREAN,
        ),
    )


K_INDEX = sp.Symbol("k", integer=True, nonnegative=True)
J_INDEX = sp.Symbol("j", integer=True, positive=True)


# The distances of the claim that f decays: f(r + t) ≤ f(r) for every r and t.
DISTANCE = sp.Symbol("r", integer=True, nonnegative=True)
FURTHER = sp.Symbol("t", integer=True, positive=True)


def partial_sum_abs(r: sp.Expr, d: int = DECAY_D, base: int = DECAY_BASE) -> sp.Expr:
    """Σ_{j=1}^{d/2} |S_j(r)|, S_j(r) = Σ_{k=0}^{j−1} e^{i·r·θ_k}, θ_k = base^(−2k/d), as Sums,
    |S_j| written as √((Σ_k cos rθ_k)² + (Σ_k sin rθ_k)²) so that every ball on the way is real."""
    theta = sp.Pow(sp.Integer(base), -2 * K_INDEX / d, evaluate=False)
    real = sp.Sum(sp.cos(r * theta), (K_INDEX, 0, J_INDEX - 1))
    imaginary = sp.Sum(sp.sin(r * theta), (K_INDEX, 0, J_INDEX - 1))
    return sp.Sum(sp.sqrt(real**2 + imaginary**2), (J_INDEX, 1, d // 2))


def average(r: sp.Expr, d: int = DECAY_D) -> sp.Expr:
    """f(r) = (2/d)·Σ_j |S_j(r)|, kept as written."""
    return sp.Mul(sp.Rational(2, d), partial_sum_abs(r, d), evaluate=False)


def decay_claim() -> sp.Rel:
    """RoFormer's reading: the average does not rise with the distance, f(r + t) ≤ f(r)."""
    return sp.Le(average(DISTANCE + FURTHER), average(DISTANCE), evaluate=False)


def refutation_facts() -> tuple[NonNegative | Refutation, ...]:
    f = average
    return (
        enclosure_fact(
            "decay_f_1000",
            "Certified at d = 128, b = 10⁴: f(1000) lies in {interval}",
            f(sp.Integer(1000)),
            5,
        ),
        enclosure_fact(
            "decay_f_2000", "Certified: f(2000) lies in {interval}", f(sp.Integer(2000)), 5
        ),
        Refutation(
            "decay_not_monotone",
            "RoFormer's average f(r) = (2/d)·Σ_j |S_j(r)| decays (is non-increasing) in r: "
            "f(r + t) ≤ f(r) for every r ≥ 0, t ≥ 1 (tried at r = 1000, t = 1000)",
            decay_claim(),
            ((DISTANCE, sp.Integer(1000)), (FURTHER, sp.Integer(1000))),
        ),
        Refutation(
            "decay_rises_at_18",
            "The same claim, f(r + t) ≤ f(r), tried at its first rise, r = 18, t = 1",
            decay_claim(),
            ((DISTANCE, sp.Integer(18)), (FURTHER, sp.Integer(1))),
        ),
    )


def build(d_model: int = 8) -> Theorem:
    """The decay theorem; d_model sets the head width of the identity and the bound (capped)."""
    abel = abel_derivation(_pairs(d_model, MAX_ABEL_D))
    return Theorem(
        name=NAME,
        title="RoFormer's long-term decay: the bound holds, its average is not monotone",
        statement=STATEMENT,
        parts=(
            abel,
            *bound_facts(max(2, _pairs(d_model, MAX_BOUND_D))),
            *refutation_facts(),
        ),
        twin="numeric.checks.rope_decay.rope_decay_table",
        # The default run checks positions below 8192; tests/numeric/test_rope_twins_at_full_length.py
        # runs each twin at 131072 (slow).
        twin_kwargs={"max_distance": 8192, "samples": 128},
        remarks=(
            "Transcribed from rope-formulas.md, citing RoFormer (arXiv 2104.09864) section 3.4.3; the "
            "paper's own text could not be consulted here (no network), so the statements are the "
            "formulas as transcribed there, and the paper's equation numbers are not given.",
            "The identity holds for every d, but its terms h_i are arbitrary numbers, which the "
            "engine's certified numeric check cannot sample as an indexed family: it is written "
            "out and checked at the head width shown, as is the bound (whose witness has a term "
            "for every pair of pairs).",
            "The bound is proved squared, for all S_j and all differences h_(j+1) − h_j of "
            "modulus at most M (each such modulus is M·cos²χ_j for some χ_j); both sides are "
            "≥ 0, so it holds unsquared, and M = max_j |h_(j+1) − h_j| is RoFormer's choice.",
            "The bound itself is true; what fails is the paper's reading of it: its factor "
            "Σ_j |S_j(r)| does not decrease with r.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
