"""README's excerpt of a proof run is what the run prints."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_readme_excerpt_is_what_prove_ramp_prints(capsys):
    from proofs.cli.main import main

    excerpt = re.search(r"```text\n(.*?)```", README, flags=re.S)[1].splitlines()
    assert main(["prove", "ramp"]) == 0
    printed = capsys.readouterr().out.splitlines()
    shown = [line for line in excerpt if line != "..."]
    assert all(line in printed for line in shown), [l for l in shown if l not in printed]
