"""JSON printer: one object per theorem, every step with its expression and both checks
(rule, points, digits, largest difference), whatever the terminal printer shows."""

from __future__ import annotations

from typing import Any

import sympy as sp

from proofs.engine.derivation import Derivation, LinkResult
from proofs.engine.facts import Refutation
from proofs.engine.pointwise import MAX_BITS, START_BITS
from proofs.engine.theorem import TheoremRun


def _check(link: LinkResult | None) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    if link is None:
        return None, None
    s, n = link.symbolic, link.numeric
    symbolic = {
        "passed": s.passed,
        "cited": s.cited,
        "closed_by": s.closed_by,
        "defect": s.defect or None,
        "residue": None if s.residue is None else sp.sstr(s.residue),
    }
    numeric = {
        "passed": n.passed,
        "points": n.points,
        "bits": [START_BITS, MAX_BITS],
        "max_relative_difference": n.max_relative,
        "counterexample": None if n.counterexample is None else n.counterexample.describe(),
    }
    return symbolic, numeric


def _refutation(part: Refutation) -> dict[str, Any]:
    """A refutation's claim and its certified counterexample: point, and lhs − rhs enclosed."""
    found = part.witness().enclosure
    return {
        "claim": sp.sstr(part.claim),
        "over": [s.name for s in part.over],
        "at": {s.name: sp.sstr(v) for s, v in part.at},
        "difference": None if found is None else [sp.sstr(found.low), sp.sstr(found.high)],
    }


def theorem_json(result: TheoremRun, twin: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON object of one checked theorem; twin is its numeric table as a dict, if run."""
    th = result.theorem
    steps = []
    parts = []
    for pr in result.parts:
        part, verdict = pr.part, pr.verdict
        parts.append(
            {
                "name": part.name,
                "title": part.title,
                "kind": type(part).__name__,
                "status": verdict.status,
                "reason": verdict.reason,
                "links": len(verdict.links),
            }
        )
        if isinstance(part, Refutation):
            parts[-1]["refutes"] = _refutation(part)
        if isinstance(part, Derivation):
            for j, step in enumerate(part.steps):
                link = verdict.links[j - 1] if j and j - 1 < len(verdict.links) else None
                symbolic, numeric = _check(link)
                steps.append(
                    {
                        "part": part.name,
                        "expr": sp.sstr(step.expr),
                        "cited": step.cited,
                        "note": step.note,
                        "closed_by": None if link is None else link.closed_by,
                        "symbolic": symbolic,
                        "numeric": numeric,
                    }
                )
    return {
        "name": th.name,
        "title": th.title,
        "statement": th.statement,
        "status": result.status,
        "links": sum(len(pr.verdict.links) for pr in result.parts),
        "parts": parts,
        "steps": steps,
        "numeric_twin": {"function": th.twin, "table": twin},
    }
