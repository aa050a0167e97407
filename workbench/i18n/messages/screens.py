"""Strings of the screens' workers, run detail, resume, quit report, exports and the monitor's states."""

MESSAGES: dict[str, tuple[str, str]] = {
    # What a background task was doing: the title of its error panel when it fails.
    "worker.unnamed": ("a background task", "一个后台任务"),
    "worker.attach": ("reading the run's history", "读取运行历史"),
    "worker.train": ("preparing the training run", "准备训练运行"),
    "worker.paddle": ("loading Paddle", "加载 Paddle"),
    "worker.themes": ("checking the theme files", "检查主题文件"),
    "worker.modes": ("loading the modes' screens", "加载各模式的界面"),
    "worker.demo": ("creating the demo runs", "创建演示运行"),
    "worker.quit": ("stopping the runs before quitting", "退出前停止运行"),
    "worker.runs_list": ("listing the runs", "列出运行"),
    "worker.run_detail": ("reading the run's details", "读取运行详情"),
    "worker.monitor_log": ("reading the run's log", "读取运行日志"),
    "worker.overlay": ("loading the run to overlay", "加载要叠加的运行"),
    "worker.envcheck": ("running the environment checks", "运行环境检查"),
    "worker.export": ("writing the report", "写入报告"),
    "worker.system": ("sampling CPU, memory and GPUs", "采样 CPU、内存与 GPU"),
    "worker.checkpoints": ("listing the checkpoints", "列出检查点"),
    "worker.compare": ("comparing training and inference", "对比训练与推理"),
    # Quitting while training: printed after the terminal is restored.
    "ui.quit.stopped_run": (
        "Stopped run {run} ({status}) at step {step}.",
        "已停止运行 {run}（{status}），停在第 {step} 步。",
    ),
    "ui.quit.detached": (
        "Left running: {run} (its keeper is process {pid}); follow it with: paddle-workbench attach {run}",
        "保持运行：{run}（守护进程 {pid}）；跟踪它：paddle-workbench attach {run}",
    ),
    "ui.quit.ended": (
        "Ended run {run}: it did not stop within {seconds} s of the request.",
        "已结束运行 {run}：请求停止后 {seconds} 秒内未停止。",
    ),
    "ui.quit.checkpoint": ("  checkpoint: {path} (step {step})", "  检查点：{path}（第 {step} 步）"),
    "ui.quit.resume": ("  continue with: {command}", "  继续训练：{command}"),
    "ui.quit.no_checkpoint": (
        "  no checkpoint was written: a new run starts from step 0",
        "  未写入检查点：新的运行将从第 0 步开始",
    ),
    # Runs: resume and the detail pane.
    "ui.key.resume": ("Resume run", "继续运行"),
    "ui.runs.resuming": ("Resuming {run} into a new linked run…", "正在从 {run} 继续，创建关联的新运行…"),
    "ui.runs.cannot_resume": (
        "{run} was not started from a config file, so it cannot be resumed here.",
        "{run} 不是由配置文件启动的，无法在这里继续。",
    ),
    "ui.runs.not_resumable": (
        "Only a stopped, interrupted or failed run can be resumed; this one is {status}.",
        "只有已取消、已中断或失败的运行才能继续；该运行状态为 {status}。",
    ),
    "ui.runs.detail.started": ("started: {time}", "开始时间：{time}"),
    "ui.runs.detail.duration": ("duration: {duration}", "用时：{duration}"),
    "ui.runs.detail.step": ("last step: {step}", "最后一步：{step}"),
    "ui.runs.detail.origin_other": (
        "started outside this session: the CLI or another workbench (pid {pid})",
        "在本会话之外启动：命令行或另一个工作台（pid {pid}）",
    ),
    "ui.runs.detail.origin_here": ("started in this session", "在本会话中启动"),
    "ui.runs.detail.config": ("config: {path}", "配置：{path}"),
    "ui.runs.detail.resumed_from": ("resumed from: {run} (step {step})", "继续自：{run}（第 {step} 步）"),
    "ui.runs.detail.export": ("export: {path}", "导出：{path}"),
    "ui.runs.detail.resume": ("resume (u, or): {command}", "继续（按 u，或执行）：{command}"),
    # Environment: partial reports and the clipboard.
    "envcheck.md.partial": (
        "Partial report — {count} {count:check|checks} had not run when it was written: {checks}.",
        "部分报告 —— 写入时仍有 {count} 项检查未运行：{checks}。",
    ),
    "envscreen.exported_partial": (
        "{count} {count:check was|checks were} still running: the file says it is partial and lists them.",
        "仍有 {count} 项检查在运行：文件已注明为部分报告并列出它们。",
    ),
    "envscreen.copied_osc52": (
        "Sent to the clipboard through the terminal (OSC 52). Under tmux it only arrives with "
        "`set -g set-clipboard on`. Also saved to {path}",
        "已通过终端（OSC 52）发送到剪贴板。在 tmux 中需要 `set -g set-clipboard on` 才会送达。"
        "同时已保存到 {path}",
    ),
    # Monitor.
    "ui.monitor.no_run_selected": (
        "No run selected — open one from Runs (1), or start one there with t (train) or d (demo).",
        "未选择运行 —— 请在“运行”（1）中打开一个，或在那里按 t（训练）或 d（演示）启动。",
    ),
    "ui.monitor.not_running": (
        "This run is {status}: there is nothing to stop, pause or checkpoint.",
        "该运行状态为 {status}：没有可停止、暂停或保存检查点的内容。",
    ),
    "runs.interrupted_attached": (
        "interrupted: the writing process ended without a final event (killed, or the machine went down)",
        "已中断：写入该运行的进程未留下结束事件就退出了（被强制结束，或机器宕机）",
    ),
    "ui.monitor.x_steps_label": ("x: optimizer step", "横轴：优化步数"),
    "ui.monitor.x_samples_label": (
        "x: samples seen (step × batch size)",
        "横轴：已见样本数（步数 × 批大小）",
    ),
    "ui.monitor.x_no_samples": (
        "This run records no batch size, so its x axis stays in optimizer steps.",
        "该运行未记录批大小，横轴仍为优化步数。",
    ),
    "ui.train.missing": ("No such file: {path}", "文件不存在：{path}"),
    "ui.key.complete": ("Complete path", "补全路径"),
    "ui.train.hint_tab": (
        "tab: complete the path · enter: train it (relative to {cwd}) · escape: cancel",
        "tab：补全路径 · enter：开始训练（相对于 {cwd}）· escape：取消",
    ),
}
