"""Release verification and the path dashboard: item evidence, the ``verify`` command, the home screen's path."""

MESSAGES: dict[str, tuple[str, str]] = {
    # evidence (workbench.verify.layers)
    "verify.evidence.needs_verify": (
        "checked by 'paddle-workbench verify' (loads Paddle); no stored verdict yet",
        "由 'paddle-workbench verify' 检查（会加载 Paddle）；尚无保存的结论",
    ),
    "verify.evidence.no_check": ("no stored environment check", "没有保存的环境检查结果"),
    "verify.evidence.check_ok": (
        "{count} {count:check|checks}, none failed ({path})",
        "{count} 项检查，无失败（{path}）",
    ),
    "verify.evidence.check_failed": ("failed: {ids} ({path})", "失败：{ids}（{path}）"),
    "verify.evidence.no_tensor_op": (
        "the stored check has no tensor-op result",
        "保存的检查结果中没有张量运算结果",
    ),
    "verify.evidence.no_baseline": ("no finished single-card run yet", "还没有完成的单卡训练"),
    "verify.evidence.baseline": ("run {run}, last step {step}", "运行 {run}，最后一步 {step}"),
    "verify.evidence.no_parallel": ("no finished parallel run yet", "还没有完成的并行训练"),
    "verify.evidence.parallel": ("run {run}", "运行 {run}"),
    "verify.evidence.no_parity": ("no parity report yet", "还没有一致性报告"),
    "verify.evidence.parity": (
        "max |Δloss| {diff} (tolerance {tol}), first divergence at step {first} ({path})",
        "最大 |Δloss| {diff}（容差 {tol}），首次偏离步 {first}（{path}）",
    ),
    "verify.evidence.no_compare": ("no compare report for the baseline yet", "基线还没有对比报告"),
    "verify.evidence.compare": (
        "{paths} paths, worst |Δ| {diff} (tolerance {tol}) ({path})",
        "{paths} 条路径，最大 |Δ| {diff}（容差 {tol}）（{path}）",
    ),
    "verify.evidence.no_matrix_row": (
        "no row for {target} in {path}",
        "{path} 中没有 {target} 的记录",
    ),
    "verify.evidence.matrix": (
        "{target}: {ok} of {rows} rows pass (newest: {hardware}, Paddle {paddle})",
        "{target}：{rows} 行中 {ok} 行通过（最新：{hardware}，Paddle {paddle}）",
    ),
    "verify.evidence.no_data_dir": ("the baseline recorded no data folder", "基线没有记录数据目录"),
    "verify.evidence.data_missing": ("the data folder is gone: {path}", "数据目录不存在：{path}"),
    "verify.evidence.lint_failed": ("{count} {count:error|errors}: {first}", "{count} 个错误：{first}"),
    "verify.evidence.data_drift": (
        "{path} changed since run {run} trained on it (fingerprint differs)",
        "{path} 在运行 {run} 训练之后被修改（指纹不同）",
    ),
    "verify.evidence.lint_ok": (
        "{path}: no errors, {warnings} warnings",
        "{path}：无错误，{warnings} 个警告",
    ),
    "verify.evidence.no_checkpoint": ("run {run} has no checkpoint", "运行 {run} 没有检查点"),
    "verify.evidence.checkpoint_bad": ("{problems}", "{problems}"),
    "verify.evidence.checkpoint_ok": (
        "{path}: {files} {files:file matches|files match} the sha256 manifest",
        "{path}：{files} 个文件与 sha256 清单一致",
    ),
    "verify.evidence.load_failed": ("does not load: {error}", "无法加载：{error}"),
    "verify.evidence.load_ok": ("{path} loads with paddle.load", "{path} 可用 paddle.load 加载"),
    "verify.evidence.no_export": ("run {run} has no export", "运行 {run} 没有导出模型"),
    "verify.evidence.exports_bad": ("{problems}", "{problems}"),
    "verify.evidence.exports_ok": (
        "{count} {count:export matches its manifest|exports match their manifests}",
        "{count} 个导出与清单一致",
    ),
    "verify.evidence.logs_missing": ("missing {files} in {run}", "{run} 中缺少 {files}"),
    "verify.evidence.logs_ok": ("{files} of {run}", "{run} 的 {files}"),
    "verify.evidence.repro_missing": ("{path} does not record: {keys}", "{path} 未记录：{keys}"),
    "verify.evidence.repro_ok": (
        "{path} records config, seeds, versions and the dataset fingerprint",
        "{path} 记录了配置、随机种子、版本和数据集指纹",
    ),
    "verify.evidence.no_runs": ("no runs or reports yet", "还没有运行或报告"),
    "verify.evidence.perms_loose": (
        "{count} {count:path|paths} readable by others: {paths}",
        "{count} 个路径可被他人读取：{paths}",
    ),
    "verify.evidence.perms_ok": (
        "{count} {count:folder|folders}, owner-only (0700/0600)",
        "{count} 个目录，仅属主可访问（0700/0600）",
    ),
    # the command (workbench.cli.verify)
    "verify.cli.opt.junit": (
        "Also write JUnit XML to FILE (for CI).",
        "同时将 JUnit XML 写入 FILE（供 CI 使用）。",
    ),
    "verify.cli.opt.strict": (
        "Count items without evidence (not run) as failures.",
        "将没有证据（未运行）的项目计为失败。",
    ),
    "verify.cli.col.layer": ("layer", "层"),
    "verify.cli.col.item": ("item", "项目"),
    "verify.cli.col.status": ("status", "状态"),
    "verify.cli.col.evidence": ("evidence / command", "证据 / 命令"),
    "verify.cli.summary": (
        "{passed} pass, {failed} fail, {not_run} not run — report: {path}",
        "{passed} 项通过，{failed} 项失败，{not_run} 项未运行 — 报告：{path}",
    ),
    "verify.cli.verdict_ok": ("Release checklist: no failures.", "发布检查清单：没有失败项。"),
    "verify.cli.verdict_fail": ("Release checklist: failures above.", "发布检查清单：见上方失败项。"),
    "verify.cli.junit_failed": ("cannot write {path}: {error}", "无法写入 {path}：{error}"),
    "verify.cli.junit_exists": (
        "--junit {path}: the file already exists, and verify never replaces a file; choose a new name "
        "(or remove it first)",
        "--junit {path}：文件已存在，verify 从不覆盖文件；请换一个新文件名（或先删除它）",
    ),
    "verify.status.pass": ("pass", "通过"),
    "verify.status.fail": ("fail", "失败"),
    "verify.status.not run": ("not run", "未运行"),
    "verify.config.kind": ("verify config (targets:)", "验证配置（targets:）"),
    # the path dashboard (workbench.verify.path, screens/runs.py)
    "path.title": ("Path", "路线"),
    "path.verify_failed": (
        "failed: {ids} (v lists each with its fix)",
        "失败：{ids}（按 v 查看各项及修复方法）",
    ),
    "path.failed_items": ("failed ({count}):", "失败（{count}）："),
    "path.not_run_items": ("no evidence yet ({count}):", "尚无证据（{count}）："),
    "path.fix": ("fix: {command}", "修复：{command}"),
    "path.run": ("run: {command}", "运行：{command}"),
    "ui.key.verify": ("Verify", "验证"),
    "ui.runs.verify_started": ("running the release checklist…", "正在运行发布检查清单…"),
    "worker.path": ("reading the path", "读取路线"),
    "worker.verify": ("running the release checklist", "运行发布检查清单"),
    "path.step.environment": ("environment", "环境"),
    "path.step.baseline": ("baseline", "基线训练"),
    "path.step.parallel": ("parallel", "并行训练"),
    "path.step.parity": ("parity", "并行一致性"),
    "path.step.inference": ("inference parity", "推理一致性"),
    "path.step.hardware": ("hardware", "硬件"),
    "path.step.dataset": ("dataset", "数据集"),
    "path.step.verify": ("verify", "发布验证"),
    "path.state.done": ("done", "完成"),
    "path.state.failed": ("failed", "失败"),
    "path.state.not run": ("not run", "未运行"),
    "path.loading": ("reading the workspace…", "正在读取工作区…"),
    "path.next": ("next: {command}", "下一步：{command}"),
    "path.key": ("[{key}] {action}", "[{key}] {action}"),
    "path.verify_done": (
        "{passed} pass, {failed} fail, {not_run} not run",
        "{passed} 通过，{failed} 失败，{not_run} 未运行",
    ),
}
