"""The course notes as a lesson: the prose files read into blocks, with the verified chains,
the computed tables and the figures put where the prose names them.

build_lesson takes the verified theorems (proofs.engine.theorem.TheoremRun) and the tables
(the module's, numeric.module_tables, and the conventions table), reads the prose of
proofs/lesson/ (proofs.render.lesson_source) and resolves every role and directive; every
format prints the blocks it returns (proofs.render.lesson_blocks). Chains are taken from the
verified theorems, never rebuilt here, so what the notes show is what was checked. A role that
names no theorem, part, table or figure stops the build with the file and line that named it.

One file because it is the one place where prose meets computed results: each role of the
prose files ({thm}, {chain}, {math}, tables, figures) is resolved here against the verified runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import sympy as sp

from numeric.result_table import Table
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Part
from proofs.engine.theorem import TheoremRun
from proofs.registry import module_of
from proofs.render.lesson_blocks import (
    AppendixStart,
    Block,
    Chain,
    Code,
    Emph,
    Equations,
    Exercise,
    Figure,
    Heading,
    Items,
    Lesson,
    Link,
    Listing,
    Mono,
    NotebookOnly,
    Para,
    Piece,
    ProofEnd,
    ProseTable,
    Quote,
    Ref,
    Section,
    Solution,
    TableBlock,
    Tex,
    TheoremStatement,
)
from proofs.render.lesson_listings import OUTPUTS
from proofs.render.lesson_math import LessonMathError, read_math
from proofs.render.lesson_parts import FIGURES, SUBTITLES, TITLES, Parts, bound_equation
from proofs.render.lesson_source import (
    AutoLink,
    Emphasis,
    Role,
    SourceBlock,
    SourceSection,
    Text,
    Where,
    inline_parts,
    lesson_folder,
    read_sections,
)
from proofs.render.options import RenderOptions
from proofs.render.tex_prose import prose_runs

EDITION_WORDS = ("brief", "full", "student", "author")
# How the notebook recomputes a table the lesson shows, by its name.
TABLE_SOURCES = {"conventions": "conventions_table()"}


def _has(options: RenderOptions, word: str) -> bool:
    """Whether the edition options ask for carries what is marked word (brief, full, student,
    author)."""
    return {
        "brief": options.brief,
        "full": not options.brief,
        "student": options.edition == "student",
        "author": options.edition == "author",
    }[word]


def build_lesson(
    runs: Sequence[TheoremRun],
    tables: Mapping[str, Table],
    options: RenderOptions,
    *,
    folder: Path | None = None,
) -> Lesson:
    """The lesson from the verified theorems and the computed tables, in the edition options
    ask for (brief: the module's sections only; edition: "student", no author notes, answers
    apart and no appendix of checks, or "author").

    runs: the theorems the lesson cites, verified (registry.run). tables: name -> Table, the
    module's (numeric.module_tables.TABLE_NAMES) and "conventions". folder: where the prose
    files are (default: the options' course module's, proofs/lesson/module<N>/; tests give
    another). LessonSourceError names file and line of a role or
    directive that names nothing.
    """
    folder = lesson_folder(options.module) if folder is None else folder
    sources = [
        s
        for s in read_sections(folder)
        if _kept(s.meta.get("only", ""), options, s) and (not _checks(s) or not options.student)
    ]
    numbers = _Numbers.of(sources, options)
    resolver = _Resolver(Parts(runs, options.brief), tables, options, numbers, runs)
    sections = tuple(resolver.section(s) for s in sources)
    figures = {stem: FIGURES[stem] for stem in numbers.figures}
    notes = "brief notes" if options.brief else "full notes"
    subtitle = f"{SUBTITLES[options.module]}: {notes}, {options.edition} edition"
    return Lesson(TITLES[options.module], sections, figures, subtitle, options)


def _kept(only: str, options: RenderOptions, source: SourceSection | SourceBlock) -> bool:
    """Whether a section or block marked only: WORDS belongs in the edition options ask for (all
    words must hold)."""
    words = only.split()
    where = source.where if isinstance(source, SourceBlock) else Where(source.path, 1)
    for word in words:
        if word not in EDITION_WORDS:
            raise where.error(f"only takes {', '.join(EDITION_WORDS)}; got {word!r}")
    return all(_has(options, w) for w in words)


def _checks(source: SourceSection) -> bool:
    """Whether the section holds the appendix of how each claim was checked ({checks}): the
    author edition's alone, whatever its front matter says."""
    return any(b.kind == "directive" and b.name == "checks" for b in source.blocks)


@dataclass(frozen=True)
class _Numbers:
    """Theorems and figures numbered in the order the edition shows them."""

    theorems: dict[str, int]
    figures: dict[str, int]

    @classmethod
    def of(cls, sources: Sequence[SourceSection], options: RenderOptions) -> _Numbers:
        theorems: dict[str, int] = {}
        figures: dict[str, int] = {}

        def walk(blocks: Sequence[SourceBlock]) -> None:
            for block in blocks:
                if block.kind != "directive":
                    continue
                if block.name == "only" and not _kept(block.argument, options, block):
                    continue
                if block.name == "theorem":
                    theorems.setdefault(block.argument, len(theorems) + 1)
                if block.name == "figure":
                    figures.setdefault(block.argument, len(figures) + 1)
                walk(block.children)

        for source in sources:
            walk(source.blocks)
        return cls(theorems, figures)


class _Resolver:
    """Turns source blocks into lesson blocks for one edition."""

    def __init__(
        self,
        parts: Parts,
        tables: Mapping[str, Table],
        options: RenderOptions,
        numbers: _Numbers,
        runs: Sequence[TheoremRun],
    ) -> None:
        self.parts = parts
        self.tables = tables
        self.options = options
        self.numbers = numbers
        self.runs = runs
        self.values = _values(tables)
        self.theorems = {run.name for run in runs}

    # ── Sections and blocks ──────────────────────────────────────────────────────────────────

    def section(self, source: SourceSection) -> Section:
        self.topic: tuple[Piece, ...] = (source.title,)
        blocks: list[Block] = [AppendixStart()] if source.meta.get("appendix") == "true" else []
        blocks += self.blocks(source.blocks)
        return Section(source.name, source.title, tuple(blocks))

    def blocks(self, sources: Sequence[SourceBlock]) -> list[Block]:
        out: list[Block] = []
        for source in sources:
            out += self.block(source)
        return out

    def block(self, source: SourceBlock) -> list[Block]:
        if source.kind == "para":
            return [Para(self.pieces(source.text))]
        if source.kind == "quote":
            return [Quote(self.pieces(source.text))]
        if source.kind == "heading":
            self.topic = self.pieces(source.text)
            return [Heading(source.level, self.topic)]
        if source.kind == "items":
            return [Items(tuple(self.pieces(item) for item in source.items), source.numbered)]
        if source.kind == "table":
            header, *rows = source.rows
            cells = tuple(tuple(self.pieces(c) for c in row) for row in rows)
            return [ProseTable(tuple(self.pieces(c) for c in header), cells)]
        if source.kind == "display":
            return [Equations(tuple(self.formula(line) for line in source.lines))]
        directive = DIRECTIVES.get(source.name)
        if directive is None:
            known = ", ".join(sorted(DIRECTIVES))
            raise source.where.error(f"unknown directive {{{source.name}}} (directives: {known})")
        return directive(self, source)

    def formula(self, line: Text) -> sp.Basic:
        try:
            return read_math(line.text)
        except LessonMathError as error:
            raise line.where.error(str(error)) from None

    def prose(self, source: SourceBlock) -> tuple[Piece, ...]:
        """The directive's text: its one paragraph (nothing if it has none)."""
        paras = [c for c in source.children if c.kind == "para"]
        if len(paras) > 1:
            raise source.where.error(f"the {{{source.name}}} directive holds one paragraph")
        return self.pieces(paras[0].text) if paras else ()

    # ── Inline text ──────────────────────────────────────────────────────────────────────────

    def pieces(self, text: Text | None) -> tuple[Piece, ...]:
        assert text is not None
        out: list[Piece] = []
        for part, line in inline_parts(text.text):
            where = Where(text.where.path, text.where.line + line)
            if isinstance(part, str):
                out.append(tie_calls(part))
            elif isinstance(part, Emphasis):
                out.append(Emph(part.text))
            elif isinstance(part, AutoLink):
                out.append(Link(part.url))
            else:
                out += self.role(part, where)
        return tuple(out)

    def role(self, role: Role, where: Where) -> list[Piece]:
        if role.name in EDITION_WORDS:
            if not _has(self.options, role.name):
                return []
            return list(self.pieces(Text(role.content, where)))
        if role.name == "math":
            try:
                return [read_math(role.content)]
            except LessonMathError as error:
                raise where.error(str(error)) from None
        if role.name == "thm":
            return [self.theorem_ref(role.content, where)]
        if role.name == "fig":
            if role.content not in FIGURES:
                raise where.error(
                    f"unknown figure {role.content!r} (figures: {', '.join(FIGURES)})"
                )
            if role.content not in self.numbers.figures:
                raise where.error(f"figure {role.content!r} is not in this edition")
            return [Ref("Figure", f"fig:{role.content}", self.numbers.figures[role.content])]
        if role.name == "code":
            return [Mono(tie_calls(role.content))]
        if role.name == "value":
            if role.content not in self.values:
                known = ", ".join(self.values)
                raise where.error(f"unknown value {role.content!r} (values: {known})")
            return [self.values[role.content]]
        raise where.error(
            f"unknown role {{{role.name}}} (roles: math, thm, fig, code, value, "
            f"{', '.join(EDITION_WORDS)})"
        )

    def theorem_ref(self, name: str, where: Where) -> Ref:
        if name not in self.theorems:
            raise where.error(
                f"unknown theorem {name!r} (theorems: {', '.join(sorted(self.theorems))})"
            )
        if name not in self.numbers.theorems:
            raise where.error(
                f"theorem {name!r} is not stated in this edition; mark the sentence "
                "with {full}`…` or an {only} directive"
            )
        return Ref("Theorem", f"thm:{name}", self.numbers.theorems[name])

    # ── Directives ───────────────────────────────────────────────────────────────────────────

    def only(self, source: SourceBlock) -> list[Block]:
        return self.blocks(source.children) if _kept(source.argument, self.options, source) else []

    def theorem(self, source: SourceBlock) -> list[Block]:
        """The theorem's title and statement as the Theorem states them (written once, there),
        with the key formulas the directive displays."""
        name = source.argument
        self.theorem_ref(name, source.where)
        if source.options or any(c.kind != "display" for c in source.children):
            raise source.where.error(
                "a {theorem} directive holds only display formulas: its title and statement are "
                "the theorem's own (Theorem.title, Theorem.statement)"
            )
        formulas = tuple(
            self.formula(line) for c in source.children if c.kind == "display" for line in c.lines
        )
        theorem = self.parts.by_name[name].theorem
        return [
            TheoremStatement(
                self.numbers.theorems[name],
                f"thm:{name}",
                theorem.title,
                tuple(Tex(run) if math else run for math, run in prose_runs(theorem.statement)),
                formulas,
            )
        ]

    def proof(self, source: SourceBlock) -> list[Block]:
        blocks = self.blocks(source.children)
        if not blocks:
            raise source.where.error("a {proof} directive holds the proof")
        first = blocks[0]
        lead: tuple[Piece, ...] = (Emph("Proof."), " ")
        if isinstance(first, Chain):
            blocks[0] = replace(first, intro=lead + first.intro if first.intro else lead[:1])
        elif isinstance(first, Para):
            blocks[0] = Para(lead + first.pieces)
        else:
            blocks.insert(0, Para(lead[:1]))
        return [*blocks, ProofEnd()]

    def chain(self, source: SourceBlock) -> list[Block]:
        theorem, part = self.part_name(source, Derivation)
        chain = self.parts.chain(theorem, part, *self.prose(source))
        if "as" in source.options:
            chain = replace(chain, lead=self.formula(Text(source.options["as"], source.where)))
        shown = {"first": 0, "last": -1}
        if any(key in source.options for key in shown):
            # The first (or last) expression in the lesson's notation: the one-pair product
            # written as such where the chain's step has it as a row times a column, or a sum of
            # the one-pair products where the step has them multiplied out.
            steps = list(chain.derivation.steps)
            for key, j in shown.items():
                if key in source.options:
                    steps[j] = Step(
                        self.formula(Text(source.options[key], source.where)), None, steps[j].note
                    )
            chain = replace(chain, derivation=replace(chain.derivation, steps=tuple(steps)))
        return [chain]

    def part_name(self, source: SourceBlock, kind: type) -> tuple[str, str]:
        theorem, dot, part = source.argument.partition(".")
        self.theorem_exists(theorem, source.where)
        if not dot or not part:
            raise source.where.error(f"name the part as theorem.part, got {source.argument!r}")
        try:
            found = self.parts.by_name[theorem].theorem.part(part)
        except KeyError as error:
            raise source.where.error(str(error.args[0])) from None
        if not isinstance(found, kind):
            raise source.where.error(f"part {source.argument} is not a {kind.__name__}")
        return theorem, part

    def theorem_exists(self, name: str, where: Where) -> None:
        if name not in self.theorems:
            raise where.error(
                f"unknown theorem {name!r} (theorems: {', '.join(sorted(self.theorems))})"
            )

    def table(self, source: SourceBlock) -> list[Block]:
        name = source.argument
        if name not in self.tables:
            raise source.where.error(f"unknown table {name!r} (tables: {', '.join(self.tables)})")
        source_code = TABLE_SOURCES.get(name, f'tables["{name}"]')
        table = self.table_view(self.tables[name], source)
        options = source.options
        note = self.pieces(Text(options["note"], source.where)) if "note" in options else None
        header = self.cells(options.get("header", ""), source.where)
        labels = self.cells(options.get("labels", ""), source.where)
        if header and len(header) != len(table.columns):
            raise source.where.error(
                f":header: names {len(header)} of {len(table.columns)} columns"
            )
        if labels and len(labels) != len(table.rows):
            raise source.where.error(f":labels: names {len(labels)} of {len(table.rows)} rows")
        return [TableBlock(table, self.prose(source), note, source_code, header, labels)]

    def table_view(self, table: Table, source: SourceBlock) -> Table:
        """The columns :columns: names (all by default), in :formats: (the table's own)."""
        names = [c.strip() for c in source.options.get("columns", "").split(",") if c.strip()]
        unknown = [n for n in names if n not in table.columns]
        if unknown:
            known = ", ".join(table.columns)
            raise source.where.error(
                f"table {source.argument!r} has no column {unknown[0]!r} ({known})"
            )
        keep = [table.columns.index(n) for n in names] or list(range(len(table.columns)))
        formats = [f.strip() for f in source.options.get("formats", "").split(",")]
        own = table.formats or ("",) * len(table.columns)
        if formats == [""]:
            formats = [own[j] for j in keep]
        elif len(formats) != len(keep):
            raise source.where.error(
                f":formats: gives {len(formats)} formats for {len(keep)} columns"
            )
        return replace(
            table,
            columns=tuple(table.columns[j] for j in keep),
            rows=tuple(tuple(row[j] for j in keep) for row in table.rows),
            formats=tuple(formats),
        )

    def cells(self, text: str, where: Where) -> tuple[tuple[Piece, ...], ...]:
        """A '|'-separated row of cells in prose and math."""
        if not text.strip():
            return ()
        return tuple(self.pieces(Text(cell.strip(), where)) for cell in text.split(" | "))

    def twin(self, source: SourceBlock) -> list[Block]:
        self.theorem_exists(source.argument, source.where)
        return list(self.parts.twin(source.argument, self.prose(source)))

    def figure(self, source: SourceBlock) -> list[Block]:
        stem = source.argument
        if stem not in FIGURES:
            raise source.where.error(f"unknown figure {stem!r} (figures: {', '.join(FIGURES)})")
        width = float(source.options.get("width", "0.62"))
        return [Figure(stem, self.numbers.figures[stem], f"fig:{stem}", self.prose(source), width)]

    def witnesses(self, source: SourceBlock) -> list[Block]:
        theorem, *names = source.argument.split()
        self.theorem_exists(theorem, source.where)
        let = source.options.get("let")
        if not let:
            raise source.where.error("a {witnesses} directive needs :let: x = …")
        equation = self.formula(Text(let, source.where))
        if not isinstance(equation, sp.Eq):
            raise source.where.error(":let: takes an equation, x = …")
        facts: list[Part] = []
        for name in names:
            try:
                facts.append(self.parts.part(theorem, name))
            except KeyError as error:
                raise source.where.error(str(error.args[0])) from None
        return [Equations(tuple(bound_equation(f, equation.lhs, equation.rhs) for f in facts))]

    def solution(self, source: SourceBlock) -> list[Block]:
        topic = self.topic
        blocks = self.blocks(source.children)
        return [Solution(source.argument or "Solution", topic, tuple(blocks))]

    def notebook(self, source: SourceBlock) -> list[Block]:
        return [NotebookOnly(tuple(self.blocks(source.children)))]

    def code(self, source: SourceBlock) -> list[Block]:
        return [Code(_code_text(source))]

    def listing(self, source: SourceBlock) -> list[Block]:
        """{listing} name: the module's code as written, and what it prints, computed
        (proofs.render.lesson_listings); :intro: the sentence that leads to it."""
        if source.argument not in OUTPUTS:
            known = ", ".join(OUTPUTS)
            raise source.where.error(f"unknown listing {source.argument!r} (listings: {known})")
        intro = source.options.get("intro", "")
        lead = self.pieces(Text(intro, source.where)) if intro else ()
        return [Listing(_code_text(source).strip("\n"), OUTPUTS[source.argument](), lead)]

    def exercise(self, source: SourceBlock) -> list[Block]:
        """{exercise}: the cell the student completes, then ---answer--- and the author's
        version, then ---check--- and the cell that checks it (notebook only)."""
        text = _code_text(source)
        parts = text.split("\n# ---answer---\n")
        if len(parts) != 2 or "\n# ---check---\n" not in parts[1]:
            raise source.where.error(
                "an {exercise} holds the student's cell, '# ---answer---', the author's, "
                "'# ---check---' and the check"
            )
        answer, check = parts[1].split("\n# ---check---\n")
        return [Exercise(parts[0].strip(), answer.strip(), check.strip())]

    def checks(self, source: SourceBlock) -> list[Block]:
        from proofs.render.lesson_appendix import appendix_blocks

        # The module's own theorems: a run of the other module's is not this lesson's claim.
        own = [run for run in self.runs if module_of(run.name) == self.options.module]
        return appendix_blocks(own, self.numbers.theorems)


DIRECTIVES: dict[str, Callable[[_Resolver, SourceBlock], list[Block]]] = {
    "only": _Resolver.only,
    "theorem": _Resolver.theorem,
    "proof": _Resolver.proof,
    "chain": _Resolver.chain,
    "table": _Resolver.table,
    "twin": _Resolver.twin,
    "figure": _Resolver.figure,
    "witnesses": _Resolver.witnesses,
    "checks": _Resolver.checks,
    "solution": _Resolver.solution,
    "code": _Resolver.code,
    "listing": _Resolver.listing,
    "notebook": _Resolver.notebook,
    "exercise": _Resolver.exercise,
}


def _code_text(source: SourceBlock) -> str:
    """A code directive's body, as written (code is shown, never run by the reader)."""
    return source.code


_CALL = re.compile(r"\b[A-Za-z][A-Za-z_0-9]*\([^()\n]{1,24}\)")


def tie_calls(text: str) -> str:
    """text with the spaces inside a short call, such as PE(pos + k), made non-breaking: no
    format breaks a line inside it.

    >>> tie_calls("maps PE(pos) to PE(pos + k), the same")
    'maps PE(pos) to PE(pos\xa0+\xa0k), the same'
    """
    return _CALL.sub(lambda m: m.group(0).replace(" ", "\u00a0"), text)


def _values(tables: Mapping[str, Table]) -> dict[str, str]:
    """Numbers the prose reads off the tables: {value}`name`."""
    out = {}
    if "exercise_3" in tables:
        out["exercise_3_turns"] = ", ".join(
            f"{row[5]} for dim {row[0]}" for row in tables["exercise_3"].rows
        )
    return out
