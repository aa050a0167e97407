"""Which export ``RUN_OR_EXPORT`` names, and only one whose sha256 manifest verifies.

The argument is an export folder (it holds ``manifest.json`` and ``model.json``) or anything
``compare`` accepts for a run (id, id prefix, run folder, ``latest``, run name). For a run the
training loop's own export (``export/``) is taken, else the newest ``export/step-<N>/`` that
``compare`` wrote. A run without an export is bad input that names the command that exports it.

An export that verifies can still be the wrong one to serve. :func:`export_drift` lists what no longer
holds: its key is missing (made before exports were keyed), the model's code files changed since it was
exported, the checkpoint's weights changed, Paddle is another version, its preprocessing differs from
the one the run trained with (recorded in the checkpoint manifest), or the preprocessing the run's config
and code give today differs from the export's (a changed mean/std, a changed custom transform). For a
run, the first candidate without drift is served; ``serve`` refuses a drifted one (exit 2, each
difference and the command that re-exports) unless ``--allow-drift`` is given.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from workbench.i18n import t
from workbench.inference.preprocess import PREPROCESS_FILE, changed_parts, identity_differences
from workbench.inference.source import CompareInputError, resolve_run
from workbench.runs import RunStore, read_run_config
from workbench.training.checkpoints import MANIFEST, read_manifest, verify_checkpoint
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
    drift: list[Drift] = field(default_factory=list)
    """What no longer holds for this export (:func:`export_drift`); empty: it is current."""

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


@dataclass(frozen=True)
class Drift:
    """One way an export is stale or drifted: ``kind`` (``key``, ``model_code``, ``weights``, ``paddle``,
    ``preprocess_training``, ``preprocess_now``) and the sentence that says what differs."""

    kind: str
    message: str


def _installed_paddle() -> str | None:
    for dist in ("paddlepaddle", "paddlepaddle-gpu"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return None


def _checkpoint_manifest(manifest: dict[str, Any], run_dir: Path | None) -> dict[str, Any] | None:
    """The manifest of the checkpoint the export came from: in the run's own ``checkpoints/`` (a run
    folder copied or moved keeps its exports), else at the recorded path; ``None`` when it is gone."""
    path = manifest.get("checkpoint")
    if not isinstance(path, str):
        return None
    candidates = [Path(path)]
    if run_dir is not None:
        candidates.insert(0, run_dir / "checkpoints" / Path(path).name)
    for candidate in candidates:
        try:
            return read_manifest(candidate)
        except ValueError:
            continue  # pruned by checkpoint.keep: nothing left to compare with
    return None


def _identity_text(before: dict[str, Any], after: dict[str, Any]) -> str:
    parts = identity_differences(before, after)
    pieces = changed_parts(before, after)
    text = ", ".join(parts)
    if before.get("config") != after.get("config"):
        text += f"; config {before.get('config')} -> {after.get('config')}"
    if pieces:
        text += "; " + ", ".join(pieces)
    return text


def _current_identity(run_dir: Path) -> dict[str, Any] | str:
    """The preprocessing identity the run's config and code give today, or why it cannot be had."""
    from pydantic import ValidationError

    from workbench.config.training import TrainingConfig
    from workbench.inference.preprocess import preprocess_identity
    from workbench.inference.source import load_source

    try:
        source = load_source(run_dir)
        cfg, config_dir = source.cfg, source.config_dir
    except CompareInputError:  # the data folder is gone: the config is still readable
        try:
            cfg, config_dir = TrainingConfig.model_validate(read_run_config(run_dir)), run_dir
        except ValidationError as exc:
            return str(exc.errors(include_url=False)[0].get("msg"))
    try:
        return preprocess_identity(cfg, config_dir)
    except Exception as exc:  # noqa: BLE001 - the user's entry module does not import: that is the drift
        return f"{type(exc).__name__}: {exc}"


def export_drift(manifest: dict[str, Any], preprocess: dict[str, Any], run_dir: Path | None) -> list[Drift]:
    """Everything that makes this export stale or drifted today (see the module docstring)."""
    out: list[Drift] = []
    if not isinstance(manifest.get("key"), dict):
        out.append(Drift("key", t("serve.drift.key")))
    code = manifest.get("model_code")
    files = code.get("files") if isinstance(code, dict) else None
    if isinstance(files, dict):
        from workbench.inference.code_identity import changed_files

        changed = changed_files(files)
        if changed:
            out.append(Drift("model_code", t("serve.drift.model_code", files=", ".join(changed))))
    installed, recorded = _installed_paddle(), manifest.get("paddle_version")
    if installed and recorded and str(recorded) != installed:
        out.append(Drift("paddle", t("serve.drift.paddle", recorded=str(recorded), installed=installed)))
    trained = _checkpoint_manifest(manifest, run_dir)
    if trained is not None:
        weights = (trained.get("files") or {}).get("model.pdparams", {})
        now = weights.get("sha256") if isinstance(weights, dict) else None
        if manifest.get("checkpoint_weights_sha256") and now != manifest.get("checkpoint_weights_sha256"):
            out.append(Drift("weights", t("serve.drift.weights", checkpoint=str(manifest.get("checkpoint")))))
        identity = trained.get("preprocess")
        if isinstance(identity, dict) and identity_differences(identity, preprocess):
            out.append(
                Drift(
                    "preprocess_training",
                    t("serve.drift.preprocess_training", parts=_identity_text(identity, preprocess)),
                )
            )
    if run_dir is not None:
        current = _current_identity(run_dir)
        if isinstance(current, str):
            out.append(Drift("preprocess_now", t("serve.drift.preprocess_unknown", error=current)))
        elif identity_differences(preprocess, current):
            out.append(
                Drift(
                    "preprocess_now",
                    t("serve.drift.preprocess_now", parts=_identity_text(preprocess, current)),
                )
            )
    return out


def reexport_command(export: ServedExport) -> str:
    """The command that exports the served checkpoint again (with today's code and Paddle)."""
    ref = str(export.run_dir) if export.run_dir is not None else "<run>"
    trained = _checkpoint_manifest(export.manifest, export.run_dir)
    step = trained.get("step") if trained is not None else None
    return f"paddle-workbench compare {ref}" + (f" --checkpoint {step}" if isinstance(step, int) else "")


def drift_messages(export: ServedExport) -> list[str]:
    """The refusal: the export, each difference, and what to do."""
    lines = [t("serve.drift.refused", path=str(export.directory))]
    lines += [f"  - {d.message}" for d in export.drift]
    if any(d.kind == "preprocess_training" for d in export.drift):
        lines.append(t("serve.drift.fix_training"))
    lines.append(t("serve.drift.fix", command=reexport_command(export)))
    return lines


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
    """The verified export ``ref`` names, its drift listed; :class:`ServeInputError` with every problem
    otherwise. For a run: the first of its exports without drift, else the preferred one."""
    path = Path(ref)
    if path.is_dir() and _is_export(path):
        return _read_export(path.resolve(), _run_of(path.resolve()))
    try:
        run_dir = resolve_run(ref, store)
    except CompareInputError as exc:
        raise ServeInputError(exc.messages) from None
    candidates = exports_of(run_dir)
    if not candidates:
        raise ServeInputError(
            [t("serve.input.no_export", run=str(run_dir), command=f"paddle-workbench compare {ref}")]
        )
    first = _read_export(candidates[0], run_dir)
    if first.drift:
        for directory in candidates[1:]:
            try:
                other = _read_export(directory, run_dir)
            except ServeInputError:
                continue
            if not other.drift:
                return other
    return first


def _read_export(directory: Path, run_dir: Path | None) -> ServedExport:
    """One export folder, verified and read, with its drift."""
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
    return ServedExport(directory, manifest, preprocess, run_dir, export_drift(manifest, preprocess, run_dir))
