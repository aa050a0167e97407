"""Leftovers of killed processes, removed once it is safe: the process that made them is gone.

Every multi-step write in the workbench goes through a work name carrying the writer's pid, then an
atomic rename. A kill (or a full disk) at the wrong moment leaves the work name behind:

* ``<run>/checkpoints/step-<N>.tmp-<pid>/`` — a half-written checkpoint; ``step-<N>.old-<pid>/`` — a
  committed one moved aside by a re-save (see :meth:`CheckpointStore.clean_stale_tmp`, which puts it
  back when it is the only copy);
* ``<file>.tmp-<pid>-<thread>`` — :func:`workbench.runs.atomic_write_text`'s temp file (``state.json``,
  ``run.yaml``, ``checkpoints/latest``), 0 bytes after a full disk;
* ``<dataset>.tmp-<pid>/`` next to a demo dataset whose generation was killed.

Readers already ignore all of these; this module deletes them, but only when their pid is not a running
process on this machine (a live writer's work is never touched). It runs when a training run starts
(the whole workspace), before a demo dataset is generated (its siblings), and as ``paddle-workbench
runs gc``. A pid reused by an unrelated process keeps its leftover until that process ends: the safe
side. (On a workspace shared by several machines, a pid is only checked on this one.)
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from pathlib import Path

import psutil

from workbench.runs import RunStore
from workbench.training.checkpoints import CheckpointStore

_FILE_TMP = re.compile(r".+\.tmp-(\d+)-\d+")
"""``atomic_write_text``'s temp files: ``<name>.tmp-<pid>-<thread id>``."""
_DIR_TMP = re.compile(r".+\.tmp-(\d+)")
"""Work folders: ``<name>.tmp-<pid>``."""


def pid_alive(pid: int) -> bool:
    """Whether ``pid`` is a running process here (this process counts as running)."""
    return pid == os.getpid() or psutil.pid_exists(pid)


def _stale_pid(name: str, *, folder: bool) -> int | None:
    """The pid in a work name whose writer is gone, else ``None``."""
    match = (_DIR_TMP if folder else _FILE_TMP).fullmatch(name)
    if match is None:
        return None
    pid = int(match.group(1))
    return None if pid_alive(pid) else pid


def _remove(path: Path) -> bool:
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    except FileNotFoundError:
        return False  # someone else cleaned it first
    except OSError:
        return False
    return True


def clean_files(folder: Path) -> list[Path]:
    """Remove stale ``*.tmp-<pid>-<thread>`` files directly in ``folder``; return the removed ones."""
    removed: list[Path] = []
    with contextlib.suppress(OSError):
        for child in folder.iterdir():
            if _stale_pid(child.name, folder=False) is not None and child.is_file() and _remove(child):
                removed.append(child)
    return removed


def clean_run(run_dir: Path) -> list[Path]:
    """Remove every stale leftover of one run folder (its files and its checkpoints' work folders)."""
    removed = clean_files(run_dir)
    checkpoints = run_dir / "checkpoints"
    if checkpoints.is_dir():
        removed += CheckpointStore(checkpoints, keep=None).clean_stale_tmp()
        removed += clean_files(checkpoints)
    return removed


def clean_workspace(store: RunStore) -> list[Path]:
    """Remove the stale leftovers of every run in the workspace (``paddle-workbench runs gc``)."""
    removed: list[Path] = []
    if not store.runs_dir.is_dir():
        return removed
    with contextlib.suppress(OSError):
        for run_dir in sorted(store.runs_dir.iterdir()):
            if run_dir.is_dir():
                removed += clean_run(run_dir)
    return removed


def clean_siblings(target: Path) -> list[Path]:
    """Remove stale ``<target name>.tmp-<pid>`` folders next to ``target`` (an interrupted generation)."""
    removed: list[Path] = []
    parent = target.parent
    if not parent.is_dir():
        return removed
    prefix = f"{target.name}.tmp-"
    with contextlib.suppress(OSError):
        for child in parent.iterdir():
            if (
                child.name.startswith(prefix)
                and child.name[len(prefix) :].isdigit()
                and _stale_pid(child.name, folder=True) is not None
                and _remove(child)
            ):
                removed.append(child)
    return removed
