"""Every count README quotes about the whole run comes from a run."""

from __future__ import annotations

import re
from pathlib import Path

from proofs.render.text import link_count

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_readme_counts_match_a_real_run(checked_notes):
    quoted = re.search(
        r"\((\d+) theorems, (\d+) parts, (\d+) checked links, (\d+) numeric twins\)", README
    )
    assert quoted, "README no longer quotes the run's counts"
    theorems, parts, links, twins = map(int, quoted.groups())
    assert theorems == len(checked_notes)
    assert parts == sum(len(c.result.parts) for c in checked_notes)
    assert links == sum(link_count(c.result) for c in checked_notes)
    assert twins == sum(c.table is not None for c in checked_notes)


def test_readme_excerpt_is_what_prove_ramp_prints(capsys):
    from proofs.cli.main import main

    excerpt = re.search(r"```text\n(.*?)```", README, flags=re.S)[1].splitlines()
    assert main(["prove", "ramp"]) == 0
    printed = capsys.readouterr().out.splitlines()
    shown = [line for line in excerpt if line != "..."]
    assert all(line in printed for line in shown), [l for l in shown if l not in printed]
