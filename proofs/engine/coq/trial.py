"""Try every lemma of a generated module in Coq: the ones Coq rejects, with the reason.

SymPy plans each proof script; Coq has the last word. The tests use the trial to show that Coq
rejects a wrong step lemma by lemma; the development itself is not filtered through it (every
registered theorem's module compiles as generated). `rejected` runs a module's text through
coqtop, which reports an error and goes on with the next sentence where coqc would stop, so one
run tries every lemma of the module. A marker before each Lemma or Theorem tells whose sentences
an error belongs to, and `Abort All` after each proof closes one that failed, so the next lemma
starts afresh. A lemma is rejected if any of its sentences failed (a later sentence may have
closed the goal anyway, but coqc would stop at the failed one). A lemma whose run does not end
within the time budget is rejected too, as the one that did not finish.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

# A marker no Coq error message contains.
MARK = "@@pe-proofs-lemma"
_STARTS = re.compile(r"^(Lemma|Theorem) (\w+)\b", re.MULTILINE)
_ERROR = re.compile(r"^Error:(.*)$", re.MULTILINE)
# Long enough for any module here (each compiles in seconds), short enough that a tactic that
# runs away cannot hold a command up.
MODULE_TIMEOUT_SECONDS = 300
# How many characters of Coq's message a reason keeps.
MESSAGE_CHARACTERS = 160


def coqtop_available() -> bool:
    """Whether coqtop and coqc are on PATH."""
    return shutil.which("coqtop") is not None and shutil.which("coqc") is not None


def marked(text: str) -> str:
    """text with a marker before each Lemma or Theorem and Abort All after each Qed."""
    text = _STARTS.sub(lambda m: f'Goal True. idtac "{MARK} {m[2]}". Abort.\n{m[0]}', text)
    return re.sub(r"^Qed\.$", "Qed.\nAbort All.", text, flags=re.MULTILINE)


def _reason(segment: str) -> str:
    """The first error of a lemma's output, as one short line."""
    found = _ERROR.search(segment)
    message = found[1] if found else ""
    if found and not message.strip():
        message = segment[found.end() :].strip().split("\n\n")[0]
    message = " ".join(message.split()) or "an error"
    if len(message) > MESSAGE_CHARACTERS:
        message = message[: MESSAGE_CHARACTERS - 1] + "…"
    return message


def rejected_in_output(output: str, names: Iterable[str], finished: bool) -> dict[str, str]:
    """Lemma name -> Coq's first error, read from coqtop's output on a marked module. finished:
    whether coqtop ran to the end (if not, the last lemma it reached did not finish)."""
    segments = output.split(MARK)[1:]
    out: dict[str, str] = {}
    last = None
    for segment in segments:
        name = segment.split(maxsplit=1)[0].strip('"')
        last = name
        if _ERROR.search(segment):
            out[name] = _reason(segment)
    if not finished and last is not None:
        out[last] = "Coq did not finish its proof within the time budget"
    # A lemma never reached (coqtop stopped early) is not known to be good.
    reached = {s.split(maxsplit=1)[0].strip('"') for s in segments}
    for name in names:
        if name not in reached:
            out.setdefault(name, "Coq did not reach it")
    return out


class Trial:
    """A folder holding the compiled foundation, in which modules' lemmas are tried.

    foundation: file name -> text of the files every module requires, in compile order.
    root: the logical root the modules require them under.
    """

    def __init__(self, foundation: dict[str, str], root: str) -> None:
        self.root = root
        self._tmp = tempfile.TemporaryDirectory(prefix="pe-proofs-trial-")
        self.folder = Path(self._tmp.name)
        for name, text in foundation.items():
            (self.folder / name).write_text(text, encoding="utf-8")
            run = subprocess.run(
                ["coqc", "-q", "-R", ".", root, name],
                cwd=self.folder,
                capture_output=True,
                text=True,
                timeout=MODULE_TIMEOUT_SECONDS,
                check=False,
            )
            if run.returncode != 0:
                self.close()
                raise RuntimeError(f"{name} does not compile: {' '.join(run.stderr.split())}")

    def rejected(self, text: str) -> dict[str, str]:
        """Lemma or theorem name -> why Coq rejects it, for the module text (empty: all pass)."""
        names = [m[2] for m in _STARTS.finditer(text)]
        try:
            run = subprocess.run(
                ["coqtop", "-q", "-R", ".", self.root],
                cwd=self.folder,
                input=marked(text),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,  # in order: an error after the marker it belongs to
                text=True,
                timeout=MODULE_TIMEOUT_SECONDS,
                check=False,
            )
            output, finished = run.stdout, True
        except subprocess.TimeoutExpired as exc:
            output = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
            finished = False
        return rejected_in_output(output, names, finished)

    def close(self) -> None:
        self._tmp.cleanup()

    def __enter__(self) -> Trial:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
