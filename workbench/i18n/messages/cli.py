"""Command-line help and messages."""

MESSAGES: dict[str, tuple[str, str]] = {
    "cli.usage": ("Usage:", "用法："),
    "cli.error_prefix": ("error:", "错误："),
    "cli.root.help": (
        "Paddle Workbench: take a PaddlePaddle model from an SSH prompt to production.\n\n"
        "With no command, opens the terminal UI (line mode when stdout is not a terminal).",
        "Paddle 工作台：在 SSH 终端里把 PaddlePaddle 模型从环境检查一路带到生产部署。\n\n"
        "不带命令时打开终端界面（标准输出不是终端时使用行模式）。",
    ),
    "cli.root.epilog": (
        "Exit codes: 0 all good, 1 the check found failures, 2 bad input.",
        "退出码：0 一切正常，1 检查发现问题，2 输入有误。",
    ),
    "cli.root.settings": (
        "The options above can also be set with PADDLE_WORKBENCH_<OPTION> variables "
        "(e.g. PADDLE_WORKBENCH_LOW_BANDWIDTH=1) or in {path} (e.g. `lang: zh`); a flag wins over a "
        "variable, a variable over the file.",
        "上面的选项也可以用 PADDLE_WORKBENCH_<选项> 环境变量设置（例如 PADDLE_WORKBENCH_LOW_BANDWIDTH=1），"
        "或写在 {path} 中（例如 `lang: zh`）；命令行选项优先于环境变量，环境变量优先于该文件。",
    ),
    # click's own usage errors and usage line, said again by workbench/cli/usage_errors.py.
    "cli.click.error": ("Error: {message}", "错误：{message}"),
    "cli.click.try_help": ("Try '{command} {option}' for help.", "运行 '{command} {option}' 查看帮助。"),
    "cli.click.then": ("{first} {then}", "{first}{then}"),  # one sentence after another
    "cli.click.aborted": ("Aborted!", "已中止。"),
    # Any command ended by SIGINT/SIGTERM/SIGHUP (workbench/cli/__init__.py): exit 128 + signal.
    "cli.stopped": ("stopped by {signal}", "已被 {signal} 停止"),
    "cli.click.invalid_value": ("Invalid value: {message}", "取值无效：{message}"),
    "cli.click.invalid_value_for": ("Invalid value for {param}: {message}", "{param} 的取值无效：{message}"),
    "cli.click.missing_argument": ("Missing argument{param}.", "缺少参数{param}。"),
    "cli.click.missing_option": ("Missing option{param}.", "缺少选项{param}。"),
    "cli.click.missing_parameter": ("Missing parameter{param}.", "缺少参数{param}。"),
    "cli.click.missing_command": ("Missing command.", "缺少命令。"),
    "cli.click.no_such_option": ("No such option {name}.", "没有选项 {name}。"),
    "cli.click.no_such_command": ("No such command {name}.", "没有命令 {name}。"),
    "cli.click.did_you_mean": ("Did you mean {possibilities}?", "您是否要用 {possibilities}？"),
    "cli.click.did_you_mean_one_of": (
        "(Did you mean one of: {possibilities}?)",
        "（您是否要用其中之一：{possibilities}？）",
    ),
    "cli.click.option_needs_value": ("Option {name} requires an argument.", "选项 {name} 需要一个值。"),
    "cli.click.option_needs_values": (
        "Option {name} requires {nargs} arguments.",
        "选项 {name} 需要 {nargs} 个值。",
    ),
    "cli.click.option_takes_no_value": ("Option {name} does not take a value.", "选项 {name} 不接受值。"),
    "cli.click.argument_takes_values": (
        "Argument {name} takes {nargs} values.",
        "参数 {name} 需要 {nargs} 个值。",
    ),
    "cli.click.extra_argument": ("Got unexpected extra argument ({args})", "多余的参数：{args}"),
    "cli.click.extra_arguments": ("Got unexpected extra arguments ({args})", "多余的参数：{args}"),
    "cli.click.not_a_number": ("{value} is not a valid {number_type}.", "{value} 不是有效的{number_type}。"),
    "cli.click.out_of_range": ("{value} is not in the range {range}.", "{value} 不在范围 {range} 内。"),
    "cli.click.not_one_of": ("{value} is not one of {choices}.", "{value} 不是可选值之一：{choices}。"),
    "cli.click.not_the_choice": ("{value} is not {choice}.", "{value} 不是可选值 {choice}。"),
    "cli.click.choose_from": ("Choose from:\n\t{choices}", "可选值：\n\t{choices}"),
    "cli.click.path_missing": ("{name} {filename} does not exist.", "{name} {filename} 不存在。"),
    "cli.click.path_is_file": ("{name} {filename} is a file.", "{name} {filename} 是文件，不是目录。"),
    "cli.click.path_is_dir": ("{name} {filename} is a directory.", "{name} {filename} 是目录，不是文件。"),
    "cli.click.path_not_readable": ("{name} {filename} is not readable.", "{name} {filename} 不可读。"),
    "cli.click.path_not_writable": ("{name} {filename} is not writable.", "{name} {filename} 不可写。"),
    "cli.click.path_not_executable": ("{name} {filename} is not executable.", "{name} {filename} 不可执行。"),
    "cli.click.word.integer": ("integer", "整数"),
    "cli.click.word.integer_range": ("integer range", "整数"),
    "cli.click.word.float": ("float", "数值"),
    "cli.click.word.float_range": ("float range", "数值"),
    "cli.click.word.boolean": ("boolean", "布尔值"),
    "cli.click.word.file": ("File", "文件"),
    "cli.click.word.directory": ("Directory", "目录"),
    "cli.click.word.path": ("Path", "路径"),
    "cli.usage.options": ("[OPTIONS]", "[选项]"),
    "cli.usage.command": ("COMMAND", "命令"),
    "cli.usage.args": ("[ARGS]...", "[参数]..."),
    "cli.settings.bad_value": ("{problem} (got {got})", "{problem}（实际为 {got}）"),
    "cli.help.help": ("Show this message and exit.", "显示此帮助并退出。"),
    "cli.opt.workspace": (
        "Workspace folder (default ./.paddle-workbench).",
        "工作区目录（默认 ./.paddle-workbench）。",
    ),
    "cli.opt.lang": (
        "Language of the interface: en or zh (default: from the locale).",
        "界面语言：en 或 zh（默认按系统区域设置）。",
    ),
    "cli.opt.theme": (
        "Colour theme: dark, light or high-contrast.",
        "配色主题：dark、light 或 high-contrast。",
    ),
    "cli.opt.low_bandwidth": (
        "Fewer redraws and no animation, for slow SSH links.",
        "减少重绘、关闭动画，适合慢速 SSH 连接。",
    ),
    "cli.opt.plain": ("Line-mode output, never the full-screen UI.", "仅行模式输出，不打开全屏界面。"),
    "cli.opt.version": ("Show the version and exit.", "显示版本并退出。"),
    "cli.opt.json": (
        "Print one JSON document on stdout (human text goes to stderr).",
        "在标准输出打印一个 JSON 文档（说明文字输出到标准错误）。",
    ),
    "cli.opt.override": (
        "Override one config key, e.g. -o train.steps=50 (repeatable).",
        "覆盖一个配置键，例如 -o train.steps=50（可重复）。",
    ),
    "cli.opt.resume": (
        "Continue a run: 'latest' or a run id/folder.",
        "继续一个运行：'latest' 或运行 ID / 目录。",
    ),
    "cli.tui.help": ("Open the terminal UI (the default command).", "打开终端界面（默认命令）。"),
    "cli.tui.demo": (
        "Fill an empty workspace with demo runs (one finished, one failed) first.",
        "若工作区为空，先填入演示运行（一个已完成、一个失败）。",
    ),
    "cli.tui.headless": (
        "stdout is not an interactive terminal (or --plain / TERM=dumb): showing the run list in line mode.",
        "标准输出不是交互式终端（或使用了 --plain / TERM=dumb）：以行模式显示运行列表。",
    ),
    "cli.workspace.unusable": (
        "cannot use the workspace {path}: {error} (choose another with --workspace DIR)",
        "无法使用工作区 {path}：{error}（请用 --workspace DIR 指定其他目录）",
    ),
    "cli.validate.help": (
        "Check workbench YAML files (training configs, plans, ...): every problem with file:line:col. "
        "It reads the files only: it never imports or runs your code (a task: custom entry is checked "
        "for its form; plan validate and train import it).",
        "检查工作台 YAML 文件（训练配置、切分方案等）：逐条给出 文件:行:列 的问题。"
        "它只读取文件，从不导入或运行你的代码（task: custom 的入口只检查格式；plan validate 与 train 才会导入它）。",
    ),
    "cli.validate.entry_not_imported": (
        "{file}: your code was not imported: entry {entry} is checked for its form only "
        "(`paddle-workbench plan validate` and `train` import it)",
        "{file}：未导入你的代码：入口 {entry} 只检查了格式（`paddle-workbench plan validate` 与 `train` 会导入它）",
    ),
    "cli.validate.ok": ("{file}: ok ({kind})", "{file}：通过（{kind}）"),
    "cli.validate.summary": ("{count} {count:problem|problems} found.", "共发现 {count} 个问题。"),
    "cli.runs.help": ("List the runs of the workspace.", "列出工作区中的运行。"),
    "cli.runs.gc.help": (
        "Remove what killed processes left in the workspace (half-written checkpoints, temp files).",
        "清理被终止的进程在工作区中留下的残留（写了一半的检查点、临时文件）。",
    ),
    "cli.runs.gc.removed": (
        "removed {count} {count:leftover|leftovers} of processes that are gone:",
        "已清理 {count} 个已结束进程留下的残留：",
    ),
    "cli.runs.gc.nothing": ("nothing to clean in {workspace}", "{workspace} 中没有需要清理的内容"),
    "cli.train.help": (
        "Train from a config (single card, in process), with seeds, logs and atomic checkpoints.\n\n"
        "Ctrl-C, SIGTERM and SIGHUP stop after the current step with a checkpoint; a second Ctrl-C "
        "aborts at once.\n\n"
        "Exit codes: 0 finished, 1 failed, 2 bad input, 130 stopped by Ctrl-C (SIGINT), 143 stopped by "
        "SIGTERM, 129 stopped by SIGHUP.",
        "按配置训练（单卡、进程内），固定随机种子，保存日志与原子检查点。\n\n"
        "Ctrl-C、SIGTERM 和 SIGHUP 会在当前步结束后保存检查点并停止；再按一次 Ctrl-C 立即中止。\n\n"
        "退出码：0 完成，1 失败，2 输入有误，130 被 Ctrl-C（SIGINT）停止，143 被 SIGTERM 停止，"
        "129 被 SIGHUP 停止。",
    ),
    "cli.check.help": (
        "Check that Paddle works on this machine, with a fix for each problem.",
        "检查 Paddle 能否在本机正常工作，并给出每个问题的修复方法。",
    ),
    "cli.plan.help": (
        "Validate and run a sharding plan on N ranks; compare it with the baseline.",
        "校验并在 N 个进程上运行切分方案，与单卡基线对比。",
    ),
    "cli.compare.help": (
        "Compare dygraph, jit.load and the inference predictor on the same inputs.",
        "在相同输入上比较动态图、jit.load 与推理预测器的输出。",
    ),
    "cli.dataset.help": (
        "Lint a dataset in PaddleX / PaddleClas / PaddleOCR layout.",
        "检查 PaddleX / PaddleClas / PaddleOCR 格式的数据集。",
    ),
    "cli.diagnose.help": (
        "Explain a pasted error: cause and fix. Exit codes: 1 a known cause matched; 0 no known cause "
        "(a traceback is read out; similar public reports, if any, are listed and change nothing); "
        "2 input that cannot be read.",
        "解释粘贴的报错：原因与修复方法。退出码：1 匹配到已知原因；0 未找到已知原因（会读出 traceback；"
        "如有相似的公开问题报告会列出，但不改变退出码）；2 输入无法读取。",
    ),
    "cli.verify.help": ("Run the release checklist.", "运行发布前检查清单。"),
    "cli.report.help": (
        "Write a shareable report of a run (optionally redacted).",
        "生成可分享的运行报告（可脱敏）。",
    ),
    "cli.serve.help": (
        "Serve an exported model over HTTP with auth and rate limits.",
        "以 HTTP 服务导出的模型，带鉴权与限流。",
    ),
    "cli.loadtest.help": ("Load-test a served model.", "对已部署的模型做压测。"),
}
