"""Every structured whole-vector part rests on a lemma that its theorem proves as a part of its own."""

import pytest

from proofs import registry
from proofs.engine.facts import Blockwise


@pytest.mark.parametrize("name", registry.names())
def test_each_blockwise_lemma_is_a_part_of_the_same_theorem(name):
    theorem = registry.build(name, d_model=8)
    for part in theorem.parts:
        if isinstance(part, Blockwise) and part.lemma is not None:
            assert any(part.lemma is other for other in theorem.parts), part.title


def test_the_theorems_with_whole_vector_parts_prove_them_by_structure():
    with_blocks = {
        name
        for name in registry.names()
        if any(isinstance(p, Blockwise) for p in registry.build(name, d_model=8).parts)
    }
    assert with_blocks == {
        "rotation",
        "bounded",
        "dot_product",
        "group",
        "layouts",
        "rope",
        "rope_layouts",
        "rope_group",
        "rope_scaling",
    }
