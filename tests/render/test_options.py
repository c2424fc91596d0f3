"""RenderOptions: checked when made, frozen, and read by the printers and the notes commands."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from proofs.cli.main import build_parser
from proofs.cli.notes_output import notes_options
from proofs.render import html, latex_lesson, markdown_lesson, myst, notebook, notes
from proofs.render.lesson_blocks import Figure, Lesson, Section
from proofs.render.myst_project import myst_files
from proofs.render.options import RenderOptions


@pytest.mark.parametrize(
    ("field", "value", "error", "message"),
    [
        ("module", 12, ValueError, "module must be 10 or 11, got 12"),
        ("module", "10", TypeError, "module must be an int, 10 or 11, got '10'"),
        ("module", True, TypeError, "module must be an int, 10 or 11, got True"),
        ("edition", "teacher", ValueError, "edition must be 'student' or 'author'"),
        ("brief", 1, TypeError, "brief must be True or False, got 1"),
        ("figure_format", "jpeg", ValueError, "figure_format must be 'pdf', 'svg', 'png' or None"),
        ("katex", "dist", TypeError, "katex must be a pathlib.Path or None, got 'dist'"),
    ],
)
def test_a_bad_field_is_named(field, value, error, message):
    with pytest.raises(error) as raised:
        RenderOptions(**{field: value})
    assert str(raised.value).startswith(message)


def test_the_defaults_are_module_10_the_full_student_notes():
    options = RenderOptions()
    assert (options.module, options.edition, options.brief) == (10, "student", False)
    assert options.student and options.figure_format is None and options.katex is None


def test_options_are_frozen_and_slotted():
    options = RenderOptions()
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.brief = True  # type: ignore[misc]
    assert not hasattr(options, "__dict__")


def test_each_printer_takes_its_own_figure_format_unless_one_is_asked_for():
    assert RenderOptions().figure_suffix("LaTeX", ("pdf", "png")) == ".pdf"
    assert RenderOptions().figure_suffix("HTML", ("svg", "png")) == ".svg"
    assert RenderOptions(figure_format="png").figure_suffix("LaTeX", ("pdf", "png")) == ".png"


def lesson_with_a_figure(options: RenderOptions) -> Lesson:
    figure = Figure("circle", 1, "fig:circle", ("A circle.",))
    return Lesson("Notes", (Section("one", "One", (figure,)),), {}, "sub", options)


@pytest.mark.parametrize(
    ("printer", "asked", "file"),
    [
        (latex_lesson.lesson_tex, "png", "{circle.png}"),
        (
            lambda lesson: "".join(markdown_lesson.markdown_pages(lesson).values()),
            "png",
            "circle.png",
        ),
        (lambda lesson: "".join(html.html_pages(lesson).values()), "png", '"circle.png"'),
        (lambda lesson: "".join(myst.myst_pages(lesson).values()), "png", "circle.png"),
    ],
)
def test_the_printers_name_the_figures_in_the_format_asked_for(printer, asked, file):
    assert file in printer(lesson_with_a_figure(RenderOptions(figure_format=asked)))


@pytest.mark.parametrize(
    ("printer", "asked", "message"),
    [
        (latex_lesson.lesson_tex, "svg", "'pdf' or 'png' for the LaTeX notes, got 'svg'"),
        (markdown_lesson.markdown_pages, "pdf", "'svg' or 'png' for the Markdown notes"),
        (html.html_pages, "pdf", "'svg' or 'png' for the HTML notes, got 'pdf'"),
        (myst.myst_pages, "pdf", "'svg' or 'png' for the MyST notes, got 'pdf'"),
        (notebook.notebook_json, "png", "'svg' for the notebook notes, got 'png'"),
    ],
)
def test_a_figure_format_a_printer_cannot_show_is_refused(printer, asked, message):
    with pytest.raises(ValueError, match=message):
        printer(lesson_with_a_figure(RenderOptions(figure_format=asked)))


@pytest.mark.parametrize(("files", "name"), [(notes.html_files, "HTML"), (myst_files, "MyST")])
def test_the_html_and_myst_notes_need_katex(files, name):
    with pytest.raises(ValueError, match=f"katex must be KaTeX's dist folder for the {name} notes"):
        files([], {}, RenderOptions())


@pytest.mark.parametrize(
    ("argv", "figure_format", "expected"),
    [
        (["latex", "--out", "x"], "pdf", RenderOptions(edition="student", figure_format="pdf")),
        (
            ["html", "--out", "x", "--module", "11", "--for", "author"],
            "svg",
            RenderOptions(edition="author", figure_format="svg", module=11),
        ),
        (
            ["markdown", "--out", "x", "--brief", "--for", "student"],
            "svg",
            RenderOptions(brief=True, edition="student", figure_format="svg"),
        ),
    ],
)
def test_the_notes_commands_make_their_options_from_the_command_line(argv, figure_format, expected):
    args = build_parser().parse_args(argv)
    assert notes_options(args, figure_format) == expected
    with_katex = notes_options(args, figure_format, katex=Path("dist"))
    assert with_katex == dataclasses.replace(expected, katex=Path("dist"))
