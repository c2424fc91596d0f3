"""A printer's dispatch on the lesson's block types: one handler registered per type.

Each format's printer (LaTeX, Markdown, HTML, MyST, notebook) is a functools.singledispatch
made by block_printer, with a handler registered for every type of lesson_blocks.Block (and
one for each piece of running text, lesson_blocks.Piece, in the four that print prose; the
appendix's how_checked has one for each kind of proofs.engine.facts.Part). A type
with no handler of its own raises TypeError naming the printer and the type, and
missing_handlers lists such types, so a new block or piece type that a printer does not know
fails tests/render/test_block_printers.py, not a reader of the notes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable


def block_printer(name: str, what: str = "block") -> functools._SingleDispatchCallable[str]:
    """A singledispatch function called name, with no handler yet: a block (or what else it
    prints, what) of a type without one raises TypeError.

    >>> show = block_printer("show")
    >>> show.register(int)(lambda block, *context: f"int {block}")(3)
    'int 3'
    >>> show(2.5)
    Traceback (most recent call last):
    ...
    TypeError: show has no handler for a block of type float
    """

    def missing(block: object, *context: object) -> str:
        raise TypeError(f"{name} has no handler for a {what} of type {type(block).__name__}")

    missing.__name__ = missing.__qualname__ = name
    return functools.singledispatch(missing)


def missing_handlers(printer: Callable[..., str], block_types: Iterable[type]) -> list[type]:
    """The block types printer (a block_printer) has no handler of its own for; a handler
    registered for a base class or for object does not count.

    >>> show = block_printer("show")
    >>> _ = show.register(int)(lambda block: "int")
    >>> missing_handlers(show, [int, float])
    [<class 'float'>]
    """
    registry = printer.registry  # type: ignore[attr-defined]
    return [t for t in block_types if t not in registry]
