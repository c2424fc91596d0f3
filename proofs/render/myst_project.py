"""A MyST project of the lesson: the pages, the figures, conf.py for Sphinx, myst.yml for
Jupyter Book 2, and KaTeX under _static, so that `sphinx-build` makes a site that reaches no network.

Sphinx (with myst-parser, sphinx-book-theme, sphinx-proof, sphinx-exercise and
sphinx-togglebutton, the `myst` extra) builds it offline: conf.py renders math with the copy of
KaTeX in _static, the same way the HTML notes do. Jupyter Book 2 (mystmd) reads the same
pages through myst.yml, but fetches its theme from the network when it builds.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence

from numeric.result_table import Table
from proofs.engine.theorem import TheoremRun
from proofs.render.figures import figure_files
from proofs.render.html import RENDER_SCRIPT
from proofs.render.lesson import build_lesson
from proofs.render.lesson_blocks import Lesson
from proofs.render.markdown_lesson import FIGURE_FORMATS
from proofs.render.myst import myst_pages, page_stem
from proofs.render.notes import katex_files
from proofs.render.options import RenderOptions

# KaTeX's math a little larger than the book's text, not a fifth. The theme lays display math
# out as a reversed flex row made for MathJax's equation numbers, which centres nothing and
# clips a wide chain on the left: a plain block, fitted to the column by render-math.js. The
# article takes the room the empty page-contents column leaves, so the widest table fits at
# 1200 px; a link (a URL in the references) may break anywhere rather than widen a phone's page.
STYLE = """.katex { font-size: 1.05em; }
div.math.display { display: block; overflow-x: auto; overflow-y: hidden; padding: 0.2rem 0; }
.bd-main .bd-content .bd-article-container { max-width: 100%; }
.bd-article table { font-size: 0.9em; }
.bd-article p a, .bd-article li a { overflow-wrap: anywhere; }
"""

# The Sphinx extensions conf.py loads: the pages' parser and the directives the pages use.
EXTENSIONS = ("myst_parser", "sphinx_proof", "sphinx_exercise", "sphinx_togglebutton")

CONF_PY = '''"""Sphinx configuration of these notes, written by pe-proofs (`pe-proofs myst`).

Build offline:  pip install 'pe-proofs[myst]'  (or the packages in EXTENSIONS and
sphinx-book-theme), then  sphinx-build -W -b html . _build/html

Math is rendered in the browser by the copy of KaTeX in _static (katex.min.js, katex.min.css,
its fonts and render-math.js), so no page loads anything from the network.
"""

import warnings

from docutils import nodes

# sphinx-proof 0.4 hands Sphinx 9 a path as a string: a notice about Sphinx 10, not about these
# pages.
warnings.filterwarnings("ignore", "Sphinx 10 will drop support", module="sphinx_proof")

project = {title}
author = {module}
extensions = {extensions}
myst_enable_extensions = ["colon_fence", "dollarmath"]
html_theme = "sphinx_book_theme"
html_title = {title}
# The footer names the course module these notes go with (the theme's "By …" would name a tool).
html_theme_options = {{
    "use_download_button": False,
    "show_toc_level": 2,
    "footer_content_items": ["extra-footer.html"],
    "extra_footer": {footer},
}}
# Figures and tables are numbered once through the book, as in the PDF notes.
numfig = True
numfig_format = {{"figure": "Figure %s", "table": "Table %s"}}
exclude_patterns = ["_build", "myst.yml", ".pe-proofs-manifest.json"]
html_static_path = ["_static"]
html_css_files = ["katex.min.css", "pe-proofs.css"]
html_js_files = [("katex.min.js", {{"defer": "defer"}}), ("render-math.js", {{"defer": "defer"}})]
html_math_renderer = "katex_offline"


def _inline_math(self, node):
    self.body.append(self.starttag(node, "span", "", CLASS="math"))
    self.body.append(self.encode(node.astext()))
    self.body.append("</span>")
    raise nodes.SkipNode


def _display_math(self, node):
    self.body.append(self.starttag(node, "div", "", CLASS="math display"))
    self.body.append(self.encode(node.astext()))
    self.body.append("</div>\\n")
    raise nodes.SkipNode


def setup(app):
    # TeX in <span class="math"> and <div class="math display">, typeset by render-math.js.
    app.add_html_math_renderer("katex_offline", (_inline_math, None), (_display_math, None))
'''


def conf_py(title: str, module: str) -> str:
    """conf.py: the extensions, the book theme with the course module in its footer, numbered
    figures, math by the local KaTeX in _static."""
    footer = f"<p>{html.escape(module)}: {html.escape(title)}</p>"
    return CONF_PY.format(
        title=json.dumps(title, ensure_ascii=False),
        module=json.dumps(module, ensure_ascii=False),
        footer=json.dumps(footer, ensure_ascii=False),
        extensions=json.dumps(list(EXTENSIONS)),
    )


def myst_yml(lesson: Lesson) -> str:
    """myst.yml: the same pages as a Jupyter Book 2 project (mystmd), in the same order."""
    toc = "\n".join(f"    - file: {page_stem(lesson, s)}.md" for s in lesson.sections)
    return (
        "# Jupyter Book 2 (mystmd): `jupyter book start` or `jupyter book build --html`.\n"
        "# It downloads its theme when it builds; sphinx-build (conf.py) needs no network.\n"
        "version: 1\n"
        "project:\n"
        f"  title: {json.dumps(lesson.title, ensure_ascii=False)}\n"
        "  numbering:\n"
        "    heading_1: false\n"
        "  toc:\n"
        "    - file: index.md\n"
        f"{toc}\n"
        "site:\n"
        "  template: book-theme\n"
    )


def myst_files(
    checked: Sequence[TheoremRun], tables: Mapping[str, Table], options: RenderOptions
) -> dict[str, bytes]:
    """The project: index.md, a page per section, SVG figures, conf.py, myst.yml and KaTeX (from
    options.katex), in the edition options ask for (proofs.render.lesson.build_lesson)."""
    dist = options.require_katex("MyST")
    lesson = build_lesson(checked, tables, options)
    pages = myst_pages(lesson)
    files = figure_files(lesson.figures, options.figure_suffix("MyST", FIGURE_FORMATS))
    for name, page in pages.items():
        files[name] = page.encode("utf-8")
    static = {
        **katex_files(dist),
        "render-math.js": RENDER_SCRIPT.encode("utf-8"),
        "pe-proofs.css": STYLE.encode("utf-8"),
    }
    files.update({f"_static/{name}": data for name, data in static.items()})
    module = f"Course module {lesson.options.module}"
    files["conf.py"] = conf_py(lesson.title, module).encode("utf-8")
    files["myst.yml"] = myst_yml(lesson).encode("utf-8")
    return dict(sorted(files.items()))
