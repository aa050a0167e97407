"""Which export ``RUN_OR_EXPORT`` names, and only one whose sha256 manifest verifies.

The argument is an export folder (it holds ``manifest.json`` and ``model.json``) or anything
``compare`` accepts for a run (id, id prefix, run folder, ``latest``, run name). For a run the
training loop's own export (``export/``) is taken, else the newest ``export/step-<N>/`` that
``compare`` wrote. A run without an export is bad input that names the command that exports it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.i18n import t
from workbench.inference.preprocess import PREPROCESS_FILE
from workbench.inference.source import CompareInputError, resolve_run
from workbench.runs import RunStore, read_run_config
from workbench.training.checkpoints import MANIFEST, verify_checkpoint
from workbench.training.export import EXPORT_DIR, EXPORT_PREFIX

_STEP_DIR = re.compile(r"step-(\d+)")


class ServeInputError(Exception):
    """Bad input for ``serve``: each message says what is wrong and how to fix it (exit code 2)."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


@dataclass(frozen=True)
class ServedExport:
    """A verified export: where it is, its manifest and preprocessing identity, and its run."""

    directory: Path
    manifest: dict[str, Any]
    preprocess: dict[str, Any]
    run_dir: Path | None

    @property
    def prefix(self) -> Path:
        return self.directory / EXPORT_PREFIX

    @property
    def input_spec(self) -> list[dict[str, Any]]:
        spec = self.manifest.get("input_spec")
        return list(spec) if isinstance(spec, list) else []

    @property
    def name(self) -> str:
        run = self.run_dir.name if self.run_dir is not None else self.directory.name
        step = self.manifest.get("step")
        return f"{run}@step-{step}" if step is not None else run

    @property
    def model_label(self) -> str:
        """``task:model`` as ``compare`` labels its matrix rows (``custom:<entry>``), else :attr:`name`."""
        config = read_run_config(self.run_dir) if self.run_dir is not None else {}
        task = config.get("task")
        if task == "custom" and config.get("entry"):
            return f"custom:{config['entry']}"
        model = config.get("model")
        name = model.get("name") if isinstance(model, dict) else None
        return f"{task}:{name}" if task and name else self.name

    @property
    def log_dir(self) -> Path:
        """Where ``serve.log`` and ``reports/`` go: the run folder, else the export folder."""
        return self.run_dir if self.run_dir is not None else self.directory


def _is_export(path: Path) -> bool:
    return (path / MANIFEST).is_file() and (path / f"{EXPORT_PREFIX}.json").is_file()


def _run_of(directory: Path) -> Path | None:
    for parent in (directory, *directory.parents[:2]):
        if (parent / "run.yaml").is_file():
            return parent
    return None


def exports_of(run_dir: Path) -> list[Path]:
    """The run's export folders, preferred first (the training export, then newest step first)."""
    base = run_dir / EXPORT_DIR
    found = [base] if _is_export(base) else []
    steps = []
    if base.is_dir():
        for child in base.iterdir():
            match = _STEP_DIR.fullmatch(child.name)
            if match and _is_export(child):
                steps.append((int(match.group(1)), child))
    return found + [path for _, path in sorted(steps, reverse=True)]


def resolve_export(ref: str, store: RunStore) -> ServedExport:
    """The verified export ``ref`` names; :class:`ServeInputError` with every problem otherwise."""
    path = Path(ref)
    if path.is_dir() and _is_export(path):
        directory = path.resolve()
        run_dir = _run_of(directory)
    else:
        try:
            run_dir = resolve_run(ref, store)
        except CompareInputError as exc:
            raise ServeInputError(exc.messages) from None
        candidates = exports_of(run_dir)
        if not candidates:
            raise ServeInputError(
                [t("serve.input.no_export", run=str(run_dir), command=f"paddle-workbench compare {ref}")]
            )
        directory = candidates[0]
    problems = verify_checkpoint(directory)
    if problems:
        raise ServeInputError([t("serve.input.export_invalid", path=str(directory)), *problems])
    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
        preprocess = json.loads((directory / PREPROCESS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ServeInputError(
            [t("serve.input.export_unreadable", path=str(directory), error=str(exc))]
        ) from None
    if not isinstance(manifest, dict) or not isinstance(preprocess, dict):
        raise ServeInputError(
            [t("serve.input.export_unreadable", path=str(directory), error="not an object")]
        )
    return ServedExport(directory, manifest, preprocess, run_dir)
