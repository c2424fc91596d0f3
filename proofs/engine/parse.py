"""Safe parsing of user-typed expressions into SymPy, without ever calling eval.

One cohesive thing, kept in one file though it is long: the whitelist of syntax and the
builder of SymPy objects must agree node for node, so they are read (and audited) together.

``sympify`` and ``parse_expr`` run ``eval`` on their input, so user text never reaches them.
Instead the text is parsed with ``ast.parse`` (which only builds a syntax tree), the whole tree
is checked against a whitelist and size limits, and only then are SymPy objects built directly.
"""

from __future__ import annotations

import ast
import keyword
import warnings
from collections.abc import Mapping
from decimal import Decimal
from types import MappingProxyType

import sympy as sp

from proofs.engine.number_size import (
    coefficients,
    growth,
    largest_number_bits,
    magnitude,
    rational_bits,
)

MAX_LENGTH = 2000
MAX_NODES = 500
MAX_DEPTH = 60
MAX_INTEGER_DIGITS = 30
MAX_DECIMAL_EXPONENT = 1000
MAX_POWER_BITS = 4096
MAX_SYMBOLIC_EXPONENT = 64
MAX_ROOT_BITS = 1024
MAX_NUMBER_BITS = 16384

DEFAULT_SYMBOLS: Mapping[str, sp.Symbol] = MappingProxyType(
    {
        "pos": sp.Symbol("pos", real=True),
        "k": sp.Symbol("k", real=True),
        "L": sp.Symbol("L", positive=True),
        # The course module's name for the ramp's length; L is the theorems' shorter name.
        "max_len": sp.Symbol("max_len", positive=True),
        "d_model": sp.Symbol("d_model", positive=True, even=True, integer=True),
        "i": sp.Symbol("i", nonnegative=True, integer=True),
        "omega": sp.Symbol("omega", positive=True),
    }
)

_CONSTANTS: dict[str, sp.Expr] = {"pi": sp.pi, "E": sp.E}
_FUNCTIONS = ("sin", "cos", "exp", "log", "sqrt")
_FUNCTION_LIST = ", ".join(_FUNCTIONS)
_ALLOWED_OPERATORS = "+ - * / **"

_ADDITIVE = (ast.Add, ast.Sub)
_MULTIPLICATIVE = (ast.Mult, ast.Div)
_OPERATOR_TEXT: dict[type[ast.AST], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.Pow: "**",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.MatMult: "@",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitAnd: "&",
    ast.BitXor: "^",
    ast.Invert: "~",
}
_COMPARISON_TEXT: dict[type[ast.AST], str] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}
_REJECTED_SYNTAX: dict[type[ast.AST], str] = {
    ast.Lambda: "lambda is not allowed",
    ast.Subscript: "subscripts ('[...]') are not allowed",
    ast.IfExp: "conditional expressions ('... if ... else ...') are not allowed",
    ast.ListComp: "comprehensions are not allowed",
    ast.SetComp: "comprehensions are not allowed",
    ast.DictComp: "comprehensions are not allowed",
    ast.GeneratorExp: "comprehensions are not allowed",
    ast.List: "lists are not allowed",
    ast.Tuple: "tuples are not allowed",
    ast.Set: "sets are not allowed",
    ast.Dict: "dicts are not allowed",
    ast.JoinedStr: "f-strings are not allowed",
    ast.FormattedValue: "f-strings are not allowed",
    ast.NamedExpr: "assignment expressions (':=') are not allowed",
    ast.Starred: "starred expressions ('*...') are not allowed",
    ast.Await: "'await' is not allowed",
    ast.Yield: "'yield' is not allowed",
    ast.YieldFrom: "'yield' is not allowed",
    ast.Slice: "subscripts ('[...]') are not allowed",
}
# Node types a call target can be while still being valid on its own, e.g. "(pos + 1)(2)".
_EXPRESSION_NODES = (ast.Constant, ast.Name, ast.UnaryOp, ast.BinOp, ast.Call)


def parse_expression(text: str, *, symbols: Mapping[str, sp.Symbol] | None = None) -> sp.Expr:
    """Turn user text such as ``"sin(pos/10000**(2*i/d_model))"`` into a SymPy expression.

    Accepted: integer and decimal literals (decimals, including ``1e-3``, become exact
    Rationals), binary ``+ - * / **``, unary ``+ -``, parentheses, the names in ``symbols``
    (default ``DEFAULT_SYMBOLS``) plus the constants ``pi`` and ``E``, and calls of
    ``sin cos exp log sqrt`` with exactly one positional argument. Everything else is rejected
    with a one-line ``ValueError`` before any SymPy object is built; a non-str ``text`` or a
    malformed ``symbols`` raises ``TypeError``/``ValueError``.

    Limits, so that parsing always finishes quickly:

    - at most 2000 characters of printable ASCII, 500 syntax nodes and 60 levels of nesting
      (a run of ``+``/``-`` or of ``*``/``/`` counts as one level);
    - integer literals have at most 30 digits; decimal literals at most 30 significant
      digits and an exponent between -1000 and 1000;
    - a power of two numbers is computed only if ``|exponent| * log2|base|`` is at most
      4096 bits (checked before computing); a fractional power of a number (a root) also
      needs the number to have at most 1024 bits;
    - a power whose base is not a plain number (a symbol, ``pi``, ``E``, ``sqrt(2)``, ...)
      allows a numeric exponent of magnitude at most 64, so ``E**(10**10)`` is refused;
    - a symbolic exponent (``10000**(2*i/d_model)``) is accepted when a conservative
      estimate of the numbers that SymPy could compute from it by combining exponents, e.g.
      ``(2**pos)**(10**10/pos)``, stays within 4096 bits;
    - every part of the expression that is a plain number (no symbols), rational or not,
      must stay below 2**16384 in size: SymPy decides the sign of e.g. ``sin(exp(2**64))`` by
      numeric evaluation at a precision beyond the number's size, which would never finish.

    ``exp(x)`` with symbolic ``x`` may have any coefficients (``exp(10**30*pos)`` stays
    unevaluated), except when ``x`` contains ``log``, because SymPy rewrites ``exp(c*log(b))``
    as ``b**c``; then the growth estimate above applies. With a numeric ``x`` the number rule
    applies, so ``exp(2000)`` is accepted and ``exp(10**30)`` is refused. A result containing
    ``zoo``/``nan``/``oo`` (e.g. ``1/0``, ``log(0)``) is refused.
    """
    if not isinstance(text, str):
        raise TypeError(f"expression must be a str, got {type(text).__name__}")
    names = _checked_symbols(symbols)
    return _Parser(text, names).parse()


def _checked_symbols(symbols: Mapping[str, sp.Symbol] | None) -> Mapping[str, sp.Symbol]:
    """Validate the caller's name -> Symbol mapping."""
    if symbols is None:
        return DEFAULT_SYMBOLS
    if not isinstance(symbols, Mapping):
        raise TypeError(
            f"symbols must be a mapping of names to Symbols, got {type(symbols).__name__}"
        )
    for name, symbol in symbols.items():
        if not isinstance(name, str):
            raise TypeError(f"symbol names must be str, got {type(name).__name__}")
        if not (name.isascii() and name.isidentifier()) or keyword.iskeyword(name):
            raise ValueError(f"symbol name {name!r} is not a valid identifier")
        if name in _CONSTANTS or name in _FUNCTIONS:
            raise ValueError(f"symbol name {name!r} is reserved for a constant or function")
        if not isinstance(symbol, sp.Symbol):
            raise TypeError(
                f"symbols[{name!r}] must be a sympy Symbol, got {type(symbol).__name__}"
            )
    return dict(symbols)


class _Parser:
    """One parse of one text: the checks need the source text to quote and locate nodes."""

    def __init__(self, text: str, symbols: Mapping[str, sp.Symbol]) -> None:
        self._raw = text
        self._symbols = symbols
        self._text = text.strip()
        self._lead = len(text) - len(text.lstrip())

    def parse(self) -> sp.Expr:
        self._check_characters()
        tree = self._syntax_tree()
        self._check_size(tree)
        self._validate(tree.body)
        result = self._build(tree.body)
        for bad in (sp.zoo, sp.nan, sp.oo, -sp.oo):
            if result.has(bad):
                raise ValueError(
                    f"the expression is undefined or infinite ({bad}); "
                    "check for division by zero or log(0)"
                )
        return result

    # --- checks on the raw text -------------------------------------------------------------

    def _check_characters(self) -> None:
        if len(self._raw) > MAX_LENGTH:
            raise ValueError(
                f"expression is too long ({len(self._raw)} characters); the limit is {MAX_LENGTH}"
            )
        if not self._text:
            raise ValueError("expression is empty")
        for index, char in enumerate(self._text, start=self._lead + 1):
            if char == "#":
                raise ValueError(f"comment character '#' at column {index} is not allowed")
            if not " " <= char <= "~":
                # Printable ASCII only: keeps columns exact and stops Unicode look-alike names.
                raise ValueError(
                    f"character {char!r} at column {index} is not allowed; "
                    "use printable ASCII on one line"
                )
        depth = 0
        for char in self._text:
            depth += (char in "([{") - (char in ")]}")
            # Parentheses leave no AST node, so nesting them is only visible here.
            if depth > MAX_DEPTH:
                raise ValueError(_nesting_message())

    def _syntax_tree(self) -> ast.Expression:
        try:
            with warnings.catch_warnings():
                # e.g. "2(3)" warns "'int' object is not callable"; it is rejected below anyway.
                warnings.simplefilter("ignore")
                return ast.parse(self._text, mode="eval")
        except SyntaxError as error:
            # Python reports offset 0 when the text ends too early, e.g. "pos +".
            where = f" at column {error.offset + self._lead}" if error.offset else " at the end"
            raise ValueError(f"syntax error{where}: {error.msg}") from None
        except (RecursionError, MemoryError):
            raise ValueError(_nesting_message()) from None

    @staticmethod
    def _check_size(tree: ast.Expression) -> None:
        nodes = sum(isinstance(node, ast.expr) for node in ast.walk(tree))
        if nodes > MAX_NODES:
            raise ValueError(
                f"expression has too many parts ({nodes} nodes); the limit is {MAX_NODES}"
            )
        stack: list[tuple[ast.AST, int]] = [(tree, 0)]
        while stack:
            node, depth = stack.pop()
            if depth > MAX_DEPTH:
                raise ValueError(_nesting_message())
            for child in ast.iter_child_nodes(node):
                same_level = not isinstance(child, ast.expr) or _continues_chain(node, child)
                stack.append((child, depth if same_level else depth + 1))

    # --- whitelist over the syntax tree (nothing is built yet) ------------------------------

    def _validate(self, root: ast.expr) -> None:
        # Pre-order, left to right, so the leftmost outermost problem is the one reported.
        stack: list[ast.AST] = [root]
        while stack:
            node = stack.pop()
            stack.extend(reversed(self._allowed_children(node)))

    def _allowed_children(self, node: ast.AST) -> list[ast.AST]:
        """Raise if ``node`` itself is not allowed; otherwise return the children to check."""
        if isinstance(node, ast.Constant):
            self._check_constant(node)
            return []
        if isinstance(node, ast.Name):
            self._symbol(node)
            return []
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                raise ValueError("boolean operators ('not') are not allowed")
            if isinstance(node.op, ast.Invert):
                raise ValueError(_operator_message(node.op))
            return [node.operand]
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.BitXor):
                raise ValueError("'^' is not allowed; use '**' for powers, e.g. pos**2")
            if not isinstance(node.op, (*_ADDITIVE, *_MULTIPLICATIVE, ast.Pow)):
                raise ValueError(_operator_message(node.op))
            return [node.left, node.right]
        if isinstance(node, ast.Call):
            return self._call_children(node)
        if isinstance(node, ast.Attribute):
            raise ValueError(f"attribute access ('.{node.attr}') is not allowed")
        if isinstance(node, ast.BoolOp):
            word = "and" if isinstance(node.op, ast.And) else "or"
            raise ValueError(f"boolean operators ('{word}') are not allowed")
        if isinstance(node, ast.Compare):
            raise ValueError(
                f"comparisons ('{_COMPARISON_TEXT[type(node.ops[0])]}') are not allowed"
            )
        raise ValueError(_REJECTED_SYNTAX.get(type(node), f"{type(node).__name__} is not allowed"))

    def _call_children(self, node: ast.Call) -> list[ast.AST]:
        func = node.func
        if not isinstance(func, ast.Name):
            if isinstance(func, _EXPRESSION_NODES):
                raise ValueError(
                    f"calls are allowed only to {_FUNCTION_LIST}; "
                    f"got a call of '{self._segment(func)}'"
                )
            # Report what the call target is, e.g. the attribute in "__import__('os').system(...)".
            return [func]
        if func.id not in _FUNCTIONS:
            raise ValueError(f"calls are allowed only to {_FUNCTION_LIST}; got '{func.id}'")
        if node.keywords:
            raise ValueError(
                f"keyword arguments are not allowed; {func.id}() takes exactly one positional argument"
            )
        if any(isinstance(arg, ast.Starred) for arg in node.args):
            raise ValueError(
                f"starred arguments are not allowed; {func.id}() takes exactly one positional argument"
            )
        if len(node.args) != 1:
            raise ValueError(f"{func.id}() takes exactly one argument; got {len(node.args)}")
        return [node.args[0]]

    def _check_constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, bool):
            raise ValueError(f"boolean literals ('{value}') are not allowed")
        if isinstance(value, int):
            if abs(value) >= 10**MAX_INTEGER_DIGITS:
                raise ValueError(
                    f"integer literal at column {self._column(node)} is too long; "
                    f"at most {MAX_INTEGER_DIGITS} digits are allowed"
                )
        elif isinstance(value, float):
            self._decimal(node)
        elif isinstance(value, str):
            raise ValueError("string literals are not allowed")
        elif isinstance(value, bytes):
            raise ValueError("bytes literals are not allowed")
        elif isinstance(value, complex):
            raise ValueError(f"complex literals ('{self._segment(node)}') are not allowed")
        elif value is None:
            raise ValueError("None is not allowed")
        else:
            raise ValueError("'...' is not allowed")

    def _decimal(self, node: ast.Constant) -> sp.Rational:
        """The exact value of a decimal literal, read from its source text, not the float."""
        _, digits, exponent = Decimal(self._segment(node).replace("_", "")).as_tuple()
        significant = "".join(map(str, digits)).lstrip("0")
        column = self._column(node)
        if len(significant) > MAX_INTEGER_DIGITS:
            raise ValueError(
                f"decimal literal at column {column} is too long; "
                f"at most {MAX_INTEGER_DIGITS} significant digits are allowed"
            )
        assert isinstance(exponent, int)  # a literal is never NaN or infinity
        if abs(exponent) > MAX_DECIMAL_EXPONENT:
            raise ValueError(
                f"decimal literal at column {column} is out of range; its exponent must be "
                f"between -{MAX_DECIMAL_EXPONENT} and {MAX_DECIMAL_EXPONENT}"
            )
        mantissa = int(significant or "0")
        if exponent >= 0:
            return sp.Integer(mantissa * 10**exponent)
        return sp.Rational(mantissa, 10**-exponent)

    def _symbol(self, node: ast.Name) -> sp.Expr:
        if node.id in self._symbols:
            return self._symbols[node.id]
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        if node.id in _FUNCTIONS:
            raise ValueError(
                f"function '{node.id}' at column {self._column(node)} must be called with "
                f"one argument, e.g. {node.id}(...)"
            )
        allowed = ", ".join([*self._symbols, *_CONSTANTS])
        raise ValueError(
            f"unknown name '{node.id}' at column {self._column(node)}; allowed names: {allowed}"
        )

    # --- building (only validated trees get here) -------------------------------------------

    def _build(self, node: ast.expr) -> sp.Expr:
        result = self._build_node(node)
        # SymPy settles signs of numbers such as sin(exp(2**64)) by evalf, whose precision must
        # exceed the number's size, so a huge number anywhere would hang later queries.
        if not result.free_symbols and magnitude(result) > MAX_NUMBER_BITS:
            raise ValueError(
                f"the number {self._render(node)} is too large; "
                f"numbers are limited to {MAX_NUMBER_BITS} bits"
            )
        return result

    def _build_node(self, node: ast.expr) -> sp.Expr:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, float):
                return self._decimal(node)
            return sp.Integer(node.value)
        if isinstance(node, ast.Name):
            return self._symbol(node)
        if isinstance(node, ast.UnaryOp):
            operand = self._build(node.operand)
            return -operand if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Pow):
                return self._power(self._build(node.left), self._build(node.right), node)
            return self._chain(node)
        assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        argument = self._build(node.args[0])
        name = node.func.id
        if name == "sqrt":
            return self._power(argument, sp.Rational(1, 2), node)
        if name == "exp":
            if argument.has(sp.log):
                self._check_growth(sp.E, argument, node)
            return sp.exp(argument)
        return {"sin": sp.sin, "cos": sp.cos, "log": sp.log}[name](argument)

    def _chain(self, node: ast.BinOp) -> sp.Expr:
        """Build a run like ``a - b + c`` or ``a / b * c`` in one SymPy call, without recursion."""
        family = _ADDITIVE if isinstance(node.op, _ADDITIVE) else _MULTIPLICATIVE
        links: list[ast.BinOp] = []
        current: ast.expr = node
        while isinstance(current, ast.BinOp) and isinstance(current.op, family):
            links.append(current)
            current = current.left
        operands = [self._build(current)]
        for link in reversed(links):
            operand = self._build(link.right)
            if isinstance(link.op, ast.Sub):
                operand = -operand
            elif isinstance(link.op, ast.Div):
                operand = sp.Pow(operand, -1)
            operands.append(operand)
        return sp.Add(*operands) if family is _ADDITIVE else sp.Mul(*operands)

    def _power(self, base: sp.Expr, exponent: sp.Expr, node: ast.expr) -> sp.Expr:
        """``base**exponent``, refused before SymPy starts computing something huge."""
        if not exponent.is_Rational:
            self._check_growth(base, exponent, node)
        elif exponent.q != 1 or abs(exponent.p) > 1:
            if base.is_Rational:
                self._check_numeric_power(base, exponent, node)
            else:
                self._check_symbolic_power(base, exponent, node)
            if exponent.q != 1 and largest_number_bits(base) > MAX_ROOT_BITS:
                # SymPy factors the base to extract roots; that cost grows steeply with its size.
                raise ValueError(
                    f"the power {self._render(node)} is too large; "
                    f"roots are limited to numbers of at most {MAX_ROOT_BITS} bits"
                )
        return sp.Pow(base, exponent)

    def _check_numeric_power(
        self, base: sp.Rational, exponent: sp.Rational, node: ast.expr
    ) -> None:
        if abs(base.p) <= 1 and base.q == 1:
            return
        bits = rational_bits(base)
        numerator, denominator = abs(exponent.p), exponent.q
        # bits >= 1, so the first test keeps the float division below in range.
        if (
            numerator > MAX_POWER_BITS * denominator
            or numerator / denominator * bits > MAX_POWER_BITS
        ):
            raise ValueError(
                f"the power {self._render(node)} is too large; "
                f"numeric powers are limited to {MAX_POWER_BITS} bits"
            )

    def _check_symbolic_power(self, base: sp.Expr, exponent: sp.Rational, node: ast.expr) -> None:
        if abs(exponent) > MAX_SYMBOLIC_EXPONENT:
            raise ValueError(
                f"the power {self._render(node)} is too large; a base that is not a plain "
                f"number allows numeric exponents up to {MAX_SYMBOLIC_EXPONENT} in magnitude"
            )
        # SymPy distributes numeric exponents into products and powers, e.g. (2**64*pos)**64.
        if growth(base) * float(abs(exponent)) > MAX_POWER_BITS:
            raise ValueError(_growth_message(self._render(node)))

    def _check_growth(self, base: sp.Expr, exponent: sp.Expr, node: ast.expr) -> None:
        """Bound what SymPy may compute later when symbolic exponents combine or cancel."""
        cost = growth(base) * max(1.0, coefficients(exponent))
        if exponent.has(sp.log) and base.has(sp.exp, sp.E):
            # exp(a)**e becomes exp(a*e), and exp(c*log(b)) becomes b**c.
            cost = max(
                cost,
                (growth(base) + growth(exponent))
                * max(1.0, coefficients(base) + coefficients(exponent)),
            )
        if cost > MAX_POWER_BITS:
            raise ValueError(_growth_message(self._render(node)))

    # --- locating and quoting nodes ---------------------------------------------------------

    def _column(self, node: ast.expr) -> int:
        # The text is one line of ASCII, so the AST's byte offsets are character offsets.
        return node.col_offset + self._lead + 1

    def _segment(self, node: ast.expr) -> str:
        return self._text[node.col_offset : node.end_col_offset]

    def _render(self, node: ast.expr) -> str:
        """Quote a power with explicit grouping, e.g. ``9**9**9`` as ``9**(9**9)``."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            return f"{self._wrapped(node.left)}**{self._wrapped(node.right)}"
        return self._segment(node)

    def _wrapped(self, node: ast.expr) -> str:
        text = self._render(node)
        return text if isinstance(node, (ast.Constant, ast.Name, ast.Call)) else f"({text})"


def _continues_chain(parent: ast.AST, child: ast.AST) -> bool:
    """Whether ``child`` is the left operand of a same-kind run, e.g. ``a + b`` in ``a + b - c``."""
    if not (
        isinstance(parent, ast.BinOp) and isinstance(child, ast.BinOp) and child is parent.left
    ):
        return False
    return any(
        isinstance(parent.op, family) and isinstance(child.op, family)
        for family in (_ADDITIVE, _MULTIPLICATIVE)
    )


def _nesting_message() -> str:
    return f"expression is nested too deeply; the limit is {MAX_DEPTH} levels"


def _operator_message(op: ast.AST) -> str:
    return f"operator '{_OPERATOR_TEXT[type(op)]}' is not allowed; allowed operators: {_ALLOWED_OPERATORS}"


def _growth_message(rendered: str) -> str:
    return (
        f"the power {rendered} is too large; "
        f"the numbers it could produce exceed {MAX_POWER_BITS} bits"
    )
