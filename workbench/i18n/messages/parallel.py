"""Sharding plans: validation findings, estimates, parallel runs, parity and export."""

MESSAGES: dict[str, tuple[str, str]] = {
    # -- schema (config.error.<code> is looked up by the loader) -----------------------------------
    "config.kind.plan": ("sharding plan (has `mesh:`)", "切分方案（含 `mesh:`）"),
    "config.error.plan_placement": (
        "'{placement}' is not a placement",
        "'{placement}' 不是合法的放置方式",
    ),
    "config.error.plan_placement.hint": (
        "write Replicate(), Shard(<dim>), Partial() or Partial(avg)",
        "请写 Replicate()、Shard(<维度>)、Partial() 或 Partial(avg)",
    ),
    "config.error.plan_mesh_size": (
        "mesh sizes must be 1 or more, got {shape}",
        "网格各维大小必须 ≥ 1，实际为 {shape}",
    ),
    "config.error.plan_mesh_names": (
        "{names} dimension names for a {dims}-D mesh",
        "{dims} 维网格却给了 {names} 个维度名",
    ),
    "config.error.plan_mesh_names.hint": (
        "give one name per entry of mesh.shape, e.g. [dp, mp]",
        "请为 mesh.shape 的每一维给一个名字，例如 [dp, mp]",
    ),
    "config.error.plan_mesh_unique": ("mesh dimension names repeat: {names}", "网格维度名重复：{names}"),
    "config.error.plan_layer_plan": ("unknown layer plan '{plan}'", "未知的层方案 '{plan}'"),
    "config.error.plan_layer_plan.hint": ("Paddle's plans here: {known}", "可用的 Paddle 方案：{known}"),
    "config.error.plan_placement_count": (
        "{count} placements for a {dims}-D mesh",
        "{dims} 维网格却给了 {count} 个放置方式",
    ),
    "config.error.plan_placement_count.hint": (
        "give one placement per mesh dimension, in mesh.dim_names order",
        "请按 mesh.dim_names 的顺序为每个网格维度给一个放置方式",
    ),
    "config.error.plan_layers_need_mp": (
        "layer plans split over the mesh dimension named 'mp', and this mesh has {names}",
        "层方案沿名为 'mp' 的网格维度切分，而此网格只有 {names}",
    ),
    "config.error.plan_layers_need_mp.hint": (
        "name the model-parallel mesh dimension mp, e.g. dim_names: [dp, mp]",
        "请把模型并行的网格维度命名为 mp，例如 dim_names: [dp, mp]",
    ),
    "config.error.plan_dp_needs_dp": (
        "dp: applies over the mesh dimension named 'dp', and this mesh has {names}",
        "dp: 作用于名为 'dp' 的网格维度，而此网格只有 {names}",
    ),
    "config.error.plan_dp_needs_dp.hint": (
        "name the data-parallel mesh dimension dp, or remove the dp: section",
        "请把数据并行的网格维度命名为 dp，或删除 dp: 部分",
    ),
    # -- findings against the model -------------------------------------------------------------------
    "parallel.error.layer_matches_nothing": (
        "layer rule '{pattern}' matches no layer of the model",
        "层规则 '{pattern}' 没有匹配到模型中的任何层",
    ),
    "parallel.fix.layer_matches_nothing": (
        "use a layer name of the model, e.g. {close}",
        "请使用模型中的层名，例如 {close}",
    ),
    "parallel.error.param_matches_nothing": (
        "parameter rule '{pattern}' matches no parameter of the model",
        "参数规则 '{pattern}' 没有匹配到模型中的任何参数",
    ),
    "parallel.fix.param_matches_nothing": (
        "use a parameter name of the model, e.g. {close}",
        "请使用模型中的参数名，例如 {close}",
    ),
    "parallel.error.plan_kind": (
        "{plan} on '{layer}', a {type} layer: it splits {fits} layers only",
        "{plan} 用在 {type} 层 '{layer}' 上：它只能切分 {fits} 层",
    ),
    "parallel.fix.plan_kind": (
        "apply {plan} to a {fits} layer, or give '{layer}' per-parameter placements under params:",
        "请把 {plan} 用在 {fits} 层上，或在 params: 下为 '{layer}' 指定逐参数放置",
    ),
    "parallel.error.overlap_layers": (
        "layer '{name}' is planned twice: at {first} and at {second}",
        "层 '{name}' 被规划了两次：{first} 与 {second}",
    ),
    "parallel.error.overlap_param": (
        "parameter '{name}' is decided twice: by {first} and by {second}",
        "参数 '{name}' 被决定了两次：{first} 与 {second}",
    ),
    "parallel.fix.overlap": (
        "keep one of the two rules for '{name}' (narrow the other's match)",
        "请为 '{name}' 只保留其中一条规则（收窄另一条的匹配）",
    ),
    "parallel.error.partial_param": (
        "Partial() on parameter '{name}': a parameter never holds a pending reduction",
        "参数 '{name}' 使用了 Partial()：参数不会处于待归约状态",
    ),
    "parallel.fix.partial_param": (
        "use Replicate() or Shard(<dim>) for parameters; Partial arises only in outputs",
        "参数请使用 Replicate() 或 Shard(<维度>)；Partial 只会出现在输出上",
    ),
    "parallel.error.shard_dim": (
        "Shard({dim}) on '{name}', which has {ndim} {ndim:dimension|dimensions} {shape} (Paddle crashes with a segmentation fault)",
        "'{name}' 只有 {ndim} 维 {shape}，却使用了 Shard({dim})（Paddle 会段错误崩溃）",
    ),
    "parallel.fix.shard_dim": (
        "shard a dimension from 0 to {last}",
        "请切分 0 到 {last} 之间的维度",
    ),
    "parallel.error.not_divisible": (
        "dimension {dim} of '{name}' (layer {layer}) has size {size}, not divisible by {ranks} ranks of mesh dimension {mesh_dim}",
        "'{name}'（层 {layer}）的第 {dim} 维大小为 {size}，不能被网格维度 {mesh_dim} 的 {ranks} 个进程整除",
    ),
    "parallel.fix.not_divisible": (
        "Paddle would split it unevenly and fail in backward: choose a size divisible by {ranks}, another mesh size, or leave '{name}' replicated",
        "Paddle 会不均匀切分并在反向时失败：请选择能被 {ranks} 整除的大小、换一个网格大小，或让 '{name}' 保持复制",
    ),
    "parallel.error.partial_input": ("Partial() for the batch", "输入批次使用了 Partial()"),
    "parallel.fix.partial_input": (
        "split the batch with Shard(0) or give every rank all of it with Replicate()",
        "请用 Shard(0) 切分批次，或用 Replicate() 让每个进程拿到完整批次",
    ),
    "parallel.error.input_dim": (
        "the batch is split on dimension {dim}; the workbench splits batches by samples only",
        "批次在第 {dim} 维上切分；工作台只按样本切分批次",
    ),
    "parallel.fix.input_dim": ("use Shard(0) or Replicate()", "请使用 Shard(0) 或 Replicate()"),
    "parallel.error.batch_not_divisible": (
        "train.batch_size {batch} is not divisible by the {ranks} ranks of mesh dimension {mesh_dim}",
        "train.batch_size {batch} 不能被网格维度 {mesh_dim} 的 {ranks} 个进程整除",
    ),
    "parallel.fix.batch_not_divisible": (
        "choose a batch size divisible by {ranks} (-o train.batch_size=...)",
        "请选择能被 {ranks} 整除的批大小（-o train.batch_size=...）",
    ),
    "parallel.error.mesh_too_large": (
        "the mesh {shape} has {mesh} ranks and {nproc} will be launched (Paddle would wait forever for the missing ranks)",
        "网格 {shape} 有 {mesh} 个进程，而只会启动 {nproc} 个（Paddle 会一直等待缺失的进程）",
    ),
    "parallel.fix.mesh_too_large": (
        "launch {mesh} ranks (--nproc {mesh}) or shrink mesh.shape to {nproc} ranks",
        "请启动 {mesh} 个进程（--nproc {mesh}），或把 mesh.shape 缩小到 {nproc} 个进程",
    ),
    "parallel.error.mesh_too_small": (
        "the mesh {shape} has {mesh} ranks and {nproc} will be launched",
        "网格 {shape} 有 {mesh} 个进程，而会启动 {nproc} 个",
    ),
    "parallel.fix.mesh_too_small": (
        "launch {mesh} ranks (--nproc {mesh}) or grow mesh.shape to {nproc} ranks",
        "请启动 {mesh} 个进程（--nproc {mesh}），或把 mesh.shape 扩大到 {nproc} 个进程",
    ),
    "parallel.error.optimizer": (
        "the training config's optimizer is {optimizer}; Paddle's shard_optimizer takes SGD and AdamW only",
        "训练配置的优化器是 {optimizer}；Paddle 的 shard_optimizer 只支持 SGD 和 AdamW",
    ),
    "parallel.fix.optimizer": (
        "set train.optimizer: sgd or adamw in the training config (plan run: -o train.optimizer=sgd)",
        "请在训练配置中设置 train.optimizer: sgd 或 adamw（plan run 可用 -o train.optimizer=sgd）",
    ),
    "parallel.error.cpu_sharding_3": (
        "sharding_level 3 over more than one dp rank cannot run on CPU: Paddle has no CPU kernel for CReduceScatterOp",
        "sharding_level 3 跨多个 dp rank 时无法在 CPU 上运行：Paddle 没有 CReduceScatterOp 的 CPU 实现",
    ),
    "parallel.fix.cpu_sharding_3": (
        "use sharding_level 0, 1 or 2 on CPU (or a dp dimension of 1), or run on GPUs",
        "在 CPU 上请使用 sharding_level 0、1 或 2（或让 dp 维为 1），或在 GPU 上运行",
    ),
    "parallel.error.cpu_sharding_split_batch": (
        "sharding_level {level} with the batch split over dp needs a reduce-scatter of the gradients: no CPU kernel for CReduceScatterOp",
        "sharding_level {level} 且批次沿 dp 切分时需要对梯度做 reduce-scatter：CReduceScatterOp 没有 CPU 实现",
    ),
    "parallel.fix.cpu_sharding_split_batch": (
        "on CPU keep the batch whole on dp (inputs.placements Replicate() there), or use sharding_level 0, or run on GPUs",
        "在 CPU 上请让批次在 dp 上保持完整（该维 inputs.placements 用 Replicate()），或使用 sharding_level 0，或在 GPU 上运行",
    ),
    "parallel.error.cpu_reshard": (
        "'{name}' is Shard({dim}) on dp while the sharding stage wants Shard(0): a Shard→Shard reshard (all_to_all) has no CPU kernel",
        "'{name}' 在 dp 上是 Shard({dim})，而切分阶段需要 Shard(0)：Shard→Shard 重切分（all_to_all）没有 CPU 实现",
    ),
    "parallel.fix.cpu_reshard": (
        "on the dp dimension use Shard(0) or Replicate() for '{name}', or run on GPUs",
        "请在 dp 维度上对 '{name}' 使用 Shard(0) 或 Replicate()，或在 GPU 上运行",
    ),
    "parallel.error.train_missing": ("training config {path} not found", "找不到训练配置 {path}"),
    "parallel.fix.train_missing": (
        "train: is a path relative to the plan file",
        "train: 是相对于方案文件的路径",
    ),
    "parallel.error.train_build": (
        "the training config's model could not be built: {error}",
        "无法构建训练配置中的模型：{error}",
    ),
    "parallel.fix.train_build": (
        "run `paddle-workbench validate {path}` and fix the training config first",
        "请先运行 `paddle-workbench validate {path}` 并修正训练配置",
    ),
    "parallel.facts_reused": (
        "model: the facts of the last check of this config (config, data, workbench code and Paddle "
        "unchanged), not built again",
        "模型：沿用上次检查此配置时的模型信息（配置、数据、workbench 代码与 Paddle 均未变化），未重新构建",
    ),
    "parallel.user_code": (
        "importing your code: {module} (from {folder}) in a child process, to build the model",
        "正在子进程中导入你的代码：{module}（来自 {folder}），以构建模型",
    ),
    "parallel.error.build_crashed": (
        "building the model crashed the child process it ran in ({how}); its last output: {tail}",
        "构建模型时其所在的子进程崩溃（{how}）；最后的输出：{tail}",
    ),
    "parallel.error.build_timed_out": (
        "building the model did not finish within {seconds} s; it was stopped",
        "构建模型未能在 {seconds} 秒内完成，已被终止",
    ),
    "parallel.error.build_no_result": (
        "the model build ended without a result",
        "模型构建结束但没有给出结果",
    ),
    "parallel.warn.no_mp": (
        "layer plans on a multi-dimensional mesh without an mp dimension do nothing",
        "没有 mp 维度的多维网格上，层方案不起作用",
    ),
    # -- runs ----------------------------------------------------------------------------------------
    "runner.stalled": (
        "rank {rank} made no progress for {seconds} s (last step {step}); the job was ended (watchdog)",
        "进程 {rank} 已 {seconds} 秒没有进展（最后一步 {step}）；作业已结束（看门狗）",
    ),
    "parallel.stalled": (
        "rank {rank} stalled after step {step} (in {phase}) — no progress for {seconds} s; ranks {others} waited for it; the job was ended (watchdog)",
        "进程 {rank} 在第 {step} 步后停滞（{phase} 阶段）— {seconds} 秒无进展；进程 {others} 在等待它；作业已结束（看门狗）",
    ),
    "parallel.stalled.log": ("last lines of rank {rank}'s log:", "进程 {rank} 日志的最后几行："),
    "parallel.stalled.stack": ("Python stack of rank {rank}:", "进程 {rank} 的 Python 调用栈："),
    "parallel.stalled.no_stack": ("(no stack: the process did not answer)", "（无调用栈：进程没有响应）"),
    # -- parity --------------------------------------------------------------------------------------
    "parallel.parity.no_overlap": (
        "the two runs share no step with the same number of samples seen",
        "两个运行没有“已见样本数”相同的步",
    ),
    "parallel.parity.no_overlap.fix": (
        "compare runs of the same training config (same batch size or a multiple of it), each with logged losses",
        "请比较同一训练配置的运行（批大小相同或为其倍数），且都记录了损失",
    ),
    "parallel.parity.batch_differs": (
        "global batch {a} vs {b}: the same data in a different number of steps cannot follow the same loss curve",
        "全局批大小 {a} 对 {b}：同样的数据分成不同的步数，无法走出相同的损失曲线",
    ),
    "parallel.parity.batch_differs.fix": (
        "set train.batch_size: {batch} — the global batch, which the plan splits over its data-parallel ranks",
        "请设 train.batch_size: {batch}——即全局批大小，由方案在数据并行进程间切分",
    ),
    "parallel.parity.batch_same": ("same global batch ({batch})", "全局批大小相同（{batch}）"),
    "parallel.parity.lr_same": ("same learning rate ({lr})", "学习率相同（{lr}）"),
    "parallel.parity.lr_scaled": (
        "learning rate {a} → {b}: scaled linearly with the global batch",
        "学习率 {a} → {b}：已随全局批大小线性缩放",
    ),
    "parallel.parity.lr_unscaled": (
        "un-scaled learning rate: the global batch went {a} → {b} but the learning rate {lr_a} → {lr_b}",
        "学习率未缩放：全局批大小从 {a} 变为 {b}，学习率却是 {lr_a} → {lr_b}",
    ),
    "parallel.parity.lr_unscaled.fix": (
        "scale the learning rate with the global batch (linear rule: lr {lr}), or keep the global batch the same",
        "请按全局批大小缩放学习率（线性规则：lr {lr}），或保持全局批大小不变",
    ),
    "parallel.parity.lr_differs": (
        "same global batch, different learning rate: {a} vs {b}",
        "全局批大小相同，学习率不同：{a} 对 {b}",
    ),
    "parallel.parity.lr_differs.fix": (
        "use train.lr: {lr} — a plan that keeps the global batch keeps the learning rate",
        "请使用 train.lr: {lr}——全局批大小不变的方案，学习率也不应改变",
    ),
    "parallel.parity.grad_sync": (
        "{run}: the {ranks} ranks start at the baseline's loss, then their mean leaves it at step {step}: "
        "the ranks' parameters drift apart — gradients are not synchronised",
        "{run}：{ranks} 个进程起始损失与基线相同，之后其平均值在第 {step} 步偏离：各进程参数逐渐分离——梯度没有同步",
    ),
    "parallel.parity.grad_sync.fix": (
        "all-reduce (average) the gradients over the data-parallel ranks before the optimizer step "
        "(paddle.DataParallel, or a plan with a dp section)",
        "请在优化器更新前对数据并行进程的梯度做 all-reduce 平均（paddle.DataParallel，或带 dp 段的方案）",
    ),
    "parallel.parity.grad_sync_ok": (
        "the data-parallel ranks stay in sync (they log the same loss)",
        "数据并行进程保持同步（记录的损失相同）",
    ),
    "parallel.parity.seed_same": ("same seed ({seed})", "随机种子相同（{seed}）"),
    "parallel.parity.seed_differs": ("different seeds: {a} vs {b}", "随机种子不同：{a} 对 {b}"),
    "parallel.parity.seed_differs.fix": (
        "use the same train.seed: initial weights and data order come from it",
        "请使用相同的 train.seed：初始权重与数据顺序都由它决定",
    ),
    "parallel.parity.uneven": (
        "{run}: batch {batch} does not split evenly over {dp} data-parallel ranks",
        "{run}：批大小 {batch} 不能在 {dp} 个数据并行进程间均分",
    ),
    "parallel.parity.uneven.fix": ("use a batch size divisible by {dp}", "请使用能被 {dp} 整除的批大小"),
    "parallel.parity.even": ("every batch splits evenly over the ranks", "每个批次都能在各进程间均分"),
    "parallel.parity.ranks_agree": (
        "{run}: all {ranks} ranks log the same loss (max difference {diff}): the loss is averaged over the mesh",
        "{run}：全部 {ranks} 个进程记录的损失相同（最大差 {diff}）：损失已在网格上平均",
    ),
    "parallel.parity.ranks_differ": (
        "{run}: the {ranks} ranks log different losses (max difference {diff}): each logs a local value",
        "{run}：{ranks} 个进程记录的损失不同（最大差 {diff}）：各自记录的是本地值",
    ),
    "parallel.parity.ranks_differ.fix": (
        "average the metric over ranks before logging (all_reduce with AVG, or read the global Partial loss)",
        "记录前请在各进程间平均该指标（AVG 方式 all_reduce，或读取全局 Partial 损失）",
    ),
    "parallel.parity.single_rank": (
        "one rank per run: no averaging to check",
        "每个运行只有一个进程：无需检查平均",
    ),
    "parallel.parity.data_sharding": (
        "{runs}: every rank draws the same global batch (same seed and sampler) and keeps its own slice",
        "{runs}：每个进程抽取相同的全局批次（相同种子与采样器），再保留自己的切片",
    ),
    "parallel.parity.no_dp": ("no data-parallel split in either run", "两个运行都没有数据并行切分"),
    "parallel.parity.verdict.match": (
        "parity holds: over {steps} steps the loss gap stayed within float32 rounding (largest {abs}, {rel} relative)",
        "一致：{steps} 步内损失差始终在 float32 舍入误差范围内（最大 {abs}，相对 {rel}）",
    ),
    "parallel.parity.verdict.amplified": (
        "parity holds within float32 noise: over {steps} steps the gap stayed at the rounding floor until step "
        "{step}, then grew out of it gradually as training amplified it, to {rel} relative (limit {envelope})",
        "在 float32 噪声范围内一致：{steps} 步内损失差在第 {step} 步之前都处于舍入下限，之后随训练逐渐放大，"
        "最大相对差 {rel}（上限 {envelope}）",
    ),
    "parallel.parity.verdict.diverged": (
        "parity does not hold: at step {step} the loss gap {gap} is beyond what float32 rounding explains "
        "(floor {floor}); largest relative gap {rel}; named causes: {causes}",
        "不一致：第 {step} 步的损失差 {gap} 超出了 float32 舍入所能解释的范围（下限 {floor}）；"
        "最大相对差 {rel}；已识别的原因：{causes}",
    ),
    "parallel.parity.verdict.within_tolerance": (
        "parity holds within the fixed tolerance: over {steps} steps the largest loss gap was {abs} (≤ {tol})",
        "在固定容差内一致：{steps} 步内最大损失差为 {abs}（≤ {tol}）",
    ),
    "parallel.parity.verdict.beyond_tolerance": (
        "parity does not hold by the fixed tolerance: at step {step} the loss gap {gap} exceeds {floor}; "
        "largest relative gap {rel}; named causes: {causes}",
        "按固定容差不一致：第 {step} 步的损失差 {gap} 超过 {floor}；最大相对差 {rel}；已识别的原因：{causes}",
    ),
    "parallel.parity.verdict.check_failed": (
        "parity does not hold: the loss curves agree, but a recorded fact differs: {causes}",
        "不一致：损失曲线吻合，但记录的设置不同：{causes}",
    ),
    "parallel.parity.verdict.no_cause": (
        "none of the recorded facts explains it (compare the plan's layers and placements)",
        "记录的设置都无法解释（请检查方案的层与放置方式）",
    ),
    "parallel.parity.verdict.no_overlap": (
        "cannot judge: the runs share no step with the same number of samples seen",
        "无法判断：两个运行没有“已见样本数”相同的步",
    ),
    "parallel.parity.verdict.not_comparable": (
        "not comparable, nothing compared: {differences}",
        "不可比较，未做比较：{differences}",
    ),
    "parallel.parity.fingerprint_missing": (
        "(a run has no model.json: the model was compared by its config)",
        "（有运行缺少 model.json：模型按配置比较）",
    ),
    "parallel.parity.next": ("next: {command}", "下一步：{command}"),
    "parallel.parity.only_in": ("parameters only in {run}", "仅 {run} 有的参数"),
    "parallel.parity.what.model": ("model", "模型"),
    "parallel.parity.what.data": ("data", "数据"),
    "parallel.parity.what.recipe": ("recipe", "训练方法"),
    "parallel.parity.next.rerun": (
        "fix what the verdict names, then run the parallel job again",
        "先修复结论中指出的问题，再重新运行并行作业",
    ),
    # -- command line --------------------------------------------------------------------------------
    "parallel.cli.fix": ("fix", "修复"),
    "parallel.cli.validate.help": (
        "Check a sharding plan against the real model (built on the CPU, nothing launched); show every parameter's placement and the per-rank estimate. The model is built in a child process with a time limit: for a task: custom training config that imports and runs your entry's module (the config's folder first on sys.path), and the first line says so.",
        "用真实模型（在 CPU 上构建，不启动任何进程）检查切分方案；显示每个参数的放置方式与每个进程的估算。模型在有时间限制的子进程中构建：若训练配置为 task: custom，会导入并运行你的入口模块（配置所在目录优先加入 sys.path），输出的第一行会说明这一点。",
    ),
    "parallel.cli.run.help": (
        "Run a plan on N ranks through paddle.distributed.launch (a mesh of one runs in this process).",
        "通过 paddle.distributed.launch 在 N 个进程上运行方案（单进程网格在本进程内运行）。",
    ),
    "parallel.cli.parity.help": (
        "Compare two runs' losses on samples seen against a float32 noise model; check the usual causes of a parallel run learning differently. Runs of different models, data or recipes are refused (exit 2) with what differs.",
        "按已见样本数、以 float32 噪声模型比较两个运行的损失；检查并行运行学习效果不同的常见原因。模型、数据或训练方法不同的运行会被拒绝（退出码 2），并列出不同之处。",
    ),
    "parallel.cli.export.help": (
        "Write a Python file, launch commands (single and multi-node), a Slurm script and a PaddleJob manifest.",
        "写出 Python 文件、启动命令（单机与多机）、Slurm 脚本和 PaddleJob 清单。",
    ),
    "parallel.cli.opt.nproc": (
        "ranks to launch (default: the mesh size)",
        "要启动的进程数（默认：网格大小）",
    ),
    "parallel.cli.opt.nproc_check": (
        "ranks that will be launched (checked against the mesh)",
        "将要启动的进程数（与网格核对）",
    ),
    "parallel.cli.opt.nproc_node": (
        "ranks per node (default: mesh size / nodes)",
        "每个节点的进程数（默认：网格大小 / 节点数）",
    ),
    "parallel.cli.opt.nnodes": (
        "nodes for the multi-node forms (default: each node holds whole mp groups; 2 for a mesh without mp)",
        "多机形式的节点数（默认：每个节点容纳完整的 mp 组；无 mp 的网格为 2）",
    ),
    "parallel.cli.opt.override": (
        "override a key of the plan's training config, e.g. -o train.steps=20",
        "覆盖方案所用训练配置中的键，例如 -o train.steps=20",
    ),
    "parallel.cli.opt.watchdog": (
        "end the run when a rank makes no progress for this many seconds (default: the plan's watchdog_s)",
        "某进程在这么多秒内无进展时结束运行（默认：方案的 watchdog_s）",
    ),
    "parallel.cli.opt.tolerance": (
        "a fixed largest absolute loss difference instead of the float32 noise model (default: the noise model)",
        "以固定的最大绝对损失差代替 float32 噪声模型（默认：噪声模型）",
    ),
    "parallel.cli.opt.output": (
        "folder to write into (default: <plan>-export)",
        "输出目录（默认：<方案名>-export）",
    ),
    "parallel.cli.mesh": (
        "mesh {shape} ({names}): {ranks} {ranks:rank|ranks}",
        "网格 {shape}（{names}）：{ranks} 个进程",
    ),
    "parallel.cli.col.param": ("parameter", "参数"),
    "parallel.cli.col.shape": ("shape", "形状"),
    "parallel.cli.col.placements": ("placements", "放置"),
    "parallel.cli.col.local": ("local", "本地形状"),
    "parallel.cli.col.source": ("decided by", "决定于"),
    "parallel.cli.estimate": (
        "per rank: parameters {params}, gradients {grads}, optimizer state {opt}, activations {act} = {total} (one card: {baseline})",
        "每个进程：参数 {params}，梯度 {grads}，优化器状态 {opt}，激活 {act}，合计 {total}（单卡：{baseline}）",
    ),
    "parallel.cli.comm": (
        "communication per step and rank: {bytes} in {count} {count:collective|collectives}",
        "每步每进程通信：{bytes}，共 {count} 次集合通信",
    ),
    "parallel.cli.valid": ("{file}: plan is valid", "{file}：方案有效"),
    "parallel.cli.invalid": (
        "{file}: {count} {count:problem|problems}; nothing was launched",
        "{file}：{count} 个问题；未启动任何进程",
    ),
    "parallel.cli.refused": (
        "{file}: {count} {count:problem|problems}; the run was not started",
        "{file}：{count} 个问题；运行未启动",
    ),
    "parallel.cli.stopping": (
        "stopping every rank after the same step and saving checkpoints (Ctrl-C again to end every process now)…",
        "将让所有进程在同一步结束后停止并保存检查点（再按一次 Ctrl-C 立即结束全部进程）…",
    ),
    "parallel.cli.started": (
        "started on {ranks} {ranks:rank|ranks}: {run}",
        "已在 {ranks} 个进程上启动：{run}",
    ),
    "parallel.cli.ended": (
        "run {status} ({ranks} {ranks:rank|ranks} reported steps)",
        "运行{status}（{ranks} 个进程报告了步数）",
    ),
    "parallel.cli.parity": (
        "{steps} steps compared: max |Δloss| {abs}, max relative {rel} ({tol}); leaves the rounding floor at "
        "step {left}; divergence from step {first}",
        "比较了 {steps} 步：最大 |Δloss| {abs}，最大相对差 {rel}（{tol}）；离开舍入下限的步：{left}；"
        "分歧开始的步：{first}",
    ),
    "parallel.cli.parity.noise_model": (
        "float32 noise model: floor {k}·eps·|loss|·√step",
        "float32 噪声模型：下限 {k}·eps·|loss|·√step",
    ),
    "parallel.cli.parity.fixed_tolerance": ("fixed tolerance {tol}", "固定容差 {tol}"),
    "parallel.cli.parity.refused": (
        "{a} and {b} are not comparable — they differ in:",
        "{a} 与 {b} 不可比较——不同之处：",
    ),
    "parallel.cli.export_failed": ("cannot write {path}: {error}", "无法写入 {path}：{error}"),
    "parallel.export.layout": (
        "{asked} does not launch the mesh {shape}: nodes × ranks per node must be its {size} ranks",
        "{asked} 与网格 {shape} 不符：节点数 × 每节点进程数必须等于其 {size} 个进程",
    ),
    "parallel.export.layout_fix": ("use one of: {fits}", "请改用其中之一：{fits}"),
    "parallel.export.mp_spans_nodes": (
        "{nnodes} {nnodes:node|nodes} × {nproc} {nproc:rank|ranks} splits a tensor-parallel (mp) group of {mp} ranks across nodes: every mp all-reduce crosses the network",
        "{nnodes} 个节点 × 每节点 {nproc} 个进程会把 {mp} 个进程的张量并行（mp）组拆到多个节点：每次 mp all-reduce 都要走网络",
    ),
    "parallel.export.mp_spans_nodes_fix": (
        "keep each mp group on one node: --nnodes {nnodes} --nproc {nproc}",
        "让每个 mp 组留在一个节点内：--nnodes {nnodes} --nproc {nproc}",
    ),
    "parallel.export.readme.module_missing": (
        "make the module {module} importable on every node (it is neither next to the config nor installed here)",
        "请确保每个节点都能导入模块 {module}（它既不在配置旁，也未在本机安装）",
    ),
    "parallel.export.warning": ("warning: {text}", "警告：{text}"),
    "parallel.export.exists": (
        "{files} already there — an export never replaces a file; choose another --output",
        "{files} 已存在——导出从不覆盖文件；请换一个 --output",
    ),
    # -- the monitor's rank table ------------------------------------------------------------------
    "ui.ranks.col.rank": ("rank", "进程"),
    "ui.ranks.col.step": ("step", "步"),
    "ui.ranks.col.step_ms": ("ms/step", "毫秒/步"),
    "ui.ranks.col.memory": ("mem", "内存"),
    "ui.ranks.col.state": ("state", "状态"),
    "ui.ranks.state.alive": ("alive", "运行中"),
    "ui.ranks.state.stalled": ("stalled", "停滞"),
    "ui.ranks.state.ended": ("ended", "已结束"),
    "ui.ranks.state.failed": ("failed", "失败"),
    # -- the plan screen -----------------------------------------------------------------------------
    "ui.plan.col.param": ("parameter", "参数"),
    "ui.plan.col.shape": ("shape", "形状"),
    "ui.plan.col.dtype": ("dtype", "类型"),
    "ui.plan.col.placements": ("placements", "放置"),
    "ui.plan.col.local": ("local", "本地形状"),
    "ui.plan.col.source": ("decided by", "决定于"),
    "ui.plan.key.col": ("column-parallel", "列并行"),
    "ui.plan.key.row": ("row-parallel", "行并行"),
    "ui.plan.key.clear": ("replicate", "复制"),
    "ui.plan.key.shard0": ("shard dim 0", "切分第 0 维"),
    "ui.plan.key.shard_last": ("shard last dim", "切分最后一维"),
    "ui.plan.key.save": ("save", "保存"),
    "ui.plan.key.run": ("run on the mesh", "在网格上运行"),
    "ui.plan.building": (
        "building the model of {path} to check the plan against it…",
        "正在构建 {path} 的模型以检查方案…",
    ),
    "ui.plan.facts_failed": ("the model of {path} could not be built", "无法构建 {path} 的模型"),
    "ui.plan.valid": ("the plan is valid", "方案有效"),
    "ui.plan.saved": ("saved {path}", "已保存 {path}"),
    "ui.plan.cannot_run": (
        "the plan has problems (see the findings): nothing was started",
        "方案有问题（见检查结果）：未启动任何运行",
    ),
    "worker.plan_check": ("checking the plan", "检查方案"),
    "worker.plan_run": ("starting the plan's run", "启动方案运行"),
    "parallel.cli.measured": (
        "rank {rank}: median step {step_ms} ms, Paddle host allocator {alloc}, process RSS {rss} (estimate per rank: {estimate})",
        "进程 {rank}：每步中位数 {step_ms} 毫秒，Paddle 主机分配器 {alloc}，进程 RSS {rss}（每进程估算：{estimate}）",
    ),
    "ui.plan.key.parity": ("parity with baseline", "与基线对比"),
    "ui.plan.parity.none": (
        "no finished run of this plan, or no finished single-card run comparable to it (same model, data and recipe), to compare",
        "没有可比较的已完成运行：需要此方案的运行，以及与之可比（模型、数据与训练方法相同）的单卡运行",
    ),
    "worker.plan_parity": ("comparing with the baseline", "与基线对比"),
}
