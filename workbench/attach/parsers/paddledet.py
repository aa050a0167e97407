"""PaddleDetection's training log (``tools/train.py`` → ``ppdet/engine/callbacks.py``'s ``LogPrinter``).

Per-iteration line, from the kit's format (pieces joined by a space)::

    Epoch: [{epoch}] [{step:>Nd}/{steps_per_epoch}] learning_rate: {lr:.6f} {meters} eta: {timedelta}
    batch_cost: {btime} data_cost: {dtime} ips: {ips:.4f} images/s

``{meters}`` is ``TrainingStats.log()``: ``<loss term>: {:.6f}`` joined by two spaces (``loss``,
``loss_cls``…); newer releases append ``, max_mem_reserved: N MB, max_mem_allocated: N MB`` right after
``images/s``. The logger prefixes ``[%m/%d %H:%M:%S] ppdet.engine INFO: ``. Epochs and steps count from 0.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from workbench.attach.parsers import PARSERS, LogParser
from workbench.attach.parsers._fields import fields, to_metrics, without_eta

_LINE = re.compile(r"Epoch: \[(\d+)\] \[\s*(\d+)/(\d+)\] (learning_rate: .*)$")


def detect(lines: Sequence[str]) -> bool:
    return any(_LINE.search(line) or " ppdet.engine INFO: " in line for line in lines)


def parse(line: str) -> Mapping[str, float] | None:
    match = _LINE.search(line)
    if match is None:
        return None
    epoch, it, iters, rest = match.groups()
    values = to_metrics(fields(without_eta(rest)), rest)
    e, i, n = int(epoch), int(it), int(iters)
    values.update(epoch=float(e), iter=float(i), iters=float(n), step=float(e * n + i + 1))
    return values


PARSERS.register(
    "paddledetection",
    LogParser(title_key="attach.format.paddledetection", detect=detect, parse_line=parse),
    order=30,
)
