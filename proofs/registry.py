"""The theorems pe-proofs knows: the one list of them, in the lesson's order."""

from __future__ import annotations

import difflib
import functools
import importlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

# The engine loads on first use: the command line checks a theorem's name, or --d-model,
# before (and without) importing SymPy.
if TYPE_CHECKING:
    from proofs.engine.theorem import Theorem, TheoremRun

# One module per theorem, in the order the lesson presents them; each defines NAME and
# build(d_model) -> Theorem. Adding a theorem adds one line here.
THEOREM_MODULES: tuple[str, ...] = (
    "frequencies",
    "bounded",
    "unique",
    "rotation",
    "ramp",
    "similarity",
    "attention",
    "dot_product",
    "shift_maps",
    "group",
    "layouts",
    "rope",
    "rope_layouts",
    "rope_group",
    "rope_scaling",
    "rope_decay",
    "rope_precision",
)


# Whole-vector statements are proved by structure (proofs.engine.blockwise): one template per
# block family, so their cost is nearly flat in d_model; only index maps and partitions grow,
# linearly. 65536 = 2**16 covers every model in use with room to spare.
MAX_D_MODEL = 65536


def names() -> list[str]:
    """The theorem names, in presentation order."""
    return list(THEOREM_MODULES)


def brief_names() -> list[str]:
    """The theorems the brief notes (the module's own sections) have, in the lesson's order."""
    return [name for name in THEOREM_MODULES if build(name).brief]


def check_name(name: str) -> str:
    """name if it is a known theorem; ValueError naming the closest match otherwise."""
    if name in THEOREM_MODULES:
        return name
    close = difflib.get_close_matches(name, THEOREM_MODULES, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise ValueError(f"unknown theorem {name!r}{hint} ('pe-proofs list' names them all)")


def check_d_model(d_model: object, option: str = "d_model") -> int:
    """d_model if it is an even int in [2, MAX_D_MODEL]; TypeError/ValueError naming option otherwise."""
    if isinstance(d_model, bool) or not isinstance(d_model, int):
        raise TypeError(f"{option} must be an int, got {type(d_model).__name__}")
    if d_model < 2 or d_model % 2:
        raise ValueError(f"{option} must be a positive even integer, got {d_model}")
    if d_model > MAX_D_MODEL:
        raise ValueError(
            f"{option} must be at most {MAX_D_MODEL} for symbolic proofs (the general statements "
            f"hold for every d_model), got {d_model}"
        )
    return d_model


def build(name: str, *, d_model: int = 8) -> Theorem:
    """The theorem called name, with its whole-vector statements at d_model."""
    module = importlib.import_module(f"proofs.{check_name(name)}")
    return module.build(d_model=check_d_model(d_model))


def run(
    names: Sequence[str] | None = None,
    *,
    d_model: int = 8,
    seed: int = 0,
    twin: bool = True,
    jobs: int = 0,
) -> Iterator[TheoremRun]:
    """Verify the named theorems (all, in the lesson's order, by default) with their twins, in
    parallel (proofs.engine.run), yielding each run in order as it is ready."""
    from proofs.engine.run import run_theorems

    chosen = [check_name(n) for n in names] if names else list(THEOREM_MODULES)
    d_model = check_d_model(d_model)
    builders = [functools.partial(build, name, d_model=d_model) for name in chosen]
    return run_theorems(builders, seed=seed, twin=twin, jobs=jobs)
