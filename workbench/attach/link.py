"""Linking a kit's log into the workspace as a read-only run (never copied).

``link_log`` makes ``<workspace>/runs/<id>/`` holding ``run.yaml`` (kind ``linked``, the source path
and format), ``state.json`` and ``source.log`` — a symbolic link to the kit's file, so the run folder
stays small and the log keeps growing where the kit writes it. Linking the same file again returns
the run made the first time. Nothing here writes to the kit's file.

The run's status and last step come from the log itself (:func:`refresh_state`): ``failed`` when a
traceback ends it, ``finished`` at the last step of the last epoch or at the format's end-of-training
line (never at an evaluation's, :mod:`workbench.attach.follow`), ``running`` while the file still grows,
``interrupted`` once it stopped growing without an ending.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from workbench.attach.follow import LogFollower
from workbench.attach.parsers import PARSERS, LogParser
from workbench.i18n import t
from workbench.runs import RunStore, atomic_write_text, read_run_doc, read_state

KIND = "linked"
SOURCE_NAME = "source.log"
DETECT_BYTES = 512 * 1024
"""How much of a log's head is searched for its format (kits print their whole config first)."""
TAIL_BYTES = 256 * 1024


class AttachError(ValueError):
    """The path cannot be linked; the message says why and what to do."""


@dataclass
class LinkedLog:
    """What ``attach PATH`` reports about a linked log."""

    run_dir: Path
    format: str
    source: Path
    status: str
    last_step: int | None
    metrics: list[str]


def _head_lines(path: Path, limit: int = DETECT_BYTES) -> list[str]:
    with open(path, "rb") as fh:
        return fh.read(limit).decode("utf-8", "replace").splitlines()


def detect_format(path: Path) -> str | None:
    """The registered format whose ``detect`` accepts the head of ``path`` (first match wins); a record
    format (VisualDL) is recognised by the file's name."""
    for name, parser in PARSERS.items():
        if parser.detect_path is not None and parser.detect_path(path):
            return name
    lines = _head_lines(path)
    for name, parser in PARSERS.items():
        if parser.detect(lines):
            return name
    return None


def _record_file_in(folder: Path) -> Path | None:
    """The newest record file directly in ``folder`` (``attach`` may be given a VisualDL log folder)."""
    found = []
    for child in folder.iterdir():
        for parser in PARSERS.values():
            if parser.detect_path is not None and parser.detect_path(child) and child.is_file():
                found.append(child)
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


def is_linked(run_dir: Path) -> bool:
    return (run_dir / SOURCE_NAME).is_symlink() or read_state(run_dir)[0].kind == KIND


def source_of(run_dir: Path) -> tuple[Path, LogParser, str]:
    """The kit log a linked run reads, its parser and format name."""
    env = read_run_doc(run_dir).get("environment") or {}
    fmt = str(env.get("format", ""))
    source = Path(str(env.get("source") or os.path.realpath(run_dir / SOURCE_NAME)))
    return source, PARSERS.get(fmt), fmt


def _existing(store: RunStore, source: Path) -> Path | None:
    for run_dir in store.run_dirs():
        link = run_dir / SOURCE_NAME
        with contextlib.suppress(OSError):
            if link.is_symlink() and Path(os.path.realpath(link)) == source:
                return run_dir
    return None


def link_log(store: RunStore, path: Path, fmt: str | None = None) -> Path:
    """Link ``path`` into ``store`` as a run (or find the run that already links it); returns its folder."""
    source = Path(os.path.realpath(path))
    if source.is_dir():
        source = _record_file_in(source) or source
    if not source.is_file():
        raise AttachError(t("attach.no_file", path=str(path)))
    try:
        detected = fmt or detect_format(source)
    except OSError as exc:
        raise AttachError(t("attach.unreadable", path=str(path), error=exc.strerror or str(exc))) from None
    if fmt is not None and fmt not in PARSERS:
        raise AttachError(t("attach.unknown_format", format=fmt, choices=", ".join(PARSERS.names())))
    if detected is None:
        raise AttachError(t("attach.unknown_log", path=str(path), choices=", ".join(PARSERS.names())))
    parser = PARSERS.get(detected)
    if parser.records is not None:
        try:
            parser.records(source)  # the optional reader must be there, and the file must read
        except ImportError:
            raise AttachError(t("attach.needs_extra", path=str(path), extra=detected)) from None
        except Exception as exc:  # any failure of the third-party reader on this file is bad input here
            raise AttachError(
                t("attach.unreadable", path=str(path), error=str(exc) or type(exc).__name__)
            ) from None
    found = _existing(store, source)
    if found is not None:
        return found
    name = source.parent.name if source.stem in ("train", "log", "train_log", "workerlog") else source.stem
    run_id = store.new_run_id(f"{detected}-{name or source.stem}")
    run_dir = store.runs_dir / run_id
    run_dir.mkdir(parents=True)
    os.symlink(source, run_dir / SOURCE_NAME)
    doc = {
        "run_id": run_id,
        "name": name,
        "kind": KIND,
        "config": {},
        "environment": {"source": str(source), "format": detected},
    }
    atomic_write_text(run_dir / "run.yaml", yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))
    try:
        started = source.stat().st_mtime
    except OSError:
        started = time.time()
    _write_state(
        run_dir, {"run_id": run_id, "name": name, "kind": KIND, "started": started, "status": "running"}
    )
    return run_dir


def _write_state(run_dir: Path, state: dict[str, object]) -> None:
    atomic_write_text(run_dir / "state.json", json.dumps(state, ensure_ascii=False))


def scan(run_dir: Path, *, tail_only: bool = False) -> LinkedLog:
    """Read a linked run's log (whole, or only its tail for a cheap status) and report on it."""
    source, parser, fmt = source_of(run_dir)
    follower = LogFollower(source, parser)
    if tail_only:
        with contextlib.suppress(OSError), open(source, "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            if size > TAIL_BYTES:
                fh.seek(0)
                follower.learn_facts(fh.read(DETECT_BYTES).decode("utf-8", "replace").splitlines())
                fh.seek(size - TAIL_BYTES)
                head = fh.read(TAIL_BYTES)
                follower.offset = size - TAIL_BYTES + head.find(b"\n") + 1  # from the first whole line
    while True:  # poll returns only text lines: keep reading until the offset stops moving
        before = follower.offset
        follower.poll()
        if follower.offset == before:
            break
    return LinkedLog(
        run_dir=run_dir,
        format=fmt,
        source=source,
        status=follower.status(),
        last_step=follower.last_step,
        metrics=follower.metrics.names(),
    )


def refresh_state(run_dir: Path) -> LinkedLog:
    """Scan the log's tail and write what it says into ``state.json`` (what ``runs`` lists)."""
    report = scan(run_dir, tail_only=True)
    state = read_state(run_dir)[0].model_dump(exclude_none=True)
    state.update(status=report.status, kind=KIND)
    if report.last_step is not None:
        state["last_step"] = report.last_step
    with contextlib.suppress(OSError):
        _write_state(run_dir, state)
    return report
