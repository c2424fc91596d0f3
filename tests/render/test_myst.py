"""The MyST project (`pe-proofs myst`): its pages, directives and editions, read as text.

Building it with Sphinx and loading it in Chromium is tests/render/test_myst_build.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from proofs.cli.main import main
from proofs.render.lesson import build_lesson
from proofs.render.lesson_blocks import Solution, TheoremStatement
from proofs.render.myst_project import myst_files
from proofs.render.options import RenderOptions

# Every test here writes MyST projects of the whole lesson: with the slow checks (CI runs them).
pytestmark = pytest.mark.slow


def fake_katex(root: Path) -> Path:
    """A KaTeX dist folder with the files the project copies (their content does not matter)."""
    dist = root / "katex-dist"
    (dist / "fonts").mkdir(parents=True)
    (dist / "katex.min.js").write_text("/* katex */")
    (dist / "katex.min.css").write_text("@font-face{src:url(fonts/KaTeX_Main-Regular.woff2)}")
    (dist / "fonts" / "KaTeX_Main-Regular.woff2").write_bytes(b"wOF2")
    return dist


@pytest.fixture(scope="module")
def projects(checked_notes, lesson_tables, tmp_path_factory) -> dict[str, dict[str, str]]:
    dist = fake_katex(tmp_path_factory.mktemp("katex"))
    out = {}
    for edition in ("student", "author"):
        files = myst_files(checked_notes, lesson_tables, RenderOptions(edition=edition, katex=dist))
        out[edition] = {
            name: data.decode("utf-8")
            for name, data in files.items()
            if name.endswith((".md", ".py", ".yml", ".css", ".js"))
        }
    return out


def pages(project: dict[str, str]) -> dict[str, str]:
    return {n: t for n, t in project.items() if re.fullmatch(r"\d\d-\w+\.md", n)}


def test_one_page_per_section_in_the_toctree_and_in_myst_yml(projects):
    for project in projects.values():
        names = sorted(pages(project))
        toctree = re.search(r"```\{toctree\}\n:maxdepth: 1\n\n(.*?)```", project["index.md"], re.S)
        assert toctree[1].split() == [n[:-3] for n in names]
        listed = re.findall(r"- file: (\S+)", project["myst.yml"])
        assert listed == ["index.md", *names]


def test_the_student_edition_has_no_author_notes(projects, checked_notes, lesson_tables):
    student, author = pages(projects["student"]), pages(projects["author"])
    assert not [n for n in student if "author_notes" in n]
    assert [n for n in author if "author_notes" in n]
    assert "Notes for the course author" not in "".join(student.values())
    lesson = build_lesson(
        checked_notes, lesson_tables, RenderOptions(brief=False, edition="student")
    )
    # The author's edition adds two sections: the notes for the author and the appendix.
    assert len(student) == len(lesson.sections) == len(author) - 2


def test_every_solution_of_the_lesson_is_folded_for_students_open_for_authors(
    projects, checked_notes, lesson_tables
):
    lesson = build_lesson(
        checked_notes, lesson_tables, RenderOptions(brief=False, edition="student")
    )
    titles = [b.title for s in lesson.sections for b in s.blocks if isinstance(b, Solution)]
    assert titles == ["Solution"] * 3 + ["Model answer", "Answers"]
    for edition, project in projects.items():
        text = "\n".join(pages(project).values())
        exercises = re.findall(r"^:{3,}\{exercise\} (.*)\n:label: (\S+)", text, re.M)
        solutions = re.findall(r"^:{3,}\{solution\} (\S+)\n(:class: dropdown\n)?", text, re.M)
        labels = [f"exercise-{n}" for n in (1, 2, 3)]
        assert [label for _, label in exercises] == [label for label, _ in solutions] == labels
        # sphinx-exercise numbers them: the lesson's "Exercise 1 — " is not in the title.
        assert exercises[0][0].startswith("the full table") and "Exercise" not in exercises[0][0]
        # The answers without an exercise heading: the challenge's and the quiz's, by title.
        answers = re.findall(r"^:{3,}\{admonition\} (.+)\n(:class: dropdown\n)?", text, re.M)
        assert [title for title, _ in answers] == ["Model answer", "Answers"]
        folded = [bool(fold) for _, fold in solutions + answers]
        assert folded == [edition == "student"] * 5
        # The directive names the solution: no "Solution." or "Model answer." inside it.
        assert "*Solution.*" not in text and "*Model answer.*" not in text
        # The notebook's cells are the notebook's alone.
        assert "---answer---" not in text and "not answered yet" not in text


def test_theorems_are_prf_theorems_with_their_labels_and_proofs(
    projects, checked_notes, lesson_tables
):
    text = "\n".join(pages(projects["author"]).values())
    labels = re.findall(r"^\((thm-\w+)\)=\n:::\{prf:theorem\} .+\n:label: (thm-\w+)$", text, re.M)
    lesson = build_lesson(
        checked_notes, lesson_tables, RenderOptions(brief=False, edition="author")
    )
    statements = [b for s in lesson.sections for b in s.blocks if isinstance(b, TheoremStatement)]
    assert len(statements) >= 10
    assert [a for a, b in labels if a == b] == [s.label.replace(":", "-") for s in statements]
    assert text.count(":::{prf:proof}") == text.count("{prf:theorem}")
    assert "Proof.*" not in text  # prf:proof prints its own "Proof."
    # Every link to a theorem or a figure has its target in the project.
    targets = set(re.findall(r"^\(([\w-]+)\)=$", text, re.M))
    targets |= set(re.findall(r"^:name: ([\w-]+)$", text, re.M))
    links = set(re.findall(r"\]\(#([\w-]+)\)", text))
    assert links and links <= targets


def test_the_theorems_keep_the_lesson_s_numbers(checked_notes, lesson_tables):
    # Sphinx numbers theorems in the order the pages give them; the lesson numbers them so too.
    for brief in (False, True):
        lesson = build_lesson(
            checked_notes, lesson_tables, RenderOptions(brief=brief, edition="student")
        )
        numbers = [
            b.number for s in lesson.sections for b in s.blocks if isinstance(b, TheoremStatement)
        ]
        assert numbers == list(range(1, len(numbers) + 1))


def test_math_is_dollar_math_and_tables_are_table_directives(projects):
    rotation = pages(projects["author"])["07-rotation.md"]
    assert r"$R(k \omega_{i})$" in rotation
    assert "$$\n\\begin{aligned}" in rotation
    assert re.search(
        r"^:::\{table\} .+\n:align: center\n\n\| \$\\mathrm\{pos\}\$ \|", rotation, re.M
    )
    assert "(check passed)" not in "\n".join(pages(projects["author"]).values())


def test_the_brief_project_has_the_module_s_sections_only(checked_notes, lesson_tables, tmp_path):
    files = myst_files(
        checked_notes, lesson_tables, RenderOptions(brief=True, katex=fake_katex(tmp_path))
    )
    names = [n for n in files if re.fullmatch(r"\d\d-\w+\.md", n)]
    assert not [n for n in names if re.search("dot_product|group|layouts|rope|appendix", n)]
    assert "07-rotation.md" in names


def test_conf_py_builds_offline_with_katex_under_static(projects):
    project = projects["student"]
    conf = project["conf.py"]
    compile(conf, "conf.py", "exec")
    assert re.search(r'^html_static_path = \["_static"\]$', conf, re.M)
    assert "_static/katex.min.js" in project and "_static/render-math.js" in project
    assert "_static/katex.min.css" in project and "_static/pe-proofs.css" in project
    # The project's root holds the pages and the configuration, not KaTeX's files.
    assert not [n for n in project if "/" not in n and n.endswith((".js", ".css", ".woff2"))]
    assert 'html_math_renderer = "katex_offline"' in conf
    # Nothing in the project points at the network but the references' links.
    for name, text in project.items():
        if name.endswith("references.md"):
            continue
        assert not re.search(r"https?://", text), name


def test_the_footer_names_the_course_module_not_the_tool(projects):
    conf = projects["student"]["conf.py"]
    assert 'author = "Course module 10"' in conf
    assert '"footer_content_items": ["extra-footer.html"]' in conf
    assert "Course module 10: The sinusoidal positional encoding" in conf
    assert 'pe-proofs"' not in conf


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["myst", "--out", "x", "--for", "teacher"],
            "--for must be student or author, got 'teacher'",
        ),
        (["myst", "--out", "x", "--katex", "/nonexistent"], "KaTeX not found"),
    ],
)
def test_bad_options_are_one_line_and_status_2(argv, message, capsys, tmp_path):
    argv = [tmp_path / a if a == "x" else a for a in argv]
    assert main([str(a) for a in argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
