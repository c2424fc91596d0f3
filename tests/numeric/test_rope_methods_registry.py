"""The registry of RoPE scaling methods (numeric.rope.methods): it finds every method file,
and the code that used to dispatch on method names now asks it instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

import mpmath
import numpy as np
import pytest

from numeric.rope import rope_config, rope_frequencies
from numeric.rope.methods import by_name, by_rope_type, no_scaling, rope_types, scaling_methods

ROOT = Path(__file__).resolve().parents[2]
ASKING = ("numeric/rope", "numeric/rope_audit", "numeric/plots", "proofs/cli", "numeric/testing.py")
METHOD_FILES = ROOT / "numeric" / "rope" / "methods"

# A typical configuration of each method here; a new method's own test checks its reference.
EXAMPLES = {
    "default": {},
    "linear": {"factor": 4.0},
    "dynamic": {"factor": 4.0},
    "yarn": {"factor": 16.0, "original_max_position_embeddings": 4096},
    "llama3": {
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    },
    "longrope": {
        "short_factor": [1.0 + j / 16 for j in range(32)],
        "long_factor": [1.0 + j for j in range(32)],
        "original_max_position_embeddings": 4096,
    },
}


def test_every_method_file_is_found_once():
    files = {p.stem for p in METHOD_FILES.glob("*.py")} - {"__init__"}
    found = scaling_methods()
    assert len(found) == len(files) == len({m.name for m in found})
    assert {type(m).__module__.rsplit(".", 1)[1] for m in found} == files
    assert len(set(rope_types())) == len(rope_types())
    assert [m.order for m in found] == sorted(m.order for m in found)
    assert by_name("custom") is None and by_rope_type("ntk") is None
    assert no_scaling() is by_name("none") is by_rope_type("default")


def _string_constants(path: Path) -> list[tuple[int, str]]:
    """Every string constant of path that is not a docstring, with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def test_no_code_outside_the_method_files_names_a_method():
    names = {m.name for m in scaling_methods()} | set(rope_types())
    paths = [
        p
        for where in ASKING
        for p in ([ROOT / where] if where.endswith(".py") else (ROOT / where).rglob("*.py"))
        if METHOD_FILES not in p.parents
    ]
    assert len(paths) > 40
    named = [
        f"{p.relative_to(ROOT)}:{line} {value!r}"
        for p in paths
        for line, value in _string_constants(p)
        if value in names
    ]
    assert named == [], "dispatch on a method's name belongs in its file: " + ", ".join(named)


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_each_method_agrees_with_its_exact_reference(kind):
    config = rope_config(
        {
            "head_dim": 64,
            "max_position_embeddings": 16384,
            "rope_scaling": {"rope_type": kind, **EXAMPLES[kind]},
        }
    )
    assert config.method is by_rope_type(kind)
    for seq_len in (None, 20000):
        numpy = rope_frequencies(config, seq_len=seq_len, arithmetic="float64").inv_freq
        with mpmath.workdps(30):
            exact = np.array(
                [float(config.method.exact(config, i, seq_len)) for i in range(config.pairs)]
            )
        assert np.max(np.abs(numpy / exact - 1)) < 1e-13, (kind, seq_len)
