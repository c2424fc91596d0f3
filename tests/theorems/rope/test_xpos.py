"""The rope_xpos theorem: exactly relative; the key scale of pair 0 leaves fp16 at u = 4533."""

import numpy as np
import sympy as sp

from numeric.rope.xpos import first_fp16_overflow, xpos_zeta
from proofs.engine.derivation import Derivation, Step
from proofs.theorems.rope import xpos as rx
from proofs.theorems.rope.definitions import M, N


def test_theorem_is_proved() -> None:
    result = rx.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_the_wrong_sign_of_the_decay_is_refuted() -> None:
    claim = Derivation(
        "claim",
        "ξ^(n − m)",
        (
            Step(rx.xpos_score(M, N)),
            Step(rx.xpos_relative_form(N, M)),
        ),
    )
    assert claim.verify().status == "refuted"


def test_an_overflow_one_step_early_is_not_proved() -> None:
    # (7/2)^(4532/512) is below 65520: the interval [65520, 66000] does not hold there.
    fact = rx.interval_fact("early", "early", rx.key_scale(4532), rx.FP16_OVERFLOW, 66000)
    assert fact.verify().status == "refuted"


def test_the_theorem_constants_are_the_librarys() -> None:
    assert abs(xpos_zeta(128)[0] - float(rx.ZETA_0)) < 1e-15
    assert first_fp16_overflow(2 / 7)["exact"] == rx.LAST_FINITE + 1
    assert np.isfinite(np.float16(float(rx.key_scale(rx.LAST_FINITE))))
    assert float(rx.key_scale(rx.LAST_FINITE)) < float(rx.FP16_MAX)
    assert sp.Integer(65520) == rx.FP16_OVERFLOW


def test_the_twin_passes() -> None:
    assert rx.build().run_twin().passed is True


def test_the_twin_fails_when_the_key_scale_never_overflows(monkeypatch) -> None:
    from numeric.checks import rope_xpos

    monkeypatch.setattr(
        rope_xpos, "first_fp16_overflow", lambda zeta: {"exact": None, "library": None}
    )
    assert rope_xpos.rope_xpos_table().passed is False
