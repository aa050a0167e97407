"""The Workbench app: modes for each section of the path, one worker-error handler, themes, help.

One factory (:class:`WorkbenchApp`) is shared by the CLI and the tests. The app never imports Paddle
on the UI thread: when ``preload_paddle`` is set, a thread worker imports it after the first frame and
the header shows "Paddle: loading…" until then.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar, cast

from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.events import Resize
from textual.filter import LineFilter
from textual.screen import Screen
from textual.theme import Theme
from textual.worker import Worker, WorkerState

from workbench.i18n import t
from workbench.runner import AttachedRun, Job, attach
from workbench.runs import RunStore
from workbench.screens.base import help_rows
from workbench.screens.commands import WorkbenchCommands, WorkbenchThemes
from workbench.screens.dialogs import ConfirmScreen, ErrorScreen, HelpScreen, TooSmallScreen
from workbench.screens.modes import ordered_modes
from workbench.themes import load_theme_specs, resolve_theme_name, stylesheet_path
from workbench.themes.depth import ReducedColors

MIN_WIDTH, MIN_HEIGHT = 80, 24
MAX_ATTACHED = 4  # past / external runs kept in memory for quick reopening
QUIT_WAIT_S = 15.0  # a stopping run finishes its step and writes a checkpoint first
MAX_MODE_KEYS = 9  # modes beyond the ninth are reached from the palette only


class WorkbenchApp(App[int]):
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
        theme_name: str | None = None,
        low_bandwidth: bool = False,
        preload_paddle: bool = True,
        seed_demo: bool = False,
        driver_class: Any = None,
        preview_colors: str | None = None,
    ) -> None:
        # NO_COLOR: Textual's own handling turns colours into greys unless the theme is "ANSI"; asking
        # for ANSI colours makes it strip them instead, so the terminal's own colours show.
        super().__init__(driver_class=driver_class, ansi_color=True if os.environ.get("NO_COLOR") else None)
        self.modes = ordered_modes()
        for name, spec in self.modes:
            self.add_mode(name, spec.screen_factory())
        self.store = RunStore(workspace)
        self.workspace = self.store.workspace
        self.low_bandwidth = low_bandwidth
        self.preload_paddle = preload_paddle
        self.seed_demo = seed_demo
        self.paddle_state = "not loaded"
        self.paddle_version = ""
        self.monitor_target: Job | None = None
        self.live_jobs: dict[str, Job] = {}
        self._attached: dict[str, AttachedRun] = {}
        self.theme_problems: list[str] = []
        self._requested_theme = theme_name
        self._too_small_shown = False
        self._preview_depth = ReducedColors(preview_colors) if preview_colors else None

    # -- set-up ----------------------------------------------------------------------------------

    def _register_themes(self) -> None:
        specs, self.theme_problems = load_theme_specs()
        for spec in specs:
            self.register_theme(Theme(**spec.model_dump()))
        wanted = resolve_theme_name(self._requested_theme)
        if wanted not in self.available_themes:
            self.theme_problems.append(t("ui.theme.unknown", name=str(self._requested_theme)))
            wanted = resolve_theme_name(None)
        self.theme = wanted

    def on_mount(self) -> None:
        self._register_themes()
        self.title = t("app.title")
        self.update_subtitle()
        for problem in self.theme_problems:
            self.notify(problem, severity="warning")
        if self.seed_demo:
            self._seed_demo()
        if self.preload_paddle:
            self.paddle_state = "loading"
            self.update_subtitle()
            self._load_paddle()

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Our semantic variables (``panel-border``…) before a workbench theme is applied, so the
        stylesheet parses whatever theme is current; each workbench theme sets its own."""
        return {"panel-border": "#6b7385"}

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, plus a colour-depth preview when one was asked for (snapshots, docs)."""
        filters = list(super().get_line_filters())
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

    @work(thread=True, exclusive=True, exit_on_error=False, group="paddle")
    def _load_paddle(self) -> None:
        """Import Paddle off the UI thread (2-3 s, ~290 MB); the first frame never waits for it."""
        from workbench.training.runtime import import_paddle

        try:
            paddle = import_paddle()
            version = str(getattr(paddle, "__version__", "?"))
            state = "ready"
        except Exception:  # noqa: BLE001 - any import failure means "not usable here"
            version, state = "", "missing"
        self.call_from_thread(self._paddle_loaded, state, version)

    @work(thread=True, exclusive=True, exit_on_error=False, group="demo")
    def _seed_demo(self) -> None:
        """Give an empty demo workspace a finished and a failed run (real jobs, ~1 s)."""
        from workbench.demo import seed_demo_workspace

        if seed_demo_workspace(self.store):
            self.call_from_thread(self._refresh_runs_screen)

    def _refresh_runs_screen(self) -> None:
        refresh = getattr(self.screen, "refresh_runs", None)
        if callable(refresh):
            refresh()

    def _paddle_loaded(self, state: str, version: str) -> None:
        self.paddle_state, self.paddle_version = state, version
        self.update_subtitle()

    # -- runs ------------------------------------------------------------------------------------

    def open_in_monitor(self, run_ref: str | Path | Job) -> None:
        """Show a live job, or a past / externally written run (attached), in the monitor."""
        if isinstance(run_ref, Job):
            self._show_in_monitor(run_ref)
            return
        run_dir = self.store.resolve(str(run_ref))
        if run_dir is None:
            self.notify(self.store.miss_message(str(run_ref)), severity="error")
            return
        job = self.live_jobs.get(run_dir.name) or self._attached.get(run_dir.name)
        if job is not None:
            self._show_in_monitor(job)
        else:
            self._attach_run(run_dir)  # reading a long run's history takes a while: never on the UI thread

    @work(thread=True, exclusive=True, exit_on_error=False, group="attach")
    def _attach_run(self, run_dir: Path) -> None:
        job = attach(run_dir)
        self.call_from_thread(self._attached_ready, job)

    def _attached_ready(self, job: AttachedRun) -> None:
        self._attached[job.run_id] = job
        while len(self._attached) > MAX_ATTACHED:  # keep a few recent ones; stop following the rest
            oldest = next(iter(self._attached))
            if self._attached[oldest] is self.monitor_target:
                break
            self._attached.pop(oldest).detach()
        self._show_in_monitor(job)

    def _show_in_monitor(self, job: Job) -> None:
        self.monitor_target = job
        self.update_subtitle()
        self.switch_mode("monitor")

    def start_job(self, job_factory: Any, *, open_monitor: bool = True) -> Job:
        """Start a job through the engine (``job_factory(store) -> Job``) and follow it."""
        job: Job = job_factory(self.store)
        self.live_jobs[job.run_id] = job
        if open_monitor:
            self.open_in_monitor(job)
        return job

    def ask_train_config(self) -> None:
        """Pick a training config (sample configs offered) and train it in process, like ``train``."""
        from workbench.screens.dialogs import TrainConfigScreen

        samples = sorted(str(p) for p in Path("sample_configs").glob("train_*.yaml"))
        self.push_screen(TrainConfigScreen(samples), self._train_chosen)

    def _train_chosen(self, config: str | None) -> None:
        if config:
            self.notify(t("ui.train.preparing", config=config))
            self.train_config(config)

    @work(thread=True, exclusive=True, exit_on_error=False, group="train")
    def train_config(self, config: str) -> None:
        """Validate (and generate demo data), then start the run: the same engine calls as the CLI."""
        from workbench.config import ConfigError
        from workbench.datasets.layouts import DatasetError
        from workbench.training import PrepareError, prepare_training, start_training

        try:
            plan = prepare_training(config, store=self.store)
            job = start_training(plan, self.store)
        except (ConfigError, DatasetError, PrepareError) as exc:
            # Bad input is a located message list, never a traceback (each error's str lists them all).
            title = t("ui.train.invalid", config=config)
            self.call_from_thread(self.push_screen, ErrorScreen(title, str(exc)))
            return
        self.call_from_thread(self.start_job, lambda _store: job)

    # -- global behaviour ------------------------------------------------------------------------

    @on(Worker.StateChanged)
    def report_worker_error(self, event: Worker.StateChanged) -> None:
        """The one place a failing worker surfaces (screens forward theirs): an error panel, never an exit."""
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            error = event.worker.error
            self.push_screen(
                ErrorScreen(t("ui.error.worker", name=event.worker.name), f"{type(error).__name__}: {error}")
            )

    def on_resize(self, event: Resize) -> None:
        too_small = event.size.width < MIN_WIDTH or event.size.height < MIN_HEIGHT
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
        if 1 <= number <= len(self.modes):
            self.switch_mode(self.modes[number - 1][0])

    def action_help(self) -> None:
        """Help for the current screen, read from its live bindings and the mode registry."""
        if isinstance(self.screen, (HelpScreen, TooSmallScreen)):
            return
        screen_keys, global_keys = help_rows(self.screen)
        if self.modes:
            global_keys.insert(0, (f"1 … {min(len(self.modes), MAX_MODE_KEYS)}", t("ui.help.modes")))
        global_keys.append(("ctrl+p", t("ui.help.palette")))
        modes = [
            (str(number) if number <= MAX_MODE_KEYS else "", t(spec.title), t(spec.help))
            for number, (_, spec) in enumerate(self.modes, start=1)
        ]
        self.push_screen(HelpScreen(screen_keys, global_keys, modes))

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
            path = Path(self.save_screenshot(path=str(folder)))
        except OSError as exc:
            self.notify(t("ui.screenshot.failed", folder=str(folder), error=str(exc)), severity="error")
            return None
        self.notify(t("ui.screenshot.saved", path=str(path)))
        return path

    def action_quit(self) -> Any:
        running = [job for job in self.live_jobs.values() if not job.done]
        if not running:
            self.exit(0)
            return
        names = ", ".join(job.run_id for job in running)
        self.push_screen(
            ConfirmScreen(t("ui.quit.title"), t("ui.quit.running", runs=names)), self._quit_confirmed
        )

    def _quit_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            self.notify(t("ui.quit.stopping"))
            self._stop_jobs_and_exit()

    @work(thread=True, exclusive=True, exit_on_error=False, group="quit")
    def _stop_jobs_and_exit(self) -> None:
        """Stop the runs cooperatively (they checkpoint), bounded so quitting never hangs."""
        for job in self.live_jobs.values():
            job.cancel()
        deadline = time.monotonic() + QUIT_WAIT_S
        for job in self.live_jobs.values():
            job.wait(max(0.0, deadline - time.monotonic()))
        self.call_from_thread(self.exit, 0)
