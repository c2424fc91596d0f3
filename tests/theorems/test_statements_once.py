"""Each theorem's statement is written once: its module's STATEMENT, which Theorem.statement is
and the printers and the lesson read. No run of 8 words of a statement (or of a part's title)
appears again in its module's docstring, and none of a statement in the lesson's sources."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from proofs import registry

LESSON = Path(__file__).resolve().parents[2] / "proofs" / "lesson"
RUN = 8


def words(text: str) -> list[str]:
    """The words of text, without the punctuation around them, so a line break or a comma
    does not hide a repeated sentence.

    >>> words("For all real pos, and k: PE(pos).")
    ['for', 'all', 'real', 'pos', 'and', 'k', 'pe(pos)']
    """
    return [w.strip(".,;:()*`\"'").lower() for w in text.split() if w.strip(".,;:()*`\"'")]


def runs(text: str) -> set[tuple[str, ...]]:
    """Every run of RUN consecutive words of text."""
    found = words(text)
    return {tuple(found[i : i + RUN]) for i in range(len(found) - RUN + 1)}


def repeated(source: str, elsewhere: str) -> list[str]:
    """The runs of RUN words of source that elsewhere repeats."""
    return sorted(" ".join(r) for r in runs(source) & runs(elsewhere))


@pytest.fixture(scope="module")
def lesson_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(LESSON.glob("*.md")))


@pytest.mark.parametrize("name", registry.names())
def test_the_statement_is_written_once(name, lesson_text) -> None:
    module = importlib.import_module(registry.module_path(name))
    theorem = module.build()
    assert theorem.statement == module.STATEMENT
    docstring = module.__doc__ or ""
    assert not repeated(theorem.statement, docstring), "the docstring repeats the statement"
    assert not repeated(theorem.statement, lesson_text), "the lesson repeats the statement"
    for part in theorem.parts:
        assert not repeated(part.title, docstring), f"the docstring repeats part {part.name}"


def test_a_repeated_sentence_is_found_across_line_breaks_and_punctuation() -> None:
    statement = "For all real pos and k, every pair index i and every d_model, the rotation holds."
    again = "Recall: for all real pos\nand k every pair index i and every d_model."
    assert repeated(statement, again)
    assert not repeated(statement, "for all real pos and k, nothing else is said here at all")


def test_no_lesson_theorem_directive_states_its_own_title_or_text() -> None:
    # The build refuses them too (tests/render/test_lesson_source.py); here, in the sources.
    for path in sorted(LESSON.glob("*.md")):
        for block in re.findall(r"^```\{theorem\}.*?^```$", path.read_text(), re.M | re.S):
            outside, in_math = [], False
            for line in block.splitlines()[1:-1]:
                if line == "$$":
                    in_math = not in_math
                elif not in_math and line.strip():
                    outside.append(line)
            assert not outside, f"{path.name}: {outside}"
