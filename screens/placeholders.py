"""Modes whose features land in later issues: each says what it will show and how to get there today."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Header, Static

from workbench.i18n import t
from workbench.screens.base import WorkbenchScreen


class PlaceholderScreen(WorkbenchScreen):
    mode = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(classes="placeholder panel"):
            yield Static(t(f"mode.{self.mode}"), classes="modal-title")
            yield Static(t(f"ui.placeholder.{self.mode}"))
            yield Static(t("ui.placeholder.not_yet"), classes="dim")
        yield Footer()


class PlanScreen(PlaceholderScreen):
    mode = "plan"


class CompareScreen(PlaceholderScreen):
    mode = "compare"


class WizardScreen(PlaceholderScreen):
    mode = "wizard"
