"""The Markdown notes render: every $$...$$ block goes through KaTeX with throwOnError.

Needs node and the katex npm package where node can require it. CI installs it outside the
repo: npm install --no-save --prefix "$RUNNER_TEMP/katex" katex@0.16 and
NODE_PATH="$RUNNER_TEMP/katex/node_modules". Skipped, with that reason, where either is missing.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from proofs.render import notes
from proofs.render.options import RenderOptions

RENDER = r"""
const katex = require("katex");
const blocks = JSON.parse(require("fs").readFileSync(0, "utf8"));
const failures = [];
blocks.forEach(([name, tex]) => {
  try {
    katex.renderToString(tex, {displayMode: true, throwOnError: true, strict: "ignore"});
  } catch (err) {
    failures.push([name, String(err.message), tex.slice(0, 300)]);
  }
});
console.log(JSON.stringify({rendered: blocks.length, failures}));
"""


def katex_available() -> bool:
    if shutil.which("node") is None:
        return False
    probe = subprocess.run(
        ["node", "-e", "require('katex')"], capture_output=True, text=True, check=False
    )
    return probe.returncode == 0


needs_katex = pytest.mark.skipif(
    not katex_available(),
    reason="node or the katex npm package is missing (npm install katex; set NODE_PATH)",
)


def display_blocks(pages: dict[str, bytes]) -> list[tuple[str, str]]:
    """(page, body) for every $$...$$ block and every inline $...$ of the Markdown pages."""
    out = []
    for name, data in sorted(pages.items()):
        if name.endswith(".md"):
            text = data.decode("utf-8")
            assert text.count("$$") % 2 == 0, name
            out += [(name, b) for b in re.findall(r"\$\$\n(.*?)\n\$\$", text, flags=re.S)]
            rest = re.sub(r"\$\$\n.*?\n\$\$", "", text, flags=re.S).replace("\\$", "")
            assert rest.count("$") % 2 == 0, name
            out += [(name, b) for b in re.findall(r"\$([^$]+)\$", rest)]
    return out


@pytest.mark.slow
@needs_katex
def test_every_formula_of_the_markdown_notes_renders_with_katex(checked_notes, lesson_tables):
    blocks = display_blocks(notes.markdown_files(checked_notes, lesson_tables, RenderOptions()))
    assert len(blocks) > 50
    run = subprocess.run(
        ["node", "-e", RENDER],
        input=json.dumps(blocks),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["rendered"] == len(blocks)
    assert report["failures"] == []


@needs_katex
def test_katex_really_rejects_what_it_cannot_render():
    # The check above can fail: a \parbox (PDF only) is refused.
    run = subprocess.run(
        ["node", "-e", RENDER],
        input=json.dumps([["x.md", r"\text{\parbox{1cm}{a}}"], ["y.md", r"x^{2}"]]),
        capture_output=True,
        text=True,
        check=False,
    )
    failures = json.loads(run.stdout)["failures"]
    assert [f[0] for f in failures] == ["x.md"]
