"""`pe-proofs shift`: answers in the module's notation, the algebra under --verbose, JSON, exit
statuses, and expressions that start with '-'."""

import json

import pytest

from proofs.cli.main import main


def _out(argv, capsys, status=0):
    assert main(["shift", *argv]) == status
    return capsys.readouterr().out


def test_sine_cosine_prints_the_verified_rotation_in_sin_and_cos_of_k(capsys):
    out = _out(["sin(pos)", "cos(pos)"], capsys)
    assert "✓ Yes" in out and "M(k) =" in out
    assert "⎡cos(k)   sin(k)⎤" in out and "⎣−sin(k)  cos(k)⎦" in out
    # The chain and the solver's basis come with --verbose only.
    assert "matrix product" not in out and "exp(" not in out


def test_verbose_shows_the_checked_chain(capsys):
    out = _out(["sin(pos)", "cos(pos)", "--verbose"], capsys)
    assert "matrix product" in out and "angle addition" in out
    assert "independent functions exp(-i·pos), exp(i·pos)" in out


def test_ramp_affine_prints_the_offset(capsys):
    out = _out(["pos/L", "--affine"], capsys)
    assert "affine map" in out and "b(k) =" in out and "✓ Yes" in out


def test_a_refusal_is_one_sentence_in_words(capsys):
    out = _out(["pos/L"], capsys)
    answer = [line for line in out.splitlines() if line.startswith("✗")]
    assert answer == ["✗ No: a linear map would need 0 = k/L for every pos, which fails for k ≠ 0."]
    # No SymPy internals: the solver's unknowns, I for the imaginary unit, coefficients.
    assert "_m11" not in out and "coefficient" not in out and "*I" not in out


def test_a_lone_sine_is_refused_where_sin_k_is_not_zero(capsys):
    out = _out(["sin(pos)"], capsys)
    assert "which fails whenever sin(k) ≠ 0." in out
    assert "nonzero coefficient" not in out


def test_verbose_refusal_shows_the_certificate_algebra(capsys):
    out = _out(["sin(pos)", "-v"], capsys)
    assert "m_11" in out and "Their weighted sum leaves" in out and "0 = sin(k)" in out
    assert "_m11" not in out


@pytest.mark.parametrize("name", ["max_len", "d_model", "omega", "L"])
def test_the_module_names_are_accepted(name, capsys):
    out = _out([f"pos/{name}"], capsys)
    assert "✗ No" in out and f"0 = k/{name}" in out


@pytest.mark.slow
def test_one_notation_for_the_frequency(capsys):
    out = _out(["sin(pos/10000**(2*i/d_model))", "cos(pos/10000**(2*i/d_model))"], capsys)
    assert "✓ Yes" in out and "10000" in out
    # SymPy's simplify writes 10000**(2i/d) as 10**(8i/d); the answer must not.
    assert "8⋅i" not in out and "10  " not in out
    data = json.loads(_out(["sin(pos/10000**(2*i/d_model))", "--json"], capsys))
    assert data["certificate"]["value"] == "sin(k/10000**(2*i/d_model))"
    assert "10**" not in json.dumps(data)


def test_unknown_names_list_the_accepted_ones(capsys):
    assert main(["shift", "x*pos"]) == 2
    err = capsys.readouterr().err
    assert "unknown name 'x'" in err and "pos, k, L, max_len, d_model, i, omega" in err


@pytest.mark.parametrize("argv", [["-sin(pos)", "cos(pos)"], ["--", "-sin(pos)", "cos(pos)"]])
def test_an_expression_may_start_with_a_minus(argv, capsys):
    out = _out(argv, capsys)
    assert "✓ Yes" in out and "⎡cos(k)  −sin(k)⎤" in out


def test_json_answer_has_the_sentence_and_the_certificate(capsys):
    data = json.loads(_out(["sin(pos)", "--json"], capsys))
    assert data["exists"] is False and data["matrix"] is None
    assert data["answer"].startswith("a linear map would need 0 = sin(k) for every pos")
    assert data["certificate"]["value"] == "sin(k)"
    assert {e["basis_function"] for e in data["certificate"]["equations"]} == {
        "exp(I*pos)",
        "exp(-I*pos)",
    }
    assert all("_m" not in e["equation"] for e in data["certificate"]["equations"])


def test_json_map_carries_its_derivation(capsys):
    data = json.loads(_out(["pos", "--affine", "--json"], capsys))
    assert data["exists"] is True and data["offset"] == ["k"]
    # [[1]]·pos + k is already pos + k once multiplied out: the chain stops there.
    steps = data["derivation"]["steps"]
    assert data["derivation"]["status"] == "proved" and len(steps) == 2
    assert steps[1]["cited"] == "matrix product"
    data = json.loads(_out(["sin(pos)", "cos(pos)", "--json"], capsys))
    steps = data["derivation"]["steps"]
    assert [s["cited"] for s in steps] == ["", "matrix product", "angle addition"]


def test_ascii_output(capsys):
    out = _out(["pos/L", "--ascii"], capsys)
    assert out.isascii() and "NO No: a linear map would need 0 = k/L" in out and "k != 0" in out


def test_undecided_exits_3(capsys):
    out = _out(["log(pos)"], capsys, status=3)
    assert "? Undecided: unsupported term log(pos)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["shift", "sin(k*pos)"], "shift symbol k"),
        (["shift", "foo(pos)"], "foo"),
        (["shift", "__import__('os')"], ""),
        (["shift"], "required"),
        (["shift", "pos", "--frobnicate"], "unrecognized arguments: --frobnicate"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("pe-proofs: error:") and message in err and err.count("\n") == 1


def test_the_help_names_the_parser_s_names() -> None:
    from proofs.cli.shift import NAMES_HELP
    from proofs.engine.parse import DEFAULT_SYMBOLS

    assert NAMES_HELP.split(", ") == [*DEFAULT_SYMBOLS, "pi", "E"]


def test_an_expression_may_start_with_two_minuses(capsys):
    out = _out(["--sin(pos)", "cos(pos)"], capsys)
    assert "✓ Yes" in out and "⎡cos(k)   sin(k)⎤" in out  # --sin(pos) is sin(pos)


@pytest.mark.parametrize("seconds", ["1e10", "1e300"])
def test_a_huge_timeout_is_held_not_a_crash(seconds, capsys):
    out = _out(["sin(pos)", "cos(pos)", "--timeout", seconds], capsys)
    assert "✓ Yes" in out


@pytest.mark.parametrize("seconds", ["inf", "nan", "-1", "0"])
def test_a_timeout_that_is_not_a_positive_finite_number_is_one_line(seconds, capsys):
    assert main(["shift", "sin(pos)", f"--timeout={seconds}"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"pe-proofs: error: --timeout must be a positive, finite number of seconds, got '{seconds}'"
    )


@pytest.mark.parametrize("component", ["nan", "zoo*pos", "oo"])
def test_a_component_that_is_not_finite_is_refused_in_one_line(component, capsys):
    status = main(["shift", "sin(pos)", component])
    err = capsys.readouterr().err.strip()
    assert status == 2 and "\n" not in err and err.startswith("pe-proofs: error:")


def test_distinct_rates_answer_no_at_once(capsys):
    out = _out(["exp(pos) + exp((1 + 10**-30)*pos)", "--timeout", "30"], capsys)
    assert "✗ No" in out


def test_a_negative_base_has_its_power_as_the_map(capsys):
    out = _out(["(-2)**pos"], capsys)
    assert "✓ Yes" in out and "(−2)" in out
