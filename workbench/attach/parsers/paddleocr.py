"""PaddleOCR's training log (``tools/train.py`` → ``ppocr/utils/program.py``'s ``train``).

Per-iteration line, from the kit's format string::

    epoch: [{epoch}/{epoch_num}], global_step: {step}, {stats}, avg_reader_cost: {:.5f} s,
    avg_batch_cost: {:.5f} s, avg_samples: {}, ips: {:.5f} samples/s, eta: {timedelta}

where ``{stats}`` is ``lr: …, loss: …, <every loss term>: …`` and newer releases append
``, max_mem_reserved: N MB, max_mem_allocated: N MB``; the logger prefixes
``[%Y/%m/%d %H:%M:%S] ppocr INFO: ``.

Every ``eval_batch_step`` iterations the trainer evaluates and prints ``cur metric, acc: …,
norm_edit_dis: …, fps: …`` (``precision``/``recall``/``hmean`` for detection), then, after an optional
``save best model is to …``, ``best metric, …``. When the last epoch is done it prints ``best metric, …``
once more, with no ``cur metric`` of its own: that unpaired line is the end of training. The header
states the run's size: ``epoch_num : E`` in the printed config and ``train dataloader has N iters``; the
last iteration line then has ``global_step`` E×N (one iteration fewer per epoch on Windows, where the
unpaired ``best metric`` alone says the run ended).

Releases of early 2021 (logger ``root``) wrote ``epoch: [{epoch}/{epoch_num}], iter: {global_step}, {stats},
reader_cost: {:.5f} s, batch_cost: {:.5f} s, samples: {}, ips: {:.5f}``, the first of them counting epochs
from 0 (``[0/10]`` … ``[9/10]``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from workbench.attach.parsers import PARSERS, LogParser
from workbench.attach.parsers._fields import fields, to_metrics, without_eta

_LINE = re.compile(r"epoch: \[(\d+)/(\d+)\], (?:global_step|iter): (\d+), (.*)$")
_EVAL = re.compile(r"\bcur metric, (.*)$")
_ITERS = re.compile(r"\btrain dataloader has (\d+) iters\b")
_EPOCHS = re.compile(r"\bepoch_num : (\d+)\s*$")


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


def parse_eval(line: str) -> Mapping[str, float] | None:
    """``cur metric, acc: 0.29, norm_edit_dis: 0.39, fps: 692.1`` → ``eval/acc``, ``eval/norm_edit_dis``…"""
    match = _EVAL.search(line)
    if match is None:
        return None
    return {f"eval/{name}": value for name, value in fields(match.group(1))} or None


def parse_facts(line: str) -> Mapping[str, float] | None:
    """``train dataloader has 1086 iters`` → ``iters``; the printed config's ``epoch_num : 5`` → ``epochs``."""
    iters = _ITERS.search(line)
    if iters is not None:
        return {"iters": float(iters.group(1))}
    epochs = _EPOCHS.search(line)
    if epochs is not None:
        return {"epochs": float(epochs.group(1))}
    return None


PARSERS.register(
    "paddleocr",
    LogParser(
        title_key="attach.format.paddleocr",
        detect=detect,
        parse_line=parse,
        end_marker=re.compile(r"\bbest metric, "),
        parse_eval=parse_eval,
        parse_facts=parse_facts,
    ),
    order=10,
)
