"""VisualDL record files (``vdlrecords.*.log``, written by ``visualdl.LogWriter``), read with ``LogReader``.

The kits write them next to their text log when ``use_visualdl`` is on (PaddleOCR: ``TRAIN/loss``…,
PaddleClas: ``train_loss``, ``lr``…). The ``visualdl`` package is an optional extra
(``pip install paddle-workbench[visualdl]``); it is imported only when such a file is read. Scalar tags
map to the workbench's names: a ``train/`` or ``train_`` prefix is dropped, ``eval/`` is kept.
See docs/paddle-notes.md, "VisualDL".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from workbench.attach.parsers import PARSERS, LogParser
from workbench.attach.parsers._fields import metric_name

_TRAIN = re.compile(r"^train[/_]", re.IGNORECASE)
_EVAL = re.compile(r"^(eval|val|valid)[/_]", re.IGNORECASE)


class VisualDLMissing(ImportError):
    """The optional ``visualdl`` package is not installed."""


def is_record_file(path: Path) -> bool:
    return path.name.startswith("vdlrecords.")


def tag_name(tag: str) -> str:
    """``TRAIN/loss`` → ``loss``; ``train_lr`` → ``lr``; ``EVAL/hmean`` → ``eval/hmean``."""
    if _EVAL.match(tag):
        return "eval/" + _EVAL.sub("", tag)
    return metric_name(_TRAIN.sub("", tag))


def read_records(path: Path) -> list[tuple[str, int, float]]:
    """Every scalar of the record file: ``(metric, step, value)``."""
    try:
        from visualdl import LogReader
    except ImportError as exc:
        raise VisualDLMissing(str(exc)) from None
    reader = LogReader(file_path=str(path))
    rows: list[tuple[str, int, float]] = []
    for tag in reader.get_tags().get("scalar", []):
        name = tag_name(tag)
        rows.extend((name, int(record.id), float(record.value)) for record in reader.get_data("scalar", tag))
    return rows


def _no_lines(_lines: Sequence[str]) -> bool:
    return False


def _no_line(_line: str) -> Mapping[str, float] | None:
    return None


PARSERS.register(
    "visualdl",
    LogParser(
        title_key="attach.format.visualdl",
        detect=_no_lines,
        parse_line=_no_line,
        records=read_records,
        detect_path=is_record_file,
    ),
    order=90,
)
