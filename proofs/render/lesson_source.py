"""The lesson's prose files read as a tree of source blocks, each with its file and line.

A section of the lesson is one Markdown file in proofs/lesson/ (the order: proofs/lesson/
contents.txt). It opens with a front matter (``title:``, and ``only: full`` for a section of
the full notes alone) and holds ordinary Markdown (paragraphs, ``## headings``, ``> quotes``,
lists, pipe tables, ``$$`` display math, one formula a line) and a few roles and directives,
in MyST's syntax:

- roles: ``{math}`pos + k``` (the lesson's notation, proofs.render.lesson_math),
  ``{thm}`rotation``` and ``{fig}`circle``` (references), ``{code}`sinusoidal_pe(…)``` (code
  in running text), ``{value}`name``` (a number read off the tables), ``{full}`…```,
  ``{brief}`…```, ``{author}`…```, ``{student}`…``` (words only that edition has; double
  backticks hold roles: ``{full}`` (see {thm}`group`) ``…``);
- directives, fenced by three or more backticks (more outside, to nest): ``{theorem} name``
  (``:title:``), ``{proof}``, ``{chain} theorem.part`` (``:as:`` a name shown before it,
  ``:first:``/``:last:`` its first or last expression in the lesson's notation), ``{table} name``
  (``:columns:``, ``:formats:``, ``:header:``, ``:labels:``, ``:note:``), ``{twin} theorem``,
  ``{figure} stem`` (``:width:``), ``{witnesses} theorem part …`` (``:let:``), ``{solution}
  Title`` (an answer: in place for the author, apart for the student), ``{only}
  full|brief|author|student``, ``{notebook}`` (prose and code for the notebook alone),
  ``{code}`` and ``{exercise}`` (notebook cells, kept verbatim), ``{listing} name`` (the
  module's code, verbatim, shown with its output in every format but the notebook),
  ``{checks}`` (the appendix's tables).

This module only reads: what a role or directive names is resolved, and checked, by
proofs.render.lesson. Text is never run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

LESSONS_DIR = Path(__file__).resolve().parent.parent / "lesson"
CONTENTS = "contents.txt"


def lesson_folder(module: int) -> Path:
    """The prose files of one course module's lesson: proofs/lesson/module<N>/.

    >>> lesson_folder(11).name
    'module11'
    """
    return LESSONS_DIR / f"module{module}"


LESSON_DIR = lesson_folder(10)


class LessonSourceError(ValueError):
    """A prose file the reader cannot read, or one whose role names nothing; file:line: why."""


@dataclass(frozen=True)
class Where:
    """A place in the prose: file and 1-based line."""

    path: Path
    line: int

    def __str__(self) -> str:
        return f"{self.path.name}:{self.line}"

    def error(self, why: str) -> LessonSourceError:
        return LessonSourceError(f"{self}: {why}")


@dataclass(frozen=True)
class Text:
    """Inline text (roles, emphasis, links still to read), its lines joined by newlines, and
    where it starts."""

    text: str
    where: Where


@dataclass(frozen=True)
class SourceBlock:
    """One block of a prose file.

    kind: "para", "quote", "heading", "items", "display" or "directive". text: the inline text
    (para, quote, heading). level: a heading's level. items: a list's items, numbered or not.
    lines: display math, one formula a line. name, argument, options, children: a directive's;
    code: the verbatim body of a code directive (VERBATIM), which is never read as prose.
    rows: a pipe table's rows, the header first.
    """

    kind: str
    where: Where
    text: Text | None = None
    level: int = 0
    items: tuple[Text, ...] = ()
    numbered: bool = False
    lines: tuple[Text, ...] = ()
    name: str = ""
    argument: str = ""
    options: dict[str, str] = field(default_factory=dict)
    children: tuple[SourceBlock, ...] = ()
    code: str = ""
    rows: tuple[tuple[Text, ...], ...] = ()


@dataclass(frozen=True)
class SourceSection:
    """A prose file: its name (the file's stem), front matter and blocks."""

    name: str
    path: Path
    meta: dict[str, str]
    blocks: tuple[SourceBlock, ...]

    @property
    def title(self) -> str:
        return self.meta["title"]


def section_names(folder: Path = LESSON_DIR) -> list[str]:
    """The sections in the lesson's order, as contents.txt lists them (# starts a comment)."""
    lines = (folder / CONTENTS).read_text(encoding="utf-8").splitlines()
    return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]


def read_sections(folder: Path = LESSON_DIR) -> list[SourceSection]:
    """Every section listed in contents.txt, read."""
    out = []
    for name in section_names(folder):
        path = folder / f"{name}.md"
        if not path.is_file():
            raise LessonSourceError(f"{CONTENTS}: lists {name!r}, but {path.name} does not exist")
        out.append(read_section(path))
    return out


def read_section(path: Path) -> SourceSection:
    """One prose file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    meta, start = _front_matter(lines, path)
    blocks = _Blocks(lines, path).read(start, len(lines))
    return SourceSection(path.stem, path, meta, tuple(blocks))


def _front_matter(lines: list[str], path: Path) -> tuple[dict[str, str], int]:
    if not lines or lines[0].strip() != "---":
        raise Where(path, 1).error("a section opens with a front matter: ---, title: …, ---")
    meta = {}
    for j in range(1, len(lines)):
        if lines[j].strip() == "---":
            if "title" not in meta:
                raise Where(path, 1).error("the front matter has no title")
            return meta, j + 1
        key, sep, value = lines[j].partition(":")
        if not sep:
            raise Where(path, j + 1).error(
                f"expected 'key: value' in the front matter, got {lines[j]!r}"
            )
        meta[key.strip()] = value.strip()
    raise Where(path, 1).error("the front matter is not closed by ---")


# Directives whose body is code, kept verbatim.
VERBATIM = ("code", "exercise", "listing")
_FENCE = re.compile(r"^(`{3,})\{([a-z][a-z-]*)\}\s*(.*)$")
_OPTION = re.compile(r"^:([a-z][a-z-]*):\s*(.*)$")
_ITEM = re.compile(r"^(?:- |(\d+)\. )(.*)$")
_HEADING = re.compile(r"^(#{2,3}) (.*)$")


class _Blocks:
    def __init__(self, lines: list[str], path: Path) -> None:
        self.lines = lines
        self.path = path

    def where(self, j: int) -> Where:
        return Where(self.path, j + 1)

    def read(self, start: int, stop: int) -> list[SourceBlock]:
        out: list[SourceBlock] = []
        j = start
        while j < stop:
            line = self.lines[j]
            if not line.strip():
                j += 1
                continue
            fence = _FENCE.match(line)
            if fence:
                block, j = self.directive(j, stop, fence)
            elif line.strip() == "$$":
                block, j = self.display(j, stop)
            elif _HEADING.match(line):
                match = _HEADING.match(line)
                assert match is not None
                level = len(match.group(1))
                block = SourceBlock(
                    "heading", self.where(j), Text(match.group(2), self.where(j)), level=level
                )
                j += 1
            elif line.startswith("> ") or line == ">":
                first = j
                text = []
                while j < stop and (self.lines[j].startswith("> ") or self.lines[j] == ">"):
                    text.append(self.lines[j][2:])
                    j += 1
                block = SourceBlock(
                    "quote", self.where(first), Text("\n".join(text), self.where(first))
                )
            elif _ITEM.match(line):
                block, j = self.items(j, stop)
            elif line.startswith("|"):
                block, j = self.table(j, stop)
            else:
                first = j
                text = []
                while j < stop and self.lines[j].strip() and not self.starts_block(self.lines[j]):
                    text.append(self.lines[j].strip())
                    j += 1
                block = SourceBlock(
                    "para", self.where(first), Text("\n".join(text), self.where(first))
                )
            out.append(block)
        return out

    @staticmethod
    def starts_block(line: str) -> bool:
        return bool(
            _FENCE.match(line)
            or line.strip() == "$$"
            or _HEADING.match(line)
            or line.startswith("> ")
            or _ITEM.match(line)
            or line.startswith("|")
        )

    def directive(self, j: int, stop: int, fence: re.Match[str]) -> tuple[SourceBlock, int]:
        ticks, name, argument = fence.group(1), fence.group(2), fence.group(3).strip()
        end = next((e for e in range(j + 1, stop) if self.lines[e].strip() == ticks), None)
        if end is None:
            raise self.where(j).error(f"the {{{name}}} directive is not closed by {ticks}")
        body = j + 1
        options: dict[str, str] = {}
        while body < end and (option := _OPTION.match(self.lines[body])):
            options[option.group(1)] = option.group(2).strip()
            body += 1
        verbatim = name in VERBATIM
        children = [] if verbatim else self.read(body, end)
        block = SourceBlock(
            "directive",
            self.where(j),
            name=name,
            argument=argument,
            options=options,
            children=tuple(children),
            code="\n".join(self.lines[body:end]) if verbatim else "",
        )
        return block, end + 1

    def display(self, j: int, stop: int) -> tuple[SourceBlock, int]:
        end = next((e for e in range(j + 1, stop) if self.lines[e].strip() == "$$"), None)
        if end is None:
            raise self.where(j).error("display math opened by $$ is not closed by $$")
        lines = tuple(
            Text(self.lines[e].strip(), self.where(e))
            for e in range(j + 1, end)
            if self.lines[e].strip()
        )
        return SourceBlock("display", self.where(j), lines=lines), end + 1

    def table(self, j: int, stop: int) -> tuple[SourceBlock, int]:
        """A pipe table: a header row, a |---| row, then body rows; each row one line."""
        first = j
        rows: list[tuple[Text, ...]] = []
        while j < stop and self.lines[j].startswith("|"):
            cells = self.lines[j].strip().strip("|").split(" | ")
            if not all(set(c.strip()) <= set("-: ") for c in cells):
                rows.append(tuple(Text(c.strip(), self.where(j)) for c in cells))
            j += 1
        if len({len(r) for r in rows}) != 1 or len(rows) < 2:
            raise self.where(first).error("a table needs a header and rows of as many cells")
        block = SourceBlock("table", self.where(first), rows=tuple(rows))
        return block, j

    def items(self, j: int, stop: int) -> tuple[SourceBlock, int]:
        first = j
        numbered = _ITEM.match(self.lines[j]).group(1) is not None  # type: ignore[union-attr]
        items: list[Text] = []
        while j < stop:
            match = _ITEM.match(self.lines[j])
            if match:
                items.append(Text(match.group(2).strip(), self.where(j)))
            elif self.lines[j].startswith("  ") and self.lines[j].strip() and items:
                last = items[-1]
                items[-1] = Text(f"{last.text}\n{self.lines[j].strip()}", last.where)
            else:
                break
            j += 1
        block = SourceBlock("items", self.where(first), items=tuple(items), numbered=numbered)
        return block, j


# ── Inline text ──────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Role:
    """A role in running text: {name}`content`."""

    name: str
    content: str


@dataclass(frozen=True)
class Emphasis:
    """*words*."""

    text: str


@dataclass(frozen=True)
class AutoLink:
    """<https://…>."""

    url: str


Inline = str | Role | Emphasis | AutoLink

_INLINE = re.compile(
    r"\{(?P<role>[a-z][a-z-]*)\}(?P<ticks>`+)(?P<content>.+?)(?<!`)(?P=ticks)(?!`)"
    r"|\*(?P<emph>[^*]+)\*"
    r"|<(?P<url>https?://[^>\s]+)>"
    r"|\\(?P<escaped>[\\`*<>{}$])",
    re.DOTALL,
)


def inline_parts(text: str) -> list[tuple[Inline, int]]:
    """text split into plain strings, roles, emphasis and links, in order, each with the line
    it starts on counted from text's first (0). A line break reads as a space.

    A role's content is delimited as Markdown delimits code: by a run of backticks, closed by a
    run of the same length; when it both begins and ends with a space, one is removed from each
    end, so ``{full}`` {thm}`group` ``…`` holds {thm}`group`.

    >>> inline_parts("See {thm}`rotation`,\\n*twice*.")
    [('See ', 0), (Role(name='thm', content='rotation'), 0), (', ', 0), (Emphasis(text='twice'), 1), ('.', 1)]
    """
    out: list[tuple[Inline, int]] = []
    plain: list[str] = []
    plain_at = 0
    at = 0

    def flush() -> None:
        joined = "".join(plain).replace("\n", " ")
        if joined:
            out.append((joined, plain_at))
        plain.clear()

    for match in _INLINE.finditer(text):
        if not plain:
            plain_at = text.count("\n", 0, at)
        plain.append(text[at : match.start()])
        at = match.end()
        if match.group("escaped"):
            plain.append(match.group("escaped"))
            continue
        flush()
        line = text.count("\n", 0, match.start())
        if match.group("role"):
            content = match.group("content").replace("\n", " ")
            if len(content) > 2 and content.startswith(" ") and content.endswith(" "):
                content = content[1:-1]
            out.append((Role(match.group("role"), content), line))
        elif match.group("emph") is not None:
            out.append((Emphasis(match.group("emph").replace("\n", " ")), line))
        else:
            out.append((AutoLink(match.group("url")), line))
    if not plain:
        plain_at = text.count("\n", 0, at)
    plain.append(text[at:])
    flush()
    return out
