"""Writing output files safely: atomically, and never over a file pe-proofs did not write.

A single file the user names (tables --plot FILE) is written by write_one_file: atomically, no
manifest, and the command refuses an existing file unless given --force. Output directories
(notes, tables --out) work as follows.

How we tell our files from others: every output directory holds a manifest,
.pe-proofs-manifest.json, listing each file pe-proofs wrote there with the SHA-256 of what it
wrote. An existing file may be replaced only if the manifest lists it and its content still
has a listed hash; a file that is not listed (someone else's) or that changed since (edited by
hand) is refused before anything is written. Nothing is ever deleted.

Each file is written to a temporary file in the same directory and moved into place with
os.replace, so a reader sees the old file or the new one, never half of one. The manifest is
updated first to accept both the old and the new content of every file about to change, and
narrowed to the new content once all are written; an interrupted run therefore leaves every
file recognisably ours. A Ctrl-C that arrives during the (millisecond) write phase is held
until the phase is done, so it never leaves a stray temporary file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import signal
import tempfile
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path

from proofs.cli.usage import UsageError

MANIFEST = ".pe-proofs-manifest.json"
MAX_MANIFEST_BYTES = 2**24  # a manifest lists about 100 bytes a file
_TOOL = "pe-proofs"
# A file name, or one folder and a file name (a MyST project's _static/katex.min.js).
_NAME = re.compile(r"(?:[A-Za-z0-9_][A-Za-z0-9._-]*/)?[A-Za-z0-9_][A-Za-z0-9._-]*")


def sha256(data: bytes) -> str:
    """The hex SHA-256 of data."""
    return hashlib.sha256(data).hexdigest()


def _check_name(name: str) -> None:
    if not _NAME.fullmatch(name) or name == MANIFEST:
        raise ValueError(
            f"output file name {name!r} is not allowed: use letters, digits, '.', '_' and '-', "
            "with at most one folder (FOLDER/NAME)"
        )


def _check_folders(root: Path, names: list[str]) -> list[Path]:
    """The folders the names put files in; UsageError if one exists and is not a real folder
    (a link to a folder would take the files out of root)."""
    folders = sorted({root / name.rpartition("/")[0] for name in names if "/" in name})
    for folder in folders:
        if os.path.lexists(folder) and (folder.is_symlink() or not folder.is_dir()):
            raise UsageError(f"refusing to write into {folder}: it is not a folder")
    return folders


def read_manifest(root: Path) -> dict[str, list[str]]:
    """name -> accepted SHA-256 hashes, from root's manifest ({} when there is none).

    Only a regular file of at most MAX_MANIFEST_BYTES is read: a named pipe is not waited on,
    a link to a device not read without end."""
    from numeric.audit.errors import InputError
    from numeric.audit.regular_file import read_small_file

    path = root / MANIFEST
    if not os.path.lexists(path):
        return {}
    try:
        raw = read_small_file(path, MAX_MANIFEST_BYTES, "a pe-proofs manifest")
    except InputError as error:
        raise UsageError(f"{error}; refusing to write into {root}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
        files = data["files"] if data.get("tool") == _TOOL else None
        if not isinstance(files, dict) or not all(
            isinstance(k, str) and isinstance(v, list) and all(isinstance(h, str) for h in v)
            for k, v in files.items()
        ):
            raise ValueError
    except (ValueError, KeyError, AttributeError, UnicodeDecodeError, RecursionError):
        raise UsageError(
            f"{path} is not a pe-proofs manifest; refusing to write into {root}"
        ) from None
    return {k: list(v) for k, v in files.items()}


def _manifest_bytes(files: Mapping[str, list[str]]) -> bytes:
    body = {"tool": _TOOL, "files": {k: sorted(set(v)) for k, v in sorted(files.items())}}
    return (json.dumps(body, indent=2, sort_keys=True) + "\n").encode("utf-8")


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write(path: Path, data: bytes) -> None:
    """Write data to path via a temporary file in the same directory and os.replace."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _umask_mode())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _current_hash(root: Path, name: str, manifest: Mapping[str, list[str]]) -> str | None:
    """The hash of an existing file we may replace, None if absent; ValueError if not ours."""
    path = root / name
    if not os.path.lexists(path):
        return None
    if path.is_symlink() or not path.is_file():
        raise UsageError(
            f"refusing to overwrite {path}: it is not a regular file written by pe-proofs"
        )
    if name not in manifest:
        raise UsageError(
            f"refusing to overwrite {path}: pe-proofs did not write it (not in {MANIFEST})"
        )
    digest = sha256(path.read_bytes())
    if digest not in manifest[name]:
        raise UsageError(f"refusing to overwrite {path}: it changed since pe-proofs wrote it")
    return digest


def check_directory(root: Path | str, name: str = "output directory") -> Path:
    """root as a Path if it is, or can be created as, a writable directory; ValueError otherwise.

    name is what the message blames, e.g. "--out". Nothing is created.
    """
    text = os.fspath(root)
    if "\0" in text:
        raise UsageError(f"{name} must be a path without NUL bytes, got {text!r}")
    root = Path(text)
    try:
        # The nearest part of the path that exists must be a directory we may write into.
        existing = next(p for p in (root, *root.parents) if os.path.lexists(p))
        if not existing.is_dir():
            raise UsageError(
                f"{name} must be a directory or a path that can be created as one, "
                f"but {existing} is not a directory"
            )
        if not os.access(existing, os.W_OK | os.X_OK):
            raise UsageError(f"{name} must be a writable directory, but {existing} is not writable")
    except OSError as exc:
        raise UsageError(f"{name} {text!r} cannot be used: {exc.strerror or exc}") from None
    return root


def write_files(root: Path | str, files: Mapping[str, bytes]) -> list[str]:
    """Write every name -> content of files into root; return the names whose content changed.

    Every existing file is checked before anything is written, so a refusal (ValueError)
    leaves the directory as it was. Files with unchanged content are not touched.
    """
    root = check_directory(root)
    for name in files:
        _check_name(name)
    root.mkdir(parents=True, exist_ok=True)
    for folder in _check_folders(root, list(files)):
        folder.mkdir(exist_ok=True)
    manifest = read_manifest(root)
    current = {name: _current_hash(root, name, manifest) for name in files}
    new = {name: sha256(data) for name, data in files.items()}
    changed = [name for name in files if current[name] != new[name]]
    if not changed and all(manifest.get(n) == [new[n]] for n in files):
        return []
    # Accept old and new content while files are being replaced, then only the new.
    pending = dict(manifest)
    for name in changed:
        pending[name] = [h for h in (current[name], new[name]) if h is not None]
    final = dict(manifest)
    final.update({name: [new[name]] for name in files})
    with _interrupt_deferred():
        atomic_write(root / MANIFEST, _manifest_bytes(pending))
        for name in changed:
            atomic_write(root / name, files[name])
        atomic_write(root / MANIFEST, _manifest_bytes(final))
    return changed


def write_one_file(path: Path, data: bytes) -> None:
    """Write one file the user named (such as --plot FILE) atomically, with no manifest beside it.

    Whether an existing file may be replaced is the caller's question to the user (--force);
    a manifest would only litter the user's folder.
    """
    with _interrupt_deferred():
        atomic_write(path, data)


@contextlib.contextmanager
def _interrupt_deferred() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) until the block is done, then deliver it.

    The writes take milliseconds; finishing them means an interrupt can never leave a stray
    temporary file (one created but not yet known to atomic_write) or a half-updated manifest.
    """
    # Handlers can be changed only from the main thread, and restored only if set from Python.
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is None
    ):
        yield
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        if callable(previous):
            previous(signal.SIGINT, None)
        elif previous == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)
