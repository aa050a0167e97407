"""Modes that are not in this version yet: each says what it will do and what to use meanwhile."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from workbench.i18n import t
from workbench.screens.base import WorkbenchScreen


class PlaceholderScreen(WorkbenchScreen):
    mode = ""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "ui.key.back")]
    DEFAULT_CSS = """
    PlaceholderScreen .placeholder {
        margin: 1 2;
        height: auto;
        max-height: 1fr;
    }
    """

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(classes="placeholder panel"):
            yield Static(t(f"mode.{self.mode}"), classes="modal-title")
            yield Static(t(f"ui.placeholder.{self.mode}"), markup=False)
            yield Static(t("ui.placeholder.not_yet"), classes="dim")
        yield Footer()

    def action_back(self) -> None:
        """escape: back to the Runs list, as on every other mode."""
        self.app.switch_mode("runs")
