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
    "config.file_too_big": (
        "the file is larger than {limit}, the limit for a workbench file (checked before reading it)",
        "文件大于 {limit}，超过了工作台配置文件的上限（在读取前检查）",
    ),
    "config.file_too_big.hint": (
        "a workbench config is a few kilobytes: keep data and long lists in files the config points to",
        "工作台配置通常只有几 KB：请把数据和长列表放在配置所指向的文件中",
    ),
    "config.too_deep": (
        "values are nested more than {limit} levels deep (the limit)",
        "值的嵌套超过 {limit} 层（上限）",
    ),
    "config.too_deep.hint": (
        "flatten the structure (e.g. `a.b.c` keys); a config needs only a few levels",
        "请展平结构（例如使用 `a.b.c` 形式的键）；配置只需要几层",
    ),
    "config.alias_recursive": (
        "a YAML alias refers to the value that contains it (it would expand forever)",
        "YAML 别名引用了包含它自身的值（会无限展开）",
    ),
    "config.alias_nodes": (
        "the YAML aliases expand to {count} values, over the limit of {limit}",
        "YAML 别名展开后共有 {count} 个值，超过上限 {limit}",
    ),
    "config.alias_text": (
        "the YAML aliases expand to {count} characters of text, over the limit of {limit}",
        "YAML 别名展开后共有 {count} 个字符，超过上限 {limit}",
    ),
    "config.too_many_values": (
        "the file holds more than {limit} values (the limit)",
        "文件中的值超过 {limit} 个（上限）",
    ),
    "config.too_many_values.hint": (
        "keep data and long lists in files the config points to",
        "请把数据和长列表放在配置所指向的文件中",
    ),
    "config.duplicate_key": ("key '{key}' appears twice", "键 '{key}' 出现了两次"),
    "config.duplicate_key.hint": (
        "first defined on line {line}; keep one",
        "第一次定义在第 {line} 行；请只保留一个",
    ),
    "config.unknown_key": ("unknown key '{key}'", "未知的键 '{key}'"),
    "config.did_you_mean": ("did you mean '{name}'?", "你是不是想写 '{name}'？"),
    "config.allowed_keys": ("allowed here: {keys}", "此处允许的键：{keys}"),
    "config.remove_key": ("remove '{key}': nothing reads it here", "删除 '{key}'：此处不读取它"),
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
    "config.problem": ("'{key}': {problem}", "'{key}'：{problem}"),
    # Our own validation problems (workbench.config.problems.problem), by code.
    "config.error.task_unknown": ("not a registered task", "不是已注册的任务"),
    "config.error.task_unknown.hint": ("registered tasks: {known}", "已注册的任务：{known}"),
    "config.error.entry_needed": (
        "task: {task} needs `entry: package.module:function`",
        "task: {task} 需要 `entry: 包.模块:函数`",
    ),
    "config.error.entry_needed.hint": (
        "e.g. `entry: my_model:build` for a build(cfg) function in my_model.py next to this file",
        "例如 `entry: my_model:build`，对应本文件旁 my_model.py 中的 build(cfg) 函数",
    ),
    "config.error.data_needed": ("task: {task} needs a data section", "task: {task} 需要 data 部分"),
    "config.error.data_needed.hint": (
        "add `data: {{dir: ..., format: {format}}}`",
        "请添加 `data: {{dir: ..., format: {format}}}`",
    ),
    "config.error.format_mismatch": (
        "task: {task} reads data.format: {expected}, not {format}",
        "task: {task} 读取的数据格式是 {expected}，不是 {format}",
    ),
    "config.error.format_mismatch.hint": (
        "write `format: {expected}`, or leave the key out",
        "请写 `format: {expected}`，或省略该键",
    ),
    "config.error.model_unknown": (
        "task: {task} has no model '{model}' (known: {known})",
        "task: {task} 没有模型 '{model}'（已知：{known}）",
    ),
    "config.error.model_unknown.hint": (
        "leave model.name out to use the task's default model",
        "省略 model.name 即使用该任务的默认模型",
    ),
    "config.error.device": (
        "device must be auto, cpu, gpu or gpu:N, not '{device}'",
        "device 应为 auto、cpu、gpu 或 gpu:N，而不是 '{device}'",
    ),
    "config.error.inject": (
        "'{part}' is not kind@step[:seconds] (kinds: nan, inf, raise, hang, slow_checkpoint)",
        "'{part}' 不符合 kind@step[:秒数] 的格式（kind 可为 nan、inf、raise、hang、slow_checkpoint）",
    ),
    # Pydantic's error types, by ``error["type"]``, with its ``ctx`` values as placeholders.
    "config.error.greater_than": ("should be greater than {gt}", "应大于 {gt}"),
    "config.error.greater_than_equal": ("should be at least {ge}", "应大于或等于 {ge}"),
    "config.error.less_than": ("should be less than {lt}", "应小于 {lt}"),
    "config.error.less_than_equal": ("should be at most {le}", "应小于或等于 {le}"),
    "config.error.int_parsing": ("should be a whole number", "应为整数"),
    "config.error.int_type": ("should be a whole number", "应为整数"),
    "config.error.int_from_float": (
        "should be a whole number, without a fractional part",
        "应为整数，不能有小数部分",
    ),
    "config.error.float_parsing": ("should be a number", "应为数字"),
    "config.error.float_type": ("should be a number", "应为数字"),
    "config.error.finite_number": ("should be a finite number", "应为有限的数字"),
    "config.error.bool_parsing": ("should be true or false", "应为 true 或 false"),
    "config.error.bool_type": ("should be true or false", "应为 true 或 false"),
    "config.error.string_type": ("should be text", "应为文本"),
    "config.error.literal_error": ("should be one of {expected}", "应为以下之一：{expected}"),
    "config.error.enum": ("should be one of {expected}", "应为以下之一：{expected}"),
    "config.error.dict_type": ("should be a mapping of keys to values", "应为键值映射"),
    "config.error.model_type": ("should be a mapping of keys to values", "应为键值映射"),
    "config.error.model_attributes_type": ("should be a mapping of keys to values", "应为键值映射"),
    "config.error.list_type": ("should be a list", "应为列表"),
    "config.error.string_too_short": (
        "should have at least {min_length} characters",
        "至少应有 {min_length} 个字符",
    ),
    "config.error.string_too_long": (
        "should have at most {max_length} characters",
        "最多应有 {max_length} 个字符",
    ),
    "config.error.too_short": ("should have at least {min_length} items", "至少应有 {min_length} 项"),
    "config.error.too_long": ("should have at most {max_length} items", "最多应有 {max_length} 项"),
    "config.error.string_pattern_mismatch": ("should match {pattern}", "应匹配 {pattern}"),
}
