"""README.md and docs/ stay true: every command and path they name runs or exists.

- README.md is a front page (at most 250 lines) whose two commands are the ones CI runs.
- Every link and every repository path in backticks exists (a link's #anchor too).
- Every command in a ```sh block, and every `$ ` line of a ```text block, runs with the exit
  status the line gives (`# exit status N`, else 0); a transcript's shown lines (all but `...`)
  are lines the command prints. A command is one of `pe-proofs …` or `python -m proofs…`; other
  lines (`cd`, `latexmk`, the install line) and ```bash blocks, which need outside tools, are
  shown, not run. A command named in several places runs once. The notes and Coq commands and
  the runs of a whole module are slow checks.
- Every ```python block runs, in order per page, and prints the ```text block that follows it,
  if any.
- docs/reference/json.md lists exactly the fields each of its commands prints; the theorems and
  commands pages name every theorem and command; docs/layout.md is docs/make_layout.py's output.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from proofs.cli.main import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
INSTALL = (
    "python3 -m venv .venv && .venv/bin/pip install -e "
    "'.[test,plot,notebook,safetensors,myst]' && .venv/bin/pe-proofs"
)
TEST_COMMAND = ".venv/bin/python -m pytest"
NOTES_COMMANDS = {"latex", "markdown", "html", "notebook", "myst", "coq"}
EXIT = re.compile(r"\s+#\s*exit status (\d+)\s*$")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@dataclass(frozen=True)
class Command:
    """One command a page shows: where, the words, the exit status it promises, and the lines
    of output shown under it (a transcript's)."""

    page: str
    line: int
    text: str
    status: int
    shown: tuple[str, ...]
    elided: bool = False

    @property
    def words(self) -> list[str]:
        return shlex.split(self.text)

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}: {self.text[:70]}"


def _blocks(path: Path) -> list[tuple[str, str, int]]:
    """Each fenced block of a page: (info string, body, line number of its first body line)."""
    text = path.read_text(encoding="utf-8")
    return [(m[1], m[2], text.count("\n", 0, m.start()) + 2) for m in FENCE.finditer(text)]


def _runnable(text: str) -> bool:
    words = shlex.split(text)
    if words[0] == "pe-proofs":
        return True
    return (
        words[0] in ("python", "python3") and words[1:2] == ["-m"] and words[2].startswith("proofs")
    )


def _command(
    page: str, line: int, text: str, shown: tuple[str, ...] = (), elided: bool = False
) -> Command:
    status = 0
    if match := EXIT.search(text):
        status, text = int(match[1]), text[: match.start()]
    return Command(page, line, text.strip(), status, shown, elided)


def commands() -> list[Command]:
    """Every command the pages show, in page order."""
    found = []
    for path in PAGES:
        for info, body, first in _blocks(path):
            lines = body.splitlines()
            if info == "sh":
                for n, line in enumerate(lines):
                    if line.strip() and _runnable(line):
                        found.append(_command(rel(path), first + n, line))
            elif info == "text" and lines and lines[0].startswith("$ "):
                starts = [n for n, line in enumerate(lines) if line.startswith("$ ")]
                for n, end in zip(starts, [*starts[1:], len(lines)], strict=True):
                    body = lines[n + 1 : end]
                    shown = tuple(line for line in body if line not in ("...", "…"))
                    found.append(
                        _command(rel(path), first + n, lines[n][2:], shown, len(shown) < len(body))
                    )
    return found


COMMAND_LIST = commands()


def _slow(command: Command) -> bool:
    words = command.words
    if words[0] != "pe-proofs":
        return False
    rest = [w for w in words[1:] if not w.startswith("-")]
    if rest and rest[0] in NOTES_COMMANDS:
        return True
    # A whole module's run: pe-proofs alone, --module, --steps, or prove without names.
    return not rest or rest == ["prove"]


def _skip_reason(command: Command) -> str | None:
    words = command.words
    if len(words) > 1 and words[1] in ("html", "myst") and "--katex" not in words:
        dist_found = any(
            (Path(p) / "katex" / "dist" / "katex.min.js").is_file()
            for p in os.environ.get("NODE_PATH", "").split(os.pathsep)
            if p
        )
        if not dist_found:
            return "KaTeX (the katex npm package on NODE_PATH) is not installed"
    return None


_RUNS: dict[str, subprocess.CompletedProcess[str]] = {}


def run(command: Command, workdir: Path) -> subprocess.CompletedProcess[str]:
    """The command run once per session, in a fresh folder holding a link to tests/ (so the
    pages' data paths resolve, and --out folders land outside the tree)."""
    if command.text not in _RUNS:
        folder = workdir / f"run{len(_RUNS)}"
        folder.mkdir()
        (folder / "tests").symlink_to(ROOT / "tests")
        words = command.words
        argv = (
            [sys.executable, "-m", "proofs", *words[1:]]
            if words[0] == "pe-proofs"
            else [sys.executable, *words[1:]]
        )
        env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
        env |= {"PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}
        _RUNS[command.text] = subprocess.run(
            argv, cwd=folder, env=env, capture_output=True, text=True, timeout=3600, check=False
        )
    return _RUNS[command.text]


@pytest.fixture(scope="session")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("docs")


# --- the front page ---------------------------------------------------------------------------


def test_readme_is_a_front_page():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 250


def test_readme_gives_the_two_commands_verbatim_and_ci_runs_the_second():
    blocks = [body.strip() for info, body, _ in _blocks(README) if info == "sh"]
    assert INSTALL in blocks and TEST_COMMAND in blocks
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert TEST_COMMAND in ci.splitlines()


def test_the_pages_show_commands_to_run():
    # The parser above found the pages' commands: a change of fence or prompt cannot empty it.
    assert len(COMMAND_LIST) >= 20
    assert any(c.page == "README.md" for c in COMMAND_LIST)


# --- paths and links --------------------------------------------------------------------------


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {_slug(m[1]) for m in re.finditer(r"^#+ (.*)$", text, re.M)}


def links() -> list[tuple[str, str]]:
    found = []
    for path in PAGES:
        text = FENCE.sub("", path.read_text(encoding="utf-8"))
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if not re.match(r"[a-z]+:", target):
                found.append((rel(path), target))
    return found


@pytest.mark.parametrize(("page", "target"), links(), ids=lambda v: v)
def test_every_link_leads_somewhere(page, target):
    file, _, anchor = target.partition("#")
    where = (ROOT / page).parent / file if file else ROOT / page
    assert where.exists(), f"{page} links to {target}, which does not exist"
    if anchor:
        assert anchor in _anchors(where), f"{page} links to {target}: no such heading"


PATH = re.compile(r"`((?:proofs|numeric|tests|benchmarks|docs|\.ci)/[^`\s]*)`")


# A report of past runs names the files as they were at the commits it cites.
HISTORICAL = {"docs/mutation-testing.md"}
# A recipe shows files a reader creates, and code that runs only once they exist: the test named
# here follows the recipe in a copy of the tree, and this file checks that it reads the page.
RECIPES = {
    "docs/how-to/add-a-rule.md": "tests/test_adding_a_rule.py",
    "docs/how-to/add-a-scaling-method.md": "tests/numeric/test_adding_a_scaling_method.py",
}


def test_every_recipe_is_followed_by_its_test():
    for page, test in RECIPES.items():
        if (ROOT / page).exists():
            assert Path(page).name in (ROOT / test).read_text(encoding="utf-8"), (page, test)


def created_by_recipe(page: str, name: str) -> bool:
    """name is a file the recipe on page has its reader create, and that its test creates."""
    test = ROOT / RECIPES.get(page, "-")
    return test.is_file() and Path(name).name in test.read_text(encoding="utf-8")


def named_paths() -> list[tuple[str, str]]:
    found = set()
    for path in PAGES:
        if rel(path) in HISTORICAL:
            continue
        for name in PATH.findall(path.read_text(encoding="utf-8")):
            # Patterns (`numeric/checks/<name>.py`) stand for files, not one file.
            if not re.search(r"[<>*]|\.\.\.|…", name):
                found.add((rel(path), name))
    return sorted(found)


@pytest.mark.parametrize(("page", "name"), named_paths(), ids=lambda v: v)
def test_every_path_named_exists(page, name):
    if not (ROOT / name).exists() and created_by_recipe(page, name):
        pytest.skip(f"{name} is what {page} has its reader create; {RECIPES[page]} creates it")
    assert (ROOT / name).exists(), f"{page} names {name}, which does not exist"


DOTTED = re.compile(r"`((?:proofs|numeric)\.[A-Za-z_][\w.]*)`")


def dotted_names() -> list[tuple[str, str]]:
    found = set()
    for path in PAGES:
        if rel(path) not in HISTORICAL:
            found |= {(rel(path), name) for name in DOTTED.findall(path.read_text("utf-8"))}
    return sorted(found)


@pytest.mark.parametrize(("page", "name"), dotted_names(), ids=lambda v: v)
def test_every_python_name_named_exists(page, name):
    """`numeric.checks.rotation.rotation_table`: the longest importable module, then attributes."""
    parts = name.split(".")
    value, cut = importlib.import_module(parts[0]), 1
    # A sub-module is imported while the name names one (a module's attribute ends it).
    while cut < len(parts) and hasattr(value, "__path__"):
        try:
            value = importlib.import_module(".".join(parts[: cut + 1]))
        except ModuleNotFoundError:
            break
        cut += 1
    for attribute in parts[cut:]:
        assert hasattr(value, attribute), f"{page} names {name}: no {attribute}"
        value = getattr(value, attribute)


# --- commands ---------------------------------------------------------------------------------


def _params(slow: bool) -> list:
    return [
        pytest.param(c, id=c.id, marks=[pytest.mark.slow, pytest.mark.long(15)] if slow else [])
        for c in COMMAND_LIST
        if _slow(c) == slow
    ]


def check(command: Command, workdir: Path) -> None:
    if reason := _skip_reason(command):
        pytest.skip(reason)
    done = run(command, workdir)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == command.status, done.stderr
    printed = [line.rstrip() for line in done.stdout.splitlines()]
    missing = [line for line in command.shown if line.rstrip() not in printed]
    assert not missing, f"{command.id} does not print: {missing}"
    if command.shown and not command.elided:
        # A whole transcript is the whole output.
        assert [line.rstrip() for line in command.shown] == printed


@pytest.mark.parametrize("command", _params(slow=False))
def test_every_command_runs_as_shown(command, workdir):
    check(command, workdir)


@pytest.mark.parametrize("command", _params(slow=True))
def test_every_long_command_runs_as_shown(command, workdir):
    check(command, workdir)


def python_blocks() -> list:
    found = []
    for path in PAGES:
        if rel(path) in RECIPES:
            continue  # its test runs its blocks, in a copy of the tree with the files created
        blocks = _blocks(path)
        chain = [
            (body, blocks[j + 1][1] if j + 1 < len(blocks) and blocks[j + 1][0] == "text" else None)
            for j, (info, body, _) in enumerate(blocks)
            if info == "python"
        ]
        found += [
            pytest.param(rel(path), chain, n, id=f"{rel(path)} block {n}")
            for n in range(len(chain))
        ]
    return found


@pytest.mark.parametrize(("page", "chain", "number"), python_blocks())
def test_every_python_block_runs_and_prints_what_follows_it(page, chain, number):
    namespace: dict = {}
    # Later blocks may use names from earlier ones, as a reader running them in order would.
    for body, _ in chain[:number]:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(body, f"{page} python block", "exec"), namespace)
    body, shown = chain[number]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(body, f"{page} python block {number}", "exec"), namespace)
    if shown is not None and not shown.startswith("$ "):
        assert printed.getvalue().split() == shown.split()


# --- reference pages --------------------------------------------------------------------------


def json_sections() -> list:
    """json.md's sections: (heading, its command, {field: required})."""
    page = ROOT / "docs" / "reference" / "json.md"
    text = page.read_text(encoding="utf-8")
    found = []
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        heading = section.splitlines()[0]
        sh = [body.strip() for info, body, _ in _blocks_of(section) if info == "sh"]
        fields = {
            m[1]: not m[2].startswith("only ")
            for m in re.finditer(r"^\| `(\w+)` \| (.*) \|$", section, re.M)
        }
        if sh:
            found.append(pytest.param(_command(rel(page), 0, sh[0]), fields, id=heading))
    return found


def _blocks_of(text: str) -> list[tuple[str, str, int]]:
    return [(m[1], m[2], 0) for m in FENCE.finditer(text)]


@pytest.mark.parametrize(("command", "fields"), json_sections())
def test_json_reference_lists_exactly_the_fields_printed(command, fields, workdir):
    done = run(command, workdir)
    assert done.returncode == command.status, done.stderr
    printed = json.loads(done.stdout)
    objects = printed if isinstance(printed, list) else [printed]
    for obj in objects:
        assert not set(obj) - set(fields), f"undocumented: {set(obj) - set(fields)}"
        required = {f for f, always in fields.items() if always}
        assert not required - set(obj), f"documented but not printed: {required - set(obj)}"


def test_the_commands_page_names_every_command():
    text = (ROOT / "docs" / "reference" / "commands.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `pe-proofs (\w+)", text, re.M))
    assert listed >= set(COMMANDS)


def test_the_layout_page_is_what_its_script_writes():
    spec = importlib.util.spec_from_file_location("make_layout", ROOT / "docs" / "make_layout.py")
    assert spec is not None and spec.loader is not None
    make_layout = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_layout)
    written = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
    assert written == make_layout.render(), "run: python docs/make_layout.py"
