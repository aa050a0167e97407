"""The monitor's run overview pane (``v``): summary, environment, alerts and the resolved config.

What it shows is :func:`workbench.overview.overview_of_job` — the run's ``run.yaml`` (read once per run,
on a worker) joined with the live job's events and metrics — drawn as two columns from 100 cells (facts
left, config right) and one column below. :meth:`OverviewPane.copy_config` (``k``) puts the config as
YAML on the system clipboard (Textual's OSC 52 escape: works over SSH, and in tmux with
``set-clipboard on``) and writes it to ``<run>/config.copy.yaml``, for terminals that ignore the escape.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from workbench.i18n import cell_width, t
from workbench.overview import RunOverview, config_yaml, overview_of_job, write_config_copy
from workbench.runs import read_run_doc
from workbench.screens.formatting import (
    STATUS_VARIABLE,
    format_duration,
    format_time,
    format_value,
    status_text,
)
from workbench.screens.inert import inert, inert_content, inert_text
from workbench.screens.workers import ConfigCopyWritten, RunDocRead

if TYPE_CHECKING:
    from workbench.runner import Job
    from workbench.screens.app import WorkbenchApp

NARROW = 100
"""Below this width (cells) the config goes under the facts instead of beside them."""
MAX_LATEST = 12
"""Latest values listed in the summary (the chart grid shows every metric)."""


FIELDS = (
    "name", "status", "steps", "started", "duration", "error", "latest", "best", "source", "paddle", "build",
    "device", "seeds", "dataset", "samples", "code", "python", "workbench", "config_file", "resumed_from",
)  # fmt: skip


def _label_width() -> int:
    """One label column width for every section, so the values line up (in cells: Chinese labels)."""
    return max(cell_width(t(f"overview.field.{name}")) for name in FIELDS)


class OverviewPane(VerticalScroll):
    """``follow(job)`` keeps it current (cheap while hidden); ``copy_config()`` is the ``k`` action."""

    DEFAULT_CSS = """
    OverviewPane { height: 1fr; min-height: 8; padding: 0 1; background: $background; }
    OverviewPane #overview-title { height: auto; }
    OverviewPane #overview-columns { height: auto; }
    OverviewPane #overview-facts { width: 1fr; height: auto; }
    OverviewPane #overview-config { width: 1fr; height: auto; margin-left: 2; }
    OverviewPane.-narrow #overview-columns { layout: vertical; }
    OverviewPane.-narrow #overview-config { width: 100%; margin-left: 0; margin-top: 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id, classes="panel")
        self.job: Job | None = None
        self.doc: dict[str, Any] = {}
        self.overview: RunOverview | None = None
        self._drawn_for: tuple[Any, ...] = ()

    @property
    def wb(self) -> WorkbenchApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Static(id="overview-title")
        with Horizontal(id="overview-columns"):
            yield Static(id="overview-facts")
            yield Static(id="overview-config", markup=False)  # the user's values, never markup

    def on_resize(self) -> None:
        self.set_class(self.size.width < NARROW, "-narrow")

    # -- keeping up with the followed run ---------------------------------------------------------

    def follow(self, job: Job | None) -> None:
        """Show ``job``: its ``run.yaml`` is read once on a worker; redrawn only while shown and changed."""
        if job is not self.job:
            self.job, self.doc, self.overview, self._drawn_for = job, {}, None, ()
            if job is not None:
                self._read_doc(job.run_dir, self.wb.requests.new("overview"))
        if not self.display:
            return
        key = (
            id(job),
            id(self.doc),
            job.metrics.samples if job else 0,
            len(job.lifecycle) if job else 0,
            job.status if job else "",
        )
        if key != self._drawn_for:
            self._drawn_for = key
            self._draw()

    @work(
        thread=True, exclusive=True, exit_on_error=False, group="overview", description="worker.overview_read"
    )
    def _read_doc(self, run_dir: Path, request: int) -> None:
        self.post_message(RunDocRead(run_dir=run_dir, doc=read_run_doc(run_dir), request=request))

    @on(RunDocRead)
    def _doc_read(self, message: RunDocRead) -> None:
        if (
            self.wb.requests.is_current(message)
            and self.job is not None
            and message.run_dir == self.job.run_dir
        ):
            self.doc = message.doc
            self.follow(self.job)

    # -- copy config (k) --------------------------------------------------------------------------

    def copy_config(self) -> None:
        """Clipboard (OSC 52) and ``<run>/config.copy.yaml``; a notice names both."""
        job = self.job
        overview = overview_of_job(job, self.doc) if job is not None else None
        if job is None or overview is None or not overview.config:
            self.notify(t("overview.no_config"), severity="warning")
            return
        text = config_yaml(overview)
        self.app.copy_to_clipboard(text)
        self._write_copy(job.run_dir, text, self.wb.requests.new("config-copy"))

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="config-copy",
        description="worker.config_copy",
    )
    def _write_copy(self, run_dir: Path, text: str, request: int) -> None:
        try:
            path = write_config_copy(run_dir, text)
        except OSError as exc:
            self.post_message(
                ConfigCopyWritten(path=None, error=exc.strerror or type(exc).__name__, request=request)
            )
            return
        self.post_message(ConfigCopyWritten(path=path, request=request))

    @on(ConfigCopyWritten)
    def _copy_written(self, message: ConfigCopyWritten) -> None:
        if not self.wb.requests.is_current(message):
            return
        if message.path is not None:
            self.notify(t("overview.copied", path=str(message.path)))
        else:
            target = self.job.run_dir / "config.copy.yaml" if self.job is not None else "config.copy.yaml"
            self.notify(
                t("overview.copied_no_file", path=str(target), error=message.error), severity="warning"
            )

    # -- drawing ----------------------------------------------------------------------------------

    def _draw(self) -> None:
        title = self.query_one("#overview-title", Static)
        facts = self.query_one("#overview-facts", Static)
        config = self.query_one("#overview-config", Static)
        if self.job is None:
            self.overview = None
            title.update(t("overview.no_run"))
            facts.update("")
            config.update("")
            return
        self.overview = overview = overview_of_job(self.job, self.doc, now=time.time())
        title.update(Text(t("overview.title", run=inert(overview.run_id)), style="bold"))
        facts.update(
            Group(
                *self._summary(overview),
                Text(""),
                *self._alerts(overview),
                Text(""),
                *self._environment(overview),
            )
        )
        heading = Text(t("overview.section.config"), style="bold")
        body = config_yaml(overview) if overview.config else t("overview.not_recorded")
        config.update(Group(heading, Text(inert(body))))  # the user's values

    def _grid(self, heading: str, rows: list[tuple[str, RenderableType]]) -> list[RenderableType]:
        table = Table.grid(padding=(0, 2))
        table.add_column(no_wrap=True, style="bold", min_width=_label_width())
        table.add_column(overflow="fold")
        for label, value in rows:  # names, errors, paths and sources come from the run: shown inert
            table.add_row(t(f"overview.field.{label}"), inert_content(value))
        return [Text(heading, style="bold underline"), table]

    def _summary(self, overview: RunOverview) -> list[RenderableType]:
        s = overview.summary
        colour = self.wb.theme_variable(STATUS_VARIABLE.get(s.status, "status-warn"))
        steps = "—" if s.last_step is None else str(s.last_step)
        if s.total_steps:
            steps = t("overview.steps", step=steps, total=s.total_steps)
        duration = "—"
        if s.duration_s is not None:
            duration = format_duration(s.duration_s)
            if s.ended is None and s.status == "running":
                duration = t("overview.running_for", duration=duration)
        rows: list[tuple[str, RenderableType]] = [
            ("name", Text(overview.name)),
            ("status", status_text(s.status, colour)),
            ("steps", steps),
            ("started", format_time(s.started)),
            ("duration", duration),
        ]
        if s.error:
            rows.append(("error", Text(s.error, style=self.wb.theme_variable("status-fail"))))
        latest = list(s.latest.items())[:MAX_LATEST]
        rows.append(("latest", "\n".join(f"{n}  {format_value(v)}" for n, v in latest) or t("overview.none")))
        best = [
            f"{b.name}  {t('overview.best', value=format_value(b.value), step=b.step)}" for b in s.best_eval
        ]
        rows.append(("best", "\n".join(best) or t("overview.none")))
        return self._grid(t("overview.section.summary"), rows)

    def _environment(self, overview: RunOverview) -> list[RenderableType]:
        env = overview.environment
        missing = t("overview.not_recorded")
        rows: list[tuple[str, RenderableType]] = []
        if env.source:  # a kit's own log: the workbench saw no environment, only the file
            rows.append(("source", Text(f"{env.source} ({env.source_format or '?'})")))
        paddle = env.paddle_version or missing
        if env.paddle_version and env.paddle_commit:
            paddle = f"{env.paddle_version} ({env.paddle_commit[:10]})"
        rows += [
            ("paddle", paddle),
            ("build", env.build or missing),
            ("device", env.device or missing),
            ("seeds", "  ".join(f"{k} {v}" for k, v in env.seeds.items()) or missing),
        ]
        data = env.dataset
        if data is None:
            rows.append(("dataset", missing))
        else:
            if data.error:
                rows.append(("dataset", Text(data.error)))
            else:
                files = data.files if data.files is not None else "?"
                line = t("overview.dataset", sha=(data.sha256 or "?")[:12], files=files)
                rows.append(("dataset", Text(line + (f"\n{data.directory}" if data.directory else ""))))
            if data.samples:
                rows.append(("samples", "  ".join(f"{k} {v}" for k, v in data.samples.items())))
        rows.append(("code", self._code(overview)))
        python = " · ".join(p for p in (env.python, env.platform) if p)
        rows.append(("python", python or missing))
        if env.workbench:
            rows.append(("workbench", env.workbench))
        if env.config_file:
            overrides = "".join(f" -o {o}" for o in env.overrides)
            rows.append(("config_file", Text(env.config_file + overrides)))
        if env.resumed_from:
            rows.append(("resumed_from", Text(env.resumed_from)))
        return self._grid(t("overview.section.environment"), rows)

    def _code(self, overview: RunOverview) -> RenderableType:
        code = overview.environment.code
        if code is None:
            return t("overview.code.none")
        commit, branch = code.commit[:10], code.branch or t("overview.code.detached")
        if code.dirty:
            changed = code.changed if code.changed is not None else "?"
            line = Text(
                t("overview.code.dirty", commit=commit, branch=branch, changed=changed),
                style=self.wb.theme_variable("status-warn"),
            )
        else:
            key = "overview.code.clean" if code.dirty is False else "overview.code.unknown"
            line = Text(t(key, commit=commit, branch=branch))
        return Text.assemble(line, f"\n{code.root}") if code.root else line

    def _alerts(self, overview: RunOverview) -> list[RenderableType]:
        heading = Text(t("overview.section.alerts"), style="bold underline")
        if not overview.alerts:
            return [heading, Text(t("overview.none"))]
        colour = self.wb.theme_variable("status-warn")
        lines = [
            Text(
                t(
                    "overview.alert",
                    step=a.step if a.step is not None else "—",
                    kind=a.kind,
                    message=a.message,
                ),
                style=colour,
            )
            for a in overview.alerts[-20:]
        ]
        return [heading, *map(inert_text, lines)]
