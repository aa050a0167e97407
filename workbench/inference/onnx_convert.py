"""paddle2onnx in a child process: a conversion that aborts is a finding, never the end of the caller.

paddle2onnx ends the whole process on an operator it has no converter for (``[ERROR][Paddle2ONNX] Due
to the unsupported operators, the conversion is aborted.`` then ``FatalError: Process abort signal``,
SIGABRT — see docs/paddle-notes.md, "paddle2onnx installs packages and prints on fd 1"), which would
take ``compare``'s other paths, or the TUI and every training run in it, down with it. So :func:`convert_in_child` runs ``python -m
workbench.inference.onnx_convert MODEL_JSON PARAMS OUT`` through :mod:`workbench.isolate` (own process
group, hard time limit, killed whole on a time-out, a cancel or Ctrl-C). The child calls
``paddle2onnx.export`` with ``save_file=None`` (the command line and its constant-folding step would
``pip install`` at run time), writes the bytes to ``OUT`` and prints one marked document. When it dies,
the error names the operators paddle2onnx's own table lacks (the operator inventory of
:mod:`workbench.inference.ops`), which is what the abort was about.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workbench.i18n import t
from workbench.isolate import (
    Cancel,
    ChildCancelled,
    ChildError,
    ChildTimeout,
    describe_exit,
    emit_marked,
    format_seconds,
    marked_document,
    run_module,
    watch_parent,
)

OPSET = 11
CONVERT_TIMEOUT_S = 600.0
"""Converting MobileNetV3-Small took ~30 s on 2 cores (docs/paddle-notes.md); ten minutes is a hang."""


class ConversionFailed(RuntimeError):
    """paddle2onnx could not convert the export (it failed, died or ran out of time); the message says
    why, naming the operators it has no converter for when that is what it died of."""


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def _convert(model_json: str, params: str) -> bytes:
    """The export as ONNX bytes (in the child); ``RuntimeError`` with paddle2onnx's reason."""
    import paddle2onnx

    collect = _Collect()
    root = logging.getLogger()
    root.addHandler(collect)
    try:
        data: Any = paddle2onnx.export(
            model_json, params, save_file=None, opset_version=OPSET, enable_onnx_checker=True
        )
    except Exception as exc:  # noqa: BLE001 - paddle2onnx logs the reason and then fails on its own variable
        reason = "; ".join(line for line in collect.lines if line and line != "None") or str(exc)
        raise RuntimeError(reason) from None
    finally:
        root.removeHandler(collect)
    if not isinstance(data, bytes | bytearray) or not data:
        raise RuntimeError("; ".join(collect.lines) or "no model")
    return bytes(data)


def main(argv: Sequence[str] | None = None) -> int:
    """``MODEL_JSON PARAMS OUT``: convert, write ``OUT`` (owner-only), print ``{"bytes": n}`` or
    ``{"error": reason}`` on the marked line. Exit 0 / 1; an abort inside paddle2onnx is SIGABRT."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 3:
        print("usage: python -m workbench.inference.onnx_convert MODEL_JSON PARAMS OUT", file=sys.stderr)
        return 2
    watch_parent()
    model_json, params, out = args
    try:
        data = _convert(model_json, params)
    except RuntimeError as exc:
        emit_marked({"error": str(exc)})
        return 1
    target = Path(out)
    partial = target.with_name(target.name + ".partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.replace(partial, target)
    emit_marked({"bytes": len(data)})
    return 0


def unsupported_ops(model_json: Path) -> list[str]:
    """Operators of the export that paddle2onnx's table lacks (empty when it cannot be read)."""
    from workbench.inference.ops import onnx_supported_ops, onnx_unsupported, program_ops

    supported = onnx_supported_ops()
    if supported is None:
        return []
    try:
        return onnx_unsupported(program_ops(model_json), supported)
    except ValueError:
        return []


def convert_in_child(
    model_json: Path,
    params: Path,
    out: Path,
    *,
    timeout_s: float = CONVERT_TIMEOUT_S,
    cancel: Cancel | None = None,
) -> None:
    """Write ``out`` (ONNX) from the export; :class:`ConversionFailed` with the reason when it cannot.

    A crash names how the child ended and the operators without a converter; a time-out says so.
    :class:`ChildCancelled` propagates (the caller gave up: no finding to make).
    """
    try:
        result = run_module(
            "workbench.inference.onnx_convert",
            [str(model_json), str(params), str(out)],
            timeout_s=timeout_s,
            cancel=cancel,
        )
        document = marked_document(result, t("inference.onnx.no_result"))
    except ChildCancelled:
        raise
    except ChildTimeout as exc:
        raise ConversionFailed(
            t("inference.onnx.convert_timed_out", seconds=format_seconds(exc.seconds))
        ) from None
    except ChildError as exc:
        ops = unsupported_ops(model_json)
        how = describe_exit(exc.returncode) if exc.returncode is not None else str(exc)
        if ops:
            raise ConversionFailed(t("inference.onnx.convert_crashed", how=how, ops=", ".join(ops))) from None
        raise ConversionFailed(
            t("inference.onnx.convert_crashed_unknown", how=how, tail=exc.output_tail or "-")
        ) from None
    if "error" in document:
        raise ConversionFailed(t("inference.onnx.convert_failed", error=str(document["error"])))


if __name__ == "__main__":
    sys.exit(main())
