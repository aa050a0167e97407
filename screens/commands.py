"""Command palette entries for every workbench action (ctrl+p), and the palette's theme list."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

from workbench.i18n import t


def _actions(app: Any) -> list[tuple[str, str, Callable[[], Any]]]:
    from workbench.demo import DEMO_FAIL_AT, start_demo_job
    from workbench.screens.modes import ordered_modes

    entries: list[tuple[str, str, Callable[[], Any]]] = [
        (
            t("ui.cmd.go", mode=t(spec.title)),
            t(spec.help),
            partial(app.leave_screen, partial(app.switch_mode, name)),
        )
        for name, spec in ordered_modes()
    ]
    entries += [
        (t("ui.cmd.train"), t("ui.cmd.train.help"), app.ask_train_config),
        (t("ui.cmd.open_plan"), t("ui.cmd.open_plan.help"), partial(_ask_plan_file, app)),
        (
            t("ui.cmd.demo"),
            t("ui.cmd.demo.help"),
            lambda: app.start_job_in_worker(partial(start_demo_job, fail_at=None)),
        ),
        (
            t("ui.cmd.demo_fail"),
            t("ui.cmd.demo_fail.help"),
            lambda: app.start_job_in_worker(partial(start_demo_job, fail_at=DEMO_FAIL_AT)),
        ),
        (t("ui.cmd.help"), t("ui.cmd.help.help"), app.action_help),
    ]
    return entries


def _ask_plan_file(app: Any) -> None:
    from workbench.screens.plan_files import ask_plan_file

    ask_plan_file(app)


class WorkbenchCommands(Provider):
    """Every mode switch and workbench action, searchable by name in either language."""

    async def discover(self) -> Hits:
        for name, help_text, callback in _actions(self.app):
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in _actions(self.app):
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)


class WorkbenchThemes(Provider):
    """The palette's theme list: the bundled themes under the names ``--theme`` accepts."""

    def _themes(self) -> list[tuple[str, str]]:
        from workbench.themes import theme_choices

        return [
            (name, resolve)
            for name, resolve in theme_choices().items()
            if resolve in self.app.available_themes
        ]

    def _set(self, registered: str) -> None:
        self.app.theme = registered

    async def discover(self) -> Hits:
        for name, registered in self._themes():
            yield DiscoveryHit(name, partial(self._set, registered))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, registered in self._themes():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), partial(self._set, registered))
