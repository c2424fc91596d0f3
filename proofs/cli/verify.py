"""Verify theorems in parallel, with their numeric twins, for the notes commands."""

from __future__ import annotations

from collections.abc import Sequence

from numeric.table import Table
from proofs import registry
from proofs.cli.pool import parallel_map
from proofs.engine.derivation import Verdict
from proofs.engine.theorem import PartResult, TheoremResult
from proofs.render.notes_checked import Checked


def check(names: Sequence[str] | None = None, *, d_model: int = 8, seed: int = 0) -> list[Checked]:
    """Verify the named theorems (all by default) and compute their twins."""
    chosen = [registry.check_name(n) for n in names] if names else registry.names()
    tasks = [(name, d_model, seed) for name in chosen]
    out = []
    for name, (verdicts, table) in zip(chosen, parallel_map(_verify_with_twin, tasks), strict=True):
        # The theorem is rebuilt here rather than sent back: unpickling re-evaluates SymPy
        # objects, and a step kept unevaluated for display (a·r(pos) as a product) would collapse.
        theorem = registry.build(name, d_model=d_model)
        parts = tuple(PartResult(p, v) for p, v in zip(theorem.parts, verdicts, strict=True))
        out.append(Checked(TheoremResult(theorem, parts), table))
    return out


def _verify_with_twin(task: tuple[str, int, int]) -> tuple[tuple[Verdict, ...], Table]:
    name, d_model, seed = task
    result = registry.build(name, d_model=d_model).verify(seed=seed)
    return tuple(p.verdict for p in result.parts), result.theorem.run_twin()
