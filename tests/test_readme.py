"""README.md stays true: its Python examples run, and its two commands are the ones CI uses."""

import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_readme_has_python_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_readme_python_examples_run(number):
    namespace: dict = {}
    # Later blocks may use names from earlier ones, as a reader running them in order would.
    for block in BLOCKS[: number + 1]:
        exec(compile(block, f"README.md block {number}", "exec"), namespace)


def test_ci_runs_the_readme_test_command():
    (test_command,) = re.findall(r"```sh\n(\.venv/bin/python -m pytest)\n```", README)
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert test_command in ci.splitlines()
