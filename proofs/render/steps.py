"""How a step's justification reads: the rule or lemma it cites, then the note for the reader."""

from __future__ import annotations

from proofs.engine.derivation import Step


def step_text(step: Step) -> str:
    """The step's citation and its note: "angle addition: sin(a+b) = …", or either alone."""
    if step.cited and step.note:
        return f"{step.cited}: {step.note}"
    return step.cited or step.note
