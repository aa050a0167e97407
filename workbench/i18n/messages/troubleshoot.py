"""Troubleshooting: ``diagnose``'s input messages and output, and the report bundle (each signature's own
title, cause and fix live beside its patterns in ``workbench/troubleshoot/signatures/<family>.yaml``)."""

MESSAGES: dict[str, tuple[str, str]] = {
    # -- reading the input (exit code 2) ----------------------------------------------------------------
    "diagnose.input.empty": (
        "{source}: nothing to diagnose (the input is empty) — paste the error or pass a log file",
        "{source}：没有可诊断的内容（输入为空）——请粘贴报错或传入日志文件",
    ),
    "diagnose.input.binary": (
        "{source}: this is a binary file, not a log — pass the text log (logs.txt, workerlog.N)",
        "{source}：这是二进制文件而不是日志——请传入文本日志（logs.txt、workerlog.N）",
    ),
    "diagnose.input.too_large": (
        "{source}: {size} is more than diagnose reads ({limit}) — pass its end: tail -c 200M FILE | "
        "paddle-workbench diagnose --log -",
        "{source}：{size} 超过 diagnose 的读取上限（{limit}）——请传入其末尾：tail -c 200M FILE | "
        "paddle-workbench diagnose --log -",
    ),
    "diagnose.input.tail": (
        "{source}: {size} is more than diagnose reads at once — read its last {kept}, from line {line}; "
        "errors in the first {skipped} are not reported (pass that part on its own to check it)",
        "{source}：{size} 超过 diagnose 一次读取的上限——已读取其最后 {kept}（从第 {line} 行起）；"
        "前 {skipped} 中的错误不会报告（如需检查，请单独传入该部分）",
    ),
    "diagnose.input.over_total": (
        "{source}: not read — the inputs before it already fill what diagnose reads at once ({limit}); "
        "pass it on its own to check it",
        "{source}：未读取——之前的输入已达到 diagnose 一次读取的上限（{limit}）；如需检查，请单独传入",
    ),
    "diagnose.input.missing": ("{source}: no such file", "{source}：文件不存在"),
    "diagnose.input.is_dir": (
        "{source}: is a folder — pass a log file, or a run with --run",
        "{source}：这是目录——请传入日志文件，或用 --run 指定运行",
    ),
    "diagnose.input.unreadable": ("{source}: cannot read ({error})", "{source}：无法读取（{error}）"),
    "diagnose.input.gbk": (
        "{source}: not UTF-8; read as GB18030 (Chinese Windows console encoding)",
        "{source}：不是 UTF-8；已按 GB18030（中文 Windows 控制台编码）读取",
    ),
    "diagnose.input.replaced": (
        "{source}: not valid UTF-8; undecodable bytes were replaced",
        "{source}：不是有效的 UTF-8；无法解码的字节已被替换",
    ),
    "diagnose.input.none": (
        "nothing to read — pass --log FILE, --log - (standard input) or --run RUN",
        "没有输入——请传入 --log FILE、--log -（标准输入）或 --run RUN",
    ),
    "diagnose.input.no_run": (
        "no run '{ref}' in workspace {workspace} — list runs with 'paddle-workbench runs'",
        "工作区 {workspace} 中没有运行 '{ref}'——用 'paddle-workbench runs' 查看",
    ),
    "diagnose.input.run_no_logs": (
        "{run}: the run has no logs or traceback to diagnose",
        "{run}：该运行没有可诊断的日志或 traceback",
    ),
    # -- output ----------------------------------------------------------------------------------------
    "diagnose.cli.opt.log": (
        "Log or traceback to read ('-' reads standard input).",
        "要读取的日志或 traceback（'-' 表示标准输入）。",
    ),
    "diagnose.cli.opt.run": (
        "A run in the workspace (id, prefix or 'latest'): its traceback, logs.txt and per-rank logs.",
        "工作区中的运行（id、前缀或 'latest'）：读取其 traceback、logs.txt 与各 rank 日志。",
    ),
    "diagnose.cli.read": ("read {lines} lines from {sources}", "已读取 {sources} 的 {lines} 行"),
    "diagnose.cli.none": (
        "no known cause found — diagnose does not guess; run 'paddle-workbench check', or share the log with "
        "'paddle-workbench report RUN'",
        "未找到已知原因——diagnose 不做猜测；请运行 'paddle-workbench check'，或用 'paddle-workbench report RUN' 分享日志",
    ),
    "diagnose.cli.cause": ("cause: {text}", "原因：{text}"),
    "diagnose.cli.fix": ("fix: {text}", "修复：{text}"),
    "diagnose.cli.more": ("… {count} more lines like these", "……另有 {count} 行类似内容"),
    "diagnose.cli.consequence": ("(a consequence)", "（结果，非原因）"),
    "diagnose.cli.found": (
        "{count} known {count:cause|causes}, most likely first",
        "找到 {count} 个已知原因，最可能的排在最前",
    ),
    "diagnose.source.traceback": ("traceback", "traceback"),
    # -- no known cause, but a failure read out (kind "unrecognised") ---------------------------------------
    "diagnose.cli.unrecognised": (
        "no known cause — diagnose does not guess; this is what the log shows:",
        "未找到已知原因——diagnose 不做猜测；日志中能读出的内容如下：",
    ),
    "diagnose.cli.exception": ("error: {text}", "错误：{text}"),
    "diagnose.cli.cpp_error": ("C++ error: {text}", "C++ 错误：{text}"),
    "diagnose.cli.logged_error": ("failing line {line}: {text}", "出错的行 {line}：{text}"),
    "diagnose.cli.hint": ("Paddle's hint: {text}", "Paddle 提示：{text}"),
    "diagnose.cli.at": ("raised at: {text}", "抛出位置：{text}"),
    "diagnose.cli.frame": (
        "in your or the kit's code: {where}",
        "你的代码或套件代码中：{where}",
    ),
    "diagnose.cli.versions": ("versions in the log: {text}", "日志中的版本：{text}"),
    "diagnose.cli.errnos": ("system errors: {text}", "系统错误：{text}"),
    "diagnose.cli.libraries": ("libraries named: {text}", "涉及的库：{text}"),
    "diagnose.cli.closest": (
        "closest known cause (not sure): {title} [{id}]",
        "最接近的已知原因（不确定）：{title} [{id}]",
    ),
    "diagnose.cli.family": ("closest family (not sure): {family}", "最接近的类别（不确定）：{family}"),
    "diagnose.cli.try": ("what to try:", "可以尝试："),
    # -- similar public reports (after the signatures; JSON "via": "similar") -----------------------------
    "diagnose.cli.similar": (
        "similar public reports (a resemblance, not a recognised cause — read the thread to confirm):",
        "相似的公开问题报告（只是相似，并非已识别的原因——请阅读该讨论确认）：",
    ),
    "diagnose.cli.similar_item": (
        "looks like {report} ({source}), whose thread established: {title} [{id}] · similarity {similarity}",
        "与 {report}（{source}）相似，该讨论确定的原因：{title} [{id}] · 相似度 {similarity}",
    ),
    "diagnose.try.filesystem": (
        "the system refused a file operation ({errnos}): check the free space (df -h) and the permissions "
        "(ls -ld) of the folder the error names, or point the cache/output folder elsewhere",
        "系统拒绝了文件操作（{errnos}）：检查报错中目录的剩余空间（df -h）和权限（ls -ld），或把缓存/输出目录改到别处",
    ),
    "diagnose.try.network": (
        "a connection failed ({errnos}): check the network, DNS and proxy variables (HTTPS_PROXY), or "
        "download the model by hand and pass its local folder",
        "连接失败（{errnos}）：检查网络、DNS 和代理变量（HTTPS_PROXY），或手动下载模型并传入本地目录",
    ),
    "diagnose.try.library": (
        "{library} could not be loaded: find the package that provides it (apt-file search {library}, or "
        "dnf provides) and install it; 'ldd' on the failing module lists what else is missing",
        "无法加载 {library}：查找提供它的系统包（apt-file search {library} 或 dnf provides）并安装；"
        "对出错模块运行 'ldd' 可列出其他缺失的库",
    ),
    "diagnose.try.frame": (
        "start from {where}: the innermost frame in your or the kit's code",
        "从 {where} 看起：这是你的代码或套件代码中最内层的调用",
    ),
    "diagnose.try.versions": (
        "compare the versions in the log with the kit's installation page: each kit release needs the Paddle "
        "(and PaddleX) of its own release",
        "把日志中的版本与套件的安装文档对照：每个套件版本都需要与之配套的 Paddle（及 PaddleX）版本",
    ),
    "diagnose.try.flow": (
        "walk the troubleshooting flow '{flow}' (paddle-workbench tui → Troubleshoot)",
        "走一遍故障排查流程“{flow}”（paddle-workbench tui → 故障排查）",
    ),
    "diagnose.try.check": (
        "run 'paddle-workbench check': it reads the installed Paddle, CUDA, cuDNN and driver and says what "
        "does not fit",
        "运行 'paddle-workbench check'：它会读取已安装的 Paddle、CUDA、cuDNN 与驱动，并指出不匹配之处",
    ),
    # -- report bundle ---------------------------------------------------------------------------------
    "report.env.skipped": ("Environment check not run (--no-check).", "未运行环境检查（--no-check）。"),
    "report.env.stored": (
        "Environment verdicts reused from the stored check {file} (taken {taken}); pass --check to run it again.",
        "环境结论沿用已保存的检查 {file}（{taken}）；传入 --check 可重新检查。",
    ),
    "report.env.none": ("No stored environment check in this workspace.", "本工作区没有已保存的环境检查。"),
    "report.env.ran": ("Environment check run now for this report.", "已为本报告重新运行环境检查。"),
    "report.progress.env": ("collecting the environment verdicts…", "正在收集环境结论……"),
    "report.progress.diagnose": ("diagnosing the run's logs…", "正在诊断运行日志……"),
    "report.md.title": ("Paddle Workbench report: {run}", "Paddle Workbench 报告：{run}"),
    "report.md.summary": ("Status: **{status}**, last step {step}.", "状态：**{status}**，最后一步 {step}。"),
    "report.md.redacted": (
        "Redacted: secrets (passwords, tokens, keys, credentials in URLs and headers, private keys), host "
        "names, IP addresses and home paths were replaced.",
        "已脱敏：密钥类信息（密码、令牌、密钥、URL 与请求头中的凭据、私钥）、主机名、IP 地址和主目录路径已被替换。",
    ),
    "report.md.redactions": ("Taken out: {summary}.", "已移除：{summary}。"),
    "report.md.env_vars": (
        "Environment variables that change Paddle's behaviour (nothing else of the environment is included)",
        "影响 Paddle 行为的环境变量（不包含环境中的其他任何内容）",
    ),
    "report.redact.sep": (", ", "，"),
    "report.redact.kind.environment": (
        "{count} environment {count:variable|variables} of process-environment dumps",
        "进程环境转储中的 {count} 个环境变量",
    ),
    "report.redact.kind.secret_value": (
        "{count} secret-named {count:value|values}",
        "{count} 个以密钥命名的值",
    ),
    "report.redact.kind.auth_header": ("{count} auth {count:header|headers}", "{count} 个认证头"),
    "report.redact.kind.url_credentials": (
        "{count} URL {count:credential|credentials}",
        "{count} 个 URL 凭据",
    ),
    "report.redact.kind.private_key": (
        "{count} private key {count:block or line|blocks or lines}",
        "{count} 个私钥块或私钥行",
    ),
    "report.redact.kind.token": ("{count} {count:token|tokens}", "{count} 个令牌"),
    "report.redact.kind.detected": (
        "{count} {count:secret|secrets} found by detect-secrets",
        "detect-secrets 找到的 {count} 个密钥",
    ),
    "report.redact.kind.home_path": ("{count} home {count:path|paths}", "{count} 个主目录路径"),
    "report.redact.kind.user": ("{count} user {count:name|names}", "{count} 个用户名"),
    "report.redact.kind.ip": ("{count} IP {count:address|addresses}", "{count} 个 IP 地址"),
    "report.redact.kind.host": ("{count} host {count:name|names}", "{count} 个主机名"),
    "report.cli.redacted": ("redacted {total}: {summary}", "已脱敏 {total} 处：{summary}"),
    "report.cli.exists": (
        "{path} already exists — a report never replaces a file; choose another --output (or leave it out "
        "for RUN/reports/report-<time>.md)",
        "{path} 已存在——报告从不覆盖文件；请换一个 --output（或省略它，写到 RUN/reports/report-<time>.md）",
    ),
    "report.md.diagnosis": ("Diagnosis", "诊断"),
    "report.md.failure": ("Failure", "失败信息"),
    "report.md.alerts": ("Alerts", "告警"),
    "report.md.environment": ("Environment", "环境"),
    "report.md.compare": ("Train/inference comparisons", "训练/推理对比"),
    "report.md.logs": ("Last lines of each log", "各日志的最后几行"),
    "report.md.config": ("Run config", "运行配置"),
    "report.md.fingerprint": ("Environment fingerprint (run.yaml)", "环境指纹（run.yaml）"),
    "report.md.none": ("None.", "无。"),
    "report.cli.opt.output": (
        "Where to write the markdown (the JSON goes beside it); refused if either exists; default: "
        "RUN/reports/report-<time>.md.",
        "markdown 的写入位置（JSON 写在旁边）；任一文件已存在则拒绝；默认：RUN/reports/report-<time>.md。",
    ),
    "report.cli.opt.redact": (
        "Remove secrets (passwords, tokens, keys, URL and header credentials, private keys), host names, IP "
        "addresses and home paths; prints a count of what went. Environment dumps are never included.",
        "移除密钥类信息（密码、令牌、密钥、URL 与请求头凭据、私钥）、主机名、IP 地址和主目录路径，并打印移除的数量。"
        "环境转储从不包含在内。",
    ),
    "report.cli.opt.check": (
        "Run the environment check now (--no-check: leave it out); default: reuse a stored one, else run it.",
        "现在运行环境检查（--no-check：不包含）；默认：沿用已保存的检查，没有则运行。",
    ),
    "report.cli.no_run": (
        "no run '{ref}' in workspace {workspace} — list runs with 'paddle-workbench runs'",
        "工作区 {workspace} 中没有运行 '{ref}'——用 'paddle-workbench runs' 查看",
    ),
    "report.cli.write_failed": ("cannot write {path}: {error}", "无法写入 {path}：{error}"),
    "report.cli.written": ("report: {md}\nJSON:   {json}", "报告：{md}\nJSON：{json}"),
}
