"""pe-proofs: symbolic proofs of the sinusoidal positional encoding's properties.

Start with `prove_identity(lhs, rhs)` for a claim of your own, `find_shift_map(components, pos, k)`
for an encoding of your own, or `pe-proofs` on the command line.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from proofs.engine.derivation import Derivation, Step, Verdict, prove_identity
    from proofs.engine.shift_decision import ShiftMap, find_shift_map

# The exports load on first use, so the command line can start (and be interrupted) before
# SymPy's import has finished.
_EXPORTS = {
    "Derivation": "proofs.engine.derivation",
    "Step": "proofs.engine.derivation",
    "Verdict": "proofs.engine.derivation",
    "prove_identity": "proofs.engine.derivation",
    "ShiftMap": "proofs.engine.shift_decision",
    "find_shift_map": "proofs.engine.shift_decision",
}

__all__ = ["Derivation", "ShiftMap", "Step", "Verdict", "find_shift_map", "prove_identity"]


def load_ipython_extension(ipython: object) -> None:
    """`%load_ext proofs`: derivations, verdicts and theorems display as math in Jupyter."""
    from proofs.render.display import register

    register(ipython)


def __getattr__(name: str) -> object:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'proofs' has no attribute {name!r}")


# Inside Jupyter or IPython, rich display is set up as soon as the package is imported.
# Registering names the printers without importing them, so this costs nothing elsewhere.
if (_ipython := getattr(sys.modules.get("IPython"), "get_ipython", lambda: None)()) is not None:
    load_ipython_extension(_ipython)
