"""Sharding plans, the wider vocabulary: sequence-parallel markers, Prepare hooks, recompute, amp, pp."""

MESSAGES: dict[str, tuple[str, str]] = {
    # -- schema (config.error.<code> is looked up by the loader) -----------------------------------
    "config.error.plan_need_transpose": (
        "need_transpose does not apply to {plan}",
        "need_transpose 不适用于 {plan}",
    ),
    "config.error.plan_need_transpose.hint": (
        "only SequenceParallelBegin, SequenceParallelEnd and SequenceParallelDisable take it; remove it here",
        "只有 SequenceParallelBegin、SequenceParallelEnd 和 SequenceParallelDisable 接受它；请在此删除",
    ),
    "config.error.plan_fn_missing": (
        "{plan} needs fn: the hook factory in your code",
        "{plan} 需要 fn：你代码中的钩子工厂函数",
    ),
    "config.error.plan_fn_missing.hint": (
        "add fn: my_hooks:make_hook (a function taking process_mesh and returning the hook)",
        "请添加 fn: my_hooks:make_hook（接收 process_mesh 并返回钩子的函数）",
    ),
    "config.error.plan_fn_unused": ("fn does not apply to {plan}", "fn 不适用于 {plan}"),
    "config.error.plan_fn_unused.hint": (
        "only PrepareLayerInput and PrepareLayerOutput take fn; remove it here",
        "只有 PrepareLayerInput 和 PrepareLayerOutput 接受 fn；请在此删除",
    ),
    "config.error.plan_fn_form": ("'{fn}' is not module:function", "'{fn}' 不是 module:function 形式"),
    "config.error.plan_fn_form.hint": (
        "write the module and the function with one colon, e.g. my_hooks:make_hook",
        "请用一个冒号连接模块与函数，例如 my_hooks:make_hook",
    ),
    "config.error.plan_sharding_mesh_dim": (
        "sharding_mesh_dim '{dim}' is not a mesh dimension",
        "sharding_mesh_dim '{dim}' 不是网格的维度",
    ),
    "config.error.plan_sharding_mesh_dim.hint": (
        "use one of the mesh's dim_names: {names}",
        "请使用网格 dim_names 之一：{names}",
    ),
    "config.error.plan_pp_needs_pp": (
        "pp stages need a mesh dimension named pp (mesh has {names})",
        "流水线阶段需要名为 pp 的网格维度（当前网格为 {names}）",
    ),
    "config.error.plan_pp_needs_pp.hint": (
        "add a pp dimension, e.g. mesh: {shape: [2], dim_names: [pp]}",
        "请添加 pp 维度，例如 mesh: {shape: [2], dim_names: [pp]}",
    ),
    # -- findings against the model ----------------------------------------------------------------
    "parallel.error.sp_mesh": (
        "{plan} needs a mesh with both dp and mp dimensions (Paddle's sequence split looks both up); this mesh has {names}",
        "{plan} 需要同时含 dp 与 mp 维度的网格（Paddle 的序列切分会查找这两个名字）；当前网格为 {names}",
    ),
    "parallel.fix.sp_mesh": (
        "name the mesh dimensions [dp, mp]; a dp of 1 is fine (shape [1, N])",
        "请将网格维度命名为 [dp, mp]；dp 为 1 也可以（shape [1, N]）",
    ),
    "parallel.error.sp_not_called": (
        "{plan} on '{layer}': the model's forward never runs this layer, so the marker would do nothing",
        "{plan} 标在 '{layer}' 上：模型的前向从不调用该层，标记不会起作用",
    ),
    "parallel.fix.sp_not_called": (
        "mark a layer that forward calls (the sample forward pass did not reach '{layer}')",
        "请标记前向会调用的层（样本前向未经过 '{layer}'）",
    ),
    "parallel.error.sp_ndim": (
        "{plan} on '{layer}' needs a 3-D [batch, sequence, hidden] tensor at its {side}; the model gives {shape}",
        "{plan} 标在 '{layer}' 上需要其 {side} 为 3 维 [batch, sequence, hidden] 张量；模型给出的是 {shape}",
    ),
    "parallel.fix.sp_ndim": (
        "mark a layer whose {side} is [batch, sequence, hidden] (Paddle asserts 3 dimensions mid-step)",
        "请标记 {side} 为 [batch, sequence, hidden] 的层（Paddle 会在训练步中途断言 3 维）",
    ),
    "parallel.error.sp_seq_not_divisible": (
        "sequence length {seq} at '{layer}' does not divide over {ranks} mp ranks",
        "'{layer}' 处的序列长度 {seq} 不能被 {ranks} 个 mp rank 整除",
    ),
    "parallel.fix.sp_seq_not_divisible": (
        "use a sequence length that is a multiple of {ranks}, or a smaller mp",
        "请使用 {ranks} 的整数倍作为序列长度，或减小 mp",
    ),
    "parallel.error.sp_unpaired_begin": (
        "SequenceParallelBegin on '{layer}' has no SequenceParallelEnd: activations would stay split over the sequence",
        "'{layer}' 上的 SequenceParallelBegin 没有对应的 SequenceParallelEnd：激活会一直按序列切分",
    ),
    "parallel.fix.sp_unpaired_begin": (
        "add SequenceParallelEnd on the first layer after the sequence-parallel range (e.g. the output head)",
        "请在序列并行区间之后的第一层（例如输出头）添加 SequenceParallelEnd",
    ),
    "parallel.error.sp_unpaired_end": (
        "SequenceParallelEnd on '{layer}' has no SequenceParallelBegin before it",
        "'{layer}' 上的 SequenceParallelEnd 之前没有 SequenceParallelBegin",
    ),
    "parallel.fix.sp_unpaired_end": (
        "add SequenceParallelBegin on the last layer before the range (e.g. the embedding), or remove this marker",
        "请在区间之前的最后一层（例如 embedding）添加 SequenceParallelBegin，或删除此标记",
    ),
    "parallel.error.sp_order": (
        "SequenceParallelEnd on '{end}' runs before the SequenceParallelBegin on '{begin}'",
        "'{end}' 上的 SequenceParallelEnd 在 '{begin}' 上的 SequenceParallelBegin 之前运行",
    ),
    "parallel.fix.sp_order": (
        "Begin goes on the last layer before the range, End on the first layer after it (forward order)",
        "Begin 应标在区间前的最后一层，End 标在区间后的第一层（按前向顺序）",
    ),
    "parallel.error.sp_disable_outside": (
        "SequenceParallelDisable on '{layer}' is outside every Begin…End range: its input is not sequence-split",
        "'{layer}' 上的 SequenceParallelDisable 不在任何 Begin…End 区间内：其输入没有按序列切分",
    ),
    "parallel.fix.sp_disable_outside": (
        "remove it, or move the Begin/End markers so that '{layer}' runs between them",
        "请删除它，或移动 Begin/End 标记使 '{layer}' 位于两者之间",
    ),
    "parallel.error.sp_marked_inside": (
        "'{layer}' is planned inside the sequence-parallel range {begin} … {end} (Paddle: no layer in the range may be marked)",
        "'{layer}' 位于序列并行区间 {begin} … {end} 内却被规划（Paddle 要求区间内的层不得被标记）",
    ),
    "parallel.fix.sp_marked_inside": (
        "put SequenceParallelDisable on the block that holds '{layer}', or move the Begin/End markers",
        "请在包含 '{layer}' 的模块上添加 SequenceParallelDisable，或移动 Begin/End 标记",
    ),
    "parallel.error.prepare_module": (
        "{plan} fn '{fn}': no module '{module}' next to the training config ({folder}) nor installed",
        "{plan} 的 fn '{fn}'：训练配置旁（{folder}）和已安装的包中都没有模块 '{module}'",
    ),
    "parallel.fix.prepare_module": (
        "put the module next to the training config (as for task: custom), or install its package",
        "请把该模块放在训练配置旁（同 task: custom），或安装它所在的包",
    ),
    "parallel.error.prepare_function": (
        "{plan} fn '{fn}': {module} defines no '{function}'",
        "{plan} 的 fn '{fn}'：{module} 中没有定义 '{function}'",
    ),
    "parallel.fix.prepare_function": (
        "define {function}(process_mesh) returning the hook (names there: {close})",
        "请定义 {function}(process_mesh) 并返回钩子（该文件中相近的名字：{close}）",
    ),
    "parallel.error.recompute_matches_nothing": (
        "recompute match '{pattern}' matches no layer",
        "recompute 的匹配 '{pattern}' 没有匹配到任何层",
    ),
    "parallel.fix.recompute_matches_nothing": (
        "layer names look like: {close}",
        "层名形如：{close}",
    ),
    "parallel.error.recompute_no_grad_input": (
        "recompute on '{layer}': none of its inputs needs a gradient (it takes the batch directly), so Paddle's recompute leaves its parameters without gradients and they never train",
        "对 '{layer}' 的 recompute：它的输入都不需要梯度（直接接收批数据），Paddle 的 recompute 会让其参数得不到梯度，永远不会被训练",
    ),
    "parallel.fix.recompute_no_grad_input": (
        "recompute a later block (one fed by a layer with parameters), or leave '{layer}' out",
        "请对更靠后的模块（其输入来自有参数的层）做 recompute，或不要包含 '{layer}'",
    ),
    "parallel.warn.cpu_amp": (
        "amp {level} {dtype} is not exercised on CPU: Paddle's auto_cast works only on GPU/XPU (on CPU it has no effect), so this run trains in float32; exports keep amp for GPU",
        "amp {level} {dtype} 在 CPU 上不会生效：Paddle 的 auto_cast 仅在 GPU/XPU 上起作用（CPU 上无效），本次运行以 float32 训练；导出文件为 GPU 保留 amp",
    ),
    "parallel.error.pp_matches_nothing": (
        "pp names '{name}', which is no layer of the model",
        "pp 指定的 '{name}' 不是模型中的层",
    ),
    "parallel.fix.pp_matches_nothing": (
        "layer names look like: {close}",
        "层名形如：{close}",
    ),
    "parallel.error.pp_too_few_layers": (
        "pp split_spec '{name}' has {count} layers for {ranks} pipeline stages",
        "pp split_spec '{name}' 只有 {count} 层，却要分成 {ranks} 个流水线阶段",
    ),
    "parallel.fix.pp_too_few_layers": (
        "split a layer list with at least {ranks} entries, or use fewer pp ranks",
        "请切分至少含 {ranks} 层的层列表，或减少 pp rank 数",
    ),
    "parallel.error.cpu_pipeline": (
        "pipeline stages (pp) cannot run on CPU: Paddle 3.3.1 crashes (segmentation fault) in the cross-stage reshard",
        "流水线阶段（pp）无法在 CPU 上运行：Paddle 3.3.1 在跨阶段 reshard 时崩溃（段错误）",
    ),
    "parallel.fix.cpu_pipeline": (
        "remove pp: to run on CPU; for GPU nodes set train.device: gpu and export the plan",
        "在 CPU 上运行请删除 pp:；面向 GPU 节点请设置 train.device: gpu 并导出该方案",
    ),
}
