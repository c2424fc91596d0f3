"""What the Coq tests share: compiling with coqc, the real-number axioms a theorem may rest on
and the axioms Print Assumptions lists, the commands that would assume instead of prove, and
whitespace-insensitive comparison.

>>> squash("forall x,\\n   x = x")
'forall x, x = x'
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from proofs.engine.coq.module import COQ_DIR

needs_coqc = pytest.mark.skipif(
    shutil.which("coqc") is None, reason="coqc is not installed (Debian package coq)"
)

# The axioms Coq's real numbers are built on (Coq 8.16 standard library); nothing else may appear.
REAL_AXIOMS = {
    "ClassicalDedekindReals.sig_forall_dec",
    "ClassicalDedekindReals.sig_not_dec",
    "FunctionalExtensionality.functional_extensionality_dep",
    "Classical_Prop.classic",
}
# The commands by which a Coq file assumes what it should prove.
FORBIDDEN = re.compile(
    r"\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Hypothesis|Hypotheses|"
    r"Variable|Variables|Conjecture)\b"
)


def squash(text: str) -> str:
    """text with every run of whitespace collapsed to one space."""
    return " ".join(text.split())


def coqc(folder: Path, name: str) -> subprocess.CompletedProcess:
    """Compile folder/name with folder mapped to the logical path PeProofs."""
    return subprocess.run(
        ["coqc", "-q", "-R", ".", "PeProofs", name],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def compiled(folder: Path, names: tuple[str, ...]) -> Path:
    """folder with each of names (files of proofs/engine/coq/) copied in and compiled, in order."""
    for name in names:
        shutil.copy(COQ_DIR / name, folder)
        run = coqc(folder, name)
        assert run.returncode == 0, run.stdout + run.stderr
    return folder


def assumptions(printed: str) -> list[set[str]]:
    """The axioms each Print Assumptions in coqc's output lists, in order (an empty set for one
    closed under the global context).

    >>> assumptions("Axioms:\\nClassical_Prop.classic : forall P : Prop, P\\n"
    ...             "Closed under the global context\\n")
    [{'Classical_Prop.classic'}, set()]
    """
    sections: list[set[str]] = []
    for line in printed.splitlines():
        if line in ("Axioms:", "Closed under the global context"):
            sections.append(set())
        elif line and not line[0].isspace() and sections:
            sections[-1].add(line.split()[0])
    return sections
