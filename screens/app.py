"""The Workbench app: modes for each section of the path, one worker-error handler, themes, help.

One factory (:class:`WorkbenchApp`) is shared by the CLI and the tests. The app never imports Paddle
on the UI thread: when ``preload_paddle`` is set, a thread worker imports it after the first frame and
the header shows "Paddle: loading…" until then.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.events import Resize
from textual.filter import LineFilter, NoColor
from textual.message import Message
from textual.screen import Screen
from textual.theme import Theme
from textual.worker import Worker, WorkerState

from workbench.i18n import current_language, t
from workbench.screens.base import help_rows
from workbench.screens.commands import WorkbenchCommands, WorkbenchThemes
from workbench.screens.inert import INERT_FILTER
from workbench.screens.jobs import RunsAndJobs
from workbench.screens.modes import ordered_modes
from workbench.screens.signals import install_stop_signals
from workbench.screens.textual_private import mark_styles_current, wrap_print_capture
from workbench.screens.typeahead import TypeAheadMixin
from workbench.screens.widgets.key_footer import KeyFooter
from workbench.screens.workers import Requests, worker_title
from workbench.settings import WorkbenchSettings, resolve_settings
from workbench.themes import read_theme_data, resolve_theme_name, stylesheet_path
from workbench.themes.depth import ReducedColors

if TYPE_CHECKING:  # the runner (and psutil under it) and the run store load after the first frame
    from workbench.runner import AttachedRun, Job
    from workbench.screens.dialogs import HelpScreen  # the dialogs load when one is first shown

MIN_WIDTH, MIN_HEIGHT = 80, 24
MAX_MODE_KEYS = 9  # modes beyond the ninth are reached from the palette only
HELP_SCREENS_KEPT = 8
"""Help screens kept for reuse (one per screen and binding state the user asked help on, roughly)."""
HOME_WHOLE_WAIT_S = 1.0
"""The longest the background work of :meth:`WorkbenchApp.call_after_start` waits for the footer's keys
(a terminal that reports itself unfocused at start holds the footer's build back)."""


class _PrintCaptureWithDescriptor:
    """Textual's ``print`` capture, but with the real descriptor behind it.

    While an app runs, Textual swaps ``sys.stdout``/``sys.stderr`` for a capture whose ``fileno()`` is
    -1. Code that hands ``sys.stderr.fileno()`` to a child process — ``multiprocessing``'s resource
    tracker (any ``ProcessPoolExecutor``), ``subprocess`` with ``stderr=sys.stderr``, Paddle's launcher —
    then fails with "bad value(s) in fds_to_keep". Under the workbench, descriptors 1 and 2 lead to the
    output capture (or to the test's own streams), which is exactly where a child's output belongs.
    """

    def __init__(self, inner: Any, fd: int) -> None:
        self._inner = inner
        self._fd = fd

    def write(self, text: str) -> Any:
        return self._inner.write(text)

    def flush(self) -> None:
        self._inner.flush()

    def isatty(self) -> bool:
        return bool(self._inner.isatty())

    def fileno(self) -> int:
        return self._fd


class ThemesChecked(Message, bubble=False):
    """The theme files validated (after the first frame): the names that passed, a line per file that did not."""

    def __init__(self, valid: set[str], problems: list[str]) -> None:
        super().__init__()
        self.valid = valid
        self.problems = problems


class WorkbenchApp(TypeAheadMixin, RunsAndJobs, App[int]):
    """Paddle Workbench."""

    CSS_PATH = str(stylesheet_path())
    DEFAULT_MODE = "runs"
    COMMANDS = App.COMMANDS | {WorkbenchCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"goto({n})", show=False) for n in range(1, MAX_MODE_KEYS + 1)),
        Binding("question_mark", "help", "ui.key.help", key_display="?"),
        Binding("q", "quit", "ui.key.quit"),
    ]

    def __init__(
        self,
        workspace: Path | str | None = None,
        *,
        settings: WorkbenchSettings | None = None,
        theme_name: str | None = None,
        low_bandwidth: bool = False,
        preload_paddle: bool = True,
        seed_demo: bool = False,
        driver_class: Any = None,
        preview_colors: str | None = None,
        env_checks: Any = None,
        open_run: str | None = None,
        open_plan: Path | None = None,
    ) -> None:
        """``settings`` come from the command line; without them (tests), the arguments given here,
        then the ``PADDLE_WORKBENCH_*`` variables and the user config file decide."""
        if settings is None:
            flags = {"workspace": workspace, "theme": theme_name, "low_bandwidth": low_bandwidth or None}
            settings = resolve_settings(flags)
        self.settings = settings
        # No colour: Textual's own handling turns colours into greys unless the theme is "ANSI"; asking
        # for ANSI colours makes it strip them instead, so the terminal's own colours show.
        super().__init__(driver_class=driver_class, ansi_color=True if settings.no_color else None)
        wrap_print_capture(self, _PrintCaptureWithDescriptor)
        # Textual itself only looks at NO_COLOR; the setting may also come from our variable or file.
        self._no_color_filter = NoColor() if settings.no_color and not self.no_color else None
        self.no_color = self.no_color or settings.no_color
        self.modes = ordered_modes()
        for name, spec in self.modes:
            self.add_mode(name, self._styled_now(spec.screen_factory()))
        self.workspace = settings.workspace  # already expanded: what ``RunStore`` would resolve it to
        self.low_bandwidth = settings.low_bandwidth
        self.preload_paddle = preload_paddle
        self.seed_demo = seed_demo
        self.open_run = open_run  # ``attach PATH`` in a terminal: the monitor opens on this run
        self.plan_to_open = open_plan
        """``tui --plan FILE`` or the palette: the plan editor takes it when it is shown."""
        self.paddle_state = "not loaded"
        self.paddle_version = ""
        self.monitor_target: Job | None = None
        self.live_jobs: dict[str, Job] = {}
        self._attached: dict[str, AttachedRun] = {}
        self.env_checks = env_checks  # what the Environment screen runs (None: the real checks)
        self.requests = Requests()
        self.handle_stop_signals = False
        """Set by ``run_tui``: SIGTERM/SIGHUP stop the runs and quit (tests leave the process's alone)."""
        self.on_hangup: Callable[[], None] | None = None
        """What to do first when the terminal hangs up (``run_tui`` silences the saved terminal)."""
        self.stop_signal: int | None = None
        """The stop signal that ended the app, if one did (the exit code is 128 + it)."""
        self.stop_reports: list[str] = []  # printed by run_tui after the terminal is restored
        self.theme_problems: list[str] = []
        self._requested_theme = settings.theme
        self._too_small_shown = False
        self._preview_depth = ReducedColors(preview_colors) if preview_colors else None
        self._home_whole = False
        self._after_start: list[Callable[[], object]] = []
        """What :meth:`call_after_start` holds until the home screen is whole."""
        self._help_screens: dict[tuple[object, ...], HelpScreen] = {}
        """Help screens built, by their content (language and rows), most recently used last: :meth:`action_help`."""
        self._register_themes()  # before the stylesheet is first read: no second parse for the theme
        self.title = t("app.title")  # in the first frame's header (set on mount, the class name shows)
        self.update_subtitle()

    # -- set-up ----------------------------------------------------------------------------------

    def _styled_now(self, build: Callable[[], Screen[object]]) -> Callable[[], Screen[object]]:
        """``build`` for a mode, its screen marked as styled by the current stylesheet (no restyle of the
        whole app on the first switch to the mode: :func:`mark_styles_current`)."""

        def build_styled() -> Screen[object]:
            screen = build()
            mark_styles_current(self, screen)
            return screen

        return build_styled

    def _register_themes(self) -> None:
        """The bundled themes as read, so the first frame has its colours; :meth:`_check_themes`
        validates them with pydantic once the frame is out, and reports (and leaves) one that fails."""
        for data in read_theme_data():
            try:
                self.register_theme(Theme(**data))
            except (TypeError, ValueError):
                continue  # an unknown or missing field: the check reports it
        wanted = resolve_theme_name(self._requested_theme)
        if wanted not in self.available_themes:
            self.theme_problems.append(t("ui.theme.unknown", name=str(self._requested_theme)))
            wanted = resolve_theme_name(None)
        if wanted in self.available_themes:
            self.theme = wanted
            self.stylesheet.set_variables(self.get_css_variables())

    @work(thread=True, exclusive=True, exit_on_error=False, group="modes", description="worker.modes")
    def _import_mode_screens(self) -> None:
        """Import every mode's screen code after the first frame, off the UI thread: the first switch
        to a mode then only builds its screen (which Textual keeps for every later switch)."""
        import importlib

        for _name, spec in self.modes:
            importlib.import_module(spec.factory.partition(":")[0])

    @work(thread=True, exclusive=True, exit_on_error=False, group="themes", description="worker.themes")
    def _check_themes(self) -> None:
        from workbench.themes import load_theme_specs

        specs, problems = load_theme_specs()
        self.post_message(ThemesChecked({spec.name for spec in specs}, problems))

    def on_themes_checked(self, message: ThemesChecked) -> None:
        for name in [name for name in self.available_themes if name.startswith("workbench-")]:
            if name not in message.valid:
                if self.theme == name:
                    self.theme = (
                        resolve_theme_name(None)
                        if resolve_theme_name(None) in message.valid
                        else "textual-dark"
                    )
                self.unregister_theme(name)
        self.theme_problems.extend(message.problems)
        for problem in message.problems:
            self.notify(problem, severity="warning")

    def on_mount(self) -> None:
        for problem in self.theme_problems:
            self.notify(problem, severity="warning")
        if self.seed_demo:
            self._seed_demo()
        if self.open_run:
            self.call_after_refresh(self.open_in_monitor, self.open_run)
        if self.plan_to_open is not None:
            self.call_after_refresh(self.switch_mode, "plan")
        if self.handle_stop_signals:
            install_stop_signals(self.stop_for_signal)
        # Once the home screen is whole: pydantic's import and Paddle's (whose shared library loads with
        # the GIL held for long stretches) would otherwise hold back its frames.
        self.call_after_start(self._check_themes)
        self.call_after_start(self._import_mode_screens)
        if self.preload_paddle:
            self.paddle_state = "loading"
            self.update_subtitle()
            self.call_after_start(self._load_paddle)
        self.set_timer(HOME_WHOLE_WAIT_S, self._home_screen_whole)

    def call_after_start(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` once the home screen is whole: its first frame drawn and then its footer's
        keys (:class:`KeyFooter.KeysShown`), or :data:`HOME_WHOLE_WAIT_S` after start at the latest.

        For work that imports modules in a worker (the path dashboard's checklist, the theme check, the
        modes' screens, Paddle): such a thread holds the GIL for long stretches, and started with the
        first frame it held the keys back by more than the time the frame saved."""
        if self._home_whole:
            self.call_after_refresh(callback)
        else:
            self._after_start.append(callback)

    @on(KeyFooter.KeysShown)
    def _footer_keys_shown(self) -> None:
        self.call_after_refresh(self._home_screen_whole)  # after the refresh that draws them

    def _home_screen_whole(self) -> None:
        if self._home_whole:
            return
        self._home_whole = True
        waiting, self._after_start = self._after_start, []
        for callback in waiting:
            callback()

    def refresh_css(self, animate: bool = True) -> None:
        """Textual's refresh, except before the first screen: then nothing is styled yet and the
        stylesheet has not been parsed, so the theme's variables are all it needs (the first screen
        parses it with them). Textual's refresh parses it in a copy, whose parse cache is dropped, so the
        first screen then parses the whole stylesheet a second time: choosing the theme in ``__init__``
        (:meth:`_register_themes`) would cost the first frame a parse of it."""
        if not self.screen_stack:
            self.stylesheet.set_variables(self.get_css_variables())
            return
        super().refresh_css(animate)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Our semantic variables (``panel-border``…) before a workbench theme is applied, so the
        stylesheet parses whatever theme is current; each workbench theme sets its own."""
        return {"panel-border": "#6b7385"}

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Outside text made inert, Textual's filters, plus a colour-depth preview when one was asked for
        (snapshots, docs)."""
        filters = [INERT_FILTER, *super().get_line_filters()]
        if self._no_color_filter is not None:
            filters.append(self._no_color_filter)
        if self._preview_depth is not None:
            filters.append(self._preview_depth)
        return filters

    def theme_variable(self, name: str, fallback: str = "white") -> str:
        """A semantic colour of the current theme (``loss-train``, ``rank-0``…)."""
        theme = self.current_theme
        value = theme.variables.get(name) if theme is not None else None
        if self.no_color:
            return "default"
        return value or fallback

    def update_subtitle(self) -> None:
        paddle = {
            "not loaded": "",
            "loading": t("ui.paddle.loading"),
            "ready": t("ui.paddle.ready", version=self.paddle_version),
            "missing": t("ui.paddle.missing"),
        }[self.paddle_state]
        target = self.monitor_target
        active = (
            t("ui.header.active_run", run=target.run_id)
            if target is not None
            else t("ui.header.no_active_run")
        )
        parts = [t("ui.header.workspace", path=str(self.workspace)), active]
        if paddle:
            parts.append(paddle)
        self.sub_title = "  ·  ".join(parts)

    # -- global behaviour ------------------------------------------------------------------------

    @on(Worker.StateChanged)
    def report_worker_error(self, event: Worker.StateChanged) -> None:
        """The one place a failing worker surfaces (screens forward theirs): an error panel, never an exit."""
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            from workbench.screens.dialogs import ErrorScreen

            error = event.worker.error
            self.push_screen(
                ErrorScreen(
                    t("ui.error.worker", name=worker_title(event.worker)), f"{type(error).__name__}: {error}"
                )
            )

    def on_resize(self, event: Resize) -> None:
        too_small = event.size.width < MIN_WIDTH or event.size.height < MIN_HEIGHT
        if not too_small and not self._too_small_shown:
            return
        from workbench.screens.dialogs import TooSmallScreen

        if too_small and not self._too_small_shown:
            self._too_small_shown = True
            self.push_screen(TooSmallScreen(MIN_WIDTH, MIN_HEIGHT))
        elif too_small and isinstance(self.screen, TooSmallScreen):
            self.screen.on_resize()
        elif not too_small and self._too_small_shown:
            self._too_small_shown = False
            if isinstance(self.screen, TooSmallScreen):
                self.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "goto":  # a number key with no mode behind it does nothing and is not shown
            return bool(parameters) and 1 <= int(str(parameters[0])) <= len(self.modes)
        return True

    def action_goto(self, number: int) -> None:
        """Number key ``n``: the n-th mode of the registry."""
        if 1 <= number <= len(self.modes) and self.modes[number - 1][0] != self.current_mode:
            self.leave_screen(partial(self.switch_mode, self.modes[number - 1][0]))

    def leave_screen(self, then: Callable[[], Any]) -> None:
        """Run ``then`` (a mode switch, quitting) once the screen showing agrees: one with unsaved work
        (the plan editor) asks first, through its ``confirm_leave``."""
        confirm = getattr(self.screen, "confirm_leave", None)
        if callable(confirm):
            confirm(then)
        else:
            then()

    def action_help(self) -> None:
        """Help for the current screen, read from its live bindings and the mode registry."""
        from workbench.screens.dialogs import HelpScreen, TooSmallScreen

        if isinstance(self.screen, (HelpScreen, TooSmallScreen)):
            return
        screen_keys, global_keys = help_rows(self.screen)
        if self.modes:
            global_keys.insert(0, (f"1 … {min(len(self.modes), MAX_MODE_KEYS)}", t("ui.help.modes")))
        modes = [
            (str(number) if number <= MAX_MODE_KEYS else "", t(spec.title), t(spec.help))
            for number, (_, spec) in enumerate(self.modes, start=1)
        ]
        help_screen = self._help_screen(screen_keys, global_keys, modes)
        help_screen.in_stack = True
        self.push_screen(help_screen)

    def _help_screen(
        self,
        screen_keys: list[tuple[str, str]],
        global_keys: list[tuple[str, str]],
        modes: list[tuple[str, str, str]],
    ) -> HelpScreen:
        """A help screen with these rows, built once and kept (installed) for the next ``?`` showing the
        same rows: a new one costs its compose, its styles and three Rich tables laid out and rendered
        (most of the key's latency), a kept one only its redraw. The last :data:`HELP_SCREENS_KEPT`
        contents are kept; one already on a screen stack (help left open in another mode) is not reused."""
        key = (current_language(), tuple(screen_keys), tuple(global_keys), tuple(modes))
        screen = self._help_screens.pop(key, None)
        if screen is not None and screen.in_stack:
            self._forget_help_screen(screen)
            screen = None
        if screen is None:
            from workbench.screens.dialogs import HelpScreen

            screen = HelpScreen(screen_keys, global_keys, modes)
            self.install_screen(screen, name=f"help-{id(screen):x}")
        self._help_screens[key] = screen  # most recently used: last
        while len(self._help_screens) > HELP_SCREENS_KEPT:
            self._forget_help_screen(self._help_screens.pop(next(iter(self._help_screens))))
        return screen

    def _forget_help_screen(self, screen: HelpScreen) -> None:
        """Stop keeping ``screen``: removed now, or by Textual when it leaves the stack it is on."""
        self.uninstall_screen(screen)
        if not screen.in_stack and screen.is_attached:
            screen.remove()

    def action_help_quit(self) -> None:
        """ctrl+c (Textual keeps it for copying): say how to quit, in the interface language."""
        self.notify(t("ui.quit.how"), title=t("ui.quit.how_title"))

    def action_command_palette(self) -> None:
        if self.use_command_palette and not CommandPalette.is_open(cast(App[object], self)):
            self.push_screen(CommandPalette(id="--command-palette", placeholder=t("ui.palette.placeholder")))

    def search_themes(self) -> None:
        """The palette's theme list: our themes, under the names ``--theme`` accepts."""
        self.push_screen(CommandPalette(providers=[WorkbenchThemes], placeholder=t("ui.palette.themes")))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's built-in palette entries, translated; the screenshot goes into the workspace."""
        yield SystemCommand(t("ui.sys.theme"), t("ui.sys.theme.help"), self.action_change_theme)
        yield SystemCommand(t("ui.sys.quit"), t("ui.sys.quit.help"), self.action_quit)
        if screen.query("HelpPanel"):
            yield SystemCommand(t("ui.sys.keys"), t("ui.sys.keys.hide"), self.action_hide_help_panel)
        else:
            yield SystemCommand(t("ui.sys.keys"), t("ui.sys.keys.show"), self.action_show_help_panel)
        if screen.maximized is not None:
            yield SystemCommand(t("ui.sys.minimize"), t("ui.sys.minimize.help"), screen.action_minimize)
        elif screen.focused is not None and screen.focused.allow_maximize:
            yield SystemCommand(t("ui.sys.maximize"), t("ui.sys.maximize.help"), screen.action_maximize)
        yield SystemCommand(
            t("ui.sys.screenshot"),
            t("ui.sys.screenshot.help", folder=str(self.workspace / "screenshots")),
            lambda: self.set_timer(0.1, self.save_workspace_screenshot),
        )

    def save_workspace_screenshot(self) -> Path | None:
        """Save an SVG of the screen under ``<workspace>/screenshots/`` and say where (or why not)."""
        folder = self.workspace / "screenshots"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            name = f"screen-{time.strftime('%Y%m%d-%H%M%S')}.svg"
            path = Path(self.save_screenshot(filename=name, path=str(folder)))
        except OSError as exc:
            self.notify(t("ui.screenshot.failed", folder=str(folder), error=str(exc)), severity="error")
            return None
        self.notify(t("ui.screenshot.saved", path=str(path)))
        return path

    def stop_for_signal(self, signum: int) -> None:
        """SIGTERM / SIGHUP (see :mod:`workbench.screens.signals`): stop the runs after their step, then
        quit; a second signal exits at once, recording the runs as cancelled where it can."""
        if self.stop_signal is not None:
            for job in self.live_jobs.values():
                abandon = getattr(job, "abandon", None)
                if callable(abandon) and not job.done:
                    abandon()
            os._exit(128 + signum)
        self.stop_signal = signum
        if signum == signal.SIGHUP and self.on_hangup is not None:
            self.on_hangup()
        self._stop_jobs_and_exit()

    def action_quit(self) -> Any:
        self.leave_screen(self._quit_asking_about_runs)

    def _quit_asking_about_runs(self) -> None:
        running = [job for job in self.live_jobs.values() if not job.done]
        if not running:
            self.exit(0)
            return
        from workbench.runner import LaunchedJob
        from workbench.screens.dialogs import QuitScreen

        names = ", ".join(job.run_id for job in running)
        can_detach = any(isinstance(job, LaunchedJob) for job in running)
        self.push_screen(
            QuitScreen(t("ui.quit.title"), t("ui.quit.running", runs=names), can_detach=can_detach),
            self._quit_chosen,
        )
