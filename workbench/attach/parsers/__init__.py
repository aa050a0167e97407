"""Log formats ``attach`` understands: one module per kit (PaddleOCR, PaddleClas, PaddleDetection,
PaddleX, VisualDL records…) in this folder.

An entry is a :class:`LogParser`: ``detect`` looks at the first lines of a file and says whether it is
this kit's log; ``parse_line`` turns one per-iteration line into metric values (``step``, ``epoch``,
``lr``, every loss term, data wait and batch time, ``ips``…) or returns ``None`` for a line that is
kept as log text. Formats are tried in registration order (``order=``), first match wins.

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
    """A line the kit writes once training has completed (``best metric, …``), when it writes one."""
    records: Callable[[Path], list[tuple[str, int, float]]] | None = None
    """For a binary record format (VisualDL): read the whole file → ``(metric, step, value)`` rows.
    Such a format is not read line by line; ``detect_path`` recognises its files."""
    detect_path: Callable[[Path], bool] | None = None
    """Whether a file is of this format by its name (record files have no text head to look at)."""


PARSERS: Registry[LogParser] = Registry("log format", __name__)
"""Every kit-log format ``attach`` can read, by name, in the order they are tried."""

__all__ = ["PARSERS", "LogParser"]
