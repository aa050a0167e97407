"""Atomic checkpoints (docs/architecture.md, "Run store"): a kill at any moment leaves the last one loadable.

Layout under ``<run_dir>/checkpoints/``::

    step-<N>/             committed checkpoints: the files plus manifest.json (sha256 and size per file)
    step-<N>.tmp-<pid>/   a checkpoint being written (ignored by readers; removed when its pid is gone)
    step-<N>.old-<pid>/   a committed step-<N> moved aside while the same step is saved again;
                          removed after the commit, or once its pid is gone (put back as step-<N>
                          if the writer was killed before the new step-<N> was in place)
    latest                pointer file: "step-<N>", replaced atomically after each commit

Saving writes every file into ``step-<N>.tmp-<pid>/``, fsyncs the files and the folder, renames the
folder to ``step-<N>`` with ``os.replace`` (atomic on POSIX), then replaces ``latest``. Only after that
are older checkpoints beyond ``keep`` deleted, so there is always a committed checkpoint on disk.
``paddle.save`` alone is not atomic: a kill during an overwrite left a truncated file
(docs/paddle-notes.md, "paddle.save is not atomic").

Resuming trusts nothing but the manifest: :meth:`CheckpointStore.latest_valid` takes the newest
``step-<N>`` whose every file matches its recorded sha256 and size. This module does not import Paddle;
what goes into the files is the caller's business (see :mod:`workbench.training.loop`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

from workbench.runs import atomic_write_text

CHECKPOINT_FORMAT = 1
MANIFEST = "manifest.json"
POINTER = "latest"
_STEP_RE = re.compile(r"step-(\d+)")
_TMP_RE = re.compile(r"step-(\d+)\.tmp-(\d+)")
_OLD_RE = re.compile(r"step-(\d+)\.old-(\d+)")

Writer = Callable[[Path], None]
"""Writes one file of a checkpoint at the given path."""


@dataclass(frozen=True)
class CheckpointInfo:
    """A committed checkpoint folder and its manifest."""

    path: Path
    step: int
    manifest: dict[str, Any]

    def file(self, name: str) -> Path:
        return self.path / name


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _fsync_file(path: Path) -> None:
    with open(path, "rb") as fh:
        os.fsync(fh.fileno())


def _fsync_dir(path: Path) -> None:
    """Make a rename or a new entry in ``path`` durable (best effort where directories can't be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_manifest(path: Path) -> dict[str, Any]:
    """The manifest of a checkpoint folder; ``ValueError`` when missing or malformed."""
    try:
        data = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{path / MANIFEST}: missing") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path / MANIFEST}: unreadable ({exc})") from None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("files"), dict)
        or not isinstance(data.get("step"), int)
    ):
        raise ValueError(f"{path / MANIFEST}: not a checkpoint manifest")
    return data


def verify_checkpoint(path: Path) -> list[str]:
    """Problems with a checkpoint folder (empty list: every file matches its manifest entry)."""
    try:
        manifest = read_manifest(path)
    except ValueError as exc:
        return [str(exc)]
    problems: list[str] = []
    for name, entry in manifest["files"].items():
        file = path / name
        if not isinstance(entry, dict) or "/" in name or name == MANIFEST:
            problems.append(f"{file}: bad manifest entry")
            continue
        try:
            size = file.stat().st_size
            if size != entry.get("bytes"):
                problems.append(f"{file}: {size} bytes, manifest says {entry.get('bytes')}")
            elif sha256_file(file) != entry.get("sha256"):
                problems.append(f"{file}: sha256 differs from the manifest")
        except FileNotFoundError:
            problems.append(f"{file}: missing")
        except OSError as exc:  # a folder in its place, no permission, an I/O error
            problems.append(f"{file}: unreadable ({exc.strerror or exc})")
    return problems


def _pid_alive(pid: int) -> bool:
    return pid == os.getpid() or psutil.pid_exists(pid)


class CheckpointStore:
    """The ``checkpoints/`` folder of one run: atomic saves, keep-last-N, newest-valid lookup."""

    def __init__(self, directory: Path, keep: int | None = 3) -> None:
        self.directory = Path(directory)
        self.keep = keep

    # -- writing ----------------------------------------------------------------------------------

    def save(
        self, step: int, writers: Mapping[str, Writer], meta: Mapping[str, Any] | None = None
    ) -> CheckpointInfo:
        """Write, verify-hash and atomically commit checkpoint ``step``; then prune beyond ``keep``.

        ``writers`` maps file names to functions writing that file. If one raises, the half-written
        folder is removed and every committed checkpoint is untouched.
        """
        if not writers:
            raise ValueError("a checkpoint needs at least one file")
        tmp = self.begin(step)
        try:
            for name, write in writers.items():
                if "/" in name or name in (MANIFEST, POINTER):
                    raise ValueError(f"bad checkpoint file name {name!r}")
                write(tmp / name)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return self.seal(tmp, step, meta)

    def begin(self, step: int, owner: int | None = None) -> Path:
        """A fresh, empty work folder ``step-<N>.tmp-<owner>`` (``owner``: this process's pid unless
        given) for :meth:`seal`; several processes may write their files into the same one."""
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = self.directory / f"step-{step}.tmp-{owner if owner is not None else os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        return tmp

    def seal(self, tmp: Path, step: int, meta: Mapping[str, Any] | None = None) -> CheckpointInfo:
        """Hash and fsync every file in the work folder ``tmp``, write the manifest, commit it as
        ``step-<N>`` atomically, point ``latest`` at it and prune beyond ``keep``. On an error the work
        folder is removed and every committed checkpoint is untouched."""
        try:
            files: dict[str, dict[str, Any]] = {}
            for target in sorted(tmp.iterdir()):
                if not target.is_file() or target.name in (MANIFEST, POINTER):
                    raise ValueError(f"bad checkpoint file {target}")
                _fsync_file(target)
                files[target.name] = {"sha256": sha256_file(target), "bytes": target.stat().st_size}
            if not files:
                raise ValueError("a checkpoint needs at least one file")
            manifest = {
                "format": CHECKPOINT_FORMAT,
                "step": step,
                "created": time.time(),
                "files": files,
                **(meta or {}),
            }
            manifest_path = tmp / MANIFEST
            manifest_path.write_text(json.dumps(manifest, indent=2, default=str), encoding="utf-8")
            _fsync_file(manifest_path)
            _fsync_dir(tmp)
            final = self._commit(tmp, step)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        atomic_write_text(self.directory / POINTER, f"{final.name}\n")
        _fsync_dir(self.directory)
        self.prune(protect=step)
        return CheckpointInfo(final, step, manifest)

    def _commit(self, tmp: Path, step: int) -> Path:
        final = self.directory / f"step-{step}"
        aside: Path | None = None
        if final.exists():
            # Re-saving a step (a resumed run passing a step it had saved before): move the old one aside
            # first, because os.replace cannot rename onto a non-empty folder.
            aside = self.directory / f"step-{step}.old-{os.getpid()}"
            shutil.rmtree(aside, ignore_errors=True)
            os.replace(final, aside)
        os.replace(tmp, final)
        _fsync_dir(self.directory)
        if aside is not None:
            shutil.rmtree(aside, ignore_errors=True)
        return final

    def prune(self, protect: int | None = None) -> list[Path]:
        """Delete the oldest committed checkpoints beyond ``keep`` (never ``protect``); return them."""
        if self.keep is None:
            return []
        committed = self.committed()
        removed: list[Path] = []
        excess = len(committed) - self.keep
        for info in committed:
            if excess <= 0:
                break
            if info.step == protect:
                continue
            shutil.rmtree(info.path, ignore_errors=True)
            removed.append(info.path)
            excess -= 1
        return removed

    def clean_stale_tmp(self) -> list[Path]:
        """Remove work folders whose writer process is gone (killed mid-save); return the removed ones.

        ``*.tmp-<pid>`` folders are half-written checkpoints: deleted. A ``step-<N>.old-<pid>`` folder
        is a committed checkpoint moved aside by a re-save: deleted when ``step-<N>`` exists again,
        otherwise (killed between the two renames) renamed back to ``step-<N>``, which is not deleting.
        """
        removed: list[Path] = []
        if not self.directory.is_dir():
            return removed
        for child in sorted(self.directory.iterdir()):
            tmp, old = _TMP_RE.fullmatch(child.name), _OLD_RE.fullmatch(child.name)
            match = tmp or old
            if match is None or not child.is_dir() or _pid_alive(int(match.group(2))):
                continue
            final = self.directory / f"step-{match.group(1)}"
            if old is not None and not os.path.lexists(final):
                try:
                    os.replace(child, final)  # the only copy of step-<N>: never delete it
                except OSError:
                    continue
                _fsync_dir(self.directory)
                continue
            shutil.rmtree(child, ignore_errors=True)
            removed.append(child)
        return removed

    # -- reading ----------------------------------------------------------------------------------

    def committed(self) -> list[CheckpointInfo]:
        """Committed checkpoints (``step-<N>`` folders with a readable manifest), oldest first.

        Work folders (``*.tmp-*``, ``*.old-*``) are never listed. Files are not hashed here; use
        :meth:`latest_valid` or :func:`verify_checkpoint` before trusting one.
        """
        if not self.directory.is_dir():
            return []
        found: list[CheckpointInfo] = []
        for child in self.directory.iterdir():
            match = _STEP_RE.fullmatch(child.name)
            if not match or not child.is_dir():
                continue
            try:
                manifest = read_manifest(child)
            except ValueError:
                manifest = {}
            found.append(CheckpointInfo(child, int(match.group(1)), manifest))
        return sorted(found, key=lambda info: info.step)

    def pointer(self) -> str | None:
        """The folder name ``latest`` points at (informational: resume verifies, it doesn't trust this)."""
        with contextlib.suppress(OSError):
            return (self.directory / POINTER).read_text(encoding="utf-8").strip() or None
        return None

    def latest_valid(self, *, before_step: int | None = None) -> CheckpointInfo | None:
        """The newest committed checkpoint whose manifest verifies (optionally older than a step)."""
        for info in reversed(self.committed()):
            if before_step is not None and info.step >= before_step:
                continue
            if not verify_checkpoint(info.path):
                return CheckpointInfo(info.path, info.step, read_manifest(info.path))
        return None

    def invalid(self) -> dict[Path, list[str]]:
        """Every committed checkpoint that fails verification, with its problems."""
        out: dict[Path, list[str]] = {}
        for info in self.committed():
            problems = verify_checkpoint(info.path)
            if problems:
                out[info.path] = problems
        return out


def find_resumable(directory: Path) -> CheckpointInfo | None:
    """The newest verified checkpoint under ``directory`` (a run's ``checkpoints/`` folder)."""
    return CheckpointStore(directory, keep=None).latest_valid()
