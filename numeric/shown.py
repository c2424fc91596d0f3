"""A value as an error message shows it: never the whole of a long one.

Errors name the value that was wrong; a configuration can hold a list of 200,000 numbers or an
integer of a million digits, and an error line must stay one short line. shown(value) is repr
cut to a few dozen characters, a long list or tuple by its first entries and its length, a
huge integer by its size.

>>> shown(list(range(200_000)))
'[0, 1, 2, ...] (200000 entries)'
>>> shown(10**5000)
'an integer of 16610 bits'
>>> shown("x" * 100)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (102 characters)"
>>> shown({"a": [0.5] * 10, "b": 1})
"{'a': [0.5, 0.5, 0.5, ...] (10 entries), 'b': 1}"
>>> shown(0.5), shown(None), shown([1, 2])
('0.5', 'None', '[1, 2]')
"""

from __future__ import annotations

from collections.abc import Mapping

LIMIT = 60
_ENTRIES = 3
_BITS = 256


def shown(value: object, limit: int = LIMIT) -> str:
    """repr(value) in at most about `limit` characters, saying how much was left out."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _BITS:
        return f"an integer of {value.bit_length()} bits"
    if isinstance(value, list | tuple) and (
        len(value) > _ENTRIES or any(isinstance(v, list | tuple | Mapping | str) for v in value)
    ):
        opening, closing = ("[", "]") if isinstance(value, list) else ("(", ")")
        head = ", ".join(shown(v, limit // 4) for v in value[:_ENTRIES])
        more = ", ..." if len(value) > _ENTRIES else ""
        text = f"{opening}{head}{more}{closing}"
        return text if not more else f"{text} ({len(value)} entries)"
    if isinstance(value, Mapping):
        items = list(value.items())[:_ENTRIES]
        body = ", ".join(f"{shown(k, limit // 4)}: {shown(v, limit // 2)}" for k, v in items)
        more = ", ..." if len(value) > _ENTRIES else ""
        return "{" + body + more + "}" + (f" ({len(value)} keys)" if more else "")
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 5]}... ({len(text)} characters)"
