"""The ramp theorem: no linear shift for k != 0, and honesty at the edges."""

import sympy as sp

from proofs import prove_identity
from proofs.engine.facts import LinearSystem
from proofs.engine.linear_system import solve_linear
from proofs.theorems.sinusoidal import ramp
from proofs.theorems.sinusoidal.definitions import POS, L


def test_ramp_theorem_is_proved():
    result = ramp.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_coefficients_are_computed_from_the_polynomial():
    eqs = ramp.coefficient_equations(ramp.K_NONZERO)
    assert sp.simplify(eqs[0] - (ramp.A - 1) / L) == 0
    assert sp.simplify(eqs[1] + ramp.K_NONZERO / L) == 0


def test_impossibility_is_not_claimed_for_k_zero():
    fact = LinearSystem(
        "claim", "k = 0", ramp.coefficient_equations(sp.Integer(0)), (ramp.A,), "inconsistent"
    )
    assert fact.verify().status == "refuted"


def test_impossibility_needs_k_nonzero_hypothesis():
    # With k merely real, k = 0 is allowed, so the engine must not claim inconsistency.
    k_any = sp.Symbol("k", real=True)
    result = solve_linear(ramp.coefficient_equations(k_any), [ramp.A])
    assert result.status == "undecided"


def test_sympy_solve_drops_the_obstruction_but_we_do_not():
    a, k = sp.symbols("a k")
    assert sp.solve([a - 1, -k], a) == {a: 1}  # the trap the issue warns about
    assert solve_linear([a - 1, -k], [a]).status != "solved"


def test_ramp_claimed_linear_is_refuted():
    k = sp.Symbol("k", real=True, nonzero=True)
    assert prove_identity(1 * POS / L, (POS + k) / L).status == "refuted"


def test_affine_map_exists():
    k = sp.Symbol("k", real=True)
    assert prove_identity(POS / L + k / L, (POS + k) / L).status == "proved"
