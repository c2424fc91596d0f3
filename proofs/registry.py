"""The theorems pe-proofs knows, in the order they are presented."""

from __future__ import annotations

import difflib
import importlib

from proofs.theorem import Theorem

# One module per theorem; each defines NAME and build(d_model) -> Theorem.
THEOREM_MODULES: tuple[str, ...] = ("rotation", "ramp", "bounded", "unique", "dot_product", "shift_maps", "group", "layouts", "rope")


def names() -> list[str]:
    """The theorem names, in presentation order."""
    return list(THEOREM_MODULES)


def check_name(name: str) -> str:
    """name if it is a known theorem; ValueError naming the closest match otherwise."""
    if name in THEOREM_MODULES:
        return name
    close = difflib.get_close_matches(name, THEOREM_MODULES, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise ValueError(f"unknown theorem {name!r}{hint} (known: {', '.join(THEOREM_MODULES)})")


def build(name: str, *, d_model: int = 8) -> Theorem:
    """The theorem called name, with its whole-vector statements at d_model."""
    module = importlib.import_module(f"proofs.{check_name(name)}")
    return module.build(d_model=d_model)
