"""The RoPE scaling methods, one module each, found by looking in this package.

Every module here that defines METHOD (a numeric.rope.method.ScalingMethod) is a method:
adding one is adding its file (and its test). The rest of the library asks this registry
instead of naming methods.

>>> [m.name for m in scaling_methods()][:5]
['none', 'linear', 'dynamic', 'ntk', 'yarn']
>>> rope_types()[:4]
('default', 'linear', 'dynamic', 'yarn')
>>> no_scaling().name, no_scaling().rope_type, by_name("none").label
('none', 'default', 'no scaling')
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from numeric.rope.method import ScalingMethod

ABSENT = "default"  # the rope_type transformers reads when a configuration writes none


@cache
def scaling_methods() -> tuple[ScalingMethod, ...]:
    """Every method of the package, in the order the audit tries them (then by name)."""
    found = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        method = getattr(module, "METHOD", None)
        if isinstance(method, ScalingMethod):
            found.append(method)
    return tuple(sorted(found, key=lambda m: (m.order, m.name)))


def rope_types() -> tuple[str, ...]:
    """The rope_type names a configuration may write, in the audit's order."""
    return tuple(m.rope_type for m in scaling_methods() if m.rope_type is not None)


def by_rope_type(kind: str) -> ScalingMethod | None:
    """The method a configuration's rope_type names (or an alias of it, as "mrope"), or None."""
    return next(
        (
            m
            for m in scaling_methods()
            if m.rope_type == kind or kind in getattr(m, "rope_type_aliases", ())
        ),
        None,
    )


def by_name(name: str) -> ScalingMethod | None:
    """The method of this audit name (or rope_type), or None (for "custom")."""
    return next((m for m in scaling_methods() if name in (m.name, m.rope_type)), None)


def no_scaling() -> ScalingMethod:
    """The method a configuration without a rope_type names: the default frequencies."""
    found = by_rope_type(ABSENT)
    assert found is not None, "numeric/rope/methods has no default method"
    return found
