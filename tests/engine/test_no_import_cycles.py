"""No circle between files: the modules of proofs/ and numeric/ import each other without a
cycle, counting every import (at module level or inside a function) but those that never run
(under `if TYPE_CHECKING:`, or in a module's `if __name__ == "__main__":` block).

An import names the deepest module it reaches: `from proofs.engine.rules import ALGEBRA` is an
edge to proofs/engine/rules/__init__.py, `from proofs.engine import zero_test` one to
proofs/engine/zero_test.py. The parent packages a Python import also runs are not edges: every
module would otherwise lean on proofs/__init__.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_files(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Every module of the packages by its dotted name (a package by its __init__.py)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _never_run(tree: ast.Module) -> set[int]:
    """The ids of the nodes under `if TYPE_CHECKING:` or `if __name__ == "__main__":`."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = ast.unparse(node.test)
            if "TYPE_CHECKING" in test or "__main__" in test:
                for inner in node.body:
                    skipped |= {id(n) for n in ast.walk(inner)}
    return skipped


def _deepest(name: str, modules: dict[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports(name: str, modules: dict[str, Path]) -> set[str]:
    """The modules of `modules` that module `name` imports, at any depth of its code."""
    path = modules[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _never_run(tree)
    found: set[str | None] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {_deepest(alias.name, modules) for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in modules else _deepest(base, modules))
    return {m for m in found if m is not None and m != name}


def cycles(modules: dict[str, Path]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    edges = {name: sorted(imports(name, modules)) for name in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return sorted(groups)


def test_proofs_and_numeric_import_each_other_without_a_cycle() -> None:
    assert cycles(module_files(ROOT, ("proofs", "numeric"))) == []


def test_the_scan_finds_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import g\n\ndef f():\n    return g()\n")
    (package / "b.py").write_text("def g():\n    from pkg import a\n    return a\n")
    (package / "c.py").write_text("from . import a\n")
    assert cycles(module_files(tmp_path, ("pkg",))) == [["pkg.a", "pkg.b"]]


def test_the_scan_ignores_imports_that_never_run(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import g\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg.a import x\n"
        "def g():\n    pass\n"
        "if __name__ == '__main__':\n    from pkg import a\n"
    )
    assert imports("pkg.b", module_files(tmp_path, ("pkg",))) == set()
    assert cycles(module_files(tmp_path, ("pkg",))) == []
