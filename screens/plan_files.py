"""Opening the user's plan files in the plan editor, from anywhere in the app (the palette) or from the
editor itself: the path dialog with the recent plans offered, and showing the plan mode on a file.

Not a mode: the palette (:mod:`workbench.screens.commands`) may import it, where importing the plan
screen would tie every mode to it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from workbench.screens.dialogs import TrainConfigScreen

PLAN_MODE = "plan"


def open_plan_dialog(workspace: Path) -> TrainConfigScreen:
    """The path field of "train a config", asking for a plan, with the recent plans offered."""
    from workbench.parallel.recent import recent_plans

    return TrainConfigScreen(
        [str(p) for p in recent_plans(workspace)],
        exists=lambda ref: Path(ref).expanduser().is_file(),
        title_key="ui.plan.open.title",
        hint_key="ui.plan.open.hint",
    )


def ask_plan_file(app: Any) -> None:
    """The palette's "Open a sharding plan…": the plan editor's own open action where it shows (it asks
    about unsaved edits first), else the dialog, then the plan mode on the chosen file."""
    if getattr(app.screen, "mode", None) == PLAN_MODE:
        app.screen.action_open()
        return

    def chosen(ref: str | None) -> None:
        if ref:
            show_plan(app, Path(ref).expanduser())

    app.push_screen(open_plan_dialog(app.workspace), chosen)


def show_plan(app: Any, path: Path) -> None:
    """Show the plan mode on ``path`` (the plan screen takes ``app.plan_to_open`` when it mounts or is
    shown again)."""
    app.plan_to_open = path
    app.switch_mode(PLAN_MODE)
