"""`pe-proofs audit CACHE --config` with the RoPE parameters issue 34 (item 8) found crashing
the library: each exited 70 ("internal error"); each is now exit 2 with one line naming the
parameter, its value and its range."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from proofs.cli.main import main

CACHE = Path(__file__).resolve().parents[1] / "data" / "real_rope" / "llama_yarn.safetensors"


def _yarn(**extra) -> dict:
    return {
        "head_dim": 64,
        "max_position_embeddings": 16384,
        "rope_scaling": {"rope_type": "yarn", "factor": 4.0, **extra},
    }


CASES = [
    (_yarn(beta_fast=1e-320), "rope_scaling.beta_fast must be a finite number in [2**-20, 2**20]"),
    (_yarn(beta_slow=1e-320), "rope_scaling.beta_slow must be a finite number in [2**-20, 2**20]"),
    (
        _yarn(factor=math.e, mscale=1.0, mscale_all_dim=-10),
        "rope_scaling.mscale_all_dim must be a finite number in [0, 2**20], got -10",
    ),
    (
        {
            "head_dim": 64,
            "max_position_embeddings": 64,
            "rope_scaling": {
                "rope_type": "longrope",
                "original_max_position_embeddings": 1,
                "short_factor": [1.0] * 32,
                "long_factor": [1.0] * 32,
            },
        },
        "original_max_position_embeddings must be an integer in [2, 2**53], got 1",
    ),
    (
        {
            "head_dim": 64,
            "max_position_embeddings": 4096,
            "rope_scaling": {"rope_type": "longrope", "short_factor": [1.0] * 200_000},
        },
        "got [1.0, 1.0, 1.0, ...] (200000 entries)",
    ),
]


@pytest.mark.parametrize(("config", "message"), CASES)
def test_out_of_range_parameters_are_bad_input(tmp_path, capsys, config, message):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    status = main(["audit", str(CACHE), "--config", str(path)])
    _out, err = capsys.readouterr()
    assert status == 2
    assert message in err and len(err.strip().splitlines()) == 1 and len(err) < 300
