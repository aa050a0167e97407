"""The version of the user's own code: the git commit of the working directory a run started in.

A run's overview and ``run.yaml`` (``environment.code``) say which code trained it: the commit, the
branch and whether tracked files had uncommitted changes (``dirty``). Untracked files do not count: the
workspace (``./.paddle-workbench``), logs and outputs usually live untracked beside the code, and would
make every run "dirty".

This must never fail or slow a run: git missing, a folder that is not a checkout, a repository without
commits, a slow network filesystem — each gives ``None`` (the key is left out), and every git call has a
short time limit. Git runs with an argument list (never a shell), ``GIT_OPTIONAL_LOCKS=0`` (``status``
takes no index lock a concurrent ``git commit`` would trip on) and ``core.fsmonitor`` off (no hook of
the checkout runs).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

GIT_TIMEOUT_S = 2.0
"""Per git call; a checkout on a slow filesystem may take longer, and then the version is left out."""

_GIT_ENV = {"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}


def _git(folder: Path, *args: str, timeout_s: float) -> str | None:
    """``git -C folder args…``'s stdout, or ``None`` when git failed, is missing or took too long."""
    git = shutil.which("git")
    if git is None:
        return None
    try:
        done = subprocess.run(  # noqa: S603 - an argument list, the git found on PATH
            [git, "-c", "core.fsmonitor=false", "-C", str(folder), *args],
            capture_output=True,
            timeout=timeout_s,
            env={**os.environ, **_GIT_ENV},
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", errors="replace")


def code_version(
    folder: str | os.PathLike[str] | None = None, *, timeout_s: float = GIT_TIMEOUT_S
) -> dict[str, Any] | None:
    """``{"commit", "branch", "dirty", "changed", "root"}`` of the checkout holding ``folder`` (default:
    the current directory), or ``None`` when it is not a git checkout with a commit or git is unusable.

    ``dirty``: tracked files differ from the commit (staged or not); ``changed``: how many.
    ``branch`` is ``None`` on a detached HEAD.
    """
    base = Path(folder) if folder is not None else Path.cwd()
    head = _git(base, "rev-parse", "--show-toplevel", "--verify", "HEAD", timeout_s=timeout_s)
    lines = head.splitlines() if head else []
    if len(lines) != 2:
        return None
    root, commit = lines
    status = _git(base, "status", "--porcelain", "--untracked-files=no", timeout_s=timeout_s)
    branch = _git(base, "symbolic-ref", "--quiet", "--short", "HEAD", timeout_s=timeout_s)
    changed = [line for line in status.splitlines() if line.strip()] if status is not None else None
    return {
        "commit": commit.strip(),
        "branch": branch.strip() if branch else None,
        "dirty": bool(changed) if changed is not None else None,  # None: status did not answer in time
        "changed": len(changed) if changed is not None else None,
        "root": root.strip(),
    }
