"""README's "Adding a theorem" holds: a theorem added as it says (its module, its twin, its test
and one registry line) passes the fast suite with no other file touched.

The toy theorem goes into a copy of the tree, run with that copy first on the import path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

TOY = '''"""Theorem (toy): the double-angle formula for the sine.

Numeric twin: numeric.checks.toy.toy_table.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.derivation import Derivation, Step
from proofs.engine.rules import MULTIPLE_ANGLE
from proofs.engine.theorem import Theorem

NAME = "toy"
STATEMENT = "sin(2x) = 2 sin(x) cos(x) for every real x."
X = sp.Symbol("x", real=True)


def build(d_model: int = 8) -> Theorem:
    """The toy theorem (d_model is unused)."""
    double = Derivation(
        "double_angle",
        "The double angle",
        (Step(sp.sin(2 * X)), Step(2 * sp.sin(X) * sp.cos(X), by=MULTIPLE_ANGLE)),
    )
    return Theorem(
        name=NAME,
        title="A toy theorem",
        statement=STATEMENT,
        parts=(double,),
        twin="numeric.checks.toy.toy_table",
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
'''

TWIN = '''"""The toy twin: sin(2x) against 2 sin(x) cos(x) on a grid."""

from __future__ import annotations

import numpy as np

from numeric.result_table import Table


def toy_table() -> Table:
    """The largest difference of the two sides on 1000 points of [-10, 10]."""
    x = np.linspace(-10, 10, 1000)
    worst = float(np.max(np.abs(np.sin(2 * x) - 2 * np.sin(x) * np.cos(x))))
    return Table(
        title="sin(2x) against 2 sin(x) cos(x)",
        columns=("max difference",),
        rows=((worst,),),
        passed=worst < 1e-14,
        headline="sin(2x) = 2 sin(x) cos(x) on a grid",
    )
'''

TEST = """import sympy as sp

import proofs
from proofs import prove_identity
from proofs.theorems.sinusoidal import toy


def test_the_copy_is_the_tree_under_test():
    assert proofs.__file__.startswith(TREE)


def test_toy_is_proved_and_a_wrong_variant_refuted():
    assert toy.build().verify().status == "proved"
    assert prove_identity(sp.sin(2 * toy.X), sp.sin(toy.X) * sp.cos(toy.X)).status == "refuted"
"""


@pytest.mark.long(180)
@pytest.mark.slow
def test_a_toy_theorem_needs_four_files_only(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(
        ROOT,
        tree,
        ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", ".ruff_cache"),
    )
    (tree / "proofs" / "theorems" / "sinusoidal" / "toy.py").write_text(TOY, encoding="utf-8")
    (tree / "numeric" / "checks" / "toy.py").write_text(TWIN, encoding="utf-8")
    (tree / "tests" / "theorems" / "sinusoidal" / "test_toy.py").write_text(
        f"TREE = {str(tree)!r}\n" + TEST, encoding="utf-8"
    )
    registry = tree / "proofs" / "registry.py"
    text = registry.read_text(encoding="utf-8")
    line = '        ("layouts", "sinusoidal.layouts"),\n'
    assert line in text
    registry.write_text(
        text.replace(line, line + '        ("toy", "sinusoidal.toy"),\n', 1), "utf-8"
    )
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-m", "not slow"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    tail = "\n".join(done.stdout.splitlines()[-15:])
    assert done.returncode == 0, tail
    assert " passed" in tail and "failed" not in tail
