"""Messages of ``attach`` (the kits' own training logs as linked runs) and of the monitor's chart grid."""

MESSAGES: dict[str, tuple[str, str]] = {
    "cli.attach.help": (
        "Follow a PaddleOCR / PaddleClas / PaddleDetection / PaddleX training log, or VisualDL records, as "
        "a read-only run linked into the workspace (never copied).",
        "以只读运行的方式跟踪 PaddleOCR / PaddleClas / PaddleDetection / PaddleX 的训练日志或 VisualDL "
        "记录文件（链接进工作区，不复制）。",
    ),
    "cli.attach.format": (
        "the log's format when it cannot be recognised (paddleocr, paddleclas, paddledetection, paddlex, visualdl)",
        "无法自动识别时指定日志格式（paddleocr、paddleclas、paddledetection、paddlex、visualdl）",
    ),
    "cli.attach.linked": ("linked {path} as run {run}", "已将 {path} 链接为运行 {run}"),
    "cli.attach.step": ("step {step}  {values}", "第 {step} 步  {values}"),
    "cli.attach.ended": ("{run}: {status}", "{run}：{status}"),
    "attach.no_file": (
        "{path}: no such file — give the path of the kit's training log (e.g. output/train.log)",
        "{path}：文件不存在——请给出套件训练日志的路径（例如 output/train.log）",
    ),
    "attach.unreadable": ("{path}: cannot be read ({error})", "{path}：无法读取（{error}）"),
    "attach.unknown_format": (
        "unknown log format '{format}' (known: {choices})",
        "未知的日志格式 '{format}'（可用：{choices}）",
    ),
    "attach.unknown_log": (
        "{path}: not a training log this version reads (known: {choices}); if it is one, name it "
        "with --format",
        "{path}：不是本版本能读取的训练日志（可用：{choices}）；如确实是，请用 --format 指定",
    ),
    "attach.format.paddleocr": ("PaddleOCR training log", "PaddleOCR 训练日志"),
    "attach.format.paddleclas": ("PaddleClas training log", "PaddleClas 训练日志"),
    "attach.format.paddledetection": ("PaddleDetection training log", "PaddleDetection 训练日志"),
    "attach.format.paddlex": ("PaddleX training log", "PaddleX 训练日志"),
    "attach.format.visualdl": ("VisualDL records", "VisualDL 记录文件"),
    "attach.needs_extra": (
        "{path}: reading {extra} records needs the optional package: pip install 'paddle-workbench[{extra}]'",
        "{path}：读取 {extra} 记录需要可选依赖：pip install 'paddle-workbench[{extra}]'",
    ),
    "ui.key.attach_log": ("Attach a kit log", "附加套件日志"),
    "ui.attach.title": ("Follow a kit's training log", "跟踪套件训练日志"),
    "ui.attach.hint": (
        "tab: complete the path · enter: link and follow it (relative to {cwd}) · escape: cancel",
        "tab：补全路径 · enter：链接并跟踪（相对于 {cwd}）· escape：取消",
    ),
    "ui.attach.failed": ("Cannot attach {path}", "无法附加 {path}"),
    "runs.kind.linked": ("linked log", "链接日志"),
    "ui.key.grid": ("All charts", "全部图表"),
    "ui.key.enlarge": ("Enlarge chart", "放大图表"),
    "ui.chart.throughput": ("throughput", "吞吐"),
    "ui.chart.step_time": ("step time", "步耗时"),  # the legend (bottom border) names data wait / compute
    "ui.chart.memory": ("memory", "内存"),
    "ui.key.smoothing": ("Smoothing", "平滑"),
    "ui.key.log_y": ("Log scale", "对数坐标"),
    "ui.key.window": ("Last N steps", "最近 N 步"),
    "ui.chart.off": ("off", "关"),
    "ui.chart.whole_run": ("whole run", "整个运行"),
    "ui.chart.last_steps": ("last {steps} steps", "最近 {steps} 步"),
    "ui.chart.scale_log": ("log", "对数"),
    "ui.chart.scale_linear": ("linear", "线性"),
    "ui.chart.smoothing_on": ("smoothing {weight}", "平滑 {weight}"),
    "ui.chart.log_y": ("log y", "对数纵轴"),
    "ui.chart.view_brief": ("charts: {settings}", "图表：{settings}"),
    "ui.chart.view": (
        "charts: smoothing {smoothing} · {scale} y · {window}",
        "图表：平滑 {smoothing} · {scale} 纵轴 · {window}",
    ),
}
