"""PaddleOCR's training log (``tools/train.py`` → ``ppocr/utils/program.py``'s ``train``).

Per-iteration line, from the kit's format string::

    epoch: [{epoch}/{epoch_num}], global_step: {step}, {stats}, avg_reader_cost: {:.5f} s,
    avg_batch_cost: {:.5f} s, avg_samples: {}, ips: {:.5f} samples/s, eta: {timedelta}

where ``{stats}`` is ``lr: …, loss: …, <every loss term>: …`` and newer releases append
``, max_mem_reserved: N MB, max_mem_allocated: N MB``; the logger prefixes
``[%Y/%m/%d %H:%M:%S] ppocr INFO: ``. Training ends with ``best metric, …``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from workbench.attach.parsers import PARSERS, LogParser
from workbench.attach.parsers._fields import fields, to_metrics, without_eta

_LINE = re.compile(r"epoch: \[(\d+)/(\d+)\], global_step: (\d+), (.*)$")


def detect(lines: Sequence[str]) -> bool:
    return any(_LINE.search(line) or " ppocr INFO: " in line for line in lines)


def parse(line: str) -> Mapping[str, float] | None:
    match = _LINE.search(line)
    if match is None:
        return None
    epoch, epochs, step, rest = match.groups()
    values = to_metrics(fields(without_eta(rest)), rest)
    values.update(epoch=float(epoch), epochs=float(epochs), step=float(step))
    return values


PARSERS.register(
    "paddleocr",
    LogParser(
        title_key="attach.format.paddleocr",
        detect=detect,
        parse_line=parse,
        end_marker=re.compile(r"\bbest metric, "),
    ),
    order=10,
)
