"""The theorems pe-proofs knows: the one list of them, by course module, in the lessons' order."""

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

# The theorems by course module, each in the order its lesson presents them: the theorem's name
# (what `pe-proofs prove NAME` takes) and its module under proofs/theorems/. Each module defines
# NAME and build(d_model) -> Theorem. Adding a theorem adds one line here.
COURSE_MODULES: dict[int, tuple[tuple[str, str], ...]] = {
    10: (
        ("frequencies", "sinusoidal.frequencies"),
        ("bounded", "sinusoidal.bounded"),
        ("unique", "sinusoidal.unique"),
        ("rotation", "sinusoidal.rotation"),
        ("ramp", "sinusoidal.ramp"),
        ("similarity", "sinusoidal.similarity"),
        ("attention", "sinusoidal.attention"),
        ("dot_product", "sinusoidal.dot_product"),
        ("shift_maps", "sinusoidal.shift_maps"),
        ("group", "sinusoidal.group"),
        ("layouts", "sinusoidal.layouts"),
    ),
    11: (
        ("rope", "rope.bridge"),
        ("rope_layouts", "rope.layouts"),
        ("rope_group", "rope.group"),
        ("rope_scaling", "rope.scaling"),
        ("rope_decay", "rope.decay"),
        ("rope_precision", "rope.precision"),
        ("rope_axial", "rope.axial"),
        ("rope_mrope", "rope.mrope"),
        ("rope_xpos", "rope.xpos"),
    ),
}
# Theorems outside the course modules (no lesson presents them): `pe-proofs prove NAME` and the
# Coq export reach them. papers: the ledger's verdicts (pe-proofs papers) as engine facts.
LEDGER_THEOREMS: tuple[tuple[str, str], ...] = (("papers", "papers.common.theorem"),)
# What each course module is about, as `pe-proofs list` and the lessons head it.
MODULE_TITLES: dict[int, str] = {
    10: "the sinusoidal positional encoding",
    11: "rotary embeddings (RoPE)",
}
# The course module whose theorems `pe-proofs` proves when no theorem or module is named.
DEFAULT_MODULE = 10

_MODULE_OF: dict[str, int] = {
    name: module for module, entries in COURSE_MODULES.items() for name, _ in entries
}
_PATH_OF: dict[str, str] = {
    name: f"proofs.theorems.{path}"
    for entries in (*COURSE_MODULES.values(), LEDGER_THEOREMS)
    for name, path in entries
}
THEOREM_NAMES: tuple[str, ...] = tuple(_MODULE_OF)


# Whole-vector statements are proved by structure (proofs.engine.blockwise): one template per
# block family, so their cost is nearly flat in d_model; only index maps and partitions grow,
# linearly. 65536 = 2**16 covers every model in use with room to spare.
MAX_D_MODEL = 65536


def names(module: int | None = None) -> list[str]:
    """The theorem names of a course module (every module's, by default), in presentation order.

    >>> names(11)[:2]
    ['rope', 'rope_layouts']
    """
    if module is None:
        return list(THEOREM_NAMES)
    return [name for name, _ in COURSE_MODULES[check_module(module)]]


def ledger_names() -> list[str]:
    """The theorems outside the course modules, which `pe-proofs prove NAME` and the Coq export
    take (the ledger's).

    >>> ledger_names()
    ['papers']
    """
    return [name for name, _ in LEDGER_THEOREMS]


def module_of(name: str) -> int:
    """The course module a theorem belongs to.

    >>> module_of("ramp"), module_of("rope_decay")
    (10, 11)
    """
    if check_name(name) not in _MODULE_OF:
        raise ValueError(f"theorem {name!r} belongs to no course module (it is the ledger's)")
    return _MODULE_OF[name]


def module_path(name: str) -> str:
    """The Python module that defines a theorem (python -m runs it standalone).

    >>> module_path("rope_layouts")
    'proofs.theorems.rope.layouts'
    """
    return _PATH_OF[check_name(name)]


def check_module(module: object, option: str = "module") -> int:
    """module if it is a course module pe-proofs covers; TypeError/ValueError naming option otherwise."""
    if isinstance(module, bool) or not isinstance(module, int):
        raise TypeError(f"{option} must be an int, got {type(module).__name__}")
    if module not in COURSE_MODULES:
        allowed = " or ".join(str(m) for m in COURSE_MODULES)
        raise ValueError(f"{option} must be {allowed} (the course modules covered), got {module}")
    return module


def brief_names(module: int | None = None) -> list[str]:
    """The theorems the brief notes (the module's own sections) have, in the lesson's order."""
    return [name for name in names(module) if build(name).brief]


def check_name(name: str) -> str:
    """name if it is a known theorem; ValueError naming the closest match otherwise."""
    if name in _PATH_OF:
        return name
    close = difflib.get_close_matches(name, tuple(_PATH_OF), n=1)
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
    module = importlib.import_module(module_path(name))
    return module.build(d_model=check_d_model(d_model))


def run(
    theorems: Sequence[str] | None = None,
    *,
    d_model: int = 8,
    seed: int = 0,
    twin: bool = True,
    jobs: int = 0,
    module: int | None = None,
) -> Iterator[TheoremRun]:
    """Verify the named theorems with their twins, in parallel (proofs.engine.run), yielding each
    run in order as it is ready. With no names, a course module's theorems (every module's when
    module is None), in the lessons' order."""
    from proofs.engine.run import run_theorems

    chosen = [check_name(n) for n in theorems] if theorems else names(module)
    d_model = check_d_model(d_model)
    builders = [functools.partial(build, name, d_model=d_model) for name in chosen]
    return run_theorems(builders, seed=seed, twin=twin, jobs=jobs)
