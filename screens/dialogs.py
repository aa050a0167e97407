"""Modal screens shared by every mode: help, an error panel, and the "terminal too small" notice."""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from workbench.i18n import t
from workbench.screens.base import localize_bindings

ResultT = TypeVar("ResultT")

HELP_KEYS: list[tuple[str, str]] = [
    ("1 … 6", "ui.help.modes"),
    ("ctrl+p", "ui.help.palette"),
    ("?", "ui.help.help"),
    ("q", "ui.help.quit"),
    ("enter", "ui.help.open"),
    ("t", "ui.help.train"),
    ("d / f", "ui.help.demo"),
    ("s", "ui.help.stop"),
    ("[ / ]", "ui.help.metric"),
    ("p / c", "ui.help.pause"),
    ("o / x", "ui.help.overlay"),
    ("escape", "ui.help.close"),
]


class LocalizedModal(ModalScreen[ResultT]):
    """A modal whose binding descriptions are catalog keys, translated per instance."""

    def __init__(self) -> None:
        super().__init__()
        localize_bindings(self)


class HelpScreen(LocalizedModal[None]):
    """Keys and modes, in the interface language (CJK text aligned by cell width via Rich)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "dismiss", "ui.key.close"),
    ]

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_header=True, header_style="bold")
        table.add_column(t("ui.help.col.key"))
        table.add_column(t("ui.help.col.action"))
        for key, text in HELP_KEYS:
            table.add_row(key, t(text))
        modes = Table(box=None, show_header=True, header_style="bold")
        modes.add_column(t("ui.help.col.key"))
        modes.add_column(t("ui.help.col.mode"))
        modes.add_column(t("ui.help.col.what"))
        from workbench.screens.app import MODE_ORDER

        for index, mode in enumerate(MODE_ORDER, start=1):
            modes.add_row(str(index), t(f"mode.{mode}"), t(f"mode.{mode}.what"))
        with Vertical(id="help-box", classes="modal-box"):
            yield Static(t("ui.help.title"), classes="modal-title")
            yield Static(modes)
            yield Static(table)
            yield Static(t("ui.help.footer"), classes="dim")

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


class ErrorScreen(LocalizedModal[None]):
    """An error panel: what failed and the details, closed with escape. The app keeps running."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter", "dismiss", "ui.key.close")]

    def __init__(self, title: str, details: str) -> None:
        super().__init__()
        self._title = title
        self._details = details

    def compose(self) -> ComposeResult:
        with Vertical(classes="modal-box error-box"):
            yield Static(self._title, classes="modal-title", markup=False)
            with VerticalScroll():
                yield Static(self._details, markup=False)
            yield Static(t("ui.error.close_hint"), classes="dim")

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


class TooSmallScreen(ModalScreen[None]):
    """Shown while the terminal is smaller than the layouts need; goes away on resize."""

    def __init__(self, min_width: int, min_height: int) -> None:
        super().__init__()
        self._min = (min_width, min_height)

    def compose(self) -> ComposeResult:
        yield Static(t("ui.too_small", width=self._min[0], height=self._min[1]), id="too-small")


class RunPickerScreen(LocalizedModal[str | None]):
    """Pick one run of the workspace (e.g. the baseline to overlay); ``None`` when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "ui.key.close")]

    def __init__(self, title: str, runs: list[tuple[str, str]]) -> None:
        super().__init__()
        self._title = title
        self._runs = runs  # (run_id, label)

    def compose(self) -> ComposeResult:
        with Vertical(classes="modal-box"):
            yield Static(self._title, classes="modal-title", markup=False)
            if self._runs:
                yield OptionList(*(Option(label, id=run_id) for run_id, label in self._runs), id="run-picker")
            else:
                yield Static(t("ui.picker.none"))
            yield Static(t("ui.picker.hint"), classes="dim")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TrainConfigScreen(LocalizedModal[str | None]):
    """Ask for a training config to run (sample configs offered); ``None`` when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "ui.key.close")]

    def __init__(self, suggestions: list[str]) -> None:
        super().__init__()
        self._suggestions = suggestions

    def compose(self) -> ComposeResult:
        from textual.widgets import Input

        with Vertical(classes="modal-box"):
            yield Static(t("ui.train.title"), classes="modal-title")
            yield Input(value=self._suggestions[0] if self._suggestions else "", id="train-config")
            if self._suggestions:
                yield OptionList(
                    *(Option(path, id=path) for path in self._suggestions), id="train-suggestions"
                )
            yield Static(t("ui.train.hint"), classes="dim")

    def on_input_submitted(self, event: Any) -> None:
        value = str(event.value).strip()
        self.dismiss(value or None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(LocalizedModal[bool]):
    """A yes/no question; ``True`` only for an explicit yes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "ui.key.yes"),
        Binding("n,escape", "answer(False)", "ui.key.no"),
    ]

    def __init__(self, title: str, question: str) -> None:
        super().__init__()
        self._title = title
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="modal-box"):
            yield Static(self._title, classes="modal-title", markup=False)
            yield Static(self._question, markup=False)
            yield Static(t("ui.confirm.hint"), classes="dim")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
