"""The author edition's section "What the papers say, checked": a course module's entries of the
papers ledger (proofs.theorems.papers), each claim with its reading, verdict and witness, one
list per paper, written as the lesson's prose file papers.md.

The section is generated from the ledger, never typed: ``python -m proofs.cli.lesson_papers
11`` rewrites proofs/lesson/module11/papers.md, and a test compares the file with what the
ledger gives now.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from proofs.render.lesson_source import lesson_folder
from proofs.theorems.papers import claim_modules, ledger
from proofs.theorems.papers.common.entry import Entry

# The ledger's claim modules each course module's lesson reports, in the lesson's order (the
# ledger itself does not say which module a claim belongs to).
MODULE_PAPERS: dict[int, tuple[str, ...]] = {
    11: ("yarn2023", "gptoss2025", "liu2023", "men2024", "su2024"),
}
FILE_NAME = "papers.md"
HEADER = """---
title: What the papers say, checked
only: author
---

Generated from the papers ledger ({code}`pe-proofs papers --only NAME`); do not edit by hand.
Each row is one claim a paper (or the code that implements it) states with numbers, read one
way where the paper is ambiguous, with its verdict, decided in ball arithmetic: *holds*,
*fails*, or *undecided* when no enclosure settled it. The witness is what decides it: exact
values, and enclosures printed as {code}`[midpoint +/- radius]`.
"""


# The ledger's text in the lesson's prose: § as a word (LaTeX text has no §), no bar inside a
# pipe table (|D| is the paper's head width), no backtick inside a role.
_PROSE = str.maketrans({"§": "section ", "|": "", "`": "'"})


def prose(text: str) -> str:
    """The ledger's text as the lesson's prose sets it.

    >>> prose("§3.2, r = L/λ_d with |D| = 128")
    'section 3.2, r = L/λ_d with D = 128'
    """
    return text.translate(_PROSE)


# Code is set verbatim, in ASCII: the few other characters the ledger's text uses, spelled out.
_ASCII = str.maketrans(
    {"…": "...", "·": "*", "λ": "lambda", "π": "pi", "′": "'", "θ": "theta", "−": "-"}
)


def code_role(text: str) -> str:
    """text as a {code} role, in ASCII and safe in a pipe table.

    >>> code_role("2π·b′ |D|")
    "{code}`2pi*b' D`"
    """
    shown = prose(text).translate(_ASCII)
    if not shown.isascii():
        raise ValueError(f"the ledger's text has a character code cannot set: {shown!r}")
    return "{code}`" + shown + "`"


def witness_text(witness: dict[str, object]) -> str:
    """The witness on one line: key = value, …, lists and mappings as JSON.

    >>> witness_text({"value": "92", "rounded": [8, 18]})
    'value = 92; rounded = [8, 18]'
    """
    shown = (
        v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in witness.values()
    )
    return "; ".join(f"{key} = {value}" for key, value in zip(witness, shown, strict=True))


def shared_ending(claims: Sequence[str]) -> str:
    """The words every claim ends with, when there are several claims and they share a long
    ending (a table's claims that differ only in their first words), else "".

    >>> shared_ending(["for 1K, b = 4 is least with B >= 0", "for 2K, b = 9 is least with B >= 0"])
    ' is least with B >= 0'
    >>> shared_ending(["one claim"])
    ''
    """
    if len(claims) < 2:
        return ""
    size = 0
    while size < min(map(len, claims)) and len({c[len(c) - size - 1] for c in claims}) == 1:
        size += 1
    ending = claims[0][len(claims[0]) - size :]
    ending = ending[ending.find(" ") :] if " " in ending else ""
    return ending if len(ending) >= 20 and all(len(c) > len(ending) for c in claims) else ""


def paper_block(entries: Sequence[Entry]) -> str:
    """One paper's paragraph and its list of entries (a list, which breaks across pages where a
    table would not); a long ending every claim shares is said once, above."""
    first = entries[0]
    ending = shared_ending([e.claim for e in entries])
    rows = [
        f"- {code_role(e.claim[: len(e.claim) - len(ending)] + ('…' if ending else ''))}, "
        f"read as {code_role(e.reading or 'stated')}: *{e.verdict}*. Witness: "
        f"{code_role(witness_text(e.witness))}."
        for e in entries
    ]
    wheres = sorted({e.where for e in entries})
    counts = {v: sum(e.verdict == v for e in entries) for v in ("holds", "fails", "undecided")}
    tally = ", ".join(f"{n} {verdict}" for verdict, n in counts.items() if n)
    said = f" Each claim: …{code_role(ending)}." if ending else ""
    return (
        f"*{prose(first.paper)}*, {prose('; '.join(wheres))}: {tally}.{said}\n\n"
        + "\n".join(rows)
        + "\n"
    )


def papers_markdown(module: int) -> str:
    """The section's prose file for one course module (ValueError for a module without papers)."""
    if module not in MODULE_PAPERS:
        allowed = " or ".join(str(m) for m in MODULE_PAPERS)
        raise ValueError(f"module must be {allowed}, got {module!r}")
    blocks = [HEADER]
    for name in MODULE_PAPERS[module]:
        entries = ledger(name)
        by_paper: dict[str, list[Entry]] = {}
        for entry in entries:
            by_paper.setdefault(entry.paper, []).append(entry)
        blocks.extend(paper_block(group) for group in by_paper.values())
    return "\n".join(blocks)


def papers_path(module: int) -> Path:
    """Where the module's generated section lives."""
    return lesson_folder(module) / FILE_NAME


def main(argv: Sequence[str]) -> int:
    """Rewrite the section of the module named on the command line (11 by default)."""
    module = int(argv[0]) if argv else 11
    papers_path(module).write_text(papers_markdown(module), encoding="utf-8")
    print(
        f"wrote {papers_path(module)} ({', '.join(MODULE_PAPERS[module])} of {len(claim_modules())} claim modules)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
