"""``compare PATH`` on an export the workbench did not make (:mod:`workbench.inference.foreign`)."""

MESSAGES: dict[str, tuple[str, str]] = {
    # -- bad input (exit code 2) -------------------------------------------------------------------
    "inference.foreign.neither": (
        "{ref}: neither a run in workspace {workspace} nor an export",
        "{ref}：既不是工作区 {workspace} 中的运行，也不是导出的模型",
    ),
    "inference.foreign.looked_for": (
        "looked for: a run id, id prefix, run folder or 'latest' (paddle-workbench runs); a training config "
        "(.yaml) with a run; a paddle.jit.save prefix P (P.json or P.pdmodel, with P.pdiparams), given as P, "
        "one of its files or its folder; an inference-model folder (inference.json or inference.pdmodel, "
        "with inference.pdiparams; inference.yml optional) — pass one of these, or --workspace",
        "查找了：运行 id、id 前缀、运行目录或 'latest'（paddle-workbench runs）；有运行的训练配置（.yaml）；"
        "paddle.jit.save 前缀 P（P.json 或 P.pdmodel，以及 P.pdiparams），可传 P、其中一个文件或其目录；"
        "推理模型目录（inference.json 或 inference.pdmodel，以及 inference.pdiparams；inference.yml 可选）"
        "——请传入其中之一，或指定 --workspace",
    ),
    "inference.foreign.several": (
        "{path}: the folder holds several exports ({prefixes}) — pass the one to compare as its prefix",
        "{path}：该目录包含多个导出（{prefixes}）——请以前缀形式传入要比较的那一个",
    ),
    "inference.foreign.bad_program": (
        "{path}: cannot read the program ({error}) — export it again with paddle.jit.save",
        "{path}：无法读取程序（{error}）——请用 paddle.jit.save 重新导出",
    ),
    "inference.foreign.bad_shape": (
        "--shape {value}: expected [NAME=]D,D,… with whole numbers ≥ 1, e.g. --shape x=1,3,224,224",
        "--shape {value}：格式应为 [NAME=]D,D,…，各维为 ≥ 1 的整数，例如 --shape x=1,3,224,224",
    ),
    "inference.foreign.input_rank": (
        "{origin}: input '{name}' has shape {shape}; the program takes {want} (-1 is free) — give an "
        "array of that rank",
        "{origin}：输入 '{name}' 的形状为 {shape}；程序要求 {want}（-1 表示任意）——请提供该维数的数组",
    ),
    "inference.foreign.input_dim": (
        "{origin}: input '{name}' axis {axis} is {got}; the program fixes it to {want} — change that axis",
        "{origin}：输入 '{name}' 第 {axis} 维为 {got}；程序固定为 {want}——请修改该维",
    ),
    "inference.foreign.input_dtype": (
        "{origin}: input '{name}' is {dtype}; the program takes {want} — save it as {want} "
        "(e.g. x.astype('{want}'))",
        "{origin}：输入 '{name}' 的类型为 {dtype}；程序要求 {want}——请以 {want} 保存（如 x.astype('{want}')）",
    ),
    "inference.foreign.npz_missing": (
        "{what} {path}: no such file — pass an .npz written with numpy.savez",
        "{what} {path}：文件不存在——请传入用 numpy.savez 写出的 .npz",
    ),
    "inference.foreign.npz_unreadable": (
        "{what} {path}: not a readable .npz ({error}) — write it with numpy.savez (no pickled objects)",
        "{what} {path}：不是可读的 .npz（{error}）——请用 numpy.savez 写出（不含 pickle 对象）",
    ),
    "inference.foreign.npz_empty": (
        "{what} {path}: the file holds no array — save at least one with numpy.savez",
        "{what} {path}：文件中没有数组——请用 numpy.savez 至少保存一个",
    ),
    "inference.foreign.npz_which": (
        "{path}: several arrays ({keys}) and none named '{name}' — name the input array '{name}' "
        "(numpy.savez(FILE, {name}=x))",
        "{path}：有多个数组（{keys}），但没有名为 '{name}' 的——请把输入数组命名为 '{name}'"
        "（numpy.savez(FILE, {name}=x)）",
    ),
    "inference.foreign.inputs_count": (
        "the program has {count} inputs ({names}); compare feeds programs of one input — export a "
        "one-input wrapper, or compare it with its own script",
        "程序有 {count} 个输入（{names}）；compare 只支持单输入程序——请导出单输入的包装模型，或用自己的脚本比较",
    ),
    "inference.foreign.shape_unknown_input": (
        "--shape {name}=…: the program has no input '{name}' (its input is '{want}')",
        "--shape {name}=…：程序没有输入 '{name}'（其输入为 '{want}'）",
    ),
    "inference.foreign.shape_and_inputs": (
        "--shape and --inputs both given — the arrays in --inputs already have their shape; drop --shape",
        "同时给出了 --shape 和 --inputs——--inputs 中的数组已有形状；请去掉 --shape",
    ),
    "inference.foreign.legacy_needs_shape": (
        "{path}: the input shape of a legacy .pdmodel program is not read here — pass --inputs FILE.npz "
        "or --shape 1,3,224,224",
        "{path}：此处不读取旧版 .pdmodel 程序的输入形状——请传入 --inputs FILE.npz 或 --shape 1,3,224,224",
    ),
    "inference.foreign.checkpoint_needs_run": (
        "--checkpoint picks a run's checkpoint: with an export it needs --reference RUN",
        "--checkpoint 用于选择运行的检查点：比较导出模型时需要同时给出 --reference RUN",
    ),
    "inference.foreign.bad_reference": (
        "--reference {ref}: neither an .npz of expected outputs nor a run in workspace {workspace} — pass "
        "FILE.npz, or a run id (paddle-workbench runs)",
        "--reference {ref}：既不是预期输出的 .npz，也不是工作区 {workspace} 中的运行——请传入 FILE.npz 或运行 id"
        "（paddle-workbench runs）",
    ),
    "inference.foreign.reference_failed": (
        "--reference {run}: the run's model does not take this input ({error}) — is it the model the "
        "export was made from?",
        "--reference {run}：该运行的模型不接受此输入（{error}）——它是导出所用的模型吗？",
    ),
    "inference.foreign.export_only": (
        "{options}: for an export PATH only; {ref} is a run (its inputs come from its validation data)",
        "{options}：仅用于导出模型 PATH；{ref} 是运行（其输入来自验证集）",
    ),
    "inference.foreign.run_only": (
        "{option}: for a run only, not an export PATH (an export's input size comes from --shape or --inputs)",
        "{option}：仅用于运行，不适用于导出模型 PATH（导出模型的输入大小由 --shape 或 --inputs 给出）",
    ),
    # -- paths ---------------------------------------------------------------------------------------
    "inference.foreign.no_dygraph": (
        "an export has no dygraph model to run in train mode",
        "导出模型没有可在训练模式下运行的动态图模型",
    ),
    "inference.foreign.onnx_skipped": (
        "skipped, paddle2onnx cannot convert this export: {reason}",
        "已跳过，paddle2onnx 无法转换此导出：{reason}",
    ),
    "inference.foreign.onnx_skipped.fix": (
        "deploy with Paddle Inference, or replace the named operators; --onnx makes this an error",
        "请用 Paddle Inference 部署，或替换上述算子；加 --onnx 时此情况视为错误",
    ),
    # -- findings --------------------------------------------------------------------------------------
    "inference.foreign.finding.train_mode": (
        "exported from a layer in train mode: {count} of {total} batch_norm {total:op|ops} in BatchNorm layers carry "
        "use_global_stats false ({where}), which paddle.jit.save writes only when model.eval() was not "
        "called. Paddle's own runtimes still use the running statistics (jit.save sets is_test), so they "
        "can agree below; outputs recorded from the model in that state will not, and a runtime that "
        "honours the attribute normalises per batch",
        "从训练模式的层导出：BatchNorm 层中 {total} 个 batch_norm 算子里有 {count} 个带 use_global_stats "
        "false（{where}），只有未调用 model.eval() 时 paddle.jit.save 才会这样写。Paddle 自身的运行时仍使用"
        "滑动统计量（jit.save 设置了 is_test），因此下面各路径可能一致；但在该状态下记录的模型输出不会一致，"
        "遵循该属性的运行时会按批归一化",
    ),
    "inference.foreign.finding.train_mode.fix": (
        "call model.eval() before paddle.jit.save(model, …) and export again",
        "在 paddle.jit.save(model, …) 之前调用 model.eval()，然后重新导出",
    ),
    "inference.foreign.finding.reference_file_all": (
        "every measured path ({count} of {total}) differs from the expected outputs in {name}, by up to {diff}",
        "所有已测路径（{total} 个中的 {count} 个）都与 {name} 中的预期输出不同，最大相差 {diff}",
    ),
    "inference.foreign.finding.reference_file_some": (
        "{count} of {total} measured paths differ from the expected outputs in {name}, by up to {diff}",
        "{total} 个已测路径中有 {count} 个与 {name} 中的预期输出不同，最大相差 {diff}",
    ),
    "inference.foreign.finding.reference_file.fix": (
        "when every path differs alike, the file and the export disagree: was it recorded with the model "
        "in train mode (no model.eval()), from other weights, or from other inputs than --inputs? When "
        "only some paths differ, the first of them is the switch that changed the result",
        "若所有路径差异相同，说明文件与导出不一致：它是否在训练模式下（未调用 model.eval()）、用其他权重、"
        "或用与 --inputs 不同的输入记录的？若只有部分路径不同，其中第一个就是改变结果的开关",
    ),
    "inference.foreign.finding.reference_run_all": (
        "every measured path ({count} of {total}) differs from run {name} rebuilt in eval mode, by up to {diff}",
        "所有已测路径（{total} 个中的 {count} 个）都与以评估模式重建的运行 {name} 不同，最大相差 {diff}",
    ),
    "inference.foreign.finding.reference_run_some": (
        "{count} of {total} measured paths differ from run {name} rebuilt in eval mode, by up to {diff}",
        "{total} 个已测路径中有 {count} 个与以评估模式重建的运行 {name} 不同，最大相差 {diff}",
    ),
    "inference.foreign.finding.reference_run.fix": (
        "when every path differs alike, the export is not this run's model in eval mode (other weights, "
        "other code, or exported in train mode); pick the run and --checkpoint it was exported from",
        "若所有路径差异相同，说明该导出不是此运行在评估模式下的模型（权重或代码不同，或在训练模式下导出）；"
        "请选择导出所用的运行和 --checkpoint",
    ),
    "inference.foreign.evidence.shape": ("expected output shape: {shape}", "预期输出形状：{shape}"),
    # -- notes and headers -----------------------------------------------------------------------------
    "inference.foreign.note.random": (
        "input: random normal data, shape {shape}, {dtype}, seed {seed} (free dimensions set to 1; "
        "--shape or --inputs to choose)",
        "输入：随机正态数据，形状 {shape}，{dtype}，种子 {seed}（任意维设为 1；可用 --shape 或 --inputs 指定）",
    ),
    "inference.foreign.note.file": (
        "input: array '{key}' of {path}, shape {shape}",
        "输入：{path} 中的数组 '{key}'，形状 {shape}",
    ),
    "inference.foreign.note.reference_anchor": (
        "no reference: the paths are compared with {name}, the first that ran (--reference FILE.npz or "
        "RUN compares them with the model itself)",
        "无参考：各路径与第一个运行成功的 {name} 比较（--reference FILE.npz 或 RUN 可与模型本身比较）",
    ),
    "inference.foreign.note.reference_file": (
        "reference: the expected outputs {name}",
        "参考：预期输出 {name}",
    ),
    "inference.foreign.note.reference_run": (
        "reference: {name} of the run, rebuilt in eval mode with its checkpoint",
        "参考：运行的 {name}，以评估模式用其检查点重建",
    ),
    "inference.foreign.cli.header": ("export {export} ({kind})", "导出模型 {export}（{kind}）"),
    "inference.foreign.report.title": ("Inference parity — export {export}", "推理一致性——导出模型 {export}"),
    "inference.foreign.opt.inputs": (
        "for an export PATH: an .npz holding the input (default: seeded random data shaped from the program)",
        "用于导出模型 PATH：包含输入的 .npz（默认：按程序形状生成的带种子随机数据）",
    ),
    "inference.foreign.opt.shape": (
        "for an export PATH: the input shape [NAME=]1,3,224,224 (default: the program's, free dims 1)",
        "用于导出模型 PATH：输入形状 [NAME=]1,3,224,224（默认：程序的形状，任意维取 1）",
    ),
    "inference.foreign.opt.reference": (
        "for an export PATH: FILE.npz of expected outputs, or a run to rebuild the model from "
        "(default: the paths against each other)",
        "用于导出模型 PATH：预期输出的 FILE.npz，或用于重建模型的运行（默认：各路径相互比较）",
    ),
}
