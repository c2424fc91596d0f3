"""An installed pe-proofs has every file it reads: each non-Python file under proofs/ and
numeric/ (the lessons' prose, the hand-written Coq modules) matches a package-data pattern of
pyproject.toml, so `pip install .` (not only the editable install) ships it."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
    "setuptools"
]


def _data_files() -> list[Path]:
    return sorted(
        path
        for package in ("proofs", "numeric")
        for path in (ROOT / package).rglob("*")
        if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts
    )


def _shipped(path: Path, package_data: dict[str, list[str]]) -> bool:
    """Whether a package-data pattern of path's package or of one above it matches path."""
    relative = path.relative_to(ROOT)
    for package, patterns in package_data.items():
        folder = Path(*package.split("."))
        if folder in relative.parents:
            inside = relative.relative_to(folder).as_posix()
            # setuptools' glob: * does not cross a folder, so the pattern's depth must match.
            if any(
                fnmatch.fnmatch(inside, p) and inside.count("/") == p.count("/") for p in patterns
            ):
                return True
    return False


def test_every_data_file_is_package_data() -> None:
    files = _data_files()
    assert any(p.suffix == ".md" for p in files) and any(p.suffix == ".v" for p in files)
    data = SETUPTOOLS["package-data"]
    assert [p.relative_to(ROOT).as_posix() for p in files if not _shipped(p, data)] == []


def test_a_pattern_that_misses_a_folder_level_is_caught() -> None:
    lesson = next(p for p in _data_files() if p.suffix == ".md" and "lesson" in p.parts)
    # The patterns before the lessons moved into one folder per module.
    assert not _shipped(lesson, {**SETUPTOOLS["package-data"], "proofs": ["lesson/*.md"]})
