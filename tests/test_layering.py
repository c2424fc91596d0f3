"""The house's import rules: dependencies flow one way.

cli -> theorems -> engine; render reads the engine's data; numeric is the ground floor. The
theorems live in one package per course module under proofs/theorems/ (sinusoidal: module 10,
rope: module 11); module 11 builds on module 10's definitions, never the other way.
Every import counts, at module level or inside a function, except in a module's
`if __name__ == "__main__":` block (a theorem module runs itself through the command line).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
THEOREM_FILES = sorted(
    p for p in (ROOT / "proofs" / "theorems").rglob("*.py") if p.stem != "__init__"
)


def dotted(path: Path) -> str:
    return path.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")


THEOREM_MODULES = [dotted(p) for p in THEOREM_FILES]
DEFINITIONS = [m for m in THEOREM_MODULES if m.endswith(".definitions")]


def imported_modules(path: Path) -> set[str]:
    """Every module path.py imports, outside its __main__ block."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            skipped |= {id(n) for n in ast.walk(node)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def modules_under(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def offending(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in modules_under(folder)
        for name in sorted(imported_modules(path))
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    ]


def test_the_house_has_the_rooms_the_rules_name():
    for folder in (
        "numeric",
        "numeric/checks",
        "numeric/plots",
        "proofs/engine",
        "proofs/render",
        "proofs/cli",
        "proofs/theorems/sinusoidal",
        "proofs/theorems/rope",
    ):
        assert modules_under(folder), folder
    assert (ROOT / "proofs" / "registry.py").is_file()
    assert {"proofs.theorems.sinusoidal.definitions", "proofs.theorems.rope.definitions"} == set(
        DEFINITIONS
    )
    # Nothing but the package's own entry points lies flat in proofs/.
    flat = {p.stem for p in (ROOT / "proofs").glob("*.py")}
    assert flat == {"__init__", "__main__", "registry"}


def test_numeric_imports_neither_proofs_nor_sympy():
    assert offending("numeric", ("proofs", "sympy")) == []


def test_the_engine_imports_no_printer_command_line_or_theorem():
    assert offending("proofs/engine", ("proofs.render", "proofs.cli", "proofs.theorems")) == []


def test_printers_import_no_command_line_and_no_theorem_but_the_definitions():
    theorems = tuple(m for m in THEOREM_MODULES if m not in DEFINITIONS)
    assert offending("proofs/render", ("proofs.cli", *theorems)) == []


@pytest.mark.parametrize("path", THEOREM_FILES, ids=dotted)
def test_theorem_modules_import_neither_printers_nor_the_command_line(path):
    found = imported_modules(path)
    assert not [m for m in found if m.startswith(("proofs.render", "proofs.cli"))]


def test_no_theorem_module_imports_another_ones_private_names():
    found = []
    for path in THEOREM_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("proofs."):
                found += [
                    f"{dotted(path)} imports {node.module}.{a.name}"
                    for a in node.names
                    if a.name.startswith("_") and node.module != dotted(path)
                ]
    assert found == []


def test_module_10_never_builds_on_module_11():
    assert offending("proofs/theorems/sinusoidal", ("proofs.theorems.rope",)) == []


def test_the_registry_names_every_theorem_module_once_by_course_module():
    from proofs import registry

    listed = [registry.module_path(name) for name in registry.names()]
    # The papers' ledger (proofs.theorems.papers) lists its claims itself, not as course theorems.
    course = [m for m in THEOREM_MODULES if not m.startswith("proofs.theorems.papers.")]
    assert sorted(listed) == sorted(m for m in course if m not in DEFINITIONS)
    for module, package in ((10, "sinusoidal"), (11, "rope")):
        for name in registry.names(module):
            assert registry.module_path(name).startswith(f"proofs.theorems.{package}.")
            assert registry.module_of(name) == module


def test_numeric_twins_mirror_the_theorems():
    from proofs import registry

    twins = {p.stem for p in (ROOT / "numeric" / "checks").glob("*.py")} - {"__init__"}
    assert twins == {*registry.names(), *registry.ledger_names()}


def test_the_import_scan_sees_imports_in_functions_but_not_the_main_block(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\n"
        "def f():\n    from proofs.render import text\n"
        "if __name__ == '__main__':\n    from proofs.cli.main import run_theorem_module\n",
        encoding="utf-8",
    )
    found = imported_modules(sample)
    assert {"os", "proofs.render", "proofs.render.text"} <= found
    assert not any(m.startswith("proofs.cli") for m in found)


def test_numeric_packages_import_each_other_without_a_cycle():
    """numeric/checks and numeric/table_audit share kernels that sit below both (tables,
    angles, rotations); neither imports the other's package back."""
    packages = {
        path.parent.relative_to(ROOT).as_posix().replace("/", ".")
        for path in (ROOT / "numeric").rglob("__init__.py")
        if path.parent != ROOT / "numeric"
    }

    def package_of(module: str) -> str | None:
        inside = [p for p in packages if module == p or module.startswith(p + ".")]
        return max(inside, key=len, default=None)

    # A package may use its own subpackages (numeric.rope reads its methods' registry,
    # numeric.rope.methods); the cycles that count are between packages neither contains.
    edges: dict[str, set[str]] = {p: set() for p in packages}
    for package in packages:
        for path in (ROOT / package.replace(".", "/")).glob("*.py"):
            for name in imported_modules(path):
                other = package_of(name)
                if other and other != package and not other.startswith(package + "."):
                    edges[package].add(other)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(
            n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in edges[start]
        )

    assert [p for p in packages if reaches(p, p, set())] == []
