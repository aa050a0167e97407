"""Distributed checkpoints of plan runs: resume, reshard and merge to a single card."""

MESSAGES: dict[str, tuple[str, str]] = {
    "parallel.cli.opt.resume": (
        "continue from a distributed checkpoint: latest (this plan's newest run), a run or a "
        "dist_checkpoints/step-N folder; another plan or rank count reshards it",
        "从分布式检查点继续：latest（本方案最新的运行）、某个运行或 dist_checkpoints/step-N 目录；"
        "换方案或进程数时会重新切分",
    ),
    "parallel.resume.from": (
        "resuming from {checkpoint} (step {step})",
        "从 {checkpoint} 继续（第 {step} 步）",
    ),
    "parallel.resume.reshard": (
        "resharding: the checkpoint of step {step} was saved by {saved}; this run is {now}. Every tensor "
        "is read from its saved shards and split as this plan places it.",
        "重新切分：第 {step} 步的检查点由 {saved} 保存；本次运行为 {now}。每个张量从保存的分片读出，"
        "再按本方案的放置方式切分。",
    ),
    "parallel.resume.not_dist": (
        "{path} is not a verified distributed checkpoint of a plan run",
        "{path} 不是经过校验的方案运行分布式检查点",
    ),
    "parallel.resume.no_latest": (
        "no run of plan {name} in {workspace} has a verified distributed checkpoint; fix: name the run "
        "with --resume RUN",
        "{workspace} 中方案 {name} 的运行都没有经过校验的分布式检查点；修复：用 --resume RUN 指定运行",
    ),
    "parallel.resume.none": (
        "{run} has no verified distributed checkpoint (dist_checkpoints/step-N); fix: set "
        "checkpoint.every in the training config, or resume another run",
        "{run} 没有经过校验的分布式检查点（dist_checkpoints/step-N）；修复：在训练配置中设置 "
        "checkpoint.every，或从其他运行继续",
    ),
    "parallel.resume.mismatch": (
        "{checkpoint} does not fit this model: missing {missing}; not in the model {unused}",
        "{checkpoint} 与该模型不符：缺少 {missing}；模型中没有 {unused}",
    ),
    "parallel.cli.merge.help": (
        "Merge a plan run's distributed checkpoint into a single-card checkpoint and export, so "
        "compare and serve take the run.",
        "将方案运行的分布式检查点合并为单卡检查点并导出，使 compare 和 serve 可以使用该运行。",
    ),
    "parallel.cli.opt.step": (
        "the checkpoint step to merge (default: the newest that verifies)",
        "要合并的检查点步数（默认：最新且校验通过的）",
    ),
    "parallel.merge.done": (
        "merged step {step} of {run}: single-card checkpoint {checkpoint}",
        "已合并 {run} 的第 {step} 步：单卡检查点 {checkpoint}",
    ),
    "parallel.merge.exported": ("export: {path}", "导出：{path}"),
    "parallel.merge.export_failed": (
        "the merged checkpoint is saved but the export failed: {error}",
        "合并后的检查点已保存，但导出失败：{error}",
    ),
    "parallel.merge.no_step": (
        "{run} has no distributed checkpoint of step {step} (it has: {steps})",
        "{run} 没有第 {step} 步的分布式检查点（已有：{steps}）",
    ),
    "parallel.merge.not_plan_run": (
        "{run} is not a plan run (no parallel section in run.yaml); fix: merge a run started by plan run",
        "{run} 不是方案运行（run.yaml 中没有 parallel 部分）；修复：合并由 plan run 启动的运行",
    ),
    "parallel.merge.needed": (
        "{run} is a plan run: its checkpoints are distributed; fix: paddle-workbench plan merge {ref}, "
        "then compare it",
        "{run} 是方案运行，其检查点是分布式的；修复：先运行 paddle-workbench plan merge {ref}，再进行比较",
    ),
    "parallel.merge.failed": ("cannot merge {run}: {error}", "无法合并 {run}：{error}"),
}
