"""Engineering: the newest checkpoint verifies and loads, exports verify, logs exist, the run is
reproducible, and run folders and reports are their owner's only.

* checkpoint — every file of the baseline's newest ``checkpoints/step-<N>`` matches its sha256 manifest;
* checkpoint_load — its weights load with ``paddle.load`` (``deep`` only: imports Paddle);
* exports — every ``export/**/manifest.json`` of the baseline verifies;
* logs — ``events.jsonl`` is there (and ``logs.txt`` when output was captured);
* reproducible — ``run.yaml`` records the config, seeds, Paddle and Python versions and the dataset
  fingerprint;
* permissions — no run folder, file in one, report or the serving token (``<workspace>/serve/``) is
  readable by group or others (0700/0600); looser ones are named.
"""

from __future__ import annotations

import os
import stat
import warnings
from pathlib import Path
from typing import Any

from workbench.i18n import t
from workbench.runs import read_run_doc
from workbench.training.checkpoints import CheckpointStore, verify_checkpoint
from workbench.verify.engine import reports_dir
from workbench.verify.layers import LAYERS
from workbench.verify.layers.inference import compare_command
from workbench.verify.layers.training import COMMAND as TRAIN_COMMAND
from workbench.verify.model import FAIL, NOT_RUN, PASS, Context, Item

LAYER = "engineering"
SHOWN = 3


def _loads(weights: Path) -> str | None:
    """``None`` when Paddle loads the weights file into a non-empty state dict, else why not."""
    try:
        with warnings.catch_warnings():  # Paddle's import warns about ccache and the like
            warnings.simplefilter("ignore")
            from workbench.training.runtime import import_paddle

            paddle = import_paddle()  # keeps the command's stop signals in charge (not glog's handler)

        state = paddle.load(str(weights))
    except Exception as exc:  # noqa: BLE001 - a corrupt file raises anything; that is the finding
        return f"{weights}: {type(exc).__name__}: {exc}"
    return None if isinstance(state, dict) and state else f"{weights}: empty state"


def _checkpoint_items(ctx: Context, run: Path) -> list[Item]:
    store = CheckpointStore(run / "checkpoints")
    committed = store.committed()
    if not committed:
        note = t("verify.evidence.no_checkpoint", run=run.name)
        return [
            Item("engineering.checkpoint", LAYER, NOT_RUN, note, TRAIN_COMMAND),
            Item("engineering.checkpoint_load", LAYER, NOT_RUN, note, TRAIN_COMMAND),
        ]
    newest = committed[-1]
    when = newest.path.stat().st_mtime
    problems = verify_checkpoint(newest.path)
    if problems:
        evidence = t("verify.evidence.checkpoint_bad", problems="; ".join(problems[:SHOWN]))
    else:
        evidence = t(
            "verify.evidence.checkpoint_ok",
            path=str(newest.path),
            files=len(newest.manifest.get("files", {})),
        )
    items = [
        Item(
            "engineering.checkpoint",
            LAYER,
            FAIL if problems else PASS,
            evidence,
            "paddle-workbench verify",
            when,
            str(newest.path),
        )
    ]
    if not ctx.deep:
        items.append(ctx.reuse("engineering.checkpoint_load", LAYER, "paddle-workbench verify"))
        return items
    weights = newest.path / "model.pdparams"
    error = problems[0] if problems else (_loads(weights) if weights.is_file() else f"{weights}: missing")
    evidence = (
        t("verify.evidence.load_failed", error=error)
        if error
        else t("verify.evidence.load_ok", path=str(weights))
    )
    items.append(
        Item(
            "engineering.checkpoint_load",
            LAYER,
            FAIL if error else PASS,
            evidence,
            "paddle-workbench verify",
            when,
            str(weights),
        )
    )
    return items


def _exports(ctx: Context, run: Path) -> Item:
    manifests = sorted((run / "export").rglob("manifest.json")) if (run / "export").is_dir() else []
    if not manifests:
        return Item(
            "engineering.exports",
            LAYER,
            NOT_RUN,
            t("verify.evidence.no_export", run=run.name),
            compare_command(ctx),
        )
    problems = [p for m in manifests for p in verify_checkpoint(m.parent)]
    evidence = (
        t("verify.evidence.exports_bad", problems="; ".join(problems[:SHOWN]))
        if problems
        else t("verify.evidence.exports_ok", count=len(manifests))
    )
    return Item(
        "engineering.exports",
        LAYER,
        FAIL if problems else PASS,
        evidence,
        compare_command(ctx),
        None,
        str(run / "export"),
    )


def _logs(run: Path) -> Item:
    """The run's event log must be there and non-empty; ``logs.txt`` (captured output) exists only when
    something captured the run's output (the CLI and the TUI do; a library call may not)."""
    events = run / "events.jsonl"
    if not events.is_file() or events.stat().st_size == 0:
        evidence = t("verify.evidence.logs_missing", files="events.jsonl", run=str(run))
        return Item("engineering.logs", LAYER, FAIL, evidence, TRAIN_COMMAND, None, str(run))
    names = "events.jsonl" + (" + logs.txt" if (run / "logs.txt").is_file() else "")
    evidence = t("verify.evidence.logs_ok", files=names, run=run.name)
    return Item("engineering.logs", LAYER, PASS, evidence, TRAIN_COMMAND, None, str(run))


def _dig(doc: Any, *keys: str) -> Any:
    for key in keys:
        doc = doc.get(key) if isinstance(doc, dict) else None
    return doc


def _reproducible(run: Path) -> Item:
    doc = read_run_doc(run)
    wanted = {
        "config": bool(doc.get("config")),
        "seeds": bool(_dig(doc, "environment", "seeds")),
        "paddle": bool(_dig(doc, "environment", "paddle", "version")),
        "python": bool(_dig(doc, "environment", "python")),
        "dataset": bool(_dig(doc, "environment", "dataset", "sha256")),
    }
    missing = [key for key, ok in wanted.items() if not ok]
    where = str(run / "run.yaml")
    evidence = (
        t("verify.evidence.repro_missing", keys=", ".join(missing), path=where)
        if missing
        else t("verify.evidence.repro_ok", path=where)
    )
    return Item(
        "engineering.reproducible", LAYER, FAIL if missing else PASS, evidence, TRAIN_COMMAND, None, where
    )


def loose_paths(roots: list[Path]) -> list[str]:
    """Folders and files under ``roots`` that group or others may read (mode & 0o077), as ``path (mode)``."""
    found = []
    for root in roots:
        for base, dirs, files in os.walk(root):
            for name in [*(["."] if base == str(root) else []), *dirs, *files]:
                path = base if name == "." else os.path.join(base, name)
                try:
                    st = os.lstat(path)
                except OSError:
                    continue
                if not stat.S_ISLNK(st.st_mode) and stat.S_IMODE(st.st_mode) & 0o077:
                    found.append(f"{path} ({stat.S_IMODE(st.st_mode):04o})")
    return found


def _permissions(ctx: Context) -> Item:
    roots = ctx.store.run_dirs()
    # Reports, and the serving token (``serve`` refuses a token file others can read; so does this).
    roots += [p for p in (reports_dir(ctx.workspace), ctx.workspace / "serve") if p.is_dir()]
    command = f"chmod -R go-rwx {ctx.store.runs_dir}"
    if not roots:
        return Item("engineering.permissions", LAYER, NOT_RUN, t("verify.evidence.no_runs"), TRAIN_COMMAND)
    loose = loose_paths(roots)
    if loose:
        shown = "; ".join(loose[:SHOWN])
        evidence = t("verify.evidence.perms_loose", count=len(loose), paths=shown)
        return Item("engineering.permissions", LAYER, FAIL, evidence, command)
    return Item(
        "engineering.permissions", LAYER, PASS, t("verify.evidence.perms_ok", count=len(roots)), command
    )


def engineering(ctx: Context) -> list[Item]:
    run = ctx.baseline
    if run is None:
        note = t("verify.evidence.no_baseline")
        items = [
            Item(f"engineering.{name}", LAYER, NOT_RUN, note, TRAIN_COMMAND)
            for name in ("checkpoint", "checkpoint_load", "exports", "logs", "reproducible")
        ]
    else:
        items = [*_checkpoint_items(ctx, run), _exports(ctx, run), _logs(run), _reproducible(run)]
    items.append(_permissions(ctx))
    return items


LAYERS.register("engineering", engineering, order=70)
