"""pe-proofs: symbolic proofs of the sinusoidal positional encoding's properties.

Start with `prove_identity(lhs, rhs)` for a claim of your own, `find_shift_map(components, pos, k)`
for an encoding of your own, or `pe-proofs` on the command line.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from proofs.derivation import Derivation, Step, Verdict, prove_identity
    from proofs.shift_map import ShiftMap, find_shift_map

# The exports load on first use, so the command line can start (and be interrupted) before
# SymPy's import has finished.
_EXPORTS = {
    "Derivation": "proofs.derivation",
    "Step": "proofs.derivation",
    "Verdict": "proofs.derivation",
    "prove_identity": "proofs.derivation",
    "ShiftMap": "proofs.shift_map",
    "find_shift_map": "proofs.shift_map",
}

__all__ = ["Derivation", "ShiftMap", "Step", "Verdict", "find_shift_map", "prove_identity"]


def __getattr__(name: str) -> object:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'proofs' has no attribute {name!r}")
