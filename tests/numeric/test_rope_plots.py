"""The RoPE figures draw, and the curves they draw are the maps' values."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from numeric.plots.rope_decay import decay_figure
from numeric.plots.rope_scaling import scaling_figure, scaling_ratios


def test_scaling_ratios_end_where_each_method_says():
    ratios = dict(scaling_ratios())
    assert len(ratios) == 7
    for label, ratio in ratios.items():
        assert ratio.shape == (64,)
        if label.startswith("linear"):
            np.testing.assert_allclose(ratio, 1 / 8)
        elif not label.startswith("dynamic"):
            assert ratio[0] == pytest.approx(1) and ratio[-1] == pytest.approx(1 / 8)


def test_figures_are_written(tmp_path):
    for draw, name in ((scaling_figure, "scaling.png"), (decay_figure, "decay.png")):
        path = tmp_path / name
        draw(path) if name == "scaling.png" else draw(path, max_distance=3000)
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
