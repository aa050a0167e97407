"""Configuration loading and validation messages."""

MESSAGES: dict[str, tuple[str, str]] = {
    "config.not_found": ("file not found", "文件不存在"),
    "config.not_found.hint": (
        "check the path; paths are relative to the current folder",
        "请检查路径；路径相对于当前目录",
    ),
    "config.unreadable": ("cannot read the file: {error}", "无法读取文件：{error}"),
    "config.empty": ("the file is empty", "文件为空"),
    "config.empty.hint": (
        "a workbench file is a YAML mapping, e.g. `task: image_classification`",
        "工作台配置文件应为 YAML 映射，例如 `task: image_classification`",
    ),
    "config.not_mapping": ("the top level must be a mapping of keys to values", "顶层必须是键值映射"),
    "config.syntax": ("YAML syntax error: {problem}", "YAML 语法错误：{problem}"),
    "config.syntax.hint": (
        "check indentation (spaces, not tabs) and that every `key:` is followed by a space",
        "请检查缩进（用空格而非制表符），以及每个 `键:` 后是否有空格",
    ),
    "config.too_large": (
        "the document expands to too many values (a recursive or exploding YAML alias?)",
        "文档展开后的值过多（YAML 别名递归或膨胀？）",
    ),
    "config.too_large.hint": (
        "write the values out instead of using &anchors / *aliases",
        "请直接写出各个值，不要使用 &锚点 / *别名",
    ),
    "config.duplicate_key": ("key '{key}' appears twice", "键 '{key}' 出现了两次"),
    "config.duplicate_key.hint": (
        "first defined on line {line}; keep one",
        "第一次定义在第 {line} 行；请只保留一个",
    ),
    "config.unknown_key": ("unknown key '{key}'", "未知的键 '{key}'"),
    "config.did_you_mean": ("did you mean '{name}'?", "你是不是想写 '{name}'？"),
    "config.allowed_keys": ("allowed here: {keys}", "此处允许的键：{keys}"),
    "config.missing_key": ("missing required key '{key}'", "缺少必填的键 '{key}'"),
    "config.missing_key.hint": ("add `{key}: ...`", "请添加 `{key}: ...`"),
    "config.bad_value": ("'{key}': {problem} (got {got})", "'{key}'：{problem}（实际为 {got}）"),
    "config.top_level": ("(top level)", "（顶层）"),
    "config.override.bad": ("an override must look like key.path=value", "覆盖参数的格式应为 key.path=value"),
    "config.override.hint": ("e.g. -o train.steps=50", "例如 -o train.steps=50"),
    "config.override.not_mapping": (
        "this key path goes through a value that is not a mapping",
        "该键路径经过了一个非映射的值",
    ),
    "config.unknown_kind": ("cannot tell what kind of workbench file this is", "无法识别这是哪种工作台文件"),
    "config.unknown_kind.hint": ("known kinds: {kinds}", "已知的类型：{kinds}"),
    "config.kind.training": ("training config (has `task:`)", "训练配置（含 `task:`）"),
}
