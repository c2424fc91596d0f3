"""The examples in the docstrings run: every `>>>` in proofs/ and numeric/ is a test."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Modules that need an optional extra or a display to import are still scanned when it is there.
MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts)
    for package in ("proofs", "numeric")
    for path in (ROOT / package).rglob("*.py")
    if path.name != "__main__.py" and ">>>" in path.read_text(encoding="utf-8")
)


def test_the_rules_have_examples() -> None:
    assert any(m.startswith("proofs.engine.rules.") for m in MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name.removesuffix(".__init__"))
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert tried > 0 and failures == 0, f"{name}: {failures} of {tried} examples failed"
