"""docs/input-errors.md cannot rot: every row is re-run and must still give its documented outcome."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "make_input_errors", ROOT / "docs" / "make_input_errors.py"
)
assert _spec is not None and _spec.loader is not None
make = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = make  # dataclasses look their module up there
_spec.loader.exec_module(make)

_ROW = re.compile(r"^\| `(?P<input>.*)` \| (?P<outcome>[^|]+) \| (?:`(?P<message>.*)`)? \|$")


def _documented() -> dict[str, tuple[str, str]]:
    rows = {}
    for line in make.DOC.read_text(encoding="utf-8").splitlines():
        if match := _ROW.match(line):
            unescape = lambda text: (text or "").replace("\\|", "|")  # noqa: E731
            rows[unescape(match["input"])] = (match["outcome"], unescape(match["message"]))
    return rows


DOCUMENTED = _documented()
ROWS = make.rows()


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("input-errors")
    make.make_scratch(folder)
    return folder


def test_the_page_lists_exactly_the_generator_rows() -> None:
    assert len(DOCUMENTED) > 100
    assert sorted(DOCUMENTED) == sorted(row.input for row in ROWS)


def test_the_page_is_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/input-errors.md)" in readme


@pytest.mark.parametrize("row", ROWS, ids=[row.input[:60] for row in ROWS])
def test_row_still_gives_its_documented_outcome(row, scratch: Path) -> None:
    outcome, message = make.run(row, scratch)
    assert (outcome, make.comparable(message)) == (
        DOCUMENTED[row.input][0],
        make.comparable(DOCUMENTED[row.input][1]),
    )
    # And the rules every row must follow: one line, status 2, or ValueError/TypeError.
    if row.call is None:
        assert outcome == "exit 2"
        assert message.startswith("pe-proofs: error: ") and "\n" not in message
        assert "Traceback" not in message
    else:
        assert outcome in ("ValueError", "TypeError") and "\n" not in message
