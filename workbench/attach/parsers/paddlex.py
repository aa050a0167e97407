"""PaddleX's own trainer log (``paddlex/cv/models/base.py``'s ``train_loop``).

Per-iteration line, from the kit's format string::

    [TRAIN] Epoch={epoch}/{epochs}, Step={step}/{steps}, {name=value, …}, time_each_step={:.2f}s, eta={h:m:s}

(the metrics through ``dict2str``: ``loss=…, lr=…`` and every loss term); after each epoch's evaluation
``[EVAL] Finished, Epoch={epoch}, {name=value, …} .`` (``eval/*`` metrics). Its logger writes
``%Y-%m-%d %H:%M:%S [INFO]\\t`` before each message. Epochs and steps count from 1; the trainer logs no
reader time, so only the whole step time is known. PaddleX 3 trains through the kits' own
``tools/train.py``: its ``train.log`` is read by the kit's parser.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from workbench.attach.parsers import PARSERS, LogParser
from workbench.attach.parsers._fields import fields, to_metrics, without_eta

_LINE = re.compile(r"\[TRAIN\] Epoch=(\d+)/(\d+), Step=(\d+)/(\d+), (.*)$")
_EVAL = re.compile(r"\[EVAL\] Finished, Epoch=\d+, (.*)$")


def detect(lines: Sequence[str]) -> bool:
    return any(_LINE.search(line) for line in lines)


def parse(line: str) -> Mapping[str, float] | None:
    match = _LINE.search(line)
    if match is None:
        return None
    epoch, epochs, it, iters, rest = match.groups()
    values = to_metrics(fields(without_eta(rest)), rest)
    e, i, n = int(epoch), int(it), int(iters)
    values.update(
        epoch=float(e), epochs=float(epochs), iter=float(i), iters=float(n), step=float((e - 1) * n + i)
    )
    return values


def parse_eval(line: str) -> Mapping[str, float] | None:
    """``[EVAL] Finished, Epoch=1, acc1=0.75, acc5=1.0 .`` → ``eval/acc1``, ``eval/acc5``."""
    match = _EVAL.search(line)
    if match is None:
        return None
    return {f"eval/{name}": value for name, value in fields(match.group(1))} or None


PARSERS.register(
    "paddlex",
    LogParser(title_key="attach.format.paddlex", detect=detect, parse_line=parse, parse_eval=parse_eval),
    order=40,
)
