"""`pe-proofs audit` on RoPE caches: when a file is read as one, the report, JSON, --against, the
exit status (0 sound, 1 fault, 2 unreadable), and bad configs as one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from numeric import sinusoidal_pe
from numeric.rope import rope_cache, rope_frequencies
from proofs.cli.main import main

REAL = Path(__file__).resolve().parents[1] / "data" / "real_rope"
LLAMA = {"head_dim": 64, "rope_theta": 10000.0, "max_position_embeddings": 4096}


@pytest.fixture(scope="module")
def caches(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rope")
    f = rope_frequencies(LLAMA)
    cos, sin = rope_cache(f.inv_freq, 1024)
    np.save(folder / "cos.npy", cos)
    np.save(folder / "sin.npy", sin)
    np.savetxt(folder / "cos.csv", cos[:256], delimiter=",", fmt="%.9g")
    np.savetxt(folder / "sin.csv", sin[:256], delimiter=",", fmt="%.9g")
    np.savez(folder / "cache.npz", c=cos, s=sin, where=np.arange(1024))
    c2, s2 = rope_cache(f.inv_freq, 1024, layout="interleaved")
    np.savez(folder / "interleaved.npz", cos=c2, sin=s2)
    c3, s3 = rope_cache(f.inv_freq, 1024, arithmetic="float16", dtype="float16")
    np.savez(folder / "half.npz", cos=c3, sin=s3)
    np.save(folder / "paper.npy", sinusoidal_pe(600, 16, dtype=np.float32))
    (folder / "config.json").write_text(json.dumps(LLAMA))
    (folder / "yarn.json").write_text(
        json.dumps({**LLAMA, "rope_scaling": {"rope_type": "yarn", "factor": 4.0}})
    )
    return folder


def run(capsys, *argv: object) -> tuple[int, str, str]:
    status = main(["audit", *(str(a) for a in argv)])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_file_holding_cos_and_sin_is_read_as_rope(capsys):
    status, out, _ = run(capsys, REAL / "llama_default.safetensors")
    assert status == 0
    assert out.startswith("read: row positions from llama_default.safetensors [positions]")
    assert "audit of a RoPE cache (820, 64): sound" in out
    assert "convention rotate_half (cache cat(freqs,freqs))" in out


def test_a_seeded_bug_with_its_config_exits_1_and_is_named(capsys):
    status, out, _ = run(
        capsys,
        REAL / "llama_yarn_bug_factor_dropped.safetensors",
        "--config",
        REAL / "llama_yarn_bug_factor_dropped.config.json",
        "--json",
    )
    assert status == 1
    result = json.loads(out)
    assert result["kind"] == "rope" and not result["sound"]
    assert result["scaling"]["type"] == "yarn" and result["attention_factor"] == 1.0
    assert "yarn_factor_dropped" in result["bugs"]
    assert any("vllm #48623" in f for f in result["findings"])
    for field in (
        "convention",
        "rotary_dim",
        "head_dim",
        "base",
        "frequencies",
        "position_offset",
        "precision",
        "max_abs_error",
        "findings",
    ):
        assert field in result


def test_two_files_two_keys_and_csv(caches, capsys):
    for argv in (
        (caches / "cos.npy", caches / "sin.npy"),
        (caches / "cache.npz", "--key", "c", "--key", "s", "--positions-key", "where"),
        (caches / "cos.csv", caches / "sin.csv", "--config", caches / "config.json"),
    ):
        status, out, _ = run(capsys, *argv, "--json")
        result = json.loads(out)
        assert status == 0, argv
        assert (result["base"], result["scaling"]["type"], result["rotary_dim"]) == (
            10000.0,
            "none",
            64,
        )


def test_one_array_is_rope_only_when_told(caches, capsys):
    status, out, _ = run(capsys, caches / "cos.npy", "--rope", "--json")
    result = json.loads(out)
    assert status == 0 and result["kind"] == "rope"
    assert result["read"] == ["cos.npy read as cos (its name)"]
    status, out, _ = run(capsys, caches / "paper.npy", "--json")
    assert "kind" not in json.loads(out)  # a sinusoidal table stays one


def test_16_bit_arithmetic_and_a_config_that_disagrees_exit_1(caches, capsys):
    status, out, _ = run(capsys, caches / "half.npz")
    assert status == 1 and "gpt-neox #1003" in out
    status, out, _ = run(
        capsys, caches / "cos.npy", caches / "sin.npy", "--config", caches / "yarn.json"
    )
    assert status == 1 and "YaRN read as no scaling" in out


def test_against_tells_equivalent_caches_from_different_ones(caches, capsys):
    status, out, _ = run(
        capsys,
        caches / "cache.npz",
        "--key",
        "c",
        "--key",
        "s",
        "--against",
        caches / "interleaved.npz",
    )
    assert status == 0 and out.splitlines()[0].startswith("same RoPE")
    status, out, _ = run(
        capsys,
        REAL / "llama_yarn.safetensors",
        "--against",
        REAL / "llama_yarn_bug_factor_twice.safetensors",
        "--json",
    )
    result = json.loads(out)
    assert status == 1 and not result["same"]
    assert any("B's cos and sin carry m = 1.29648, A's 1.13863" in f for f in result["findings"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--config", "missing.json"), "missing.json: no such config file"),
        (("--layer-type", "global"), "--layer-type picks an entry of the --config file"),
        (("--layer", "3"), "--layer picks a layer of the --config file"),
        (("--layer", "x"), "argument --layer: invalid int value: 'x'"),
        (
            ("--config", REAL / "round2_llama4.config.json", "--layer", "8"),
            "layer must be an integer from 0 to 7, got 8",
        ),
        (("--positions-key", "nope"), "has no array 'nope' of positions"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(caches, capsys, argv, message):
    status, out, err = run(capsys, caches / "cache.npz", "--key", "c", "--key", "s", *argv)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_layer_of_a_config_with_nope_layers(capsys):
    """--layer N checks a cache against layer N of a config with no_rope_layers: Llama 4's
    layer 0 cache (transformers' own) is sound for layer 0 and a fault for NoPE layer 3."""
    cache, config = REAL / "round2_llama4_layer0.safetensors", REAL / "round2_llama4.config.json"
    status, _, _ = run(capsys, cache, "--config", config, "--layer", "0")
    assert status == 0
    status, out, _ = run(capsys, cache, "--config", config, "--layer", "3", "--json")
    assert status == 1 and json.loads(out)["bugs"] == ["no_rope_layers"]


def test_what_the_cache_alone_cannot_decide_exits_3_and_names_the_config(capsys):
    """DeepSeek-V3's YaRN cache carries m = 1 (mscale = mscale_all_dim): the cache alone cannot
    tell that from the factor dropped, so neither sound (0) nor a fault (1), but 3; with the
    config it is sound."""
    cache = REAL / "deepseek_v3_yarn.safetensors"
    status, out, _ = run(capsys, cache)
    assert status == 3
    assert "audit of a RoPE cache (820, 64): UNDECIDED" in out
    assert "to decide: give the model's config.json (--config)" in out
    status, out, _ = run(capsys, cache, "--json")
    result = json.loads(out)
    assert status == 3 and result["outcome"] == "undecided" and result["faults"] == []
    status, _, _ = run(capsys, cache, "--config", REAL / "deepseek_v3_yarn.config.json")
    assert status == 0


def test_help_lists_the_three_outcomes_and_the_offset_rule(capsys):
    status, out, _ = run(capsys, "--help")
    assert status == 0
    out = " ".join(out.split())
    for status in ("0 sound:", "1 fault:", "3 undecided: the input cannot decide"):
        assert status in out
    assert "offset rule:" in out and "harmless when q and k share" in out
    assert "a fault when the config (--config) or the caller" in out


@pytest.mark.parametrize("role", ["cos", "sin"])
def test_one_rope_array_without_rope_says_it_reads_as_a_rope_cache(capsys, tmp_path, role):
    """Issue 31, point 7: one array of transformers' Llama cache, without --rope, is not only
    "faulty" as a sinusoidal table: the report says it reads as a RoPE cache (exit 3, decided
    by --rope), and with --rope it is audited as one."""
    from safetensors.numpy import load_file

    path = tmp_path / "cache.npy"  # a name that does not say cos or sin
    np.save(path, load_file(str(REAL / "llama_default.safetensors"))[role])
    status, out, _ = run(capsys, path)
    assert status == 3 and re.match(r"audit of a \(820, 64\) \w+ table: UNDECIDED;", out)
    text = " ".join(out.split())
    assert f"reads as a RoPE {role} cache, sound as one" in text and "give --rope" in text
    status, out, _ = run(capsys, path, "--json")
    assert status == 3 and "reads as a RoPE" in json.loads(out)["rope"]
    named = tmp_path / f"{role}.npy"  # --rope reads an array as sin when its name says so
    path.rename(named)
    status, out, _ = run(capsys, named, "--rope")
    assert status == 0 and "audit of a RoPE cache (820, 64): sound" in out


def test_a_faulty_sinusoidal_table_is_not_read_as_a_rope_cache(capsys):
    tables = REAL.parent / "real_tables"
    for name in ("ctrl_fp16.npy", "pegasus_x_fp16.npy"):
        status, out, _ = run(capsys, tables / name)
        assert status == 1 and "RoPE" not in out


def test_two_rope_arrays_a_few_ulps_apart_are_the_same_rope(capsys, tmp_path):
    """Issue 31, point 5: one float32 cos array each side, without --rope, a few ulps apart
    (two correct libraries): not "different" (exit 1) but undecided (3) with the RoPE
    comparison's verdict, and the same RoPE with --rope."""
    from safetensors.numpy import load_file

    cos = load_file(str(REAL / "llama_default.safetensors"))["cos"]
    other = cos.copy()
    other[::3, [5, 37]] = np.nextafter(other[::3, [5, 37]], np.float32(0))
    other[7, [8, 40]] += np.float32(3e-7)
    np.save(tmp_path / "a.npy", cos)
    np.save(tmp_path / "b.npy", other)
    status, out, _ = run(capsys, tmp_path / "a.npy", "--against", tmp_path / "b.npy")
    assert status == 3
    assert "compared as RoPE caches they hold the same rotations" in " ".join(out.split())
    status, out, _ = run(capsys, tmp_path / "a.npy", "--rope", "--against", tmp_path / "b.npy")
    assert status == 0 and "same RoPE (max difference" in out


def test_the_offset_rule_holds_in_both_audits(capsys, tmp_path):
    """Issue 31, point 9: rows counted from 1 are described and exit 0 in the sinusoidal audit
    and in the RoPE audit alone; in the RoPE audit they are a fault (exit 1) beside a config,
    which says row p is position p from 0."""
    table = tmp_path / "from_one.npy"
    np.save(table, sinusoidal_pe(513, 64, dtype=np.float32)[1:])
    status, out, _ = run(capsys, table)
    assert status == 0 and "positions start at 1 (the offset rule: harmless" in " ".join(
        out.split()
    )
    cos, sin = rope_cache(rope_frequencies(LLAMA).inv_freq, np.arange(1, 1025))
    np.savez(tmp_path / "cache.npz", cos=cos, sin=sin)
    (tmp_path / "config.json").write_text(json.dumps(LLAMA))
    status, out, _ = run(capsys, tmp_path / "cache.npz")
    assert status == 0 and "harmless when q and k share the cache" in " ".join(out.split())
    status, out, _ = run(capsys, tmp_path / "cache.npz", "--config", tmp_path / "config.json")
    assert status == 1 and "but the config says position 0 is the identity" in " ".join(out.split())
