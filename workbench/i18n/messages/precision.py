"""Reduced precision: what the hardware can do, the int8/fp16 paths of ``compare --precision``, the gate."""

MESSAGES: dict[str, tuple[str, str]] = {
    "precision.cli.opt": (
        "also run a reduced-precision path and judge it against float32: int8 (ONNX Runtime static "
        "int8, calibrated on the run's validation data), fp16 (Paddle Inference on a GPU with tensor "
        "cores); repeatable",
        "额外运行低精度路径并与 float32 对比判定：int8（ONNX Runtime 静态 int8，用运行的验证数据校准）、"
        "fp16（在带 Tensor Core 的 GPU 上运行 Paddle Inference）；可重复",
    ),
    "precision.input.int8_no_onnx": (
        "--precision int8 runs ONNX Runtime on the ONNX conversion — drop --no-onnx",
        "--precision int8 需要在 ONNX 转换结果上运行 ONNX Runtime——请去掉 --no-onnx",
    ),
    "precision.path.int8": (
        "ONNX Runtime static int8 (QDQ, per-channel weights, calibrated on validation inputs)",
        "ONNX Runtime 静态 int8（QDQ，逐通道权重，用验证输入校准）",
    ),
    "precision.path.fp16": (
        "Paddle Inference predictor on GPU 0 in fp16",
        "GPU 0 上以 fp16 运行的 Paddle Inference 预测器",
    ),
    "precision.cpu.int8_yes": (
        "CPU {cpu}: int8 dot-product instructions ({via}) — int8 can be faster than float32 where "
        "convolutions and matrix products dominate; on a small model the quantize/dequantize steps "
        "can eat the gain, so the figures below decide",
        "CPU {cpu}：有 int8 点积指令（{via}）——在卷积和矩阵乘占主导时 int8 可能快于 float32；"
        "小模型上量化/反量化步骤可能抵消收益，以下面的实测数据为准",
    ),
    "precision.cpu.int8_no": (
        "CPU {cpu}: no int8 dot-product instructions (no AVX-512 VNNI, AVX-VNNI or AMX; reduced-precision "
        "flags: {flags}) — no int8 speed-up is expected: int8 products are widened to 16/32 bits before "
        "they are summed and the quantize/dequantize steps come on top (measured on an AVX2-only CPU: "
        "ONNX Runtime dynamic int8 9.3x slower than float32, static QDQ 1.1x slower); the figures below "
        "show what int8 does to the outputs",
        "CPU {cpu}：没有 int8 点积指令（无 AVX-512 VNNI、AVX-VNNI 或 AMX；低精度相关指令集：{flags}）"
        "——不要期待 int8 提速：int8 乘积要先扩展到 16/32 位再累加，量化/反量化步骤还要额外耗时"
        "（在仅有 AVX2 的 CPU 上实测：ONNX Runtime 动态 int8 比 float32 慢 9.3 倍，静态 QDQ 慢 1.1 倍）；"
        "下面的数据说明 int8 对输出的影响",
    ),
    "precision.cpu.bf16_yes": (
        "bfloat16 on this CPU: yes ({via})",
        "本 CPU 支持 bfloat16：是（{via}）",
    ),
    "precision.cpu.bf16_no": (
        "bfloat16 on this CPU: no avx512_bf16 or amx_bf16 — no bfloat16 speed-up expected",
        "本 CPU 没有 avx512_bf16 或 amx_bf16——不要期待 bfloat16 提速",
    ),
    "precision.gpu.none": (
        "no CUDA GPU here: Paddle Inference fp16/int8 on a GPU is not offered (fp16 needs tensor cores, "
        "compute capability 7.0 or newer)",
        "此处没有 CUDA GPU：不提供 GPU 上的 Paddle Inference fp16/int8（fp16 需要 Tensor Core，"
        "计算能力 7.0 及以上）",
    ),
    "precision.gpu.fp16_offered": (
        "{device} {name} ({evidence}): fast {units} — Paddle Inference fp16 is offered (--precision "
        "fp16); GPU int8 needs TensorRT and a calibration table and is not run by compare",
        "{device} {name}（{evidence}）：快速 {units}——提供 Paddle Inference fp16（--precision fp16）；"
        "GPU int8 需要 TensorRT 和校准表，compare 不运行",
    ),
    "precision.gpu.fp16_not_offered": (
        "{device} {name} ({evidence}): fast {units}; no fp16 tensor cores — Paddle Inference fp16 is "
        "not offered (no speed-up expected)",
        "{device} {name}（{evidence}）：快速 {units}；没有 fp16 Tensor Core——不提供 Paddle Inference fp16"
        "（不要期待提速）",
    ),
    "precision.gpu.none_skip": (
        "no CUDA GPU here — fp16 runs on a GPU with tensor cores (compute capability 7.0 or newer)",
        "此处没有 CUDA GPU——fp16 需要带 Tensor Core 的 GPU（计算能力 7.0 及以上）",
    ),
    "precision.gpu.no_fp16_skip": (
        "this GPU ({evidence}) has no fp16 tensor cores — no fp16 speed-up to measure",
        "该 GPU（{evidence}）没有 fp16 Tensor Core——没有可测的 fp16 提速",
    ),
    "precision.int8.no_fp32": (
        "needs the float32 ONNX model, which could not be made: {error}",
        "需要 float32 ONNX 模型，但无法生成：{error}",
    ),
    "precision.int8.no_result": (
        "the int8 quantization ended without a result",
        "int8 量化结束但没有结果",
    ),
    "precision.int8.timed_out": (
        "the int8 quantization did not finish within {seconds} and was stopped",
        "int8 量化在 {seconds} 内未完成，已停止",
    ),
    "precision.int8.crashed": (
        "the int8 quantization {how}: {tail}",
        "int8 量化{how}：{tail}",
    ),
    "precision.int8.failed": (
        "ONNX Runtime could not quantize the model: {error}",
        "ONNX Runtime 无法量化该模型：{error}",
    ),
    "precision.measure.top1_agreement": ("top-1 agreement", "top-1 一致率"),
    "precision.measure.cosine": ("cosine similarity", "余弦相似度"),
    "precision.finding.summary": (
        "{path}: {speed}; max abs diff {diff} against float32; {verdict}",
        "{path}：{speed}；与 float32 的最大绝对差 {diff}；{verdict}",
    ),
    "precision.finding.ratio": (
        "latency {ratio}x of {baseline} (median at batch {batch}; above 1 is slower)",
        "延迟为 {baseline} 的 {ratio} 倍（批大小 {batch} 的中位数；大于 1 表示更慢）",
    ),
    "precision.finding.ratio_overlap": (
        "latency {ratio}x of {baseline} (median at batch {batch}) — the spreads overlap: no measurable "
        "difference",
        "延迟为 {baseline} 的 {ratio} 倍（批大小 {batch} 的中位数）——波动区间重叠：无可测差异",
    ),
    "precision.finding.no_ratio": (
        "no float32 twin was timed, so no latency ratio",
        "没有测量对应的 float32 路径，因此没有延迟比",
    ),
    "precision.finding.gate_pass": (
        "{measure} {value} (gate: at least {threshold}): pass",
        "{measure} {value}（门限：至少 {threshold}）：通过",
    ),
    "precision.finding.gate_fail": (
        "{measure} {value} (gate: at least {threshold}): fail — reduced precision changes the predictions",
        "{measure} {value}（门限：至少 {threshold}）：未通过——低精度改变了预测结果",
    ),
    "precision.finding.gate_fix": (
        "keep float32 for this model, or calibrate on more representative inputs and keep the sensitive "
        "layers (the first and last) in float32",
        "此模型请保留 float32，或用更有代表性的输入校准，并让敏感层（首层和末层）保持 float32",
    ),
    "precision.finding.error": (
        "{path} could not run: {error}",
        "{path} 无法运行：{error}",
    ),
}
