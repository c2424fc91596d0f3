"""docs/how-to/add-a-scaling-method.md holds: a scaling method added as it says (its file and
its test, nothing else) is read by rope_config, gives frequencies, is recognised by the audit
and is drawn by the property test.

The two files are the how-to's code blocks, written as printed into a copy of the tree
(numeric/ and the property test: a method needs nothing else), and run with that copy first
on the import path.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOWTO = ROOT / "docs" / "how-to" / "add-a-scaling-method.md"
PROPERTIES = "tests/numeric/test_rope_methods_properties.py"


def files_in_howto() -> dict[str, str]:
    """{path: text} of every ```python block whose first line is `# <path>`."""
    blocks = re.findall(r"```python\n# (\S+)\n(.*?)```", HOWTO.read_text(encoding="utf-8"), re.S)
    return {path: text for path, text in blocks}


def test_the_howto_adds_exactly_two_files_a_method_and_its_test():
    files = files_in_howto()
    assert sorted(files) == [
        "numeric/rope/methods/toy_damped.py",
        "tests/numeric/test_rope_toy_damped.py",
    ]
    assert not (ROOT / "numeric/rope/methods/toy_damped.py").exists()


@pytest.mark.slow
def test_a_toy_method_needs_its_file_and_its_test_only(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(
        ROOT / "numeric", tree / "numeric", ignore=shutil.ignore_patterns("__pycache__")
    )
    (tree / "tests" / "numeric").mkdir(parents=True)
    shutil.copy(ROOT / PROPERTIES, tree / PROPERTIES)
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    for path, text in files_in_howto().items():
        (tree / path).write_text(text, encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-v",
            "-p",
            "no:cacheprovider",
            "-m",
            "not slow",
            "-n",
            "0",
            "tests/numeric/test_rope_toy_damped.py",
            PROPERTIES,
        ],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    tail = "\n".join(done.stdout.splitlines()[-15:])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "failed" not in tail and " passed" in tail and "warning" not in tail
    # The registry found the toy method: the property test drew it, with no line changed.
    assert "test_each_method_gives_a_value_or_a_refusal[toy_damped] PASSED" in done.stdout
    assert "test_the_audit_recognises_a_cache_made_with_it PASSED" in done.stdout
