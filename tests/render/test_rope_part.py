"""The full notes' part "Rotary embeddings" in every format and edition: each RoPE theorem stated
under its label, the errata among the notes for the course author (and only there), nothing of
it in the brief notes, and the claims the theorems do not certify said to be uncertified."""

from __future__ import annotations

import json
import re

import pytest

from proofs.render import html, latex_lesson, markdown_lesson, myst, notebook
from proofs.render.lesson import build_lesson
from proofs.render.lesson_blocks import TheoremStatement
from proofs.render.options import RenderOptions

ROPE = ["rope_layouts", "rope_group", "rope_scaling", "rope_decay", "rope_precision"]
ERRATA = r"Rotary embeddings: where papers and code are wrong or disagree"


@pytest.fixture(scope="module")
def editions(checked_notes, lesson_tables):
    return {
        edition: build_lesson(
            checked_notes, lesson_tables, RenderOptions(brief=False, edition=edition, module=11)
        )
        for edition in ("author", "student")
    }


def printed(lesson, formats) -> dict[str, str]:
    """The lesson in each of formats, as one text (figures left out: the same SVG or PDF)."""
    printers = {
        "latex": lambda: latex_lesson.lesson_tex(lesson),
        "markdown": lambda: "\n".join(markdown_lesson.markdown_pages(lesson).values()),
        "html": lambda: "\n".join(html.html_pages(lesson).values()),
        "notebook": lambda: "\n".join(
            "".join(c["source"]) for c in json.loads(notebook.notebook_json(lesson))["cells"]
        ),
        "myst": lambda: "\n".join(myst.myst_pages(lesson).values()),
    }
    return {fmt: printers[fmt]() for fmt in formats}


# How each format sets a theorem's label where the theorem is stated.
LABEL = {
    "latex": r"\label{{thm:{}}}",
    "markdown": 'id="thm-{}"',
    "html": 'id="thm-{}"',
    "notebook": 'id="thm-{}"',
    "myst": ":label: thm-{}",
}


def test_the_rope_part_states_each_rope_theorem_in_its_own_section(editions):
    for lesson in editions.values():
        stated = {
            s.name: [b.label for b in s.blocks if isinstance(b, TheoremStatement)]
            for s in lesson.sections
            if s.name.startswith("rope_")
        }
        assert stated == {name: [f"thm:{name}"] for name in ROPE}


def check_formats(editions, formats) -> None:
    for edition, lesson in editions.items():
        for fmt, text in printed(lesson, formats).items():
            for name in ROPE:
                assert LABEL[fmt].format(name) in text, (edition, fmt, name)
            has_errata = ERRATA in text
            assert has_errata == (edition == "author"), (edition, fmt)
            assert ("Notes for the course author" in text) == (edition == "author"), (edition, fmt)


def test_the_latex_of_both_editions_states_every_rope_theorem_under_its_label(editions):
    check_formats(editions, ["latex"])


@pytest.mark.slow
def test_every_format_of_both_editions_states_every_rope_theorem_under_its_label(editions):
    # Ten printings of the whole lesson: about 15 s.
    check_formats(editions, list(LABEL))


def test_the_brief_notes_have_no_rope_part(checked_notes, lesson_tables):
    for edition in ("author", "student"):
        lesson = build_lesson(
            checked_notes, lesson_tables, RenderOptions(brief=True, edition=edition)
        )
        assert not [s.name for s in lesson.sections if s.name.startswith("rope_")]
        assert ERRATA not in latex_lesson.lesson_tex(lesson)


def test_the_rope_errata_cite_sources_and_theorems(editions):
    tex = latex_lesson.lesson_tex(editions["author"])
    errata = tex.split(rf"\subsection{{{ERRATA}}}")[1].split(r"\section{")[0]
    items = re.findall(r"\\item (.*?)(?=\\item |\\end\{enumerate\})", errata, flags=re.S)
    assert len(items) == 9
    for item in items:  # each erratum names the theorem that settles it
        assert re.search(r"Theorem~\\ref\{thm:rope_\w+\}", item), item[:80]
    for source in ("2309.00071", "2104.09864", "PR \\#8676", "Higham", "section 3.4"):
        assert source in errata, source
    # The bf16 bound: the theorem's 2^-8 holds, 2^-9 does not.
    (bf16,) = [i for i in items if "bf16 frequency" in i]
    assert "2^{-8}" in bf16 and "not always" in bf16 and "2^{-9}" in bf16


def test_what_the_theorems_do_not_certify_is_said_not_to_be(editions):
    tex = latex_lesson.lesson_tex(editions["student"])
    part = tex.split(r"\section{Rotary embeddings: layouts}")[1].split(r"\section{Reference")[0]
    prose = re.sub(r"\s+", " ", part)
    # Whole heads are checked at the run's width, not for a symbolic d.
    assert "for a symbolic $d$" in prose and "at the head width" in prose
    assert not re.search(r"whole head[^.]*symbolic \$d\$ (?:is|was) (?:proved|checked)", prose)
    # The decay's first rise is read off a computation; the rise itself is proved.
    assert "that it is the first is read off the computation, not proved" in prose
    # The two composition steps that the engine does not check.
    assert prose.count("not check") >= 2
    # What the sources could not confirm is said to the author, not to the student.
    assert "the papers' own text could not be consulted" not in prose.lower()
    author = latex_lesson.lesson_tex(editions["author"])
    assert "the papers' own text could not be consulted" in re.sub(r"\s+", " ", author).lower()


def test_what_looking_at_the_pages_fixed(editions):
    lesson = editions["student"]
    tex = latex_lesson.lesson_tex(lesson)
    # The appendix (the author's alone) has a table for the scaling methods taller than a page:
    # it breaks.
    assert "How each claim was checked" not in tex
    appendix = latex_lesson.lesson_tex(editions["author"])
    scaling = re.split(r"Theorem \d+: RoPE scaling methods", appendix)[1].split(r"\subsection")[0]
    assert r"\begin{longtable}" in scaling and r"\endhead" in scaling
    # The real part upright, long code names breakable, and no part title with a raw θ′_i.
    assert r"\operatorname{Re}" in tex and r"\operatorname{re}" not in tex
    assert r"\texttt{\_\allowbreak" not in tex  # not before a name's first letter
    assert r"\texttt{rotate\_\allowbreak{}half}" in tex
    assert "θ′_i" not in tex and "θ′_38" not in tex
    # In HTML, punctuation after inline math stays on the math's line.
    page = html.html_pages(lesson)["06-rope_scaling.html"]
    assert '<span class="nowrap"><span class="math">\\mu</span>.</span>' in page


def test_both_editions_say_what_axial_rope_m_rope_and_xpos_keep_and_lose(editions):
    # rope_axial, rope_mrope and rope_xpos are proved beyond the five stated theorems; the
    # lesson says each in words, its refutations as refutations and the measured fp16 overflow
    # as measured, and the author edition points to their appendix tables.
    for edition, lesson in editions.items():
        (section,) = [s for s in lesson.sections if s.name == "variants"]
        text = latex_lesson.lesson_tex(lesson)
        words = text[text.index(r"\label{sec:variants}") :][:6000]
        for said in ("2-D axial RoPE", "M-RoPE", "xPos", "Refuted:", "measured, not proved"):
            assert said in words, (edition, said)
        assert ("Also checked" in words) == (edition == "author"), edition
        assert not any(isinstance(b, TheoremStatement) for b in section.blocks)
