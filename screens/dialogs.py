"""Modal screens shared by every mode: help, an error panel, pickers, and the "terminal too small" notice."""

from __future__ import annotations

import os
from typing import Any, ClassVar, TypeVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from workbench.i18n import t
from workbench.screens.base import LocalizedBindingsMixin
from workbench.screens.inert import InertStatic

ResultT = TypeVar("ResultT")


class LocalizedModal(LocalizedBindingsMixin, ModalScreen[ResultT]):
    """A modal whose binding descriptions are catalog keys, translated where Textual reads them.

    Its layout lives here; its colours (border, background) in the theme stylesheet.
    """

    DEFAULT_CSS = """
    LocalizedModal {
        align: center middle;
    }
    LocalizedModal .modal-box {
        width: 90;
        max-width: 95%;
        height: auto;
        max-height: 90%;
        padding: 1 2;
    }
    LocalizedModal .modal-box OptionList {
        max-height: 50vh;  /* a long list scrolls; the title and the hint below it stay on screen */
    }
    """


class HelpScreen(LocalizedModal[None]):
    """Keys of the screen it was opened from, keys that work everywhere, and the modes.

    Built from the live bindings (:func:`workbench.screens.base.help_rows`) and the mode registry, so it
    cannot drift from what the keys do. It scrolls (arrows, PgUp/PgDn, Home/End) when the terminal is
    short; CJK text is aligned by cell width via Rich.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "dismiss", "ui.key.close"),
    ]
    DEFAULT_CSS = """
    HelpScreen #help-box { max-height: 100%; }
    HelpScreen #help-scroll { height: 1fr; }
    """

    def __init__(
        self,
        screen_keys: list[tuple[str, str]],
        global_keys: list[tuple[str, str]],
        modes: list[tuple[str, str, str]],
    ) -> None:
        super().__init__()
        self._screen_keys = screen_keys
        self._global_keys = global_keys
        self._modes = modes
        self.in_stack = False
        """Set by the app when it pushes this screen, cleared when it is dismissed: a kept help screen
        still on a mode's stack (help left open, another mode shown) is not pushed a second time."""

    @staticmethod
    def _keys_table(title: str, rows: list[tuple[str, str]]) -> Table:
        table = Table(box=None, show_header=True, header_style="bold", title=title, title_justify="left")
        table.add_column(t("ui.help.col.key"), no_wrap=True)
        table.add_column(t("ui.help.col.action"))
        for key, text in rows:
            table.add_row(key, text)
        return table

    def compose(self) -> ComposeResult:
        modes = Table(box=None, show_header=True, header_style="bold")
        modes.add_column(t("ui.help.col.key"), no_wrap=True)
        modes.add_column(t("ui.help.col.mode"), no_wrap=True)
        modes.add_column(t("ui.help.col.what"))
        for number, title, what in self._modes:
            modes.add_row(number, title, what)
        with Vertical(id="help-box", classes="modal-box"):
            yield Static(t("ui.help.title"), classes="modal-title")
            with VerticalScroll(id="help-scroll"):
                if self._screen_keys:
                    yield Static(self._keys_table(t("ui.help.this_screen"), self._screen_keys))
                yield Static(self._keys_table(t("ui.help.everywhere"), self._global_keys))
                yield Static(modes)
            yield Static(t("ui.help.footer"), classes="dim")

    def on_screen_resume(self) -> None:
        """Shown (again: the app keeps help screens): from the top, the scroll area focused."""
        scroll = self.query_one("#help-scroll", VerticalScroll)
        scroll.scroll_home(animate=False)
        scroll.focus()

    async def action_dismiss(self, result: None = None) -> None:
        self.in_stack = False
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
            yield InertStatic(self._title, classes="modal-title")
            with VerticalScroll():
                yield InertStatic(self._details)  # an exception's text: may quote outside input
            yield Static(t("ui.error.close_hint"), classes="dim")

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


class TooSmallScreen(LocalizedModal[None]):
    """Shown while the terminal is smaller than the layouts need; goes away on resize.

    It says the current size, the minimum and how to quit, and ``q`` / ``ctrl+c`` quit from it (the
    screens below cannot be reached while it is up).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,ctrl+c", "app.quit", "ui.key.quit", priority=True),
    ]
    DEFAULT_CSS = """
    TooSmallScreen #too-small {
        width: 100%;
        height: 100%;
        content-align: center middle;
        text-align: center;
        text-style: bold;
    }
    """

    def __init__(self, min_width: int, min_height: int) -> None:
        super().__init__()
        self._min = (min_width, min_height)

    def _message(self) -> str:
        width, height = self.app.size
        return t(
            "ui.too_small",
            width=self._min[0],
            height=self._min[1],
            current_width=width,
            current_height=height,
        )

    def compose(self) -> ComposeResult:
        yield Static(self._message(), id="too-small", markup=False)

    def on_resize(self) -> None:
        self.query_one("#too-small", Static).update(self._message())


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


def complete_path(text: str) -> tuple[str, list[str]]:
    """Shell-like completion of a file path: the longest common completion and the candidates."""
    import glob

    expanded = os.path.expanduser(text)
    matches = sorted(glob.glob(glob.escape(expanded) + "*"))
    matches = [m + os.sep if os.path.isdir(m) else m for m in matches]
    if not matches:
        return text, []
    common = os.path.commonprefix(matches)
    if text.startswith("~") and common.startswith(os.path.expanduser("~")):
        common = "~" + common[len(os.path.expanduser("~")) :]
    return (common if len(common) >= len(text) else text), matches


class TrainConfigScreen(LocalizedModal[str | None]):
    """Ask for a training config to run (the packaged samples offered); ``None`` when cancelled.

    Tab completes the path; a file that does not exist is a one-line error under the field.
    """

    DEFAULT_CSS = """
    TrainConfigScreen #train-error { color: $error; height: auto; }
    TrainConfigScreen #train-suggestions { height: auto; max-height: 8; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "ui.key.close"),
        Binding("tab", "complete", "ui.key.complete", show=False, priority=True),
    ]

    def __init__(
        self,
        suggestions: list[str],
        exists: Any = None,
        *,
        title_key: str = "ui.train.title",
        hint_key: str = "ui.train.hint_tab",
    ) -> None:
        super().__init__()
        self._suggestions = suggestions
        self._exists = exists  # a predicate: does this config exist (or name a sample)?
        self._title_key = title_key  # the same path field asks for a kit's log to attach, too
        self._hint_key = hint_key

    def compose(self) -> ComposeResult:
        from textual.widgets import Input

        with Vertical(classes="modal-box"):
            yield Static(t(self._title_key), classes="modal-title")
            yield Input(value=self._suggestions[0] if self._suggestions else "", id="train-config")
            yield InertStatic("", id="train-error")  # a config's error quotes the file
            if self._suggestions:
                yield OptionList(
                    *(Option(path, id=path) for path in self._suggestions), id="train-suggestions"
                )
            yield Static(t(self._hint_key, cwd=os.getcwd()), classes="dim", markup=False)

    def _error(self, text: str) -> None:
        self.query_one("#train-error", Static).update(text)

    def action_complete(self) -> None:
        from textual.widgets import Input

        field = self.query_one(Input)
        if self.focused is not field:
            self.focus_next()
            return
        completed, candidates = complete_path(field.value)
        field.value = completed
        field.cursor_position = len(completed)
        if len(candidates) > 1:
            names = "  ".join(c.rstrip("/").rsplit("/", 1)[-1] for c in candidates[:12])
            self._error(names + ("  …" if len(candidates) > 12 else ""))
        else:
            self._error("" if candidates else t("ui.train.missing", path=field.value))

    def on_input_submitted(self, event: Any) -> None:
        value = str(event.value).strip()
        if not value:
            self.dismiss(None)
        elif self._exists is not None and not self._exists(value):
            self._error(t("ui.train.missing", path=value))  # one line here, not an error dialog
        else:
            self.dismiss(value)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


QUIT_STOP = "stop"
QUIT_DETACH = "detach"


class QuitScreen(LocalizedModal[str | None]):
    """Quitting while jobs run: stop them (each checkpoints, bounded) and quit, leave them running and
    quit, or stay. ``QUIT_STOP``, ``QUIT_DETACH`` or ``None``.

    Only a launched job (a ``plan run`` from the plan editor) can be left running: it lives in processes
    of its own. A run training inside the TUI's process ends with it, so with such runs "leave running"
    is not offered and the dialog says why."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s,y", "answer('stop')", "ui.quit.key.stop"),
        Binding("d", "answer('detach')", "ui.quit.key.detach"),
        Binding("n,escape", "answer(None)", "ui.quit.key.cancel"),
    ]

    def __init__(self, title: str, question: str, *, can_detach: bool) -> None:
        super().__init__()
        self._title = title
        self._question = question
        self.can_detach = can_detach

    def compose(self) -> ComposeResult:
        with Vertical(classes="modal-box"):
            yield Static(self._title, classes="modal-title", markup=False)
            yield Static(self._question, markup=False)
            yield Static(t("ui.quit.choice.stop"), markup=False)
            if self.can_detach:
                yield Static(t("ui.quit.choice.detach"), markup=False)
            yield Static(t("ui.quit.choice.cancel"), classes="dim", markup=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.can_detach or not (action == "answer" and parameters == (QUIT_DETACH,))

    def action_answer(self, answer: str | None) -> None:
        self.dismiss(answer)
