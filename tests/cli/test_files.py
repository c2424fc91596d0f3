"""proofs.cli.files: atomic writes, and never over a file pe-proofs did not write."""

from __future__ import annotations

import json
import os

import pytest

from proofs.cli import files
from proofs.cli.files import MANIFEST, write_files
from proofs.cli.usage import UsageError


def test_writes_files_and_a_manifest_of_their_hashes(tmp_path):
    out = tmp_path / "notes"
    changed = write_files(out, {"a.tex": b"alpha", "b.md": b"beta"})
    assert sorted(changed) == ["a.tex", "b.md"]
    assert (out / "a.tex").read_bytes() == b"alpha"
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["files"]["a.tex"] == [files.sha256(b"alpha")]
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


def test_unchanged_content_is_not_rewritten(tmp_path):
    write_files(tmp_path, {"a.tex": b"alpha"})
    before = (tmp_path / "a.tex").stat().st_mtime_ns
    manifest_before = (tmp_path / MANIFEST).read_bytes()
    assert write_files(tmp_path, {"a.tex": b"alpha"}) == []
    assert (tmp_path / "a.tex").stat().st_mtime_ns == before
    assert (tmp_path / MANIFEST).read_bytes() == manifest_before


def test_our_own_file_is_replaced(tmp_path):
    write_files(tmp_path, {"a.tex": b"old"})
    assert write_files(tmp_path, {"a.tex": b"new"}) == ["a.tex"]
    assert (tmp_path / "a.tex").read_bytes() == b"new"


def test_refuses_a_file_it_did_not_write_and_writes_nothing(tmp_path):
    (tmp_path / "main.tex").write_bytes(b"my own notes")
    with pytest.raises(UsageError, match="did not write it"):
        write_files(tmp_path, {"a.tex": b"alpha", "main.tex": b"generated"})
    assert (tmp_path / "main.tex").read_bytes() == b"my own notes"
    assert not (tmp_path / "a.tex").exists()
    assert not (tmp_path / MANIFEST).exists()


def test_refuses_a_file_edited_since_it_was_written(tmp_path):
    write_files(tmp_path, {"a.tex": b"alpha"})
    (tmp_path / "a.tex").write_bytes(b"alpha, with a hand edit")
    with pytest.raises(UsageError, match="changed since pe-proofs wrote it"):
        write_files(tmp_path, {"a.tex": b"beta"})
    assert (tmp_path / "a.tex").read_bytes() == b"alpha, with a hand edit"


def test_never_deletes_files_it_no_longer_produces(tmp_path):
    write_files(tmp_path, {"a.tex": b"alpha", "b.tex": b"beta"})
    write_files(tmp_path, {"a.tex": b"alpha2"})
    assert (tmp_path / "b.tex").read_bytes() == b"beta"


def test_interrupted_run_leaves_whole_files_that_are_still_ours(tmp_path, monkeypatch):
    write_files(tmp_path, {"a.tex": b"a1", "b.tex": b"b1"})
    real_replace = os.replace
    calls = []

    def failing_replace(src, dst):
        calls.append(dst)
        if str(dst).endswith("b.tex"):
            raise KeyboardInterrupt  # the run is stopped halfway
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(KeyboardInterrupt):
        write_files(tmp_path, {"a.tex": b"a2", "b.tex": b"b2"})
    monkeypatch.setattr(os, "replace", real_replace)
    assert (tmp_path / "a.tex").read_bytes() == b"a2"
    assert (tmp_path / "b.tex").read_bytes() == b"b1"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    # Both files are recognised as ours: the next run completes.
    assert sorted(write_files(tmp_path, {"a.tex": b"a2", "b.tex": b"b2"})) == ["b.tex"]
    assert json.loads((tmp_path / MANIFEST).read_text())["files"]["a.tex"] == [files.sha256(b"a2")]


@pytest.mark.parametrize(
    "name",
    ["../evil.tex", "a/b/c.tex", "../x/a.tex", ".hidden/a.js", "/a.tex", ".hidden", MANIFEST, ""],
)
def test_bad_names_are_refused(tmp_path, name):
    with pytest.raises(ValueError, match="not allowed"):
        write_files(tmp_path, {name: b"x"})


def test_one_folder_is_made_and_a_linked_folder_refused(tmp_path):
    # A MyST project keeps KaTeX in _static/.
    assert write_files(tmp_path / "book", {"_static/k.js": b"k", "conf.py": b"c"}) == [
        "_static/k.js",
        "conf.py",
    ]
    assert (tmp_path / "book" / "_static" / "k.js").read_bytes() == b"k"
    assert write_files(tmp_path / "book", {"_static/k.js": b"k2"}) == ["_static/k.js"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "_static").symlink_to(elsewhere)
    with pytest.raises(UsageError, match="is not a folder"):
        write_files(tmp_path / "other", {"_static/k.js": b"k"})
    assert not list(elsewhere.iterdir())


def test_a_foreign_manifest_is_refused(tmp_path):
    (tmp_path / MANIFEST).write_text('{"something": "else"}')
    with pytest.raises(UsageError, match="not a pe-proofs manifest"):
        write_files(tmp_path, {"a.tex": b"x"})


def test_output_path_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "notes").write_text("x")
    with pytest.raises(UsageError, match="not a directory"):
        write_files(tmp_path / "notes", {"a.tex": b"x"})


def test_a_symlink_is_never_followed(tmp_path):
    target = tmp_path / "elsewhere.txt"
    target.write_text("precious")
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.tex").symlink_to(target)
    with pytest.raises(UsageError, match="not a regular file"):
        write_files(out, {"a.tex": b"x"})
    assert target.read_text() == "precious"
