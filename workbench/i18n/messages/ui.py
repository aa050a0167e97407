"""Terminal UI strings."""

MESSAGES: dict[str, tuple[str, str]] = {
    "mode.runs": ("Runs", "运行"),
    "mode.env": ("Environment", "环境"),
    "mode.plan": ("Sharding plan", "切分方案"),
    "mode.monitor": ("Monitor", "监控"),
    "mode.compare": ("Inference parity", "推理一致性"),
    "mode.wizard": ("Troubleshoot", "故障排查"),
    "mode.runs.what": ("past and live runs of the workspace", "工作区中的历史与进行中的运行"),
    "mode.env.what": (
        "does Paddle work on this box, and what to type if not",
        "本机 Paddle 是否可用，不可用时该输入什么",
    ),
    "mode.plan.what": (
        "mark sharded tensors on a ProcessMesh, validate, launch",
        "在 ProcessMesh 上标注切分张量、校验并启动",
    ),
    "mode.monitor.what": (
        "live curves, metrics, events and logs of a run",
        "运行的实时曲线、指标、事件与日志",
    ),
    "mode.compare.what": (
        "dygraph vs jit.load vs the inference predictor",
        "动态图、jit.load 与推理预测器的对比",
    ),
    "mode.wizard.what": ("guided fixes for the common failures", "常见故障的引导式修复"),
    "ui.key.help": ("Help", "帮助"),
    "ui.key.quit": ("Quit", "退出"),
    "ui.key.close": ("Close", "关闭"),
    "ui.key.open": ("Open in monitor", "在监控中打开"),
    "ui.key.refresh": ("Refresh", "刷新"),
    "ui.key.demo": ("Demo run", "演示运行"),
    "ui.key.train": ("Train config", "按配置训练"),
    "ui.cmd.train": ("Train from a config…", "按配置训练…"),
    "ui.cmd.train.help": (
        "validate a training YAML and run it in process, like `train`",
        "校验训练 YAML 并在进程内运行，与 `train` 相同",
    ),
    "ui.train.title": ("Train from a config", "按配置训练"),
    "ui.train.hint": (
        "enter: train this file (relative to the current folder) · escape: cancel",
        "enter：训练该文件（相对于当前目录）· escape：取消",
    ),
    "ui.train.preparing": (
        "Checking {config} (demo data is generated on first use)…",
        "正在检查 {config}（首次使用时会生成演示数据）…",
    ),
    "ui.train.invalid": ("Cannot train {config}", "无法训练 {config}"),
    "ui.key.demo_fail": ("Failing demo", "失败演示"),
    "ui.key.stop": ("Stop run", "停止运行"),
    "ui.key.pause": ("Pause/resume", "暂停/继续"),
    "ui.key.checkpoint": ("Checkpoint now", "立即保存检查点"),
    "ui.key.overlay": ("Overlay run", "叠加运行"),
    "ui.key.x_axis": ("Steps/samples", "步数/样本数"),
    "ui.key.prev_metric": ("Prev metric", "上一个指标"),
    "ui.key.next_metric": ("Next metric", "下一个指标"),
    "ui.key.back": ("Back to runs", "返回运行列表"),
    "ui.header.workspace": ("workspace {path}", "工作区 {path}"),
    "ui.header.active_run": ("run {run}", "运行 {run}"),
    "ui.header.no_active_run": ("no active run", "无活动运行"),
    "ui.paddle.loading": ("Paddle: loading…", "Paddle：加载中…"),
    "ui.paddle.ready": ("Paddle {version}", "Paddle {version}"),
    "ui.paddle.missing": ("Paddle: not importable", "Paddle：无法导入"),
    "ui.theme.unknown": (
        "theme '{name}' is not known; using the default",
        "未知主题 '{name}'，已使用默认主题",
    ),
    "ui.error.worker": ("A background task failed: {name}", "后台任务失败：{name}"),
    "ui.error.close_hint": ("escape: close — the workbench keeps running", "escape：关闭 —— 工作台仍在运行"),
    "ui.crashed": (
        "The workbench stopped because of an internal error; everything it printed is in {path} (last lines below).",
        "工作台因内部错误而退出；它输出的全部内容见 {path}（最后几行如下）。",
    ),
    "ui.quit.title": ("Quit while training?", "训练尚在进行，确定退出？"),
    "ui.quit.running": (
        "Still running: {runs}. Runs started with `paddle-workbench train` in another terminal are not affected.",
        "仍在运行：{runs}。在其他终端用 `paddle-workbench train` 启动的运行不受影响。",
    ),
    "ui.quit.choice.stop": (
        "s: stop them and quit — each stops after its current step and saves a checkpoint "
        "(`train --resume` continues); what has not stopped within seconds is ended.",
        "s：停止并退出 —— 每个运行在当前步结束后停止并保存检查点（可用 `train --resume` 继续）；"
        "数秒内未停止的将被强制结束。",
    ),
    "ui.quit.choice.detach": (
        "d: leave them running and quit — plan runs go on in processes of their own; follow one later with "
        "`paddle-workbench attach RUN`. Runs training inside the workbench cannot outlive it: they are stopped.",
        "d：保持运行并退出 —— 分布式计划运行在各自的进程中继续；之后可用 `paddle-workbench attach RUN` 跟踪。"
        "在工作台内训练的运行无法在其退出后继续：它们会被停止。",
    ),
    "ui.quit.choice.cancel": ("n / escape: do not quit", "n / escape：不退出"),
    "ui.quit.key.stop": ("Stop and quit", "停止并退出"),
    "ui.quit.key.detach": ("Leave running", "保持运行"),
    "ui.quit.key.cancel": ("Cancel", "取消"),
    "ui.quit.leaving": ("Leaving the plan runs running, then quitting…", "保持分布式计划运行，随后退出…"),
    "ui.quit.stopping": ("Stopping the runs, then quitting…", "正在停止运行，随后退出…"),
    "ui.too_small": (
        "The terminal is {current_width}×{current_height}; the workbench needs at least {width}×{height}.\n"
        "Enlarge the window (or make the font smaller). Press q or ctrl+c to quit.",
        "终端当前为 {current_width}×{current_height}；工作台至少需要 {width}×{height}。\n"
        "请放大窗口（或调小字体）。按 q 或 ctrl+c 退出。",
    ),
    "ui.help.title": ("Paddle Workbench — keys", "Paddle 工作台 —— 按键"),
    "ui.help.col.key": ("Key", "按键"),
    "ui.help.col.action": ("Action", "操作"),
    "ui.help.col.mode": ("Mode", "模式"),
    "ui.help.col.what": ("What it shows", "内容"),
    "ui.help.modes": ("switch mode (the modes are listed below)", "切换模式（模式见下表）"),
    "ui.help.palette": ("command palette: every action by name", "命令面板：按名称查找所有操作"),
    "ui.help.footer": (
        "↑ ↓ PgUp PgDn Home End: scroll · ? / escape / q: close",
        "↑ ↓ PgUp PgDn Home End：滚动 · ? / escape / q：关闭",
    ),
    "ui.cmd.go": ("Go to: {mode}", "前往：{mode}"),
    "ui.cmd.demo": ("Start a demo run", "启动演示运行"),
    "ui.cmd.demo.help": (
        "a small numpy job that shows the monitor at work",
        "一个小型 numpy 任务，用来演示监控界面",
    ),
    "ui.cmd.demo_fail": ("Start a demo run that fails", "启动会失败的演示运行"),
    "ui.cmd.demo_fail.help": (
        "raises at step 40: see how a failed run looks",
        "在第 40 步抛出异常：查看失败运行的样子",
    ),
    "ui.cmd.help": ("Show keys and modes", "显示按键与模式"),
    "ui.cmd.help.help": ("the help screen", "帮助页面"),
    "ui.runs.select": ("Select a run to see its details.", "选择一个运行以查看详情。"),
    "ui.runs.empty_hint": (
        "Start one: press t to train a sample config, d for a demo run, or run "
        "`paddle-workbench train CONFIG` in another pane (it shows up here live).",
        "开始一个运行：按 t 训练示例配置，按 d 启动演示，或在另一个窗格执行 "
        "`paddle-workbench train CONFIG`（会实时出现在这里）。",
    ),
    "ui.runs.detail.id": ("run {run}", "运行 {run}"),
    "ui.runs.detail.status": ("status: {status}", "状态：{status}"),
    "ui.runs.detail.kind": ("kind: {kind}", "类型：{kind}"),
    "ui.runs.detail.latest": ("latest: {values}", "最新：{values}"),
    "ui.runs.detail.error": ("error: {error}", "错误：{error}"),
    "ui.monitor.no_data": ("waiting for the first metrics…", "等待第一批指标…"),
    "ui.monitor.step": ("step {step}", "第 {step} 步"),
    "ui.monitor.step_of": ("step {step}/{total}", "第 {step}/{total} 步"),
    "ui.monitor.eta": ("ETA {eta}", "预计剩余 {eta}"),
    "ui.monitor.x_samples": ("x axis: samples seen", "横轴：已见样本数"),
    "ui.monitor.not_controllable": (
        "This run belongs to another process: it can be watched here, not stopped, paused or checkpointed "
        "(use Ctrl-C in its own terminal).",
        "该运行属于其他进程：这里只能查看，不能停止、暂停或保存检查点（请在它自己的终端按 Ctrl-C）。",
    ),
    "ui.monitor.checkpoint_requested": (
        "A checkpoint will be saved after the current step.",
        "将在当前步结束后保存检查点。",
    ),
    "ui.monitor.overlay_title": (
        "Overlay which run? (o again removes the overlays; r: the runs list, for several)",
        "叠加哪个运行？（再按 o 取消叠加；r：运行列表，可选多个）",
    ),
    "ui.picker.none": ("No other runs in this workspace.", "该工作区没有其他运行。"),
    "ui.picker.hint": ("enter: choose · escape: cancel", "enter：选择 · escape：取消"),
    "ui.monitor.metric": ("metric", "指标"),
    "ui.monitor.value": ("value", "数值"),
    "ui.monitor.event.checkpoint": ("✓ checkpoint at step {step}", "✓ 第 {step} 步检查点"),
    "ui.monitor.event.alert": ("⚠ {kind}: {message}", "⚠ {kind}：{message}"),
    "ui.monitor.failed": ("Run failed: {error}", "运行失败：{error}"),
    "ui.monitor.stopping": ("Stopping after the current step…", "将在当前步结束后停止…"),
}
