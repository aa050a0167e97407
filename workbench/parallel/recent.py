"""The plans the user opened or saved in the plan editor, newest first, kept per workspace.

The editor offers them when opening a file and opens the newest when the mode is shown with no plan
named; the list lives in ``<workspace>/recent_plans.json`` (absolute paths) so it outlives the TUI.
"""

from __future__ import annotations

import json
from pathlib import Path

RECENT_FILE = "recent_plans.json"
KEEP = 8


def recent_plans(workspace: Path) -> list[Path]:
    """The remembered plans that still exist, newest first (an unreadable list is an empty one)."""
    try:
        entries = json.loads((workspace / RECENT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(entries, list):
        return []
    return [Path(e) for e in entries if isinstance(e, str) and Path(e).is_file()]


def remember_plan(workspace: Path, plan: Path) -> None:
    """Put ``plan`` first in the workspace's recent plans (written atomically)."""
    from workbench.runs import atomic_write_text

    path = plan.resolve()
    entries = [path, *(p for p in recent_plans(workspace) if p != path)][:KEEP]
    workspace.mkdir(parents=True, exist_ok=True)
    atomic_write_text(workspace / RECENT_FILE, json.dumps([str(p) for p in entries], indent=1) + "\n")
