"""A checked theorem as display math for Jupyter (the notes themselves are latex_lesson's job)."""

from __future__ import annotations

from proofs.engine.derivation import Derivation
from proofs.engine.theorem import TheoremRun
from proofs.render.latex_chains import aligned_block


def result_latex(result: TheoremRun) -> str:
    """A checked theorem for Jupyter: each derivation as display math (MathJax-safe)."""
    return "\n".join(
        aligned_block(pr.part) for pr in result.parts if isinstance(pr.part, Derivation)
    )
