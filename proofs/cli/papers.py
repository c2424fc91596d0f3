"""`pe-proofs papers [--json] [--only MODULE]`: the ledger of the field's numeric claims.

Each entry is printed as a reader reads it: the paper, where (section, equation, table), the
claim in the paper's terms, the reading assumed, the verdict (holds, fails, undecided) and the
certified witness. --json prints the list of entry objects. Exit status 0 when the ledger ran:
a claim that fails is a finding, not an error.
"""

from __future__ import annotations

import argparse
import json
import textwrap

NAME = "papers"
HELP = "check the papers' numeric claims (Vaswani, T5, Liu, YaRN, gpt-oss, Men et al.), certified"
EXAMPLE = "pe-proofs papers --only t5"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the entries as a JSON list")
    parser.add_argument(
        "--only",
        metavar="MODULE",
        help="one claim module (e.g. vaswani2017, t5, liu2023, yarn2023, gptoss2025, men2024)",
    )


def run(args: argparse.Namespace) -> int:
    from proofs.cli.terminal import terminal_width, wants_unicode
    from proofs.cli.usage import UsageError
    from proofs.render.json_text import dumps
    from proofs.render.text_style import ascii_text
    from proofs.theorems.papers import claim_modules, ledger

    if args.only is not None and args.only not in claim_modules():
        raise UsageError(
            f"--only must name a claim module, got {args.only!r} "
            f"(modules: {', '.join(claim_modules())})"
        )
    entries = ledger(args.only)
    if args.json:
        # \u escapes keep the JSON valid and readable on any terminal.
        print(dumps([e.as_json() for e in entries], ensure_ascii=True))
        return 0
    unicode, width = wants_unicode(), terminal_width()

    def say(text: str, hang: int = 11) -> None:
        # A terminal that cannot show § or ′ gets their ASCII spelling, then ascii_text's.
        text = text if unicode else ascii_text(text.replace("§", "Sec. ").replace("′", "'"))
        # Wrapped to the terminal, each field's continuation lines under its value.
        lines = textwrap.wrap(
            text,
            width=width,
            subsequent_indent=" " * hang,
            break_long_words=False,
            break_on_hyphens=False,
        )
        print("\n".join(lines or [text]))

    for number, entry in enumerate(entries):
        if number:
            print()
        say(f"{entry.id}: {entry.verdict.upper()}")
        say(f"  paper:   {entry.paper}")
        say(f"  where:   {entry.where}")
        say(f"  claim:   {entry.claim}")
        if entry.reading is not None:
            say(f"  reading: {entry.reading}")
        for key, value in entry.witness.items():
            shown = value if isinstance(value, str | int) else json.dumps(value, ensure_ascii=False)
            say(f"  {key}: {shown}", hang=4)
    return 0
