"""Run store and runner messages."""

MESSAGES: dict[str, tuple[str, str]] = {
    "runs.not_found": (
        "no run matches '{ref}' in {workspace}",
        "在 {workspace} 中找不到与 '{ref}' 匹配的运行",
    ),
    "runs.none": ("no runs yet in {workspace}", "{workspace} 中还没有运行记录"),
    "runs.col.run": ("Run", "运行"),
    "runs.col.name": ("Name", "名称"),
    "runs.col.status": ("Status", "状态"),
    "runs.col.started": ("Started", "开始时间"),
    "runs.col.step": ("Last step", "最后步数"),
    "runs.col.kind": ("Kind", "类型"),
    "runs.kind.in_process": ("in-process", "进程内"),
    "runs.kind.launched": ("launched", "多进程"),
    "runs.kind.attached": ("attached", "附加"),
    "runs.run_dir": ("run folder: {path}", "运行目录：{path}"),
}
