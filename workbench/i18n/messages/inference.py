"""Train/inference parity: the ``compare`` command, its engine, findings and reports."""

MESSAGES: dict[str, tuple[str, str]] = {
    # -- bad input (exit code 2) -------------------------------------------------------------------
    "inference.input.bad_config": (
        "{path}: cannot read the config ({error}) — fix the YAML or pass a run id",
        "{path}：无法读取配置（{error}）——请修正 YAML，或直接传入运行 id",
    ),
    "inference.input.no_run_for_config": (
        "{path}: no run named '{name}' with a checkpoint in this workspace — train it first "
        "(paddle-workbench train {path}) or pass a run id (paddle-workbench runs)",
        "{path}：本工作区没有名为 '{name}' 且带检查点的运行——请先训练（paddle-workbench train {path}），"
        "或传入运行 id（paddle-workbench runs）",
    ),
    "inference.input.unknown_run": (
        "no run '{ref}' in workspace {workspace} — list runs with 'paddle-workbench runs', or pass --workspace",
        "工作区 {workspace} 中没有运行 '{ref}'——用 'paddle-workbench runs' 查看，或指定 --workspace",
    ),
    "inference.input.bad_run_config": (
        "{run}: run.yaml holds no valid training config ({error}) — compare runs made by 'train'",
        "{run}：run.yaml 中没有有效的训练配置（{error}）——请比较由 'train' 生成的运行",
    ),
    "inference.input.no_data": (
        "{run}: the training data folder {path} is gone — restore it (the comparison reads its validation split)",
        "{run}：训练数据目录 {path} 不存在——请恢复它（比较需要读取其验证集）",
    ),
    "inference.input.no_checkpoints": (
        "{run}: the run has no checkpoint — train with checkpoint.every set, or let the run finish",
        "{run}：该运行没有检查点——训练时设置 checkpoint.every，或让运行结束",
    ),
    "inference.input.no_valid_checkpoint": (
        "{run}: no checkpoint verifies against its manifest — retrain, or restore the files listed below",
        "{run}：没有能通过清单校验的检查点——请重新训练，或恢复下列文件",
    ),
    "inference.input.no_such_step": (
        "no checkpoint at step {step} — available steps: {steps}",
        "第 {step} 步没有检查点——可用的步数：{steps}",
    ),
    "inference.input.corrupt_checkpoint": (
        "{path}: the checkpoint does not verify (truncated or changed files) — pick another --checkpoint",
        "{path}：检查点校验失败（文件被截断或修改）——请用 --checkpoint 选择其他检查点",
    ),
    "inference.input.unreadable_weights": (
        "{path}: cannot load the weights ({error}) — pick another --checkpoint",
        "{path}：无法加载权重（{error}）——请用 --checkpoint 选择其他检查点",
    ),
    "inference.input.export_invalid": (
        "{path}: the export no longer matches its manifest.json",
        "{path}：导出文件与其 manifest.json 不再一致",
    ),
    "inference.input.export_invalid.fix": (
        "fix: delete {path} to export this checkpoint again, or restore the original files",
        "修复：删除 {path} 以重新导出该检查点，或恢复原始文件",
    ),
    "inference.input.export_failed": (
        "paddle.jit.save could not export the model ({error}) — make forward() traceable "
        "(see docs/paddle-notes.md, 'Train → inference')",
        "paddle.jit.save 无法导出模型（{error}）——请让 forward() 可被静态化"
        "（见 docs/paddle-notes.md 的 'Train → inference'）",
    ),
    "inference.input.unknown_path": (
        "unknown path '{name}' (known: {known})",
        "未知的比较路径 '{name}'（可用：{known}）",
    ),
    "inference.input.extra_missing": (
        "path {path} needs {modules}, which is not installed — fix: {fix}",
        "路径 {path} 需要 {modules}，但未安装——修复：{fix}",
    ),
    "inference.input.no_paddle": (
        "Paddle cannot be imported ({error}) — run 'paddle-workbench check' for the fix",
        "无法导入 Paddle（{error}）——运行 'paddle-workbench check' 查看修复方法",
    ),
    "inference.input.no_batch": (
        "{run}: the validation data is empty — nothing to compare on",
        "{run}：验证数据为空——没有可比较的输入",
    ),
    # -- paths ----------------------------------------------------------------------------------------
    "inference.path.dygraph_train": (
        "dygraph left in train mode (the pitfall, shown on purpose)",
        "动态图保持训练模式（故意展示的陷阱）",
    ),
    "inference.path.jit_load": ("paddle.jit.load of the export", "paddle.jit.load 加载导出模型"),
    "inference.path.predictor_ir_off": (
        "Paddle Inference predictor, IR optimisation off",
        "Paddle Inference 预测器，关闭 IR 优化",
    ),
    "inference.path.predictor_ir_on": (
        "Paddle Inference predictor, IR optimisation on",
        "Paddle Inference 预测器，开启 IR 优化",
    ),
    "inference.path.predictor_memory_optim": (
        "Paddle Inference predictor, IR and memory optimisation on",
        "Paddle Inference 预测器，开启 IR 与显存/内存优化",
    ),
    "inference.path.predictor_gpu": (
        "Paddle Inference predictor on GPU 0, IR optimisation on",
        "Paddle Inference 预测器，GPU 0，开启 IR 优化",
    ),
    "inference.path.no_gpu": (
        "skipped: Paddle sees no CUDA device on this machine",
        "已跳过：Paddle 在本机没有检测到 CUDA 设备",
    ),
    "inference.path.onnxruntime": (
        "paddle2onnx export run by ONNX Runtime (CPU)",
        "paddle2onnx 转换后由 ONNX Runtime（CPU）运行",
    ),
    "inference.path.skipped_extra": (
        "skipped: {modules} not installed (fix: {fix})",
        "已跳过：未安装 {modules}（修复：{fix}）",
    ),
    "inference.onnx.convert_failed": (
        "paddle2onnx could not convert the export: {error}",
        "paddle2onnx 无法转换导出模型：{error}",
    ),
    "inference.onnx.convert_crashed": (
        "paddle2onnx crashed converting the export ({how}); it has no converter for: {ops}",
        "paddle2onnx 转换导出模型时崩溃（{how}）；它没有这些算子的转换器：{ops}",
    ),
    "inference.onnx.convert_crashed_unknown": (
        "paddle2onnx crashed converting the export ({how}); its last output: {tail}",
        "paddle2onnx 转换导出模型时崩溃（{how}）；最后的输出：{tail}",
    ),
    "inference.onnx.convert_timed_out": (
        "paddle2onnx did not finish converting the export within {seconds} s; it was stopped",
        "paddle2onnx 未能在 {seconds} 秒内完成导出模型的转换，已被终止",
    ),
    "inference.isolated.crashed": (
        "the comparison's process died ({how}); nothing else was affected. Its last output: {tail}",
        "比较所在的进程崩溃（{how}），其他部分未受影响。最后的输出：{tail}",
    ),
    "inference.isolated.timed_out": (
        "the comparison did not finish within {seconds} s and was stopped. Its last output: {tail}",
        "比较未能在 {seconds} 秒内完成，已被终止。最后的输出：{tail}",
    ),
    "inference.onnx.no_result": (
        "the conversion process ended without a result",
        "转换进程结束但没有给出结果",
    ),
    # -- notes ------------------------------------------------------------------------------------------
    "inference.note.eval_switched": (
        "model.eval() called explicitly before the reference and the export (the rebuilt model was in {was} mode)",
        "在计算参考输出和导出之前显式调用了 model.eval()（重建的模型原为 {was} 模式）",
    ),
    "inference.note.exported": (
        "export: {path} (reused: {reused})",
        "导出：{path}（复用：{reused}）",
    ),
    "inference.export.reused_yes": ("yes", "是"),
    "inference.export.reused_no": ("no", "否"),
    "inference.export.reused_no_because": ("no ({reasons})", "否（{reasons}）"),
    "inference.export.changed.weights": ("weights changed", "权重已改变"),
    "inference.export.changed.model_code": ("model code changed", "模型代码已改变"),
    "inference.export.changed.preprocess": ("preprocessing changed", "预处理已改变"),
    "inference.export.changed.paddle": ("Paddle version changed", "Paddle 版本已改变"),
    "inference.export.changed.options": ("export options changed", "导出选项已改变"),
    "inference.export.changed.key": (
        "the old export recorded no key of what made it",
        "旧导出没有记录生成它的依据（导出键）",
    ),
    # -- findings ---------------------------------------------------------------------------------------
    "inference.finding.program_functional_dropout": (
        "the exported program has {count} dropout {count:op|ops} outside any Dropout layer (in {where}): F.dropout "
        "called with training=True in forward (functional dropout ignores model.eval()); the export runs "
        "it as identity, so the paths differ from dygraph by up to {diff}",
        "导出的程序在 Dropout 层之外有 {count} 个 dropout 算子（位于 {where}）：forward 中以 training=True "
        "调用了 F.dropout（函数式 dropout 不受 model.eval() 影响）；导出模型把它当作恒等运算，"
        "因此各路径与动态图最多相差 {diff}",
    ),
    "inference.finding.program_functional_dropout_ok": (
        "the exported program has {count} dropout {count:op|ops} outside any Dropout layer (in {where}): F.dropout "
        "is called in forward; the paths agree with dygraph here, so it follows eval mode",
        "导出的程序在 Dropout 层之外有 {count} 个 dropout 算子（位于 {where}）：forward 中调用了 F.dropout；"
        "此处各路径与动态图一致，说明它遵循了 eval 模式",
    ),
    "inference.finding.program_no_dropout_layer": (
        " — the model has no Dropout layer: the op comes from a call in forward",
        "——模型没有 Dropout 层：该算子来自 forward 中的调用",
    ),
    "inference.finding.program_functional_dropout.fix": (
        "pass training=self.training to F.dropout, or use nn.Dropout (it follows model.eval())",
        "给 F.dropout 传入 training=self.training，或改用 nn.Dropout（它遵循 model.eval()）",
    ),
    "inference.finding.program_batch_norm_train": (
        "the exported program has {count} batch_norm {count:op|ops} in training form (batch statistics, in {where}): "
        "F.batch_norm called with training=True in forward (it ignores model.eval()); the export uses the "
        "running statistics, so the paths differ from dygraph by up to {diff}",
        "导出的程序有 {count} 个训练形态的 batch_norm 算子（使用批统计量，位于 {where}）：forward 中以 "
        "training=True 调用了 F.batch_norm（不受 model.eval() 影响）；导出模型使用滑动统计量，"
        "因此各路径与动态图最多相差 {diff}",
    ),
    "inference.finding.program_batch_norm_train_ok": (
        "the exported program has {count} batch_norm {count:op|ops} without global statistics (in {where}); the "
        "paths agree with dygraph here",
        "导出的程序有 {count} 个不使用全局统计量的 batch_norm 算子（位于 {where}）；此处各路径与动态图一致",
    ),
    "inference.finding.program_batch_norm_train.fix": (
        "pass training=self.training to F.batch_norm, or use nn.BatchNorm1D/2D/3D",
        "给 F.batch_norm 传入 training=self.training，或改用 nn.BatchNorm1D/2D/3D",
    ),
    "inference.finding.program_random": (
        "the exported program has {count} random {count:op|ops} (in {where}): every call draws new numbers, so "
        "outputs differ from call to call (largest path difference {diff})",
        "导出的程序有 {count} 个随机算子（位于 {where}）：每次调用都会生成新的随机数，"
        "因此每次输出都不同（路径最大差异 {diff}）",
    ),
    "inference.finding.program_random.fix": (
        "draw random numbers only when self.training is true, or pass them in as an input",
        "仅在 self.training 为真时生成随机数，或把随机数作为输入传入",
    ),
    "inference.evidence.not_repeatable": (
        "two eval-mode forwards of the same batch differ by {diff}",
        "同一批数据在 eval 模式下前向两次，结果相差 {diff}",
    ),
    "inference.where.top": ("the model's own forward", "模型自身的 forward"),
    "inference.evidence.code_piece": ("changed: {piece}", "已改变：{piece}"),
    "inference.finding.train_mode_functional": (
        "left in train mode the output differs by {diff}: the model has no dropout or BatchNorm layer, but "
        "its exported program has train-form operators called in forward (see above)",
        "保持训练模式时输出相差 {diff}：该模型没有 dropout 或 BatchNorm 层，但其导出程序中有在 forward "
        "里调用的训练形态算子（见上）",
    ),
    "inference.fix.explained": ("{fix} (explained by {finding})", "{fix}（原因见 {finding}）"),
    "inference.finding.train_mode": (
        "left in train mode the output differs by {diff}: {count} {count:layer behaves|layers behave} differently in train mode: {layers}",
        "保持训练模式时输出相差 {diff}：{count} 个层在训练模式下行为不同：{layers}",
    ),
    "inference.finding.train_mode_none": (
        "left in train mode the output differs by {diff}: this model has no dropout or BatchNorm layer, "
        "so train mode changes nothing here",
        "保持训练模式时输出相差 {diff}：该模型没有 dropout 或 BatchNorm 层，训练模式在此不改变结果",
    ),
    "inference.finding.train_mode.was_training": (
        " (a freshly built Layer is in train mode: the workbench called eval() itself)",
        "（新建的 Layer 默认处于训练模式：工作台已自行调用 eval()）",
    ),
    "inference.finding.train_mode.fix": (
        "call model.eval() before predicting or paddle.jit.save; evaluate under paddle.no_grad()",
        "预测或 paddle.jit.save 之前调用 model.eval()；评估时使用 paddle.no_grad()",
    ),
    "inference.finding.bn_moved": (
        "train-mode forwards moved {count} BatchNorm running {count:statistic|statistics}, even under no_grad "
        "(largest: {top}, by {delta})",
        "训练模式的前向计算改变了 {count} 个 BatchNorm 滑动统计量（即使在 no_grad 下；最大：{top}，变化 {delta}）",
    ),
    "inference.finding.bn_moved.fix": (
        "never run inference in train mode on a model you will save: its BatchNorm statistics drift; "
        "reload the checkpoint if it happened",
        "不要在训练模式下对要保存的模型做推理：BatchNorm 统计量会漂移；若已发生请重新加载检查点",
    ),
    "inference.finding.not_loaded": (
        "weights not loaded: {missing} {missing:parameter|parameters} missing from the checkpoint, {unexpected} in the checkpoint "
        "but not in the model, {reshaped} with another shape ({names})",
        "权重未加载：检查点缺少 {missing} 个参数，检查点中有 {unexpected} 个模型没有的参数，"
        "{reshaped} 个形状不同（{names}）",
    ),
    "inference.finding.not_loaded.fix": (
        "rebuild the model exactly as trained (same layer names and sizes), or map the renamed keys before "
        "set_state_dict — Paddle only warns 'Skip loading for …' and keeps the random weights",
        "按训练时的结构重建模型（层名与尺寸一致），或在 set_state_dict 之前映射改名的键——"
        "Paddle 只会警告 'Skip loading for …' 并保留随机权重",
    ),
    "inference.evidence.missing": ("missing in checkpoint: {name}", "检查点中缺少：{name}"),
    "inference.evidence.unexpected": ("not in the model: {name}", "模型中没有：{name}"),
    "inference.evidence.shape": (
        "shape differs: {name} checkpoint {saved} vs model {model}",
        "形状不同：{name} 检查点 {saved}，模型 {model}",
    ),
    "inference.evidence.dtype": (
        "dtype: InputSpec {spec}, data {data}",
        "数据类型：InputSpec {spec}，数据 {data}",
    ),
    "inference.evidence.rank": ("rank: InputSpec {spec}, data {data}", "维数：InputSpec {spec}，数据 {data}"),
    "inference.evidence.dim": (
        "axis {axis}: InputSpec {spec}, data {data}",
        "第 {axis} 维：InputSpec {spec}，数据 {data}",
    ),
    "inference.finding.preprocess_unrecorded": (
        "the training run did not record its preprocessing identity; the export uses {name}",
        "训练运行没有记录预处理标识；导出使用 {name}",
    ),
    "inference.finding.preprocess_unrecorded.fix": (
        "retrain with this version of the workbench so checkpoints record it",
        "用当前版本的工作台重新训练，使检查点记录预处理标识",
    ),
    "inference.finding.preprocess_same": (
        "preprocessing identical in training and export: {name} (config {hash})",
        "训练与导出的预处理一致：{name}（配置 {hash}）",
    ),
    "inference.finding.preprocess_drift": (
        "preprocessing differs between training and export ({parts} of {name})",
        "训练与导出的预处理不同（{name} 的 {parts}）",
    ),
    "inference.finding.preprocess_drift.fix": (
        "serve with the preprocessing the model was trained with, or retrain with the new one",
        "部署时使用训练时的预处理，或用新的预处理重新训练",
    ),
    "inference.finding.input_spec": (
        "InputSpec '{name}' {spec} {dtype} does not match the data",
        "InputSpec '{name}' {spec} {dtype} 与数据不符",
    ),
    "inference.finding.input_spec.fix": (
        "declare the InputSpec with the data's dtype and leave variable dimensions as None",
        "按数据的类型声明 InputSpec，可变维度写 None",
    ),
    "inference.finding.divergence": (
        "{path} is the first path outside its tolerance (max abs diff {diff})",
        "{path} 是第一个超出容差的路径（最大绝对差 {diff}）",
    ),
    "inference.fix.jit_load": (
        "the export differs from dygraph: check data-dependent Python control flow in forward() "
        "(see docs/paddle-notes.md, 'Train → inference')",
        "导出结果与动态图不同：检查 forward() 中依赖数据的 Python 控制流（见 docs/paddle-notes.md）",
    ),
    "inference.fix.predictor_ir_off": (
        "the predictor differs without optimisation: compare the program's ops with jit.load",
        "未优化的预测器已不同：请对比程序中的算子与 jit.load",
    ),
    "inference.fix.predictor_ir_on": (
        "an IR optimisation pass changed the numbers: keep switch_ir_optim(False) or delete the pass "
        "with config.delete_pass(name)",
        "某个 IR 优化 pass 改变了数值：保持 switch_ir_optim(False)，或用 config.delete_pass(name) 删除该 pass",
    ),
    "inference.fix.predictor_memory_optim": (
        "memory optimisation changed the numbers: run without enable_memory_optim()",
        "内存优化改变了数值：请不调用 enable_memory_optim() 运行",
    ),
    "inference.fix.onnxruntime": (
        "the ONNX conversion differs: try another opset or report the op to paddle2onnx",
        "ONNX 转换结果不同：尝试其他 opset，或向 paddle2onnx 报告该算子",
    ),
    "inference.fix.generic": ("compare this path's ops with the previous one", "对比该路径与前一路径的算子"),
    "inference.finding.path_error": ("path {path} failed: {error}", "路径 {path} 运行失败：{error}"),
    "inference.finding.path_error.fix": (
        "read the error; an operator without a kernel or converter is listed in the operator inventory",
        "请阅读错误信息；缺少内核或转换器的算子列在算子清单中",
    ),
    "inference.finding.missing_kernels": (
        "no {device} kernel for: {ops}",
        "以下算子没有 {device} 内核：{ops}",
    ),
    "inference.finding.missing_kernels.fix": (
        "run these ops on another device ({device} fallback: CPU), or replace them in the model",
        "将这些算子放到其他设备上运行（{device} 回退：CPU），或在模型中替换它们",
    ),
    "inference.finding.onnx_unconvertible": (
        "paddle2onnx cannot convert: {ops}",
        "paddle2onnx 无法转换：{ops}",
    ),
    "inference.finding.onnx_unconvertible.fix": (
        "deploy with Paddle Inference instead, or replace these ops before exporting to ONNX",
        "改用 Paddle Inference 部署，或在导出 ONNX 之前替换这些算子",
    ),
    # -- reports and the command -----------------------------------------------------------------------
    "inference.report.title": ("Inference parity — {run}, step {step}", "推理一致性——{run}，第 {step} 步"),
    "inference.report.batch": (
        "input: {size} validation samples, shape {shape}",
        "输入：{size} 个验证样本，形状 {shape}",
    ),
    "inference.report.findings": ("Findings", "发现"),
    "inference.report.fix": ("fix", "修复"),
    "inference.report.ops": ("Operators of the exported program", "导出程序中的算子"),
    "inference.report.latency": ("Latency", "延迟"),
    "inference.latency.overlap": (
        "batch {batch}: {order} — paths joined by ≈ have overlapping spreads (interquartile ranges): "
        "their difference is noise and no ranking is claimed between them (--repeat N with a larger N "
        "may separate them)",
        "批大小 {batch}：{order}——以 ≈ 相连的路径离散范围（四分位距）相互重叠：其差异属于噪声，"
        "不对它们排名（可用更大的 --repeat N 尝试区分）",
    ),
    "inference.latency.ranked": (
        "batch {batch}: fastest to slowest {order} (no two spreads overlap)",
        "批大小 {batch}：由快到慢 {order}（离散范围互不重叠）",
    ),
    "inference.cli.col.iqr": ("IQR ms (N)", "四分位距 ms（N）"),
    "inference.cli.opt.checkpoint": (
        "checkpoint step to compare (default: the newest that verifies)",
        "要比较的检查点步数（默认：最新且校验通过的）",
    ),
    "inference.cli.opt.repeats": (
        "timed calls per path and batch size, after the warm-up calls; latency is their median and "
        "interquartile range",
        "每个路径和批大小在预热调用之后的计时调用次数；延迟取其中位数与四分位距",
    ),
    "inference.cli.opt.onnx": (
        "require (--onnx) or leave out (--no-onnx) the ONNX Runtime path; default: when installed",
        "要求（--onnx）或排除（--no-onnx）ONNX Runtime 路径；默认：已安装时运行",
    ),
    "inference.cli.opt.path": ("run only this path (repeatable)", "只运行该路径（可重复）"),
    "inference.cli.opt.batch": (
        "batch size (default: the run's train.batch_size)",
        "批大小（默认：运行的 train.batch_size）",
    ),
    "inference.cli.opt.matrix_out": (
        "also write the workspace's whole matrix to FILE (.csv, or .json)",
        "同时把工作区的整个矩阵写入 FILE（.csv 或 .json）",
    ),
    "inference.cli.matrix_out_failed": ("cannot write {path}: {error}", "无法写入 {path}：{error}"),
    "inference.cli.matrix_out_exists": (
        "--matrix-out {path}: the file already exists, and compare never replaces a file; choose a new name "
        "(or remove it first)",
        "--matrix-out {path}：文件已存在，compare 从不覆盖文件；请换一个新文件名（或先删除它）",
    ),
    "inference.cli.progress": ("comparing: {stage} {path}", "比较中：{stage} {path}"),
    "inference.cli.header": ("run {run}, checkpoint step {step}", "运行 {run}，检查点第 {step} 步"),
    "inference.cli.col.path": ("path", "路径"),
    "inference.cli.col.status": ("status", "状态"),
    "inference.cli.col.diff": ("max abs diff", "最大绝对差"),
    "inference.cli.col.cosine": ("cosine", "余弦"),
    "inference.cli.col.agree": ("agreement", "一致率"),
    "inference.cli.col.latency": ("median ms (1 / N)", "中位耗时 ms（1 / N）"),
    "inference.cli.col.load": ("load s", "加载 s"),
    "inference.cli.status.ok": ("within tolerance", "在容差内"),
    "inference.cli.status.exceeds": ("OUT OF TOLERANCE", "超出容差"),
    "inference.cli.status.deliberate": ("differs (expected)", "不同（预期）"),
    "inference.cli.status.error": ("error", "错误"),
    "inference.cli.status.skipped": ("skipped", "已跳过"),
    "inference.cli.reports": ("report: {md} (JSON: {json})", "报告：{md}（JSON：{json}）"),
    "inference.cli.matrix": (
        "matrix: {count} {count:row|rows} added to {path}",
        "矩阵：向 {path} 添加了 {count} 行",
    ),
    "inference.cli.summary_ok": ("all paths within tolerance", "所有路径均在容差内"),
    "inference.cli.summary_fail": ("parity check failed", "一致性检查未通过"),
    # -- the compare screen ----------------------------------------------------------------------------
    "ui.compare.key.run": ("compare", "比较"),
    "ui.compare.col.run": ("run", "运行"),
    "ui.compare.col.step": ("step", "步数"),
    "ui.compare.hint": (
        "pick a checkpoint and press enter (or c) to compare every inference path",
        "选择一个检查点并按 enter（或 c）比较所有推理路径",
    ),
    "ui.compare.no_checkpoints": (
        "no run of this workspace has a checkpoint yet — train one first",
        "本工作区还没有带检查点的运行——请先训练",
    ),
    "ui.compare.running": ("comparing {run} at step {step}…", "正在比较 {run} 第 {step} 步…"),
    "ui.compare.histogram": (
        "{path}: per-element |difference| (log10 bins)",
        "{path}：逐元素 |差值|（log10 分箱）",
    ),
    "ui.compare.latency": ("median latency per path and batch size", "各路径与批大小的中位延迟"),
    "ui.compare.matrix": (
        "matrix rows (hardware | model | Paddle | path | status | max diff | latency)",
        "矩阵行（硬件 | 模型 | Paddle | 路径 | 状态 | 最大差 | 延迟）",
    ),
    "ui.compare.checkpoints": (
        "checkpoints — enter or c compares, l serves and load-tests",
        "检查点——enter 或 c 比较，l 服务压测",
    ),
    "ui.compare.results": ("results", "结果"),
    "ui.compare.results_of": (
        "comparison of {run} at step {step} (batch {size})",
        "{run} 第 {step} 步的比较结果（批大小 {size}）",
    ),
    "ui.compare.reference": ("reference", "基准"),
    "ui.compare.col.diff_short": ("max |Δ|", "最大差"),
    "ui.compare.col.latency_short": ("ms 1/N", "耗时 ms"),
    "ui.compare.hidden_columns": (
        "not shown at this width: {columns} (widen the terminal, or read the report)",
        "此宽度下未显示：{columns}（加宽终端，或查看报告）",
    ),
}
