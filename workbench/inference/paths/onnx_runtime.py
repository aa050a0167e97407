"""The export converted by paddle2onnx (Python API) and run by ONNX Runtime on the CPU.

Needs the optional extra ``onnx``. paddle2onnx's command line — and its default Polygraphy
constant-folding step — install packages with pip at run time; calling ``paddle2onnx.export`` with
``save_file=None`` skips both, and this module writes the returned bytes itself (``model.onnx`` next to
the export). A failed conversion raises with paddle2onnx's own reason.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

from workbench.i18n import t
from workbench.inference.paths import PATHS, Array, ComparePath, PathContext, Runner

OPSET = 11


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextlib.contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """paddle2onnx's C++ code prints progress on fd 1: keep stdout clean for ``--json``."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def convert(ctx: PathContext) -> bytes:
    """The export as ONNX bytes; ``RuntimeError`` with paddle2onnx's error when it cannot convert."""
    import paddle2onnx

    collect = _Collect()
    root = logging.getLogger()
    root.addHandler(collect)
    try:
        with _stdout_to_stderr():
            data: Any = paddle2onnx.export(
                str(ctx.prefix.with_suffix(".json")),
                str(ctx.prefix.with_suffix(".pdiparams")),
                save_file=None,
                opset_version=OPSET,
                enable_onnx_checker=True,
            )
    except Exception as exc:  # noqa: BLE001 - paddle2onnx logs the reason and then fails on its own variable
        reason = "; ".join(line for line in collect.lines if line and line != "None") or str(exc)
        raise RuntimeError(t("inference.onnx.convert_failed", error=reason)) from None
    finally:
        root.removeHandler(collect)
    if not isinstance(data, bytes | bytearray) or not data:
        raise RuntimeError(t("inference.onnx.convert_failed", error="; ".join(collect.lines) or "no model"))
    return bytes(data)


def _open(ctx: PathContext) -> Runner:
    import onnxruntime

    onnx_file = ctx.prefix.with_suffix(".onnx")
    onnx_file.write_bytes(convert(ctx))
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(str(onnx_file), options, providers=["CPUExecutionProvider"])
    input_name = session.get_inputs()[0].name

    def call(batch: Array) -> Array:
        return np.asarray(session.run(None, {input_name: np.ascontiguousarray(batch)})[0])

    return Runner(call)


PATHS.register(
    "onnxruntime",
    ComparePath(
        order=60,
        label_key="inference.path.onnxruntime",
        open=_open,
        extra="onnx",
        modules=("paddle2onnx", "onnxruntime"),
    ),
)
