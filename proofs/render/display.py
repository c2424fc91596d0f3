"""Rich display in Jupyter: which printer shows which engine type, registered with IPython.

The engine's data types know nothing of printing. IPython's display formatters are told, by
module and class name, which printer renders each type, so registering imports nothing: a
printer (and SymPy with it) is imported only when an object is first shown.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

# (module of the type, its class name, MIME type, printer module, printer function)
DISPLAYS: tuple[tuple[str, str, str, str, str], ...] = (
    (
        "proofs.engine.derivation",
        "Derivation",
        "text/latex",
        "proofs.render.latex_chains",
        "aligned_block",
    ),
    (
        "proofs.engine.derivation",
        "Verdict",
        "text/markdown",
        "proofs.render.markdown",
        "verdict_markdown",
    ),
    (
        "proofs.engine.theorem",
        "TheoremRun",
        "text/latex",
        "proofs.render.latex_document",
        "result_latex",
    ),
    (
        "proofs.engine.theorem",
        "TheoremRun",
        "text/markdown",
        "proofs.render.markdown",
        "result_markdown",
    ),
)


def printer(module: str, function: str) -> Callable[[object], str]:
    """The printer module.function, imported when first called."""

    def show(obj: object) -> str:
        return getattr(importlib.import_module(module), function)(obj)

    return show


def register(ipython: object) -> None:
    """Tell a running IPython (get_ipython()) how to display derivations, verdicts and theorems."""
    formatters = ipython.display_formatter.formatters  # type: ignore[attr-defined]
    for type_module, type_name, mime, module, function in DISPLAYS:
        formatters[mime].for_type_by_name(type_module, type_name, printer(module, function))
