"""pe-proofs audit --rope on an M-RoPE cache: a config's bad mrope_section is one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from proofs.cli.main import main

CACHE = Path(__file__).parent.parent / "data" / "real_rope_nd" / "qwen2vl_mrope.safetensors"


def test_a_bad_mrope_section_exits_2_in_one_line(tmp_path: Path, capsys) -> None:
    rope = {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [16, 24]}
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"head_dim": 128, "rope_theta": 1e6, "rope_parameters": rope}))
    assert main(["audit", "--rope", str(CACHE), "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "mrope_section must be three" in err


def test_the_qwen2vl_cache_is_sound_and_named_mrope(capsys) -> None:
    assert main(["audit", "--rope", str(CACHE)]) == 0
    assert "M-RoPE (Qwen2-VL style): mrope_section [16, 24, 24], chunked" in " ".join(
        capsys.readouterr().out.split()
    )
