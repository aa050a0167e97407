"""What one checklist item found: its layer, status, evidence and the command that produces it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.runs import RunStore
from workbench.verify.config import VerifyConfig

PASS, FAIL, NOT_RUN = "pass", "fail", "not run"
STATUSES = (PASS, FAIL, NOT_RUN)


@dataclass
class Item:
    """One line of the checklist. ``command`` is what produces (or refreshes) the evidence."""

    id: str
    layer: str
    status: str
    evidence: str
    command: str = ""
    when: float | None = None
    """When the evidence was made (a report's or run's time), for the dashboard."""
    source: str = ""
    """The run or report the evidence comes from (a path), when there is one."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "layer": self.layer,
            "status": self.status,
            "evidence": self.evidence,
            "command": self.command,
            "when": self.when,
            "source": self.source,
        }


@dataclass
class Context:
    """What every layer may read: the workspace, the config and the runs found once for all layers."""

    store: RunStore
    config: VerifyConfig
    deep: bool
    """``True`` (the ``verify`` command): also the slow checks — load the checkpoint with Paddle, lint
    the dataset (decodes images). ``False`` (the dashboard): those items repeat the last stored
    ``verify`` report's verdict, or say "not run"."""
    baseline: Path | None = None
    parallel: Path | None = None
    previous: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The last stored verify report's items by id (``deep=False`` reuses them)."""
    previous_when: float | None = None

    @property
    def workspace(self) -> Path:
        return self.store.workspace

    def reuse(self, item_id: str, layer: str, command: str) -> Item:
        """The last verify report's verdict on a slow item (or "not run" with ``command``)."""
        from workbench.i18n import t

        old = self.previous.get(item_id)
        if old is None or old.get("status") not in STATUSES:
            return Item(item_id, layer, NOT_RUN, t("verify.evidence.needs_verify"), command)
        return Item(
            item_id,
            layer,
            str(old["status"]),
            str(old.get("evidence", "")),
            str(old.get("command", "")) or command,
            when=self.previous_when,
            source=str(old.get("source", "")),
        )
