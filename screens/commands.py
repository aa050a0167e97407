"""Command palette entries for every workbench action (ctrl+p)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

from workbench.i18n import t


def _actions(app: Any) -> list[tuple[str, str, Callable[[], Any]]]:
    from workbench.demo import start_demo_job
    from workbench.screens.app import MODE_ORDER

    entries: list[tuple[str, str, Callable[[], Any]]] = [
        (t("ui.cmd.go", mode=t(f"mode.{mode}")), t(f"mode.{mode}.what"), partial(app.switch_mode, mode))
        for mode in MODE_ORDER
    ]
    entries += [
        (t("ui.cmd.train"), t("ui.cmd.train.help"), app.ask_train_config),
        (
            t("ui.cmd.demo"),
            t("ui.cmd.demo.help"),
            lambda: app.start_job(partial(start_demo_job, fail_at=None)),
        ),
        (
            t("ui.cmd.demo_fail"),
            t("ui.cmd.demo_fail.help"),
            lambda: app.start_job(partial(start_demo_job, fail_at=40)),
        ),
        (t("ui.cmd.help"), t("ui.cmd.help.help"), app.action_help),
    ]
    return entries


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
