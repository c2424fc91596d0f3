"""Each rule is declared once, in its own file, and everything else is built from that: the
package's lists, the search order for uncited claims, the diagnosis of wrong citations and the
Coq generator's dispatch. These are the checks a new rule's declaration must pass."""

from __future__ import annotations

import ast
import importlib
import itertools
import pkgutil
from pathlib import Path

import pytest
import sympy as sp

import proofs.engine.rules as package
from proofs.engine.rules import ALGEBRA, RULES, Rule
from proofs.engine.rules.rule import CoqPlan, Diagnosis, LastResort, Round
from proofs.engine.strategies import DIAGNOSIS, LAST_RESORTS, STRATEGIES

ENGINE = Path(package.__file__).resolve().parent.parent
RULE_MODULES = sorted(m.name for m in pkgutil.iter_modules(package.__path__))


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every `from module import names` in path, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.module or "", [a.name for a in node.names])
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    ]


def test_the_package_lists_every_rule_constant_of_its_modules() -> None:
    declared = {
        value
        for name in RULE_MODULES
        for value in vars(importlib.import_module(f"proofs.engine.rules.{name}")).values()
        if isinstance(value, Rule)
    }
    assert set(RULES.values()) == declared
    assert all(RULES[rule.name] is rule for rule in declared)
    for name in package.__all__:
        value = getattr(package, name)
        assert value is RULES or value is Rule or value in declared, name


@pytest.mark.parametrize("rule", RULES.values(), ids=RULES)
def test_a_rule_says_what_it_does_with_an_example(rule: Rule) -> None:
    assert rule.description, f"{rule.name}: its rewrite has no docstring"
    assert ">>>" in (rule.rewrite.__doc__ or ""), f"{rule.name}: its docstring has no example"


@pytest.mark.parametrize("module", RULE_MODULES)
def test_no_rule_file_imports_the_package_that_collects_it(module: str) -> None:
    # The package imports every rule file while it collects them: a rule file importing the
    # package back would be a cycle the static scan of imports cannot see.
    path = ENGINE / "rules" / f"{module}.py"
    assert [m for m, _ in _imports(path) if m == "proofs.engine.rules"] == []


def test_the_rounds_grow_by_position_from_algebra_alone() -> None:
    assert STRATEGIES[0] == (ALGEBRA,)
    for before, after in itertools.pairwise(STRATEGIES[1:]):
        assert set(before) < set(after)
    positions = [rule.search.position for rule in STRATEGIES[-1]]
    assert positions == sorted(positions)
    assert len(set(positions)) == len(positions), "two rules share a place in the sequence"
    rounds = {r for r in RULES.values() if isinstance(r.search, Round) and r.search.round > 0}
    assert set(STRATEGIES[-1]) == rounds


def test_the_last_resorts_are_the_rules_that_say_so_in_order() -> None:
    assert set(LAST_RESORTS) == {r for r in RULES.values() if isinstance(r.search, LastResort)}
    positions = [rule.search.position for rule in LAST_RESORTS]
    assert positions == sorted(set(positions))
    assert not any(rule.exact for rule in LAST_RESORTS)


def test_the_diagnosis_tries_each_declared_single_and_pair_once_by_place() -> None:
    places = []
    expected = set()
    for rule in RULES.values():
        if rule.diagnosis.alone is not None:
            places.append(rule.diagnosis.alone)
            expected.add((rule,))
        for place, second in rule.diagnosis.then:
            places.append(place)
            expected.add((rule, RULES[second]))
    assert len(set(places)) == len(places), "two tries share a place"
    assert set(DIAGNOSIS) == expected and len(DIAGNOSIS) == len(expected)
    assert (ALGEBRA,) not in DIAGNOSIS  # algebra alone is tried before the diagnosis


def test_a_coq_tactic_goes_with_a_plan_and_a_plan_with_a_tactic() -> None:
    x = sp.Symbol("x")
    with pytest.raises(ValueError, match="Coq tactic goes with a Coq plan"):
        Rule("bad", "bad", lambda e: e, coq="ring")
    with pytest.raises(ValueError, match="Coq tactic goes with a Coq plan"):
        Rule("bad", "bad", lambda e: e, coq_plan=CoqPlan.CLOSE)
    fine = Rule("fine", "fine", lambda e: e + 1, diagnosis=Diagnosis(alone=1))
    assert fine(x) == x + 1 and fine.coq_plan is CoqPlan.NONE


@pytest.mark.parametrize(
    "path", ["coq/script.py", "coq/links.py", "coq/powers.py", "coq/integers.py", "strategies.py"]
)
def test_the_search_and_the_coq_generator_name_no_rule_but_algebra(path: str) -> None:
    """They dispatch on the rules' declarations (Rule.search, Rule.coq_plan), not on which rule
    it is: a new rule needs no line here."""
    names = [n for m, found in _imports(ENGINE / path) if m == "proofs.engine.rules" for n in found]
    assert set(names) <= {"Rule", "RULES", "ALGEBRA"}, names
