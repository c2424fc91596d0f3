"""Module 11's exercises in the notebook: module 11's own setup (m, n, G), each exercise open in
the student's notebook and answered in the author's; run in-process, the author's answers come
back proved (or, for the numeric one, exact), and a wrong answer is refuted with a
counterexample."""

from __future__ import annotations

import contextlib
import io
import json
import re

import pytest

from proofs.render import notebook
from proofs.render.lesson import build_lesson
from proofs.render.options import RenderOptions

PROVED = (1, 2, 3, 4)  # the exercises the prover grades; exercise 5 is a NumPy check


@pytest.fixture(scope="module")
def cells(checked_notes, lesson_tables) -> dict[str, list[str]]:
    out = {}
    for edition in ("student", "author"):
        lesson = build_lesson(
            checked_notes, lesson_tables, RenderOptions(edition=edition, module=11)
        )
        nb = json.loads(notebook.notebook_json(lesson))
        out[edition] = [c["source"] for c in nb["cells"] if c["cell_type"] == "code"]
    return out


def exercise_cells(sources: list[str]) -> dict[int, tuple[str, str]]:
    """Exercise number -> (the answer cell, the check cell after it)."""
    found = {}
    for j, source in enumerate(sources):
        match = re.search(r'print\("Exercise (\d+): not answered yet"\)', source)
        if match:
            found[int(match.group(1))] = (sources[j - 1], source)
    return found


def run(setup: str, *sources: str) -> str:
    namespace: dict[str, object] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for source in (setup, *sources):
            exec(compile(source, "<notebook cell>", "exec"), namespace)  # the notes' own code
    return out.getvalue()


def test_the_setup_is_module_11s_and_every_exercise_is_open_for_the_student(cells):
    for sources in cells.values():
        assert sources[0] == notebook.ROPE_SETUP
        assert "def G(" in sources[0] and "def R(" not in sources[0]
    student, author = exercise_cells(cells["student"]), exercise_cells(cells["author"])
    assert sorted(student) == sorted(author) == [1, 2, 3, 4, 5]
    for number, (answer, _) in student.items():
        assert " = None  #" in answer, number
        assert " = None  #" not in author[number][0], number


def test_the_student_notebook_says_not_answered_yet(cells):
    sources = cells["student"]
    text = run(sources[0], *(c for pair in exercise_cells(sources).values() for c in pair))
    for number in range(1, 6):
        assert f"Exercise {number}: not answered yet" in text


@pytest.mark.slow
def test_the_author_answers_are_proved(cells):
    sources = cells["author"]
    exercises = exercise_cells(sources)
    for number in PROVED:
        text = run(sources[0], *exercises[number])
        assert text.startswith("proved:"), (number, text)
    text = run(sources[0], *exercises[5])
    assert "exact: True" in text and "2049 becomes 2048" in text


WRONG = {
    1: ("tau = None", "tau = (m - n) * theta"),
    2: ("angle = None", "angle = 100 * theta"),
    3: ("ratio = None", "ratio = 1 / s"),
    4: ("factor = None", "factor = mu"),
}


@pytest.mark.slow
@pytest.mark.parametrize("number", PROVED)
def test_a_wrong_answer_is_refuted_with_a_counterexample(cells, number):
    sources = cells["student"]
    answer, check = exercise_cells(sources)[number]
    old, new = WRONG[number]
    assert old in answer
    text = run(sources[0], answer.replace(old, new), check)
    assert "refuted: the two sides differ at a point" in text
    assert "counterexample at " in text
