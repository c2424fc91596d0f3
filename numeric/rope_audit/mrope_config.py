"""A config's `mrope_section` (Qwen2-VL and successors), read as data: where transformers keeps
it (`rope_parameters` or the older `rope_scaling`, at the top or under `text_config`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from numeric.audit.errors import BadValueError
from numeric.rope_audit.config_file import load_json

_PLACES = ("rope_parameters", "rope_scaling")


def config_sections(config: object) -> tuple[int, int, int] | None:
    """The config's mrope_section (t, h, w), or None when it has none; BadValueError (a
    ValueError) naming the field when it is not three nonnegative ints.

    >>> config_sections({"rope_parameters": {"mrope_section": [16, 24, 24]}})
    (16, 24, 24)
    >>> config_sections({"rope_theta": 10000.0}) is None
    True
    """
    if config is None:
        return None
    data = load_json(config) if isinstance(config, str | Path) else config
    if not isinstance(data, Mapping):
        return None
    for holder in (data, data.get("text_config")):
        if not isinstance(holder, Mapping):
            continue
        for place in _PLACES:
            settings = holder.get(place)
            if isinstance(settings, Mapping) and "mrope_section" in settings:
                return _checked(settings["mrope_section"], place)
    return None


def _checked(value: object, place: str) -> tuple[int, int, int]:
    ok = (
        isinstance(value, list | tuple)
        and len(value) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1 << 16 for v in value)
    )
    if not ok:
        raise BadValueError(
            f"config: the config's {place}.mrope_section must be three nonnegative ints (t, h, w), "
            f"got {value!r}"
        )
    return tuple(value)  # type: ignore[return-value]
