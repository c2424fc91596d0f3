"""The examples in numeric.rope's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "numeric.rope.apply",
    "numeric.rope.cache",
    "numeric.rope.claims",
    "numeric.rope.config",
    "numeric.rope.decay",
    "numeric.rope.exact",
    "numeric.rope.floats",
    "numeric.rope.frequencies",
    "numeric.rope.papers",
    "numeric.rope.permute",
    "numeric.rope.scaling",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0
