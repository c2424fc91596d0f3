"""Nothing lost: a real Ctrl-C (SIGINT) leaves every output file whole, a closed pipe is quiet,
and files pe-proofs did not write are never overwritten or deleted."""

from __future__ import annotations

import contextlib
import io
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from proofs.cli.files import MANIFEST
from proofs.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
# A generous guard that only catches a hang; not a performance assertion.
HANG_GUARD = 120
# Only command modules import this, and build_parser imports them inside main()'s try, where
# Ctrl-C is handled; before -X importtime reports it, Python is still starting up (and the
# command modules themselves, loaded by importlib.import_module, are not reported).
_READY = "proofs.cli.notes_output"
# The notes verify every theorem (about half a minute), so the tests that run them are slow.
# The author edition: its appendix of checks states the whole-vector parts at --d-model.
NOTES = ["markdown", "--for", "author"]


def _quiet_main(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(argv)
    return status, err.getvalue()


def _contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def verified_at_6() -> dict:
    """The notes' theorems verified at d_model 6, once: every in-process write at d_model 6 (the
    new version, and each run that completes an interrupted rewrite) reuses them, since what
    those runs test is the writing. The interrupted runs are fresh processes and verify."""
    return {}


def _write_at_6(out: Path, verified: dict) -> tuple[int, str]:
    """pe-proofs' own notes run over out at d_model 6, verifying only the first time."""
    from proofs import registry

    real = registry.run

    def once(chosen, *, d_model, **options):
        key = (tuple(chosen), d_model)
        if key not in verified:
            verified[key] = list(real(chosen, d_model=d_model, **options))
        return iter(verified[key])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "run", once)
        return _quiet_main([*NOTES, "--out", str(out), "--d-model", "6"])


@pytest.fixture(scope="module")
def versions(
    tmp_path_factory: pytest.TempPathFactory, verified_at_6: dict
) -> tuple[Path, dict, dict]:
    """A notes folder written at d_model 4 (old), and what d_model 6 writes (new)."""
    old = tmp_path_factory.mktemp("old")
    new = tmp_path_factory.mktemp("new")
    assert _quiet_main([*NOTES, "--out", str(old), "--d-model", "4"])[0] == 0
    assert _write_at_6(new, verified_at_6)[0] == 0
    old_files, new_files = _contents(old), _contents(new)
    # The whole-vector statements (the appendix's table of them, at least) depend on d_model:
    # an interrupted run must leave each such file wholly old or wholly new.
    assert any(old_files[name] != new_files.get(name) for name in old_files)
    return old, old_files, new_files


def _interrupted_run(out: Path, wait: float | None) -> tuple[int, list[str]]:
    """Start a rewrite of out at d_model 6 and send SIGINT: `wait` seconds after the run is
    inside main(), or (wait=None) the moment the folder starts to change. Returns
    (exit status, stderr lines other than -X importtime's)."""
    before = _state(out)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "proofs",
            *NOTES,
            "--out",
            str(out),
            "--d-model",
            "6",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        # A shell that runs jobs in the background ignores SIGINT, and children inherit that.
        preexec_fn=_default_sigint,
    )
    lines: list[str] = []
    ready = threading.Event()

    def drain() -> None:
        for line in proc.stderr:
            lines.append(line)
            if line.rstrip().endswith(_READY):
                ready.set()
        ready.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        assert ready.wait(HANG_GUARD)
        if wait is None:
            deadline = time.monotonic() + HANG_GUARD
            while proc.poll() is None and time.monotonic() < deadline and _state(out) == before:
                time.sleep(0.0002)
        else:
            time.sleep(wait)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        status = proc.wait(HANG_GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(HANG_GUARD)
    return status, [line for line in lines if not line.startswith("import time:")]


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _state(out: Path) -> tuple[list[str], int]:
    """What changes first when a run starts writing: the listing (a temporary file appears)
    or the manifest's modification time."""
    return sorted(p.name for p in out.iterdir()), (out / MANIFEST).stat().st_mtime_ns


def _check_whole(out: Path, old: dict, new: dict) -> None:
    """Every file is exactly its old or its new version, and nothing else is there."""
    now = _contents(out)
    assert set(now) <= set(old) | set(new), sorted(now)
    for name, data in now.items():
        assert data in (old.get(name), new.get(name)), f"{name} is neither old nor new"


@pytest.mark.slow
@pytest.mark.parametrize("wait", [None, 0.0, 0.15])
def test_ctrl_c_leaves_every_file_whole(versions, verified_at_6, tmp_path, wait) -> None:
    old_dir, old, new = versions
    out = tmp_path / "notes"
    shutil.copytree(old_dir, out)
    status, err = _interrupted_run(out, wait)
    _check_whole(out, old, new)
    if err:
        # Interrupted: 130, or death by SIGINT when the signal lands while Python is already
        # shutting down after the message (a shell reports both as 130).
        assert err == ["pe-proofs: interrupted\n"] and status in (130, -signal.SIGINT)
    else:  # the signal came after the run had finished (possibly while Python was exiting)
        assert status in (0, -signal.SIGINT) and _contents(out) == new
    if wait == 0.0:  # sent as the command starts: it cannot have finished
        assert status in (130, -signal.SIGINT) and _contents(out) == old
    # The files are still recognisably pe-proofs' own: a full run completes the rewrite.
    assert _write_at_6(out, verified_at_6) == (0, "")
    assert _contents(out) == new


@pytest.mark.slow
@pytest.mark.parametrize("wait", [0.05 * n for n in range(1, 16)])
def test_ctrl_c_at_many_moments(versions, verified_at_6, tmp_path, wait) -> None:
    test_ctrl_c_leaves_every_file_whole(versions, verified_at_6, tmp_path, wait)


def test_keyboard_interrupt_in_any_command_is_one_line_and_130(monkeypatch, capsys) -> None:
    def interrupted(args) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr("proofs.cli.list.run", interrupted)
    assert main(["list"]) == 130
    assert capsys.readouterr().err == "pe-proofs: interrupted\n"


@pytest.mark.slow
def test_a_closed_pipe_is_quiet() -> None:
    """`pe-proofs tables ... | head -1`: exit 0, nothing on stderr."""
    positions = ",".join(map(str, range(3000)))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "proofs",
            "tables",
            "--format",
            "csv",
            "--table",
            "rotation",
            "--max-len",
            "4000",
            "--positions",
            positions,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout.readline()
    proc.stdout.close()
    status = proc.wait(HANG_GUARD)
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert (status, err) == (0, "")


@pytest.mark.slow
def test_a_foreign_file_is_refused_untouched_and_others_survive(tmp_path, capsys) -> None:
    out = tmp_path / "notes"
    out.mkdir()
    (out / "08-ramp.md").write_text("my own ramp notes\n")
    (out / "keep.txt").write_text("unrelated\n")
    assert main(["markdown", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refusing to overwrite" in err and "08-ramp.md" in err
    assert _contents(out) == {"keep.txt": b"unrelated\n", "08-ramp.md": b"my own ramp notes\n"}
    # A successful run next to a foreign file leaves it alone too.
    (out / "08-ramp.md").unlink()
    assert main(["markdown", "--out", str(out)]) == 0
    assert (out / "keep.txt").read_text() == "unrelated\n"


@pytest.mark.slow
def test_a_foreign_main_tex_is_refused_untouched(tmp_path, capsys) -> None:
    (tmp_path / "main.tex").write_bytes(b"\\documentclass{article} % mine\n")
    assert main(["latex", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refusing to overwrite" in err and "main.tex" in err
    assert _contents(tmp_path) == {"main.tex": b"\\documentclass{article} % mine\n"}


def test_a_ctrl_c_during_the_writes_is_held_until_they_are_done(tmp_path, monkeypatch) -> None:
    """A real SIGINT raised between two atomic writes: every file is still written, no
    temporary file is left, and the interrupt then arrives as KeyboardInterrupt."""
    from proofs.cli import files

    files.write_files(tmp_path, {"a.md": b"old a", "b.md": b"old b"})
    real_write = files.atomic_write
    calls = []

    def write_then_interrupt(path: Path, data: bytes) -> None:
        real_write(path, data)
        calls.append(path.name)
        if len(calls) == 2:  # after the pending manifest and the first file
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(files, "atomic_write", write_then_interrupt)
    # Python's own handler, whatever this process inherited: a shell starts background jobs
    # with SIGINT ignored, and an ignored Ctrl-C is rightly dropped.
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            files.write_files(tmp_path, {"a.md": b"new a", "b.md": b"new b"})
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert calls == [MANIFEST, "a.md", "b.md", MANIFEST]
    assert _contents(tmp_path)["a.md"] == b"new a" and _contents(tmp_path)["b.md"] == b"new b"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    monkeypatch.setattr(files, "atomic_write", real_write)
    assert files.write_files(tmp_path, {"a.md": b"new a", "b.md": b"new b"}) == []
