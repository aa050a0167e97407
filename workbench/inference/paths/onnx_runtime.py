"""The export converted by paddle2onnx (in a child process) and run by ONNX Runtime on the CPU.

Needs the optional extra ``onnx``. The conversion runs in a child process
(:mod:`workbench.inference.onnx_convert`): paddle2onnx aborts the whole process on an operator it cannot
convert, and a child's abort is this path's error (naming the operators), never the end of the
comparison. The child writes ``<prefix name>.onnx`` into the context's work folder (next to the export
when it has none); a failed conversion raises
:class:`~workbench.inference.onnx_convert.ConversionFailed` with paddle2onnx's own reason.
"""

from __future__ import annotations

import numpy as np

from workbench.inference.onnx_convert import convert_in_child
from workbench.inference.paths import PATHS, Array, ComparePath, PathContext, Runner, model_file


def convert(ctx: PathContext) -> bytes:
    """The export as ONNX bytes (also left in ``<prefix name>.onnx``); ``ConversionFailed`` (a
    ``RuntimeError``) with the reason when paddle2onnx cannot convert it or dies trying."""
    prefix = ctx.prefix
    onnx_file = (ctx.work_dir or prefix.parent) / (prefix.name + ".onnx")
    convert_in_child(
        model_file(prefix),
        prefix.with_name(prefix.name + ".pdiparams"),
        onnx_file,
        timeout_s=ctx.convert_timeout_s,
        cancel=ctx.cancel,
    )
    return onnx_file.read_bytes()


def _open(ctx: PathContext) -> Runner:
    import onnxruntime

    data = convert(ctx)
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(data, options, providers=["CPUExecutionProvider"])
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
