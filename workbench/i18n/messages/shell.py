"""Strings of the app shell: help, palette system entries, screenshots, quitting, themes."""

MESSAGES: dict[str, tuple[str, str]] = {
    "ui.key.palette": ("palette", "命令面板"),
    "ui.help.this_screen": ("This screen", "当前页面"),
    "ui.help.everywhere": ("Everywhere", "全局"),
    "ui.quit.how": ("Press q to quit (ctrl+q also works).", "按 q 退出（ctrl+q 也可以）。"),
    "ui.quit.how_title": ("Do you want to quit?", "要退出吗？"),
    "ui.palette.placeholder": ("Search for commands…", "搜索命令…"),
    "ui.palette.themes": ("Search for themes…", "搜索主题…"),
    "ui.sys.theme": ("Theme", "主题"),
    "ui.sys.theme.help": ("Change the colour theme", "切换配色主题"),
    "ui.sys.quit": ("Quit", "退出"),
    "ui.sys.quit.help": (
        "Quit the workbench (running jobs are asked to stop first)",
        "退出工作台（会先请求运行中的任务停止）",
    ),
    "ui.sys.keys": ("Keys", "按键"),
    "ui.sys.keys.show": (
        "Show a side panel with the keys of the focused widget",
        "在侧栏显示当前焦点控件的按键",
    ),
    "ui.sys.keys.hide": ("Hide the keys side panel", "隐藏按键侧栏"),
    "ui.sys.maximize": ("Maximize", "最大化"),
    "ui.sys.maximize.help": ("Maximize the focused panel", "最大化当前焦点面板"),
    "ui.sys.minimize": ("Minimize", "还原"),
    "ui.sys.minimize.help": ("Restore the maximized panel", "还原已最大化的面板"),
    "ui.sys.screenshot": ("Screenshot", "截图"),
    "ui.sys.screenshot.help": (
        "Save an SVG picture of the screen into {folder}",
        "将当前画面保存为 SVG 图片，存入 {folder}",
    ),
    "ui.screenshot.saved": ("Screenshot saved: {path}", "截图已保存：{path}"),
    "ui.screenshot.failed": (
        "Could not save the screenshot into {folder}: {error}",
        "无法将截图保存到 {folder}：{error}",
    ),
    "cli.theme.unknown": (
        "unknown theme '{name}' (choose one of: {choices})",
        "未知主题 '{name}'（可选：{choices}）",
    ),
}
