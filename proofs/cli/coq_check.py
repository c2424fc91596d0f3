"""The Coq kernel as a third check: compile the development and mark every link, part and fact.

A mark is one of:
- kernel-checked: its Coq lemma or theorem compiled, is no tautology (NoTautology.v), and, for a
  link, the part's theorem composed from it compiled too;
- not chained: a link's lemma compiled but its part has no theorem (another link has none);
- no proof found: there is no Coq lemma, for the reason given;
- tautology: reflexivity alone proves the statement;
- failed: coqc rejected it, or stopped before reaching it.
The hand-written headline theorems that cover a theorem are marked by their file, and so are
the agreements (a Headline theorem proved again from the parts).
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
    FOUNDATION,
    HEADLINE_THEOREMS,
    HYPOTHESES,
    LOGICAL_ROOT,
    NO_TAUTOLOGY,
    Development,
    build_development,
)
from proofs.engine.coq.module import Entry, Module
from proofs.engine.theorem import Theorem

Mark = Literal["kernel-checked", "not chained", "no proof found", "tautology", "failed"]
KINDS = (("part", "parts"), ("link", "links"), ("fact", "facts"))
COQC_MISSING = "Coq kernel: coqc is not installed, so the Coq check was skipped"
# Generous: the whole development compiles in well under two minutes here.
FILE_TIMEOUT_SECONDS = 600
_ERROR_LINE = re.compile(r'File "[^"]*", line (\d+)')
_DEFINED = re.compile(r"^(?:Lemma|Theorem) (\w+)", re.MULTILINE)


@dataclass(frozen=True)
class Compiled:
    """coqc's outcome for one file: ok, and if not, the line of the first error and the message."""

    ok: bool
    line: int | None = None
    message: str = ""


@dataclass(frozen=True)
class TheoremMarks:
    """A theorem's entries with their marks and why, its hand-written headline theorems and the
    agreements (Headline theorems proved again from its parts), each with a mark."""

    theorem: str
    entries: tuple[tuple[Entry, Mark, str], ...]
    headline: tuple[tuple[str, str, Mark], ...]
    agreements: tuple[tuple[str, str, Mark], ...] = ()

    def count(self, kind: str, mark: Mark | None = None) -> int:
        """How many entries of kind ("part", "link", "fact") carry mark (all if None)."""
        return sum(1 for e, m, _ in self.entries if e.kind == kind and mark in (None, m))

    def summary(self) -> str:
        """One line: the kernel-checked parts, links and facts out of how many, what is not,
        and the headline theorems."""
        counts = ", ".join(
            f"{self.count(kind, 'kernel-checked')}/{self.count(kind)} {plural}"
            for kind, plural in KINDS
        )
        text = f"Coq kernel: {counts} kernel-checked"
        other = [
            f"{n} {mark}"
            for mark in ("no proof found", "not chained", "tautology", "failed")
            if (n := sum(1 for _, m, _ in self.entries if m == mark))
        ]
        if other:
            text += f" ({', '.join(other)})"
        if self.headline:
            groups: dict[str, list[str]] = {}
            for name, _, mark in self.headline:
                shown = f"{name} ({HYPOTHESES[name]})" if name in HYPOTHESES else name
                groups.setdefault(mark, []).append(shown)
            text += "; headline " + "; ".join(f"{', '.join(n)} {m}" for m, n in groups.items())
        agreed = [h for h, _, m in self.agreements if m == "kernel-checked"]
        if agreed:
            text += f"; proved again from the parts: {', '.join(dict.fromkeys(agreed))}"
        return text

    def as_json(self) -> dict[str, Any]:
        """The marks as a JSON-ready object."""
        return {
            "summary": self.summary(),
            "counts": {
                plural: {
                    "kernel_checked": self.count(kind, "kernel-checked"),
                    "total": self.count(kind),
                }
                for kind, plural in KINDS
            },
            "entries": [
                {
                    "part": e.part,
                    "kind": e.kind,
                    "link": e.link or None,
                    "title": e.title,
                    "lemma": e.lemma or None,
                    "mark": mark,
                    "reason": why or None,
                }
                for e, mark, why in self.entries
            ],
            "headline": [
                {"theorem": name, "file": file, "mark": mark, "hypothesis": HYPOTHESES.get(name)}
                for name, file, mark in self.headline
            ],
            "agreements": [
                {"headline": headline, "theorem": name, "mark": mark}
                for headline, name, mark in self.agreements
            ],
        }

    @property
    def ok(self) -> bool:
        """Nothing failed and nothing is a tautology (no proof found is not a failure)."""
        bad = {"failed", "tautology"}
        return (
            not any(m in bad for _, m, _ in self.entries)
            and all(m != "failed" for _, _, m in self.headline)
            and all(m != "failed" for _, _, m in self.agreements)
        )


def coqc_available() -> bool:
    """Whether coqc is on PATH."""
    return shutil.which("coqc") is not None


def compile_development(development: Development, folder: Path) -> dict[str, Compiled]:
    """Write development into folder and compile each .v file with coqc; name -> outcome.

    The foundation (PiIrrational.v, Headline.v, Helpers.v) one after another, the rest two at a
    time (they are independent; the machine's cores are shared).
    """
    for name, text in development.files().items():
        (folder / name).write_text(text, encoding="utf-8")
    results = {name: _coqc(folder, name) for name in FOUNDATION}
    rest = [n for n in development.order if n not in FOUNDATION]
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


def tautologies(development: Development, folder: Path, compiled: Compiled) -> set[str] | None:
    """The generated statements reflexivity proves, as 'Module.name': NoTautology.v without each
    one found so far is compiled again until it passes. None if it fails for another reason."""
    found: set[str] = set()
    text = (folder / NO_TAUTOLOGY).read_text(encoding="utf-8")
    while not compiled.ok:
        lines = text.splitlines()
        if compiled.line is None or "has not failed" not in compiled.message:
            return None
        start = compiled.line - 1
        while start > 0 and not lines[start].startswith("(* "):
            start -= 1
        found.add(lines[start].removeprefix("(* ").removesuffix(" *)"))
        text = "\n".join(lines[:start] + [""] * 3 + lines[start + 3 :])
        (folder / NO_TAUTOLOGY).write_text(text, encoding="utf-8")
        compiled = _coqc(folder, NO_TAUTOLOGY)
    return found


def module_marks(
    module: Module, compiled: Compiled, tautological: set[str] | None
) -> tuple[list[tuple[Entry, Mark, str]], list[tuple[str, str, Mark]]]:
    """Each entry of module with its mark, and each agreement's, given how the file compiled
    and which statements are tautologies (None: unknown, the check itself failed)."""
    text = module.text()
    starts = {m[1]: text[: m.start()].count("\n") + 1 for m in _DEFINED.finditer(text)}
    reached = dict.fromkeys(starts, True)
    culprit = None
    if not compiled.ok:
        ordered = sorted(starts.items(), key=lambda kv: kv[1])
        before = [name for name, line in ordered if compiled.line and line <= compiled.line]
        culprit = before[-1] if before else None
        for name, _ in ordered:
            reached[name] = name in before and name != culprit

    def mark_of(name: str) -> tuple[Mark, str]:
        if not reached.get(name, False):
            why = compiled.message if name == culprit else f"not reached: {compiled.message}"
            return "failed", why
        if tautological is None:
            return "failed", "the no-tautology check (NoTautology.v) did not compile"
        if f"{module.name}.{name}" in tautological:
            return "tautology", "reflexivity alone proves it"
        return "kernel-checked", ""

    parts = {e.part: e for e in module.entries if e.kind == "part"}
    out: list[tuple[Entry, Mark, str]] = []
    for entry in module.entries:
        if not entry.lemma:
            out.append((entry, "no proof found", entry.reason))
            continue
        mark, why = mark_of(entry.lemma)
        if entry.kind == "link" and mark == "kernel-checked":
            part = parts[entry.part]
            if not part.lemma:
                mark, why = "not chained", part.reason
            elif mark_of(part.lemma)[0] != "kernel-checked":
                mark, why = "not chained", f"the part's theorem {part.lemma} is not kernel-checked"
        out.append((entry, mark, why))
    agreed = [(headline, name, mark_of(name)[0]) for headline, name in module.agreements]
    return out, agreed


def check(theorems: Sequence[Theorem]) -> dict[str, TheoremMarks]:
    """Compile the development of theorems in a temporary folder; theorem name -> its marks."""
    development = build_development(theorems)
    with tempfile.TemporaryDirectory(prefix="pe-proofs-coq-") as tmp:
        compiled = compile_development(development, Path(tmp))
        tautological = tautologies(development, Path(tmp), compiled[NO_TAUTOLOGY])
    out = {}
    for module in development.modules:
        name = module.theorem.name
        headline = tuple(
            (theorem, file, "kernel-checked" if compiled[file].ok else "failed")
            for file, theorem in HEADLINE_THEOREMS.get(name, ())
        )
        entries, agreed = module_marks(module, compiled[f"{module.name}.v"], tautological)
        out[name] = TheoremMarks(name, tuple(entries), headline, tuple(agreed))
    return out


def marks_for(names: Sequence[str], d_model: int) -> dict[str, TheoremMarks] | None:
    """`prove --coq`: the marks of the named theorems, or None (said on stderr) without coqc."""
    if not coqc_available():
        print(COQC_MISSING, file=sys.stderr)
        return None
    return check([registry.build(name, d_model=d_model) for name in names])
