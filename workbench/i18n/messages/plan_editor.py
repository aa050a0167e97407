"""The plan editor on the user's own plans: opening a file, recent plans, unsaved edits, focus keys."""

MESSAGES: dict[str, tuple[str, str]] = {
    "ui.plan.key.open": ("open a plan", "打开方案"),
    "ui.plan.key.editor": ("edit the YAML", "编辑 YAML"),
    "ui.plan.key.leave_editor": ("leave the editor", "离开编辑器"),
    "ui.plan.open.title": ("Open a sharding plan (recent plans below)", "打开切分方案（下方为最近的方案）"),
    "ui.plan.open.hint": (
        "tab: complete the path · enter: open it (relative to {cwd}) · escape: cancel",
        "tab：补全路径 · enter：打开（相对于 {cwd}）· escape：取消",
    ),
    "ui.plan.open.unreadable": (
        "cannot open {path} as a plan: {error}",
        "无法将 {path} 作为方案打开：{error}",
    ),
    "ui.plan.opened": ("opened {path}", "已打开 {path}"),
    "ui.plan.unsaved.title": ("Unsaved edits", "未保存的修改"),
    "ui.plan.unsaved.question": (
        "{path} has edits that are not saved.",
        "{path} 有尚未保存的修改。",
    ),
    "ui.plan.unsaved.save": ("s  save them, then go on", "s  保存后继续"),
    "ui.plan.unsaved.discard": ("d  discard them, then go on", "d  放弃修改后继续"),
    "ui.plan.unsaved.cancel": ("escape  stay and keep editing", "escape  留下继续编辑"),
    "ui.plan.unsaved.key.save": ("save", "保存"),
    "ui.plan.unsaved.key.discard": ("discard", "放弃"),
    "ui.plan.unsaved.key.cancel": ("keep editing", "继续编辑"),
    "ui.cmd.open_plan": ("Open a sharding plan…", "打开切分方案…"),
    "ui.cmd.open_plan.help": (
        "Edit one of your plan files in the plan editor (recent plans offered)",
        "在方案编辑器中编辑你自己的方案文件（提供最近的方案）",
    ),
    "cli.tui.plan": (
        "Open the plan editor on this sharding plan file.",
        "用方案编辑器打开此切分方案文件。",
    ),
    "cli.tui.plan_missing": (
        "{path}: no such plan file (fix: give the path of an existing plan YAML, e.g. paddle-workbench tui --plan plans/tp.yaml)",
        "{path}：方案文件不存在（修正：给出已存在的方案 YAML 路径，例如 paddle-workbench tui --plan plans/tp.yaml）",
    ),
}
