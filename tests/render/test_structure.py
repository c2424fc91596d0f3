"""Block-structured statements print by structure, a few blocks and an ellipsis, never entry by entry."""

import pytest

from proofs import registry
from proofs.engine.blocks import BlockEquation, Product
from proofs.render import latex_math, structure, text
from proofs.theorems.rope import bridge as rope
from proofs.theorems.sinusoidal import layouts, rotation
from proofs.theorems.sinusoidal.definitions import POS, K, pe_blocks, shift_blocks


def test_the_shift_map_prints_as_diag_of_rotations():
    assert (
        structure.structure_text(shift_blocks(K, 4096)) == "diag(R(kω_0), R(kω_1), …, R(kω_2047))"
    )
    latex = structure.structure_latex(shift_blocks(K, 4096))
    assert latex.startswith(r"\operatorname{diag}") and r"\omega_{2047}" in latex


def test_small_sizes_list_every_block():
    assert (
        structure.structure_text(pe_blocks(POS + K, 6))
        == "[PE_0(pos + k); PE_1(pos + k); PE_2(pos + k)]"
    )


def test_printing_costs_the_same_at_any_size():
    statement = rotation.vector_fact(65536).statement
    line = structure.structure_text(statement)
    assert len(line) < 200 and "ω_32767" in line


def test_the_text_printer_shows_a_structured_fact_by_blocks_at_any_size():
    sizes = []
    for d_model in (8, 4096):
        result = registry.build("rotation", d_model=d_model).verify()
        part = result.parts[2]
        shown = text.render_part(part.part, part.verdict, 3)
        last = d_model // 2 - 1
        assert f"diag(R(kω_0), R(kω_1), …, R(kω_{last}))·[PE_0(pos); PE_1(pos); …;" in shown
        assert all(len(line) <= 100 for line in shown.splitlines())
        sizes.append(len(shown.splitlines()))
    # The output does not grow with d_model (a longer number may wrap one more line).
    assert abs(sizes[0] - sizes[1]) <= 1


def test_latex_breaks_an_equation_at_its_equals_sign():
    lines = latex_math.math_lines(rope.vector_fact(8).statement)
    assert len(lines) == 2 and lines[1].startswith(r"\quad {} = \left\langle")


def test_blocks_off_the_usual_pairs_say_where_they_sit():
    line = structure.structure_text(layouts.layout_fact(8).statement)
    assert line.endswith("on components (0, 4), (1, 5), …, (3, 7)")


def test_only_structured_objects_are_taken():
    assert structure.is_structured(
        BlockEquation(Product((shift_blocks(K, 2),)), shift_blocks(K, 2))
    )
    assert not structure.is_structured(POS)
    with pytest.raises(TypeError, match="cannot print"):
        structure.structure_text(POS)
