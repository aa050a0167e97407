"""Owner-only files and folders: everything the workbench writes is 0600 (files) or 0700 (folders).

Run folders, reports, serve logs and tokens, the inference matrix, exports and the datasets ``--fix`` and
``--sample`` write hold configs, logs, weights and secrets that are nobody else's business, and a report
is read before it is shared. Two layers make that hold whatever the user's umask:

- :func:`private_umask` — the CLI's entry point (and so the TUI, which it starts) sets the process umask
  to ``0o077``; every file and folder created afterwards (Paddle's ``paddle.save`` and ``jit.save``,
  ``mkdir``, the launcher's logs, child processes, which inherit the umask) is owner-only by construction;
- explicit modes in the writers that matter (:func:`private_dir`, :func:`open_private`,
  :func:`write_private`, :func:`create_private`), so the engine used as a library, or a test that never
  passes through the CLI, writes owner-only files too.

A file or folder the user already had is never chmodded (only the folders these helpers create, or a
run's own tree through :func:`tighten`).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import TextIO, cast

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
PRIVATE_UMASK = 0o077


def private_umask() -> int:
    """Set the process umask to ``0o077`` (group and others get nothing); return the previous one."""
    return os.umask(PRIVATE_UMASK)


def private_dir(path: Path, *, exist_ok: bool = True, ours: bool = False) -> Path:
    """``mkdir -p path``: every folder it creates is 0700 whatever the umask; folders that existed are
    left as they are (they may be the user's). ``ours``: ``path`` is the workbench's by name (a run,
    ``reports/``, ``serve/``), so an existing one is tightened to 0700 too."""
    path = Path(path)
    missing = []
    probe = path
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    if not missing and not exist_ok:
        raise FileExistsError(str(path))
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made meanwhile by another process: theirs
            folder.mkdir(mode=PRIVATE_DIR)
            with contextlib.suppress(OSError):
                os.chmod(folder, PRIVATE_DIR)  # mkdir's mode goes through the umask
    if ours and not missing:
        with contextlib.suppress(OSError):
            os.chmod(path, PRIVATE_DIR)
    return path


def open_private(path: Path, mode: str = "a", errors: str = "strict", *, exclusive: bool = False) -> TextIO:
    """Open a text file for writing (``"a"`` or ``"w"``); a new file is created 0600 whatever the umask.

    ``exclusive``: refuse (``FileExistsError``) if the file exists — for writers that must never replace
    a user's file."""
    flags = os.O_WRONLY | (os.O_APPEND if mode == "a" else os.O_TRUNC)
    try:
        fd = os.open(path, flags | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        if exclusive:
            raise
        fd = os.open(path, flags)  # the file was there: its mode is its owner's business
    else:
        with contextlib.suppress(OSError):
            os.fchmod(fd, PRIVATE_FILE)  # O_CREAT's mode went through the umask
    return cast(TextIO, open(fd, mode, encoding="utf-8", errors=errors))  # noqa: SIM115


def write_private(path: Path, text: str, *, exclusive: bool = False) -> Path:
    """Write ``text`` to ``path`` (0600; its missing folders 0700). ``exclusive``: never replace an
    existing file (``FileExistsError``)."""
    private_dir(Path(path).parent)
    with open_private(Path(path), "w", exclusive=exclusive) as fh:
        fh.write(text)
    return Path(path)


def create_private(path: Path, text: str) -> Path:
    """:func:`write_private` with ``exclusive=True``: the file must not exist yet."""
    return write_private(path, text, exclusive=True)


def tighten(root: Path) -> None:
    """Take group and other permissions off every folder and file under ``root`` (and ``root``).

    Paddle's own writers (``paddle.save``, ``paddle.jit.save``) and ``mkdir`` follow the umask; a run
    ends, or a report is written, with this pass so what the run holds is its owner's only. Links are
    not followed; a file that vanished meanwhile is skipped. Only for trees the workbench made.
    """
    for base, dirs, files in os.walk(root):
        for name in [*dirs, *files, ""]:
            target = os.path.join(base, name) if name else base
            with contextlib.suppress(OSError):
                st = os.lstat(target)
                if not stat.S_ISLNK(st.st_mode) and stat.S_IMODE(st.st_mode) & 0o077:
                    os.chmod(target, stat.S_IMODE(st.st_mode) & ~0o077)


def loose_modes(root: Path) -> list[str]:
    """``path (mode)`` for every folder and file under ``root`` that group or others may use."""
    found = []
    for base, dirs, files in os.walk(root):
        for name in ["", *dirs, *files]:
            target = os.path.join(base, name) if name else base
            with contextlib.suppress(OSError):
                st = os.lstat(target)
                if not stat.S_ISLNK(st.st_mode) and stat.S_IMODE(st.st_mode) & 0o077:
                    found.append(f"{target} ({stat.S_IMODE(st.st_mode):04o})")
    return found


__all__ = [
    "PRIVATE_DIR",
    "PRIVATE_FILE",
    "PRIVATE_UMASK",
    "create_private",
    "loose_modes",
    "open_private",
    "private_dir",
    "private_umask",
    "tighten",
    "write_private",
]
