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
    "runner.exit.signal": ("killed by {name}{hint}", "被 {name} 终止{hint}"),
    "runner.exit.hint.segfault": (" (segmentation fault)", "（段错误）"),
    "runner.exit.hint.killed": (" (killed)", "（被强制结束）"),
    "runner.exit.hint.aborted": (" (aborted)", "（异常中止）"),
    "runner.exit.code": ("exit code {code}", "退出码 {code}"),
    "runner.exit.unknown": (
        "ended without a final event or exit status",
        "结束时没有留下最终事件或退出状态",
    ),
    "runner.rank_failed": ("rank {rank}: {how}", "进程 {rank}：{how}"),
    "runner.rank_consequences": (
        "rank(s) {ranks} then failed as a consequence, not a cause ({what})",
        "进程 {ranks} 随后因此失败，是结果而非原因（{what}）",
    ),
    "runner.rank_last_step": ("last step rank {rank} logged: {step}", "进程 {rank} 记录的最后一步：{step}"),
    "runner.rank_log": (
        "last lines of rank {rank}'s log (workerlog.{rank}):",
        "进程 {rank} 日志的最后几行（workerlog.{rank}）：",
    ),
    "runner.rank_consequence_log": (
        "rank {rank} ({how}) — a consequence; its last lines:",
        "进程 {rank}（{how}）——是结果；其最后几行：",
    ),
    "runner.track_rank_gone": (
        "ended without a final event and its process is gone (killed or crashed; see its workerlog)",
        "结束时没有最终事件且其进程已不存在（被结束或崩溃；请查看其 workerlog）",
    ),
    "runner.stop_timeout": (
        "the job did not stop within {seconds} s of the request; every process of it was killed",
        "请求停止后 {seconds} 秒内作业未结束；已强制结束其全部进程",
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
