"""The layouts theorem: permutation, schedules, odd d_model; wrong variants; its numeric twin."""

import numpy as np
import pytest
import sympy as sp

from numeric.checks.layouts import layout_table, odd_tables, permutation_matrix
from numeric.tables import sinusoidal_pe
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import LinearSystem
from proofs.theorems.sinusoidal import layouts
from proofs.theorems.sinusoidal.definitions import POS, dense_shift_matrix, pe_vector


@pytest.mark.parametrize("d_model", [2, 4, 10])
def test_permutation_comes_from_the_index_map_and_is_a_bijection(d_model):
    targets = sorted(layouts.concatenated_index(j, d_model) for j in range(d_model))
    assert targets == list(range(d_model))
    p = layouts.permutation_matrix(d_model)
    assert all(sum(p.row(r)) == 1 and sum(p.col(r)) == 1 for r in range(d_model))


@pytest.mark.parametrize("d_model", [4, 4096])
def test_layout_parts_are_proved(d_model):
    for part in (
        layouts.permutation_fact(d_model),
        layouts.layout_fact(d_model),
        layouts.block_form_fact(d_model),
        layouts.concatenated_shift_fact(d_model),
    ):
        assert part.verify().status == "proved", part.title


def test_the_structured_layout_is_the_dense_one():
    p = layouts.permutation(6)
    assert p.dense() == layouts.permutation_matrix(6)
    assert layouts.concatenated_blocks(POS, 6).dense() == layouts.concatenated_vector(POS, 6)
    dense = p.dense() * dense_shift_matrix(layouts.K, 6) * p.dense().T
    assert layouts.concatenated_shift_blocks(layouts.K, 6).dense() == dense


def test_a_wrong_structured_layout_is_refuted():
    # [cos | sin]: pair i with its sine at d/2 + i and its cosine at i.
    swapped = layouts.BlockVector(
        layouts.pe_blocks(POS, 4).pieces, ((2, 0), (3, 1)), 4, layouts.pe_blocks(POS, 4).label
    )
    statement = layouts.BlockEquation(
        layouts.Permuted(layouts.permutation(4), layouts.pe_blocks(POS, 4)), swapped
    )
    assert layouts.Blockwise("claim", "wrong layout", statement).verify().status == "refuted"


def test_a_wrong_layout_is_refuted():
    # [cos | sin] is not what P produces.
    ws = layouts.omegas(4)
    swapped = sp.ImmutableMatrix([sp.cos(POS * w) for w in ws] + [sp.sin(POS * w) for w in ws])
    p = layouts.permutation_matrix(4)
    claim = Derivation(
        "claim", "wrong layout", (Step(sp.MatMul(p, pe_vector(POS, 4))), Step(swapped))
    )
    assert claim.verify().status == "refuted"


def test_schedules_are_instances_with_i_and_d_model_symbolic():
    any_frequency = layouts.any_frequency_derivation()
    assert any_frequency.verify().status == "proved"
    t2t = layouts.tensor2tensor_pair_derivation(any_frequency)
    assert {layouts.I, layouts.D_MODEL} <= t2t.symbols
    assert t2t.verify().status == "proved"
    # The instance cites the any-frequency identity and is closed by it, not proved again.
    (link,) = t2t.verify().links
    assert link.cited == link.closed_by == "lemma any_frequency_shift"


def test_odd_d_model_parts_are_proved():
    d = layouts.ODD_D_MODEL
    for part in (
        layouts.zero_padding_derivation(d),
        layouts.last_row_derivation(d),
        layouts.period_edge_derivation(d),
    ):
        assert part.verify().status == "proved", part.title


def test_unpaired_sine_system_is_inconsistent_with_a_certificate():
    d = layouts.ODD_D_MODEL
    system = LinearSystem(
        "claim",
        "no map",
        layouts.even_derivative_equations(d),
        layouts.row_unknowns(d),
        "inconsistent",
    )
    solution = system.solve()
    assert solution.status == "inconsistent"
    assert (
        solution.certificate is not None and layouts.SIGMA in solution.certificate[1].free_symbols
    )
    assert system.verify().status == "proved"


def test_unpaired_sine_impossibility_needs_sin_k_omega_nonzero():
    # With sin(k·ω_last) = 0 the same equations are solvable, so "inconsistent" must be refuted.
    d = layouts.ODD_D_MODEL
    equations = tuple(e.subs(layouts.SIGMA, 0) for e in layouts.even_derivative_equations(d))
    system = LinearSystem("claim", "edge", equations, layouts.row_unknowns(d), "inconsistent")
    assert system.verify().status == "refuted"


def test_theorem_lists_every_part_and_its_twin():
    th = layouts.build(d_model=4)
    assert th.name == "layouts" and len(th.parts) == 14
    assert th.twin_kwargs == {"d_model": 4, "d_odd": layouts.ODD_D_MODEL}


@pytest.mark.slow
def test_layouts_theorem_is_proved_at_the_default_d_model():
    result = layouts.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_numeric_permutation_matches_the_symbolic_one():
    assert np.array_equal(
        permutation_matrix(6), np.array(layouts.permutation_matrix(6), dtype=float)
    )


def test_numeric_twin_passes():
    table = layout_table()
    assert table.passed is True
    unpaired = [row for row in table.rows if "unpaired" in row[0]]
    assert unpaired and all(row[2] > 0.1 for row in unpaired)


def test_numeric_odd_tables_follow_the_conventions():
    padded, unpaired = odd_tables(50, 7)
    assert padded.shape == unpaired.shape == (50, 7)
    assert np.all(padded[:, -1] == 0)
    pos = np.arange(50.0)
    assert np.allclose(unpaired[:, -1], np.sin(pos * 10000.0 ** (-6 / 7)), atol=1e-14)
    # Same frequencies through two rescaled bases: equal up to the tables' rounding.
    assert np.allclose(padded[:, :-1], unpaired[:, :-1], rtol=0, atol=1e-13)
    assert np.array_equal(
        sinusoidal_pe(50, 8, layout="concatenated")[:, :4], sinusoidal_pe(50, 8)[:, 0::2]
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"d_odd": 8}, "d_odd"), ({"ks": (600,)}, "ks"), ({"d_model": 5}, "d_model")],
)
def test_numeric_twin_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        layout_table(**kwargs)
