"""proofs.render.display: Jupyter shows derivations, verdicts and theorems through the printers,
registered with IPython by type name, while the data types themselves know no printer."""

from __future__ import annotations

import subprocess
import sys
from functools import cache

import proofs
from proofs import prove_identity
from proofs.engine.derivation import Derivation, Verdict
from proofs.engine.theorem import TheoremRun
from proofs.theorems.sinusoidal import ramp, rotation
from proofs.theorems.sinusoidal.definitions import POS


class _Formatter:
    """The part of IPython's display formatter that registration uses: for_type_by_name."""

    def __init__(self) -> None:
        self.printers: dict[tuple[str, str], object] = {}

    def for_type_by_name(self, module: str, name: str, func: object) -> None:
        self.printers[(module, name)] = func

    def show(self, obj: object) -> str:
        cls = type(obj)
        return self.printers[(cls.__module__, cls.__name__)](obj)


class _IPython:
    def __init__(self) -> None:
        formatters = {"text/latex": _Formatter(), "text/markdown": _Formatter()}
        self.display_formatter = type("DisplayFormatter", (), {"formatters": formatters})()


@cache
def shell() -> _IPython:
    ipython = _IPython()
    proofs.load_ipython_extension(ipython)
    return ipython


def show(obj: object, mime: str) -> str:
    return shell().display_formatter.formatters[mime].show(obj)


def balanced(tex: str) -> bool:
    depth = 0
    for char in tex.replace(r"\{", "").replace(r"\}", ""):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def test_data_types_have_no_display_methods():
    for cls in (Derivation, Verdict, TheoremRun):
        assert not hasattr(cls, "_repr_latex_") and not hasattr(cls, "_repr_markdown_")


def test_a_derivation_shows_as_aligned_display_math():
    tex = show(rotation.pair_derivation(), "text/latex")
    assert tex.startswith("$$") and r"\begin{aligned}" in tex and "align*" not in tex
    assert r"\parbox" not in tex and balanced(tex)


def test_a_theorem_shows_its_status_first_in_markdown():
    result = ramp.build().verify()
    text = show(result, "text/markdown")
    parts = len(result.parts)
    assert text.splitlines()[0] == f"✓ **ramp: proved** ({parts} of {parts} parts proved)"


def test_a_verdict_shows_its_mark_and_reason():
    assert show(prove_identity(POS + POS, 2 * POS), "text/markdown").startswith("**✓ proved**: ")
    assert show(prove_identity(POS, POS + 1), "text/markdown").startswith("**✗ refuted**: ")


def test_registration_imports_no_printer():
    code = (
        "import sys, proofs; from proofs.render.display import register\n"
        "class F:\n    def for_type_by_name(self, *a): pass\n"
        "class S:\n    display_formatter = type('D', (), {'formatters': {'text/latex': F(), 'text/markdown': F()}})()\n"
        "register(S())\n"
        "print(sorted(m for m in sys.modules if m.startswith('proofs.render.') or m == 'sympy'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['proofs.render.display']"
