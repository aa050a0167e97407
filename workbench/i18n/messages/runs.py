"""Run store and runner messages."""

MESSAGES: dict[str, tuple[str, str]] = {
    "runs.not_found": (
        "no run matches '{ref}' in {workspace}",
        "在 {workspace} 中找不到与 '{ref}' 匹配的运行",
    ),
    "runs.ambiguous": (
        "'{ref}' matches {count} runs: {runs} — give more of the run id",
        "'{ref}' 匹配到 {count} 个运行：{runs}——请给出更完整的运行 ID",
    ),
    "runs.damaged": ("damaged", "已损坏"),
    "runs.damaged.line": ("{run}: damaged: {reason}", "{run}：已损坏：{reason}"),
    "runs.damage.no_run_yaml": (
        "run.yaml is missing (its checkpoints can still be resumed with the config you pass to train)",
        "run.yaml 缺失（仍可用传给 train 的配置从其检查点续训）",
    ),
    "runs.damage.state_too_big": ("state.json is larger than {limit}", "state.json 大于 {limit}"),
    "runs.damage.state_unreadable": ("state.json is unreadable ({error})", "state.json 无法读取（{error}）"),
    "runs.damage.state_field": (
        "state.json field '{field}' ignored: {problem} (got {got})",
        "已忽略 state.json 字段 '{field}'：{problem}（实际为 {got}）",
    ),
    "runner.exit_attempted": (
        "the run's code called os._exit({code}), which would have ended the whole process without a result; the run was stopped as failed instead (return from build, or raise an exception)",
        "运行的代码调用了 os._exit({code})，这会在没有结果的情况下结束整个进程；已改为将该运行记为失败（请从 build 返回，或抛出异常）",
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
