"""The Coq kernel as a third check: compile the development and mark every theorem's links.

Each link gets one mark: kernel-checked (its lemma compiled), not expressible (no lemma, with
the reason), or failed (coqc rejected it, or stopped before reaching it). The hand-written
headline theorems that cover a theorem are marked the same way, by their file.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from proofs import registry
from proofs.engine.coq.development import (
    HANDWRITTEN,
    HEADLINE,
    HEADLINE_THEOREMS,
    HYPOTHESES,
    LOGICAL_ROOT,
    Development,
    build_development,
)
from proofs.engine.coq.links import Link, Module
from proofs.engine.theorem import Theorem

Mark = Literal["kernel-checked", "not expressible", "failed"]
COQC_MISSING = "Coq kernel: coqc is not installed, so the Coq check was skipped"
# Generous: the whole development compiles in well under a minute here.
FILE_TIMEOUT_SECONDS = 600
_ERROR_LINE = re.compile(r'File "[^"]*", line (\d+)')


@dataclass(frozen=True)
class Compiled:
    """coqc's outcome for one file: ok, and if not, the line of the first error and the message."""

    ok: bool
    line: int | None = None
    message: str = ""


@dataclass(frozen=True)
class TheoremMarks:
    """A theorem's links and hand-written headline theorems, each with its Coq mark and why."""

    theorem: str
    links: tuple[tuple[Link, Mark, str], ...]
    headline: tuple[tuple[str, str, Mark], ...]

    def count(self, mark: Mark) -> int:
        """How many chain links (facts excluded) carry mark."""
        return sum(1 for link, m, _ in self.links if link.link and m == mark)

    def summary(self) -> str:
        """One line: 'Coq kernel: N/M links kernel-checked, K not expressible[, F failed]; facts; headline'."""
        total = sum(1 for link, _, _ in self.links if link.link)
        text = (
            f"Coq kernel: {self.count('kernel-checked')}/{total} links kernel-checked, "
            f"{self.count('not expressible')} not expressible"
        )
        if failed := self.count("failed"):
            text += f", {failed} failed"
        if facts := [m for link, m, _ in self.links if not link.link]:
            text += f"; {facts.count('kernel-checked')}/{len(facts)} facts kernel-checked"
        if self.headline:
            groups: dict[str, list[str]] = {}
            for name, _, mark in self.headline:
                shown = f"{name} ({HYPOTHESES[name]})" if name in HYPOTHESES else name
                groups.setdefault(mark, []).append(shown)
            text += "; headline " + "; ".join(f"{', '.join(n)} {m}" for m, n in groups.items())
        return text

    def as_json(self) -> dict[str, Any]:
        """The marks as a JSON-ready object."""
        return {
            "summary": self.summary(),
            "links": [
                {
                    "part": link.part,
                    "link": link.link or None,
                    "title": link.title,
                    "lemma": link.lemma or None,
                    "mark": mark,
                    "reason": why or None,
                }
                for link, mark, why in self.links
            ],
            "headline": [
                {"theorem": name, "file": file, "mark": mark, "hypothesis": HYPOTHESES.get(name)}
                for name, file, mark in self.headline
            ],
        }

    @property
    def ok(self) -> bool:
        """No link and no headline theorem failed."""
        return self.count("failed") == 0 and all(m != "failed" for _, _, m in self.headline)


def coqc_available() -> bool:
    """Whether coqc is on PATH."""
    return shutil.which("coqc") is not None


def compile_development(development: Development, folder: Path) -> dict[str, Compiled]:
    """Write development into folder and compile each .v file with coqc; name -> outcome.

    PiIrrational.v, then Headline.v (which requires it; UniqueBounded.v requires Headline.v) one
    after the other; the rest are independent and compile two at a time (the machine's cores are
    shared).
    """
    for name, text in development.files().items():
        (folder / name).write_text(text, encoding="utf-8")
    first = development.order.index(HEADLINE) + 1
    results = {name: _coqc(folder, name) for name in development.order[:first]}
    rest = development.order[first:]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results.update(zip(rest, pool.map(lambda n: _coqc(folder, n), rest), strict=True))
    return results


def _coqc(folder: Path, name: str) -> Compiled:
    try:
        run = subprocess.run(
            ["coqc", "-q", "-R", ".", LOGICAL_ROOT, name],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=FILE_TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Compiled(False, None, f"coqc did not finish {name} in {FILE_TIMEOUT_SECONDS} s")
    if run.returncode == 0:
        return Compiled(True)
    output = run.stderr + run.stdout
    match = _ERROR_LINE.search(output)
    message = " ".join(output.split())
    return Compiled(False, int(match[1]) if match else None, message)


def module_marks(module: Module, compiled: Compiled) -> list[tuple[Link, Mark, str]]:
    """Each link of module with its mark, given how its file compiled."""
    text = module.text()
    culprit = ""
    for link in module.lemmas:
        first = text[: text.index(f"Lemma {link.lemma} :")].count("\n") + 1
        last = first + link.text[link.text.index("Lemma ") :].count("\n")
        if compiled.line is not None and first <= compiled.line <= last:
            culprit = link.lemma
    out: list[tuple[Link, Mark, str]] = []
    reached = True
    for link in module.links:
        if not link.lemma:
            out.append((link, "not expressible", link.reason))
        elif compiled.ok or (reached and culprit and link.lemma != culprit):
            out.append((link, "kernel-checked", ""))
        elif link.lemma == culprit:
            reached = False
            out.append((link, "failed", compiled.message))
        else:
            out.append((link, "failed", f"not reached: {compiled.message}"))
    return out


def check(theorems: Sequence[Theorem]) -> dict[str, TheoremMarks]:
    """Compile the development of theorems in a temporary folder; theorem name -> its marks."""
    development = build_development(theorems)
    with tempfile.TemporaryDirectory(prefix="pe-proofs-coq-") as tmp:
        compiled = compile_development(development, Path(tmp))
    out = {}
    for module in development.modules:
        name = module.theorem.name
        headline = tuple(
            (theorem, file, "kernel-checked" if compiled[file].ok else "failed")
            for file, theorem in HEADLINE_THEOREMS.get(name, ())
            if file in HANDWRITTEN
        )
        links = module_marks(module, compiled[f"{module.name}.v"])
        out[name] = TheoremMarks(name, tuple(links), headline)
    return out


def marks_for(names: Sequence[str], d_model: int) -> dict[str, TheoremMarks] | None:
    """`prove --coq`: the marks of the named theorems, or None (said on stderr) without coqc."""
    if not coqc_available():
        print(COQC_MISSING, file=sys.stderr)
        return None
    return check([registry.build(name, d_model=d_model) for name in names])
