"""Every link in every notebook resolves (both modules, both editions), and no cell holds an
answer together with what follows it.

A link is a web address (https), an anchor the notebook itself holds (an <a id> or a heading,
as Jupyter names headings), or a figure file a code cell of the notebook draws.
"""

from __future__ import annotations

import json
import re

import pytest

from proofs.render import notes
from proofs.render.options import RenderOptions

pytestmark = pytest.mark.slow

EDITIONS = [(m, e) for m in (10, 11) for e in ("student", "author")]


@pytest.fixture(scope="module")
def notebooks(checked_notes, lesson_tables) -> dict[tuple[int, str], dict]:
    return {
        (module, edition): json.loads(
            notes.notebook_files(
                checked_notes, lesson_tables, RenderOptions(module=module, edition=edition)
            )["lesson.ipynb"]
        )
        for module, edition in EDITIONS
    }


def targets(notebook: dict) -> set[str]:
    """What a link in the notebook may point at: its anchors and the files its code draws."""
    out = set()
    for cell in notebook["cells"]:
        text = cell["source"]
        if cell["cell_type"] == "markdown":
            out |= {f"#{a}" for a in re.findall(r'<a id="([^"]+)"', text)}
            heads = re.findall(r"^#+ (.+)$", text, re.M)
            out |= {"#" + h.strip().replace(" ", "-") for h in heads}
        else:
            out |= set(re.findall(r'"([\w.-]+\.svg)"', text))
    return out


def links(notebook: dict) -> list[str]:
    found = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            found += re.findall(r"\]\(([^)\s]*)\)", cell["source"])
            found += re.findall(r'<a href="([^"]*)"', cell["source"])
            found += re.findall(r'<img src="([^"]*)"', cell["source"])
    return found


@pytest.mark.parametrize(("module", "edition"), EDITIONS)
def test_every_link_in_every_notebook_resolves(notebooks, module, edition):
    notebook = notebooks[module, edition]
    found = links(notebook)
    assert found, "the notebook has no links to check"
    known = targets(notebook)
    dangling = [
        link for link in found if not re.fullmatch(r"https://\S+", link) and link not in known
    ]
    assert not dangling, (module, edition, dangling)


def test_the_rule_catches_a_link_to_a_figure_the_notebook_lacks():
    notebook = {"cells": [{"cell_type": "markdown", "source": "see [Figure 6](#fig-spectrum)"}]}
    assert links(notebook) == ["#fig-spectrum"] and "#fig-spectrum" not in targets(notebook)


@pytest.mark.parametrize(("module", "edition"), EDITIONS)
def test_no_answer_shares_a_cell_with_the_next_exercise(notebooks, module, edition):
    for cell in notebooks[module, edition]["cells"]:
        text = cell["source"]
        if cell["cell_type"] == "markdown" and re.search(r"Solution|Answers|Model answer", text):
            answer = max(text.find("</details>"), text.find("Solution"))
            assert not re.search(r"\*\*Exercise \d|^#+ .*Exercise", text[answer:], re.M), text[:300]


def test_the_shift_map_is_printed_in_the_module_s_notation(notebooks):
    code = "\n".join(
        c["source"] for c in notebooks[10, "student"]["cells"] if c["cell_type"] == "code"
    )
    (call,) = re.findall(r"^shift = find_shift_map\((.*)\)$", code, re.M)
    # In ω_i, the module's letter: SymPy would print 10000**(-2*i/d_model) as 100000000**(i/d_model).
    assert "omega_i" in call and "10000" not in call
