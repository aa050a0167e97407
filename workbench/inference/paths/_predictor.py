"""Shared by the three Paddle Inference paths: a predictor on this machine's CPU with chosen switches."""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.inference.paths import Array, PathContext, Runner, model_file


def open_predictor(
    ctx: PathContext, *, ir_optim: bool, memory_optim: bool, gpu: bool = False, half: bool = False
) -> Runner:
    """A predictor with these switches; ``half`` runs it in fp16 on the GPU (``compare --precision fp16``)."""
    inference: Any = ctx.paddle.inference
    prefix = ctx.prefix
    config = inference.Config(str(model_file(prefix)), str(prefix.with_name(prefix.name + ".pdiparams")))
    if gpu:
        precision = inference.PrecisionType.Half if half else inference.PrecisionType.Float32
        config.enable_use_gpu(256, 0, precision)  # initial pool MB, device 0, precision
    else:
        config.disable_gpu()
    config.switch_ir_optim(ir_optim)
    if memory_optim:
        # Paddle 3.3.1 with a PIR program: enable_memory_optim() alone fails at create_predictor with
        # "Not find predictor_id N and pass_name memory_optimize_pass"; with the new executor it runs.
        config.enable_new_executor()
        config.enable_memory_optim()
    config.disable_glog_info()
    predictor = inference.create_predictor(config)
    names = predictor.get_input_names()
    input_name = ctx.input_name if ctx.input_name in names else names[0]
    output_name = predictor.get_output_names()[0]

    def call(batch: Array) -> Array:
        handle = predictor.get_input_handle(input_name)
        handle.reshape(list(batch.shape))
        handle.copy_from_cpu(np.ascontiguousarray(batch))
        predictor.run()
        return np.asarray(predictor.get_output_handle(output_name).copy_to_cpu())

    return Runner(call)
