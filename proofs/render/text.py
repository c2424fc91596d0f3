"""Terminal printer: a theorem as a student reads it top to bottom, within the terminal's width.

Two sizes. render_summary: a theorem in a few lines (its statement, verdict, numeric twin and
time), what the whole run prints. render_theorem: the statement, each part's chain in typeset
math (proofs.render.terminal_math), one line per step naming its rule, and each part's verdict
in a reader's words (proofs.render.text_verdicts); the per-link check details and the engine's
own reasons come with verbose. proofs.render.text_style says whether to use Unicode, color, how
wide the terminal is and how much detail to show.
"""

from __future__ import annotations

from proofs.engine.derivation import Derivation, LinkResult, Step, Verdict
from proofs.engine.facts import LinearSystem, Part
from proofs.engine.pointwise import MAX_BITS, START_BITS
from proofs.engine.theorem import TheoremRun
from proofs.render.evidence import evidence, heading
from proofs.render.steps import step_text
from proofs.render.tables import aligned_columns
from proofs.render.terminal_math import block
from proofs.render.text_style import COLOR, Style, shown
from proofs.render.text_verdicts import verdict_words

# ---- theorems ---------------------------------------------------------------------------------


def link_details(link: LinkResult, style: Style) -> list[str]:
    """The two checks of one link in words: the rule, the points, the digits, the largest
    relative difference (and a counterexample if there is one)."""
    s, n = link.symbolic, link.numeric
    symbolic = f"symbolic: closed by {s.rule}" if s.passed else style.text(s.summary())
    if n.passed:
        numeric = (
            f"numeric: {n.points} points, arb balls of {START_BITS} to {MAX_BITS} bits, "
            f"|difference| ≤ {n.max_relative:.1e} relative"
        )
    else:
        numeric = style.text(n.summary())
    out = style.wrap(symbolic, indent=8, hang=2) + style.wrap(numeric, indent=8, hang=2)
    if n.counterexample:
        out += style.wrap(f"counterexample {n.counterexample.describe()}", indent=8, hang=2)
    return [style.paint(line, "2") for line in out]


def _justification(step: Step) -> str:
    """The step's rule and note, the note left out when the rule's words already say it."""
    if step.note and step.cited and step.note in step.cited:
        return step.cited
    return step_text(step)


def _chain(derivation: Derivation, verdict: Verdict, style: Style) -> list[str]:
    out = []
    for j, step in enumerate(derivation.steps):
        out += block(shown(step.expr, derivation.display), "= " if j else "  ", style, indent=4)
        if j == 0:
            continue
        link = verdict.links[j - 1] if j - 1 < len(verdict.links) else None
        if link is None:
            out += style.wrap(_justification(step), indent=6, hang=4)
        else:
            out += style.marked(link.status, _justification(step), indent=6, hang=4)
        if link is not None and (style.verbose or link.status != "proved"):
            out += link_details(link, style)
    return out


def _fact(part: Part, verdict: Verdict, style: Style) -> list[str]:
    shown = evidence(part)
    if shown:
        # A fact that shows its evidence (a map found, a certificate): captions and formulas.
        lines = []
        for caption, content in shown:
            lines += style.wrap(caption, indent=4, hang=2)
            if isinstance(content, Derivation):
                lines += _chain(content, verdict, style)
            else:
                for formula in content if isinstance(content, tuple) else (content,):
                    lines += block(formula, "  ", style)
        return lines
    if isinstance(part, LinearSystem):
        lines = []
        for eq in part.equations:
            lines += block(eq, "  ", style, tail=" = 0")
        return lines
    return []


def render_part(part: Part, verdict: Verdict, number: int, style: Style | None = None) -> str:
    """One part: its title, its chain or fact, and its verdict."""
    style = style or Style()
    out = style.wrap(f"[{number}] {heading(part)}", hang=4)
    out[0] = style.paint(out[0], "1")
    out += (
        _chain(part, verdict, style)
        if isinstance(part, Derivation)
        else _fact(part, verdict, style)
    )
    words = verdict_words(part, verdict)
    out += style.marked(verdict.status, words, indent=4)
    if style.verbose and words != str(verdict):
        out += [style.paint(line, "2") for line in style.wrap(f"engine: {verdict.reason}", 8, 2)]
    if verdict.counterexample and not isinstance(part, Derivation):
        out += style.wrap(f"counterexample {verdict.counterexample.describe()}", indent=4, hang=2)
    return "\n".join(out)


def plural(count: int, noun: str) -> str:
    """'1 part', '3 parts'."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def render_theorem(result: TheoremRun, style: Style | None = None) -> str:
    """A whole theorem: heading, statement, parts, remarks and the one-line verdict."""
    style = style or Style()
    th = result.theorem
    rule = "━━" if style.unicode else "=="
    heading = style.wrap(f"{rule} {th.name}: {th.title}", hang=3)
    out = [style.paint(line, "1") for line in heading]
    out += style.wrap(th.statement)
    out.append("")
    for n, pr in enumerate(result.parts, 1):
        out.append(render_part(pr.part, pr.verdict, n, style))
        out.append("")
    for remark in th.remarks:
        out += style.wrap(f"Note: {remark}", hang=6)
    out.append(theorem_verdict(result, style))
    return "\n".join(out)


def render_summary(result: TheoremRun, style: Style | None = None) -> str:
    """A theorem in a few lines: its verdict's mark, its name and its statement; the closing
    table gives each one's parts, links, numeric twin and time.

    A part that is not proved is named with its reason, and a twin that failed with its
    headline, so a failure shows without the chains.
    """
    style = style or Style()
    th = result.theorem
    twin_failed = result.table is not None and result.table.passed is False
    status = "refuted" if twin_failed and result.status == "proved" else result.status
    out = style.marked(status, f"{th.name}: {th.statement}", hang=2)
    out[0] = out[0].replace(f"{th.name}:", style.paint(f"{th.name}:", "1"), 1)
    for n, pr in enumerate(result.parts, 1):
        if not pr.verdict.proved:
            out += style.wrap(f"[{n}] {pr.part.name}: {pr.part.title}", indent=2, hang=4)
            out += style.marked(pr.verdict.status, str(pr.verdict), indent=4)
    if twin_failed:
        out += style.marked("refuted", f"numeric twin FAILED: {result.table.headline}", indent=2)
    if result.coq is not None:
        out += style.wrap(result.coq.summary(), indent=2)
    return "\n".join(out)


def theorem_verdict(result: TheoremRun, style: Style) -> str:
    """One line: the theorem's mark, name, status and how many parts were proved."""
    statuses = [p.verdict.status for p in result.parts]
    counts = f"{statuses.count('proved')} of {plural(len(statuses), 'part')} proved"
    for other in ("refuted", "undecided"):
        if statuses.count(other):
            counts += f", {statuses.count(other)} {other}"
    word = style.paint(result.status.upper(), COLOR[result.status])
    return f"{style.mark(result.status)} {result.theorem.name}: {word} ({counts})"


def summary_table(runs: list[TheoremRun], wall_seconds: float, style: Style) -> str:
    """The closing table: per theorem its parts, links, verdict, numeric twin and time; then
    the totals, whose time is the run's wall-clock time (the theorems ran in parallel)."""
    header = ("theorem", "parts", "links", "verdict", "numeric twin", "time")
    twin_word = {True: "passed", False: "FAILED", None: "not run"}
    body = [
        (
            r.name,
            str(len(r.parts)),
            str(r.links),
            r.status,
            twin_word[r.twin_passed],
            f"{r.seconds:.1f} s",
        )
        for r in runs
    ]
    proved = sum(r.status == "proved" for r in runs)
    twins = [r.twin_passed for r in runs if r.twin_passed is not None]
    total = (
        "total",
        str(sum(len(r.parts) for r in runs)),
        str(sum(r.links for r in runs)),
        f"{proved} of {len(runs)} proved",
        f"{sum(twins)} of {len(twins)} passed" if twins else "not run",
        f"{wall_seconds:.1f} s",
    )
    lines, _ = aligned_columns([header, *body, total], {1, 2, 5})
    rule = ("─" if style.unicode else "-") * len(lines[0])
    out = [style.paint(lines[0], "1"), rule]
    for text, r in zip(lines[1:-1], runs, strict=True):
        # Color only the verdict word, after the padding is measured.
        out.append(text.replace(f"  {r.status}", f"  {style.paint(r.status, COLOR[r.status])}", 1))
    out += [rule, lines[-1]]
    everything = proved == len(runs) and all(twins)
    closing = (
        f"{plural(len(runs), 'theorem')}: every one proved"
        + (", every numeric twin passed" if twins and all(twins) else "")
        if everything
        else f"{plural(len(runs), 'theorem')}: not every one was proved"
        + ("" if all(twins) else ", or a numeric twin failed")
    )
    out.append(f"{style.mark('proved' if everything else 'refuted')} {closing}")
    return "\n".join(out)
