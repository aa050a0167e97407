"""Log formats ``attach`` understands: one module per kit (PaddleOCR, PaddleClas, PaddleDetection,
PaddleX, VisualDL records…) in this folder.

An entry is a :class:`LogParser`: ``detect`` looks at the first lines of a file and says whether it is
this kit's log; ``parse_line`` turns one per-iteration line into metric values (``step``, ``epoch``,
``lr``, every loss term, data wait and batch time, ``ips``…) or returns ``None`` for a line that is
kept as log text; ``parse_eval`` turns an evaluation line into ``eval/*`` metrics, ``parse_facts`` reads
the run's size from its header, ``end_marker`` names the line printed when training completed. Formats
are tried in registration order (``order=``), first match wins.

Adding one is one new module here, its catalog string and a test with a realistic log as fixture::

    # workbench/attach/parsers/paddleclas.py
    from workbench.attach.parsers import PARSERS, LogParser

    PARSERS.register(
        "paddleclas",
        LogParser(title_key="attach.format.paddleclas", detect=looks_like_paddleclas, parse_line=parse),
        order=20,
    )
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from workbench.registry import Registry


@dataclass(frozen=True)
class LogParser:
    """One kit's training-log format."""

    title_key: str
    """Catalog key of the format's name as users know it (``PaddleOCR training log``)."""
    detect: Callable[[Sequence[str]], bool]
    """Given the first lines of a file, whether this parser reads it."""
    parse_line: Callable[[str], Mapping[str, float] | None]
    """One line → metric values (``step`` among them), or ``None`` to keep the line as log text."""
    end_marker: re.Pattern[str] | None = None
    """A line the kit writes once training has completed (``best metric, …``), when it writes one. A
    kit may print the same line after every evaluation too (PaddleOCR does): a marker that follows an
    evaluation line (``parse_eval``) belongs to that evaluation; only a marker without an evaluation of
    its own, in the last epoch, ends the run."""
    parse_eval: Callable[[str], Mapping[str, float] | None] | None = None
    """An evaluation result line → its metrics under ``eval/`` names (``eval/acc``, ``eval/hmean``),
    recorded at the step of the iteration line before it; ``None`` for any other line."""
    parse_facts: Callable[[str], Mapping[str, float] | None] | None = None
    """A line that states the run's size (``train dataloader has 1086 iters``, ``epoch_num : 5``) →
    position facts (``iters``, ``epochs``); such lines stay log text. Read from the log's head even when
    only its tail is scanned."""
    records: Callable[[Path], list[tuple[str, int, float]]] | None = None
    """For a binary record format (VisualDL): read the whole file → ``(metric, step, value)`` rows.
    Such a format is not read line by line; ``detect_path`` recognises its files."""
    detect_path: Callable[[Path], bool] | None = None
    """Whether a file is of this format by its name (record files have no text head to look at)."""


PARSERS: Registry[LogParser] = Registry("log format", __name__)
"""Every kit-log format ``attach`` can read, by name, in the order they are tried."""

__all__ = ["PARSERS", "LogParser"]
