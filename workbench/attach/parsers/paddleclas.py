"""PaddleClas's training log (``tools/train.py`` → ``ppcls/engine/train/utils.py``'s ``log_info``).

Per-iteration line, from the kit's format string::

    [Train][Epoch {epoch}/{epochs}][Iter: {iter}/{iters}]{lr_msg}, {metric_msg}, {time_msg}, {ips_msg}, {eta_msg}

with ``lr_msg`` = ``lr(<Scheduler>): {:.8f}`` per scheduler, ``metric_msg`` = ``<name>: {:.5f}`` per loss
term and metric (``CELoss``, ``loss``, ``top1``…), ``time_msg`` = ``batch_cost: {:.5f}s, reader_cost:
{:.5f}``, ``ips: {:.5f} samples/s`` and ``eta: {timedelta}``; newer trainers put a space after ``]`` and
add ``max mem: {:.2f} GB`` on GPU. The logger prefixes ``[%Y/%m/%d %H:%M:%S] ppcls INFO: ``. Epochs count
from 1, iterations from 0.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from workbench.attach.parsers import PARSERS, LogParser
from workbench.attach.parsers._fields import NUMBER, fields, to_metrics, without_eta

_LINE = re.compile(r"\[Train\]\[Epoch (\d+)/(\d+)\]\[Iter: (\d+)/(\d+)\]\s*(.*)$")
_MAX_MEM = re.compile(rf"max mem: ({NUMBER}) GB")


def detect(lines: Sequence[str]) -> bool:
    return any(_LINE.search(line) or " ppcls INFO: " in line for line in lines)


def parse(line: str) -> Mapping[str, float] | None:
    match = _LINE.search(line)
    if match is None:
        return None
    epoch, epochs, it, iters, rest = match.groups()
    mem = _MAX_MEM.search(rest)
    values = to_metrics(fields(_MAX_MEM.sub("", without_eta(rest))), rest)
    if mem is not None:
        values["gpu_peak_mib"] = float(mem.group(1)) * 1024.0
    e, i, n = int(epoch), int(it), int(iters)
    values.update(
        epoch=float(e), epochs=float(epochs), iter=float(i), iters=float(n), step=float((e - 1) * n + i + 1)
    )
    return values


PARSERS.register(
    "paddleclas",
    LogParser(title_key="attach.format.paddleclas", detect=detect, parse_line=parse),
    order=20,
)
