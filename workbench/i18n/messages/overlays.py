"""Many runs in the monitor: the runs sidebar, the overlays, the baseline, the comparison table and
the plot cursor."""

MESSAGES: dict[str, tuple[str, str]] = {
    "ui.key.runs_sidebar": ("Runs", "运行列表"),
    "ui.key.filter_runs": ("Filter runs", "筛选运行"),
    "ui.key.toggle_overlay": ("Overlay on/off", "叠加/取消"),
    "ui.key.pin_baseline": ("Pin baseline", "设为基线"),
    "ui.key.align": ("Align step/samples", "按步数/样本对齐"),
    "ui.key.to_list": ("To the list", "回到列表"),
    "ui.key.cursor_left": ("Cursor left", "光标左移"),
    "ui.key.cursor_right": ("Cursor right", "光标右移"),
    "ui.key.cursor_far_left": ("Cursor 10 left", "光标左移 10 格"),
    "ui.key.cursor_far_right": ("Cursor 10 right", "光标右移 10 格"),
    "worker.compare_runs": ("listing the runs to compare", "列出可比较的运行"),
    "ui.runs_sidebar.title": ("Runs", "运行"),
    "ui.runs_sidebar.filter": ("filter: name, status, task, tag", "筛选：名称、状态、任务、标签"),
    "ui.runs_sidebar.hint": (
        "space: overlay · b: baseline · a: align · /: filter",
        "空格：叠加 · b：基线 · a：对齐 · /：筛选",
    ),
    "ui.runs_sidebar.count": (
        "{shown} of {total} {total:run|runs} · {overlaid} overlaid",
        "{shown}/{total} 个运行 · 叠加 {overlaid} 个",
    ),
    "ui.runs_sidebar.loading": ("reading the runs…", "正在读取运行…"),
    "ui.runs_sidebar.followed": ("shown", "当前"),
    "ui.overlay.cap": (
        "At most {count} runs share the axes: untick one first.",
        "同一坐标轴最多 {count} 个运行：请先取消一个。",
    ),
    "ui.overlay.followed": (
        "This is the run the monitor follows: it is always drawn.",
        "这是监控正在查看的运行：它总会被画出。",
    ),
    "ui.overlay.no_samples": (
        "{run} records no batch size: it is left out while runs are aligned by samples seen.",
        "{run} 未记录批大小：按已见样本数对齐时不画它。",
    ),
    "ui.overlay.cleared": (
        "{count} overlaid {count:run|runs} removed: a new run is shown.",
        "已移除 {count} 个叠加的运行：正在显示新的运行。",
    ),
    "ui.overlay.baseline": ("Baseline: {run}", "基线：{run}"),
    "ui.overlay.no_baseline": ("No baseline pinned.", "未设基线。"),
    "ui.compare.title": ("{metric} by run", "{metric}（按运行）"),
    "ui.compare.run": ("run", "运行"),
    "ui.compare.latest": ("latest", "最新"),
    "ui.compare.diff": ("Δ", "Δ"),
    "ui.compare.percent": ("Δ%", "Δ%"),
    "ui.compare.note": (
        "Δ: minus the baseline ★ at the last {axis} both reached",
        "Δ：减去基线 ★，取两者都到达的最后一个{axis}",
    ),
    "ui.compare.pin_hint": ("b in the runs list (r) pins a baseline", "在运行列表（r）中按 b 设基线"),
    "ui.axis.step": ("step", "步"),
    "ui.axis.samples": ("samples", "样本"),
}
