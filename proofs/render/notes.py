"""Course notes: verify the theorems, run their twins, and lay out the files of a notes folder.

The LaTeX and Markdown backends render one theorem each; this module decides which files a
notes folder holds (one per theorem, an index, figures) and what the introduction says. It
returns file name -> bytes; proofs.files writes them.

Figures: a theorem whose `figure` names a function ("package.module.function") gets a PNG,
written by calling that function as f(path, **theorem.twin_kwargs). The PNG is made
reproducible (fixed dpi; text and time chunks, which carry the matplotlib version, dropped), so
reruns are byte-identical. Without matplotlib the notes still build and say the figure was
skipped.
"""

from __future__ import annotations

import importlib
import importlib.util
import struct
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import sympy as sp

from numeric.table import Table
from proofs import registry
from proofs.batch import parallel_map
from proofs.derivation import Derivation, Verdict
from proofs.encoding import OMEGA_I, POS, I, omega
from proofs.numeric_check import HIGH_DPS, LOW_DPS
from proofs.render import latex, markdown
from proofs.theorem import PartResult, TheoremResult

TITLE = "The sinusoidal positional encoding: verified derivations"


@dataclass(frozen=True)
class Checked:
    """One theorem, verified, with its numeric twin's table and its figure (PNG bytes)."""

    result: TheoremResult
    table: Table | None
    figure: bytes | None = None
    figure_skipped: str = ""

    @property
    def name(self) -> str:
        return self.result.theorem.name

    @property
    def ok(self) -> bool:
        """Proved, and the twin did not fail."""
        return self.result.status == "proved" and (
            self.table is None or self.table.passed is not False
        )


def figure_function(theorem: object) -> Callable[..., object] | None:
    """The theorem's figure function, if it names one."""
    dotted = getattr(theorem, "figure", "") or ""
    if not dotted:
        return None
    module, _, attr = dotted.rpartition(".")
    return getattr(importlib.import_module(module), attr)


# Figures are drawn at this resolution whatever the user's matplotlibrc says.
FIGURE_DPI = 100
SKIPPED = "matplotlib is not installed (pip install 'pe-proofs[plot]')"
# PNG chunks that vary between machines or runs without changing the picture.
_VARYING_CHUNKS = {b"tEXt", b"zTXt", b"iTXt", b"tIME"}


def plotting_available() -> bool:
    """Whether matplotlib can be imported (checked without importing it)."""
    return importlib.util.find_spec("matplotlib") is not None


def reproducible_png(png: bytes) -> bytes:
    """png without its text and time chunks (Software, dates): the same picture, same bytes."""
    signature = b"\x89PNG\r\n\x1a\n"
    if not png.startswith(signature):
        raise ValueError("a figure function must write a PNG file")
    out = [signature]
    j = len(signature)
    while j < len(png):
        (length,) = struct.unpack(">I", png[j : j + 4])
        end = j + 12 + length
        if png[j + 4 : j + 8] not in _VARYING_CHUNKS:
            out.append(png[j:end])
        j = end
    return b"".join(out)


def render_figure(theorem: object) -> bytes | None:
    """The theorem's figure as reproducible PNG bytes, or None when it has no figure function.

    Call only when plotting_available(); the figure function imports matplotlib.
    """
    draw = figure_function(theorem)
    if draw is None:
        return None
    from matplotlib import rc_context  # only here: the notes build without matplotlib

    with (
        tempfile.TemporaryDirectory() as tmp,
        rc_context({"savefig.dpi": FIGURE_DPI, "figure.dpi": FIGURE_DPI}),
    ):
        path = Path(tmp) / "figure.png"
        draw(path, **getattr(theorem, "twin_kwargs", {}))
        return reproducible_png(path.read_bytes())


def _figure(theorem: object) -> tuple[bytes | None, str]:
    """(PNG bytes or None, why it was skipped or "")."""
    if figure_function(theorem) is None:
        return None, ""
    if not plotting_available():
        return None, SKIPPED
    return render_figure(theorem), ""


def check(names: Sequence[str] | None = None, *, d_model: int = 8, seed: int = 0) -> list[Checked]:
    """Verify the named theorems (all by default) and compute their twins and figures."""
    chosen = [registry.check_name(n) for n in names] if names else registry.names()
    tasks = [(name, d_model, seed) for name in chosen]
    out = []
    for name, (verdicts, table) in zip(chosen, parallel_map(_verify_with_twin, tasks), strict=True):
        # The theorem is rebuilt here rather than sent back: unpickling re-evaluates SymPy
        # objects, and a step kept unevaluated for display (a·r(pos) as a product) would collapse.
        theorem = registry.build(name, d_model=d_model)
        parts = tuple(PartResult(p, v) for p, v in zip(theorem.parts, verdicts, strict=True))
        out.append(Checked(TheoremResult(theorem, parts), table, *_figure(theorem)))
    return out


def _verify_with_twin(task: tuple[str, int, int]) -> tuple[tuple[Verdict, ...], Table]:
    name, d_model, seed = task
    result = registry.build(name, d_model=d_model).verify(seed=seed)
    return tuple(p.verdict for p in result.parts), result.theorem.run_twin()


def _counts(checked: Sequence[Checked]) -> tuple[int, int, int]:
    links = points = 0
    for c in checked:
        for pr in c.result.parts:
            links += len(pr.verdict.links)
            points = max([points, *(link.numeric.points for link in pr.verdict.links)])
    facts = sum(not isinstance(pr.part, Derivation) for c in checked for pr in c.result.parts)
    return links, points, facts


def introduction(checked: Sequence[Checked]) -> list[list[str | sp.Basic]]:
    """The introduction's paragraphs: prose pieces and SymPy formulas (set as inline math)."""
    links, points, facts = _counts(checked)
    proved = sum(c.result.status == "proved" for c in checked)
    pe = sp.Function("PE")
    return [
        [
            f"These notes prove {len(checked)} statements about the sinusoidal positional encoding "
            "of the Transformer, ",
            sp.Eq(pe(POS, 2 * I), sp.sin(POS * OMEGA_I), evaluate=False),
            " and ",
            sp.Eq(pe(POS, 2 * I + 1), sp.cos(POS * OMEGA_I), evaluate=False),
            ", with the frequency ",
            sp.Eq(OMEGA_I, omega(), evaluate=False),
            f". {proved} of {len(checked)} are proved.",
        ],
        [
            "Each proof is a chain of equalities. Every link of every chain "
            f"({links} links in all) was checked twice, independently: symbolically, by reducing "
            "the difference of its two sides to exactly 0 (the rule that did it is named under "
            f"each chain), and numerically, by evaluating both sides at {points} seeded random "
            f"points that respect the symbols' hypotheses, at {LOW_DPS} and at {HIGH_DPS} "
            "significant digits. A link counts only if both checks pass. "
            f"The {facts} statements that are not equalities (an expression is free of pos, is "
            "nonzero, a linear system has no solution) were checked by SymPy from the symbols' "
            "assumptions, with every equation of a system kept."
        ],
        [
            "Each theorem ends with a numeric cross-check computed separately with NumPy in "
            "double precision, which does not reuse the symbolic proof."
        ],
    ]


def latex_files(
    checked: Sequence[Checked], *, standalone: bool = False, index: bool = True
) -> dict[str, bytes]:
    """The LaTeX notes: NAME.tex per theorem, NAME.png figures, and main.tex when index."""
    files: dict[str, bytes] = {}
    for c in checked:
        figure = f"{c.name}.png" if c.figure is not None else None
        body = latex.theorem_tex(c.result, c.table, figure=figure, skipped=c.figure_skipped)
        files[f"{c.name}.tex"] = (latex.standalone_fragment(body) if standalone else body).encode(
            "utf-8"
        )
        if c.figure is not None:
            files[f"{c.name}.png"] = c.figure
    if index:
        intro = [latex.inline_tex(p) for p in introduction(checked)]
        main = latex.main_document(TITLE, intro, [c.name for c in checked])
        files["main.tex"] = main.encode("utf-8")
    return files


def markdown_files(checked: Sequence[Checked], *, index: bool = True) -> dict[str, bytes]:
    """The Markdown notes: NAME.md per theorem, NAME.png figures, and README.md when index."""
    files: dict[str, bytes] = {}
    for c in checked:
        figure = f"{c.name}.png" if c.figure is not None else None
        page = markdown.theorem_markdown(c.result, c.table, figure=figure, skipped=c.figure_skipped)
        files[f"{c.name}.md"] = page.encode("utf-8")
        if c.figure is not None:
            files[f"{c.name}.png"] = c.figure
    if index:
        entries = [(c.name, c.result.theorem.title, c.result.status) for c in checked]
        files["README.md"] = markdown.index_markdown(TITLE, introduction(checked), entries).encode(
            "utf-8"
        )
    return files
