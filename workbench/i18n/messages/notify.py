"""Messages of the alerts that reach the user outside the TUI (``workbench.notify``): the desktop
notification's text and the ``on_alert`` hook's failure."""

MESSAGES: dict[str, tuple[str, str]] = {
    "worker.alerts": ("watching a run for the bell", "为提示音关注运行"),
    "notify.title": ("Paddle Workbench", "Paddle Workbench"),
    "notify.finished": ("run {name} finished at step {step}", "运行 {name} 已完成，第 {step} 步"),
    "notify.failed": ("run {name} failed at step {step}: {error}", "运行 {name} 在第 {step} 步失败：{error}"),
    "notify.alert": ("run {name}, step {step}: {message}", "运行 {name}，第 {step} 步：{message}"),
    "notify.hook.start_failed": (
        "the on_alert command could not start ({command}): {error}; later failures are not reported",
        "on_alert 命令无法启动（{command}）：{error}；之后的失败不再提示",
    ),
    "notify.hook.timeout": (
        "the on_alert command ran longer than {seconds} s and was ended ({command}); "
        "later failures are not reported",
        "on_alert 命令运行超过 {seconds} 秒，已被结束（{command}）；之后的失败不再提示",
    ),
    "notify.hook.exit": (
        "the on_alert command exited with {code} ({command}) {error}; later failures are not reported",
        "on_alert 命令以 {code} 退出（{command}）{error}；之后的失败不再提示",
    ),
}
