"""The Coq development: _CoqProject, the hand-written files, one generated module per theorem,
the no-tautology check, and the list of what has no Coq theorem.

`coq_makefile -f _CoqProject -o Makefile && make` compiles it. NoTautology.v restates every
generated lemma and theorem and checks that `reflexivity` alone proves none of them (`Fail`):
no step is X = X. NO_PROOF_FOUND.md lists every link, part and fact without a Coq theorem,
with the reason, and the parts stated for one d_model with their every-size Headline theorems.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from proofs.engine.coq.module import (
    COQ_DIR,
    HEADER,
    Entry,
    Module,
    theorem_module,
    uses_flocq,
    with_flocq,
)
from proofs.engine.coq.statement import comment
from proofs.engine.facts import Blockwise
from proofs.engine.theorem import Theorem

# The hand-written files, in an order in which each compiles after what it requires: Headline
# requires PiIrrational (Niven's proof that PI is irrational), Helpers requires Headline,
# UniqueBounded requires Headline and the Interval library.
HANDWRITTEN = ("PiIrrational.v", "Headline.v", "Helpers.v", "UniqueBounded.v")
# Compiled one after another, before everything else (the rest require them).
FOUNDATION = ("PiIrrational.v", "Headline.v", "Helpers.v")
NO_TAUTOLOGY = "NoTautology.v"
LOGICAL_ROOT = "PeProofs"
REPORT = "NO_PROOF_FOUND.md"

# The hand-written theorems that state each theorem for every d_model (Headline.v and
# UniqueBounded.v); a theorem not listed has none.
HEADLINE_THEOREMS: dict[str, tuple[tuple[str, str], ...]] = {
    "frequencies": (
        ("Headline.v", "omega_succ"),
        ("Headline.v", "omega_decreasing"),
        ("Headline.v", "pe_period"),
    ),
    "rotation": (
        ("Headline.v", "rotation_pair"),
        ("Headline.v", "rotation_vector"),
        ("Headline.v", "shift_block_diagonal"),
    ),
    "ramp": (("Headline.v", "ramp_no_linear_shift"), ("Headline.v", "ramp_affine_shift")),
    "similarity": (("Headline.v", "pe_dot"), ("Headline.v", "ramp_similarity_depends_on_p")),
    "bounded": (("Headline.v", "pe_bounded"), ("Headline.v", "pe_norm")),
    "unique": (
        ("Headline.v", "pe_unique_int"),
        ("Headline.v", "pi_irrational"),
        ("Headline.v", "pe_unique"),
        ("UniqueBounded.v", "pe_unique_bounded"),
    ),
    "dot_product": (("Headline.v", "pe_dot"), ("Headline.v", "pe_dot_even")),
    "shift_maps": (
        ("Headline.v", "rotation_vector"),
        ("Headline.v", "ramp_no_linear_shift"),
        ("Headline.v", "ramp_affine_shift"),
        ("Headline.v", "raw_index_no_linear_shift"),
        ("Headline.v", "lone_sine_no_linear_shift"),
        ("Headline.v", "linear_feature_no_linear_shift"),
        ("Headline.v", "shift_block_diagonal"),
    ),
    "group": (
        ("Headline.v", "rotation_compose"),
        ("Headline.v", "rotation_inverse"),
        ("Headline.v", "rotation_preserves_dot"),
        ("Headline.v", "rotation_preserves_norm"),
        ("Headline.v", "shift_compose"),
        ("Headline.v", "shift_inverse"),
        ("Headline.v", "shift_orthogonal"),
    ),
    "layouts": (
        ("Headline.v", "concat_perm"),
        ("Headline.v", "pe_concat_perm"),
        ("Headline.v", "shift_concat_blocks"),
        ("Headline.v", "pe_concat_shift"),
    ),
    "rope": (
        ("Headline.v", "rope_relative"),
        ("Headline.v", "rope_vector"),
        ("Headline.v", "rope_relative_any_freq"),
    ),
    # RoPE with any per-pair frequencies (rope, rope_half): every scaling method is covered.
    "rope_layouts": (
        ("Headline.v", "rope_relative_any_freq"),
        ("Headline.v", "rope_half_relative_any_freq"),
        ("Headline.v", "rope_layout_conversion"),
    ),
    "rope_group": (
        ("Headline.v", "rope_compose_any_freq"),
        ("Headline.v", "rope_half_compose_any_freq"),
    ),
    "rope_scaling": (("Headline.v", "rope_relative_any_freq"),),
    "rope_decay": (("Headline.v", "rope_decay_bound"),),
    "rope_precision": (("Headline.v", "fp_integers_exact"), ("Headline.v", "bf16_257")),
}

# The parts stated for one d_model (Blockwise: a whole vector, head or map written component
# by component) -> the hand-written Headline theorems that state the same for every number of
# pairs; a Blockwise part not listed has none yet.
EVERY_SIZE: dict[tuple[str, str], tuple[str, ...]] = {
    ("bounded", "norm_concrete"): ("pe_norm",),
    ("rotation", "vector_shift"): ("rotation_vector", "shift_block_diagonal"),
    ("dot_product", "dot_concrete"): ("pe_dot",),
    ("dot_product", "even_concrete"): ("pe_dot_even",),
    ("group", "compose_concrete"): ("shift_compose",),
    ("group", "orthogonal_concrete"): ("shift_orthogonal",),
    ("group", "inverse_concrete"): ("shift_inverse",),
    ("layouts", "permutation_orthogonal"): ("concat_perm",),
    ("layouts", "concatenated_is_permuted"): ("pe_concat_perm",),
    ("layouts", "concatenated_shift_map"): ("shift_concat_blocks",),
    ("layouts", "concatenated_shift"): ("pe_concat_shift",),
    ("rope", "vector_relative"): ("rope_vector", "rope_relative_any_freq"),
    ("rope_layouts", "head_relative_interleaved"): ("rope_relative_any_freq",),
    ("rope_layouts", "head_relative_rotate_half"): ("rope_half_relative_any_freq",),
    ("rope_layouts", "rotate_half_of_permuted"): ("rope_layout_conversion",),
    ("rope_layouts", "converted_scores_equal"): (
        "rope_layout_conversion",
        "rope_relative_any_freq",
    ),
    ("rope_group", "head_compose_interleaved"): ("rope_compose_any_freq",),
    ("rope_group", "head_compose_rotate_half"): ("rope_half_compose_any_freq",),
    ("rope_group", "head_cache_shift_interleaved"): ("rope_compose_any_freq",),
    ("rope_group", "head_cache_shift_rotate_half"): ("rope_half_compose_any_freq",),
}

# Hypotheses a hand-written theorem states explicitly, never as axioms, in words. pe_unique keeps
# π's irrationality as a hypothesis for compatibility; pe_unique_int discharges it with
# pi_irrational.
HYPOTHESES: dict[str, str] = {"pe_unique": "if π is irrational"}


@dataclass(frozen=True)
class Development:
    """The generated modules (one per theorem) beside the hand-written files."""

    modules: tuple[Module, ...]

    @property
    def order(self) -> tuple[str, ...]:
        """Every .v file, in an order in which each compiles after what it requires."""
        return (*HANDWRITTEN, *(f"{m.name}.v" for m in self.modules), NO_TAUTOLOGY)

    def missing(self) -> list[Entry]:
        """Every link, part and fact without a Coq theorem, in theorem and part order."""
        return [e for m in self.modules for e in m.entries if not e.lemma]

    def files(self) -> dict[str, str]:
        """File name -> text of the whole development."""
        out = {"_CoqProject": f"-R . {LOGICAL_ROOT}\n" + "".join(f"{n}\n" for n in self.order)}
        for name in HANDWRITTEN:
            out[name] = (COQ_DIR / name).read_text(encoding="utf-8")
        for module in self.modules:
            out[f"{module.name}.v"] = module.text()
        out[NO_TAUTOLOGY] = self.no_tautology()
        out[REPORT] = self.report()
        return out

    def no_tautology(self) -> str:
        """NoTautology.v: for every generated statement, `reflexivity` alone does not prove it."""
        lines = [
            comment(
                "Generated by pe-proofs. Every lemma and theorem the generated modules state, "
                "restated: `reflexivity` alone (after intros) proves none of them, so none is "
                "X = X. Fail makes this file fail to compile if one ever is."
            ),
            "",
            with_flocq(HEADER)
            if any(uses_flocq(s) for m in self.modules for _, s in m.statements)
            else HEADER,
            "",
        ]
        for module in self.modules:
            for name, statement in module.statements:
                lines += [
                    f"(* {module.name}.{name} *)",
                    f"Goal {statement}.",
                    "Proof. intros. Fail reflexivity. Abort.",
                    "",
                ]
        return "\n".join(lines)

    def report(self) -> str:
        """NO_PROOF_FOUND.md: what has no Coq theorem, and why."""
        lines = [
            "# Links, parts and facts without a Coq theorem",
            "",
            "Generated by `pe-proofs coq`. Every part of every theorem is one Coq theorem named "
            "after it (a chain composed from its link lemmas by transitivity, or a fact), or is "
            'listed here with the reason. Each reason is "no proof found": everything the '
            "theorems state can be stated in Coq's real numbers; what is missing is a proof "
            "script, or a statement that would say nothing (a tautology).",
            "",
        ]
        for module in self.modules:
            missing = [e for e in module.entries if not e.lemma]
            if not missing:
                continue
            lines += [f"## {module.theorem.name} ({module.name}.v)", ""]
            if headline := HEADLINE_THEOREMS.get(module.theorem.name):
                names = ", ".join(
                    f"{name} ({file}{', ' + HYPOTHESES[name] if name in HYPOTHESES else ''})"
                    for file, name in headline
                )
                lines += [f"Hand-written theorems for every d_model: {names}.", ""]
            lines += [f"- {e.where}, {e.title}: {e.reason}" for e in missing]
            lines.append("")
        return "\n".join(lines + self._one_size())

    def _one_size(self) -> list[str]:
        """The report's list of the parts stated for one d_model only, and why."""
        lines = [
            "# Parts stated for one d_model",
            "",
            "Each is a Coq theorem at the run's d_model (`--d-model`, 8 by default): the "
            "generated statement writes the whole vector, head or map component by component, "
            "and its proof goes through the components one by one, so it holds at that size only. "
            "The same statement for every number of pairs is the hand-written theorem named "
            "(Headline.v), proved for every size; where none is named, there is none "
            "yet (no proof found).",
            "",
        ]
        for module in self.modules:
            name = module.theorem.name
            for number, part in enumerate(module.theorem.parts, start=1):
                if not isinstance(part, Blockwise):
                    continue
                general = EVERY_SIZE.get((name, part.name))
                said = (
                    f"for every number of pairs: {', '.join(general)} (Headline.v)"
                    if general
                    else "no proof found for every number of pairs"
                )
                lines.append(f"- {name} part {number} ({part.name}), {part.title}: {said}")
        return [*lines, ""]


def build_development(theorems: Sequence[Theorem]) -> Development:
    """The development for theorems, one generated module each."""
    return Development(tuple(theorem_module(t) for t in theorems))
