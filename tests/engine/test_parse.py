"""Tests for proofs.engine.parse: safe text -> SymPy parsing."""

from __future__ import annotations

import ast
import builtins
import contextlib
import importlib
import inspect
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
import sympy as sp
import sympy.parsing.sympy_parser
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.engine import parse
from proofs.engine.parse import DEFAULT_SYMBOLS, parse_expression
from tests.cpu_time import cpu_seconds

pos, k, L, d_model, i, omega = (
    DEFAULT_SYMBOLS[name] for name in ("pos", "k", "L", "d_model", "i", "omega")
)

# Only a guard against hangs, not a performance assertion.
HANG_GUARD_SECONDS = 1.0


@contextlib.contextmanager
def forbid_evaluation() -> Iterator[None]:
    """Make any eval/exec, or any sympify/parse_expr of a string, fail loudly."""

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the parser must never evaluate text")

    def string_guard(original: Callable[..., object]) -> Callable[..., object]:
        # SymPy sympifies its own objects internally all the time; only strings are dangerous.
        def guarded(value: object, *args: object, **kwargs: object) -> object:
            if isinstance(value, str):
                forbidden()
            return original(value, *args, **kwargs)

        return guarded

    # The package attribute sympy.core.sympify is the function, so fetch the module itself.
    sympify_module = importlib.import_module("sympy.core.sympify")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(builtins, "eval", forbidden)
        patch.setattr(builtins, "exec", forbidden)
        patch.setattr(sp, "sympify", string_guard(sp.sympify))
        patch.setattr(sympify_module, "sympify", string_guard(sympify_module.sympify))
        patch.setattr(sympy.parsing.sympy_parser, "parse_expr", forbidden)
        yield


@pytest.fixture(autouse=True)
def _no_evaluation(request: pytest.FixtureRequest) -> Iterator[None]:
    # Hypothesis itself uses exec, so its tests apply forbid_evaluation() around each call.
    if getattr(request.function, "is_hypothesis_test", False):
        yield
        return
    with forbid_evaluation():
        yield


def rejected(text: str) -> str:
    """The ValueError message for ``text``, asserting it came quickly and on one line."""
    start = cpu_seconds()
    with pytest.raises(ValueError) as info:
        parse_expression(text)
    assert cpu_seconds() - start < HANG_GUARD_SECONDS
    message = str(info.value)
    assert "\n" not in message
    return message


def test_guard_fixture_is_active() -> None:
    with pytest.raises(AssertionError):
        eval("1")
    with pytest.raises(AssertionError):
        sp.sympify("1")


def test_source_never_refers_to_evaluating_functions() -> None:
    tree = ast.parse(inspect.getsource(parse))
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    used |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not used & {"eval", "exec", "compile", "sympify", "parse_expr", "S", "__import__"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sin(pos)", sp.sin(pos)),
        ("cos(pos)", sp.cos(pos)),
        ("pos/L", pos / L),
        ("sin(pos*omega)**2", sp.sin(pos * omega) ** 2),
        ("exp(2*pos) + pos**3", sp.exp(2 * pos) + pos**3),
        ("sin(pos/10000**(2*i/d_model))", sp.sin(pos / sp.Integer(10000) ** (2 * i / d_model))),
        ("exp(-2*i*log(10000)/d_model)", sp.exp(-2 * i * sp.log(10000) / d_model)),
        ("log(k) + sqrt(L)", sp.log(k) + sp.sqrt(L)),
        ("-pos + +k", k - pos),
        ("pos - k - 1", pos - k - 1),
        ("pos/k/L", pos / (k * L)),
        ("2**3**2", sp.Integer(512)),
        ("2**-1", sp.Rational(1, 2)),
        ("pi*E", sp.pi * sp.E),
        ("sqrt(4)", sp.Integer(2)),
        ("log(E)", sp.Integer(1)),
        ("  (pos)  ", pos),
        ("pos**64 + pos**-64", pos**64 + pos**-64),
        ("E**pos", sp.exp(pos)),
        ("2**4096", sp.Integer(2) ** 4096),
        ("exp(2000)", sp.exp(2000)),
        ("sin(2**4096)", sp.sin(sp.Integer(2) ** 4096)),
    ],
)
def test_valid_expressions(text: str, expected: sp.Expr) -> None:
    result = parse_expression(text)
    assert result == expected or sp.simplify(result - expected) == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.1", sp.Rational(1, 10)),
        ("1e-3", sp.Rational(1, 1000)),
        ("2.5E2", sp.Integer(250)),
        ("1.", sp.Integer(1)),
        (".5", sp.Rational(1, 2)),
        ("1_000.5", sp.Rational(2001, 2)),
        ("0.1 + 0.2", sp.Rational(3, 10)),
        ("123456789012345678901234567890", sp.Integer(123456789012345678901234567890)),
    ],
)
def test_numbers_are_exact(text: str, expected: sp.Expr) -> None:
    result = parse_expression(text)
    assert result == expected
    assert not result.has(sp.Float)


def test_default_symbol_assumptions() -> None:
    result = parse_expression("pos + k + L + d_model + i + omega")
    by_name = {symbol.name: symbol for symbol in result.free_symbols}
    assert by_name["pos"].is_real and by_name["k"].is_real
    assert by_name["L"].is_positive and by_name["omega"].is_positive
    assert by_name["d_model"].is_even and by_name["d_model"].is_positive
    assert by_name["i"].is_integer and by_name["i"].is_nonnegative


def test_default_symbols_are_read_only() -> None:
    with pytest.raises(TypeError):
        DEFAULT_SYMBOLS["x"] = sp.Symbol("x")  # type: ignore[index]


def test_caller_symbols_and_assumptions_are_used() -> None:
    mine = sp.Symbol("pos", positive=True, integer=True)
    x = sp.Symbol("x")
    result = parse_expression("pos + x", symbols={"pos": mine, "x": x})
    assert result == mine + x
    assert mine in result.free_symbols and pos not in result.free_symbols
    assert rejected_with({"pos": mine}, "k") == (
        "unknown name 'k' at column 1; allowed names: pos, pi, E"
    )


def rejected_with(symbols: dict[str, sp.Symbol], text: str) -> str:
    with pytest.raises(ValueError) as info:
        parse_expression(text, symbols=symbols)
    return str(info.value)


@pytest.mark.parametrize(
    ("symbols", "error"),
    [
        ({"pi": sp.Symbol("pi")}, ValueError),
        ({"sin": sp.Symbol("sin")}, ValueError),
        ({"not an identifier": sp.Symbol("x")}, ValueError),
        ({"lambda": sp.Symbol("x")}, ValueError),
        ({"x": "x"}, TypeError),
        ({1: sp.Symbol("x")}, TypeError),
        ([("x", sp.Symbol("x"))], TypeError),
    ],
)
def test_bad_symbol_mappings(symbols: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        parse_expression("pos", symbols=symbols)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, b"pos", 1, 1.5, ["pos"]])
def test_non_str_is_type_error(value: object) -> None:
    with pytest.raises(TypeError, match="expression must be a str"):
        parse_expression(value)  # type: ignore[arg-type]


# Pinned messages: these are documented, so a change here is a user-visible change.
REJECTIONS = [
    ("", "expression is empty"),
    ("   ", "expression is empty"),
    ("x" * 3000, "expression is too long (3000 characters); the limit is 2000"),
    ("(" * 100 + "pos" + ")" * 100, "expression is nested too deeply; the limit is 60 levels"),
    ("-" * 70 + "pos", "expression is nested too deeply; the limit is 60 levels"),
    ("sin(" * 61 + "pos" + ")" * 61, "expression is nested too deeply; the limit is 60 levels"),
    ("+".join(["pos"] * 300), "expression has too many parts (599 nodes); the limit is 500"),
    (
        "pos + x",
        "unknown name 'x' at column 7; allowed names: pos, k, L, max_len, d_model, i, omega, pi, E",
    ),
    (
        "  x",
        "unknown name 'x' at column 3; allowed names: pos, k, L, max_len, d_model, i, omega, pi, E",
    ),
    ("__import__('os').system('echo hi')", "attribute access ('.system') is not allowed"),
    ("().__class__", "attribute access ('.__class__') is not allowed"),
    ("pos.__class__", "attribute access ('.__class__') is not allowed"),
    ("open('x')", "calls are allowed only to sin, cos, exp, log, sqrt; got 'open'"),
    ("pos(2)", "calls are allowed only to sin, cos, exp, log, sqrt; got 'pos'"),
    ("(pos+1)(2)", "calls are allowed only to sin, cos, exp, log, sqrt; got a call of 'pos+1'"),
    ("sin", "function 'sin' at column 1 must be called with one argument, e.g. sin(...)"),
    ("sin(pos, k)", "sin() takes exactly one argument; got 2"),
    ("cos()", "cos() takes exactly one argument; got 0"),
    (
        "sin(x=pos)",
        "keyword arguments are not allowed; sin() takes exactly one positional argument",
    ),
    ("sin(**k)", "keyword arguments are not allowed; sin() takes exactly one positional argument"),
    ("sin(*k)", "starred arguments are not allowed; sin() takes exactly one positional argument"),
    ("'a'", "string literals are not allowed"),
    ("b'a'", "bytes literals are not allowed"),
    ("f'{pos}'", "f-strings are not allowed"),
    ("1j", "complex literals ('1j') are not allowed"),
    ("True", "boolean literals ('True') are not allowed"),
    ("None", "None is not allowed"),
    ("...", "'...' is not allowed"),
    ("lambda: 1", "lambda is not allowed"),
    ("(lambda: 1)()", "lambda is not allowed"),
    ("[1][0]", "subscripts ('[...]') are not allowed"),
    ("[1]", "lists are not allowed"),
    ("pos[0]", "subscripts ('[...]') are not allowed"),
    ("[x for x in k]", "comprehensions are not allowed"),
    ("(x for x in k)", "comprehensions are not allowed"),
    ("(1, 2)", "tuples are not allowed"),
    ("{1}", "sets are not allowed"),
    ("{1: 2}", "dicts are not allowed"),
    ("(y := 1)", "assignment expressions (':=') are not allowed"),
    ("1 if pos else 2", "conditional expressions ('... if ... else ...') are not allowed"),
    ("pos < 1", "comparisons ('<') are not allowed"),
    ("pos is k", "comparisons ('is') are not allowed"),
    ("pos and k", "boolean operators ('and') are not allowed"),
    ("not pos", "boolean operators ('not') are not allowed"),
    ("pos ^ 2", "'^' is not allowed; use '**' for powers, e.g. pos**2"),
    ("pos // 2", "operator '//' is not allowed; allowed operators: + - * / **"),
    ("pos % 2", "operator '%' is not allowed; allowed operators: + - * / **"),
    ("~pos", "operator '~' is not allowed; allowed operators: + - * / **"),
    ("pos # note", "comment character '#' at column 5 is not allowed"),
    ("pos\t+ 1", "character '\\t' at column 4 is not allowed; use printable ASCII on one line"),
    ("2*\u03c0", "character '\u03c0' at column 3 is not allowed; use printable ASCII on one line"),
    ("sin(", "syntax error at column 4: '(' was never closed"),
    ("pos +", "syntax error at the end: invalid syntax"),
    ("2pos", "syntax error at column 1: invalid decimal literal"),
    ("1" * 31, "integer literal at column 1 is too long; at most 30 digits are allowed"),
    (
        "0.1234567890123456789012345678901",
        ("decimal literal at column 1 is too long; at most 30 significant digits are allowed"),
    ),
    (
        "1e1001",
        (
            "decimal literal at column 1 is out of range; its exponent must be between -1000 and 1000"
        ),
    ),
    ("9**9**9**9", "the power 9**(9**9) is too large; numeric powers are limited to 4096 bits"),
    ("10**10**10", "the power 10**(10**10) is too large; numeric powers are limited to 4096 bits"),
    ("2**4097", "the power 2**4097 is too large; numeric powers are limited to 4096 bits"),
    (
        "(1/2)**-5000",
        "the power (1/2)**(-5000) is too large; numeric powers are limited to 4096 bits",
    ),
    (
        "pos**(10**10)",
        (
            "the power pos**(10**10) is too large; a base that is not a plain number allows "
            "numeric exponents up to 64 in magnitude"
        ),
    ),
    (
        "pos**100",
        (
            "the power pos**100 is too large; a base that is not a plain number allows "
            "numeric exponents up to 64 in magnitude"
        ),
    ),
    (
        "E**(10**10)",
        (
            "the power E**(10**10) is too large; a base that is not a plain number allows "
            "numeric exponents up to 64 in magnitude"
        ),
    ),
    (
        "(2**pos)**(10**10/pos)",
        (
            "the power (2**pos)**(10**10/pos) is too large; the numbers it could produce exceed 4096 bits"
        ),
    ),
    (
        "exp(10**10*log(2))",
        (
            "the power exp(10**10*log(2)) is too large; the numbers it could produce exceed 4096 bits"
        ),
    ),
    (
        "(3**2000 + 1)**(1/3)",
        (
            "the power (3**2000 + 1)**(1/3) is too large; roots are limited to numbers of at most "
            "1024 bits"
        ),
    ),
    ("exp(10**30)", "the number exp(10**30) is too large; numbers are limited to 16384 bits"),
    (
        "log(sin(exp(2**64)))",
        ("the number exp(2**64) is too large; numbers are limited to 16384 bits"),
    ),
    ("1/0", "the expression is undefined or infinite (zoo); check for division by zero or log(0)"),
    (
        "log(0)",
        "the expression is undefined or infinite (zoo); check for division by zero or log(0)",
    ),
]


@pytest.mark.parametrize(("text", "message"), REJECTIONS)
def test_rejection_messages(text: str, message: str) -> None:
    assert rejected(text) == message


@pytest.mark.parametrize(
    "text",
    [
        # Each of these makes plain SymPy compute a huge number (or hang) when built naively.
        "sqrt(2)**(10**10)",
        "(sqrt(2)*3**4000)**64",
        "((2*pos)**64)**64",
        "exp(pos)**(10**10*log(2)/pos)",
        "exp(pos*log(2))**(10**10/pos)",
        "sqrt(pos*(3**2500*3**2500 + 2))",
        "(((3**(64*pos))**(64*k/pos))**(64*L/k))**(64/L)",
        "exp(10**10*(log(2) + log(3)))",
        "2**(10**10*pi)**2**64",
        "exp(2000)*exp(2000)*exp(2000)*exp(2000)*exp(2000)*exp(2000)",
        "sin(2**4096*2**4096*2**4096*2**4096*2**4096)",
        "E**exp(exp(5))",
    ],
)
def test_growth_hazards_are_refused_quickly(text: str) -> None:
    assert "too large" in rejected(text)


def test_huge_coefficient_inside_symbolic_exp_stays_unevaluated() -> None:
    result = parse_expression("exp(10**30*pos)")
    assert isinstance(result, sp.exp)


def test_syntax_error_is_not_chained() -> None:
    with pytest.raises(ValueError) as info:
        parse_expression("pos +* 2")
    assert info.value.__cause__ is None
    assert info.value.__suppress_context__


def test_long_flat_sum_is_not_too_deep() -> None:
    assert parse_expression("+".join(["pos"] * 240)) == 240 * pos


EXPRESSION_TOKENS = [
    "pos", "k", "L", "i", "d_model", "omega", "pi", "E", "x",
    "0", "1", "2", "9", "10", "64", "0.5", "1e3", "1e-3", "10**10",
    "+", "-", "*", "/", "**", "^", "(", ")", ",",
    "sin(", "cos(", "exp(", "log(", "sqrt(", "__class__", ".", "'",
]  # fmt: skip


@settings(deadline=timedelta(seconds=2), max_examples=300)
@given(st.text(max_size=80))
def test_random_text_only_raises_value_errors(text: str) -> None:
    with forbid_evaluation(), contextlib.suppress(ValueError):
        assert isinstance(parse_expression(text), sp.Expr)


@settings(deadline=timedelta(seconds=2), max_examples=300)
@given(st.lists(st.sampled_from(EXPRESSION_TOKENS), max_size=30))
def test_random_token_soup_is_safe_and_quick(tokens: list[str]) -> None:
    start = cpu_seconds()
    with forbid_evaluation(), contextlib.suppress(ValueError):
        assert isinstance(parse_expression("".join(tokens)), sp.Expr)
    assert cpu_seconds() - start < HANG_GUARD_SECONDS
