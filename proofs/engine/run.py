"""One run of theorems: each theorem's part verdicts, its numeric twin's table and its time, in
parallel, one process per core. `pe-proofs prove`, the notes commands and the tests all use it
(through proofs.registry.run, which names the theorems).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence

from numeric.result_table import Table
from proofs.engine.derivation import Verdict
from proofs.engine.pool import parallel_map
from proofs.engine.theorem import PartResult, Theorem, TheoremRun

Builder = Callable[[], Theorem]


def _verify(task: tuple[Builder, int, bool]) -> tuple[tuple[Verdict, ...], Table | None, float]:
    build, seed, twin = task
    start = time.perf_counter()
    theorem = build()
    verdicts = tuple(p.verdict for p in theorem.verify(seed=seed).parts)
    table = theorem.run_twin() if twin else None
    return verdicts, table, time.perf_counter() - start


def run_theorems(
    builders: Sequence[Builder], *, seed: int = 0, twin: bool = True, jobs: int = 0
) -> Iterator[TheoremRun]:
    """Build each theorem, verify it and run its twin, yielding each run in order as it is ready.

    builders: picklable functions of no argument that build a theorem (the registry makes
    them). jobs: worker processes (0: one per core; 1: everything in this process).
    """
    tasks = [(build, seed, twin) for build in builders]
    for build, (verdicts, table, seconds) in zip(
        builders, parallel_map(_verify, tasks, jobs=jobs), strict=True
    ):
        # The theorem is rebuilt here rather than sent back: unpickling re-evaluates SymPy
        # objects, and a step kept unevaluated for display (a·r(pos) as a product) would collapse.
        theorem = build()
        parts = tuple(PartResult(p, v) for p, v in zip(theorem.parts, verdicts, strict=True))
        yield TheoremRun(theorem, parts, table, seconds)
