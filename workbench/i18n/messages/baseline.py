"""The baseline: how it is chosen, ``runs pin`` / ``runs unpin``, and ``b`` in the runs list."""

MESSAGES: dict[str, tuple[str, str]] = {
    "baseline.pinned_note": ("(pinned)", "（已固定）"),
    "baseline.skip.attached": ("an attached kit log", "附加的套件日志"),
    "baseline.skip.demo": ("the numpy demo", "numpy 演示"),
    "baseline.skip.tracked": ("a track script", "track 脚本"),
    "baseline.skip.parallel": ("a parallel plan run", "并行方案运行"),
    "baseline.skip.no_model": (
        "no model fingerprint (model.json)",
        "没有模型指纹（model.json）",
    ),
    "baseline.skip.damaged": ("a damaged run folder", "损坏的运行目录"),
    "baseline.skip.unfinished": ("not finished", "未完成"),
    "cli.runs.pin.help": (
        "Pin RUN as the baseline of its model (without RUN: show the pins and the chosen baseline).",
        "将 RUN 固定为其模型的基线（不带 RUN：显示已固定的运行和当前基线）。",
    ),
    "cli.runs.unpin.help": (
        "Remove RUN's baseline pin (without RUN: every pin); the rule chooses again.",
        "移除 RUN 的基线固定（不带 RUN：移除全部）；重新按规则选择基线。",
    ),
    "cli.runs.pinned": (
        "pinned {run} as the baseline of its model ({model})",
        "已将 {run} 固定为其模型（{model}）的基线",
    ),
    "cli.runs.pinned_not_finished": (
        "{run} is {status}: only a finished run can be a baseline — pin one from 'paddle-workbench runs'",
        "{run} 状态为{status}：只有已完成的运行可以作为基线——从 'paddle-workbench runs' 中选择一个固定",
    ),
    "cli.runs.unpinned": ("unpinned {runs}", "已取消固定 {runs}"),
    "cli.runs.no_pins": ("no pinned baseline", "没有固定的基线"),
    "cli.runs.pin_row": ("pinned: {run} (model {model}, {time})", "已固定：{run}（模型 {model}，{time}）"),
    "cli.runs.baseline_row": ("baseline: {run} ({how})", "基线：{run}（{how}）"),
    "cli.runs.baseline_none": (
        "baseline: none yet — train one: paddle-workbench train CONFIG",
        "基线：尚无——先训练一个：paddle-workbench train CONFIG",
    ),
    "cli.runs.how_pinned": ("pinned", "已固定"),
    "cli.runs.how_rule": ("newest finished single-card run of its model", "该模型最新完成的单卡运行"),
    "cli.runs.skipped_row": ("  passed over {run}: {reason}", "  跳过 {run}：{reason}"),
    "cli.runs.model_none": ("no fingerprint", "无指纹"),
    "ui.runs.detail.pinned": (
        "pinned as the baseline of its model (b again unpins)",
        "已固定为其模型的基线（再按 b 取消）",
    ),
    "ui.runs.pinned": ("{run} is now the baseline of its model", "{run} 现为其模型的基线"),
    "ui.runs.unpinned": (
        "{run} is no longer pinned; the rule chooses the baseline",
        "{run} 已取消固定；按规则选择基线",
    ),
    "ui.runs.pin_not_finished": (
        "only a finished run can be a baseline ({run} is {status})",
        "只有已完成的运行可以作为基线（{run} 状态为{status}）",
    ),
}
