"""The browser door: ``paddle-workbench web``, its bad input, what it prints, and the page it serves."""

MESSAGES: dict[str, tuple[str, str]] = {
    "cli.web.help": (
        "Serve the workbench to a browser tab, with a token (reach it through ssh -L).",
        "在浏览器标签页中提供工作台，需令牌访问（可通过 ssh -L 访问）。",
    ),
    "cli.web.host": (
        "Address to listen on (default 127.0.0.1: this machine only; another needs --allow-remote).",
        "监听地址（默认 127.0.0.1：仅本机；其他地址需加 --allow-remote）。",
    ),
    "cli.web.port": ("Port to listen on (0: any free port).", "监听端口（0 表示任意空闲端口）。"),
    "cli.web.allow_remote": (
        "Allow an address other machines can reach (the token is still required; traffic is plain HTTP).",
        "允许其他机器可访问的地址（仍需令牌；流量为未加密的 HTTP）。",
    ),
    "cli.web.demo": (
        "Fill an empty workspace with demo runs (one finished, one failed) in each new tab.",
        "若工作区为空，每个新标签页先填入演示运行（一个已完成、一个失败）。",
    ),
    "web.input.extra_missing": (
        "the browser UI needs the optional packages {modules} — install them: {fix}",
        "浏览器界面需要可选依赖 {modules}——请安装：{fix}",
    ),
    "web.input.remote_refused": (
        "--host {host}: other machines could reach this address — the workbench runs training and reads "
        "the workspace as you; keep 127.0.0.1 and use 'ssh -L {port}:127.0.0.1:{port} HOST', or add "
        "--allow-remote to listen there anyway",
        "--host {host}：其他机器可以访问该地址——工作台会以你的身份运行训练并读取工作区；请保持 127.0.0.1 "
        "并使用 'ssh -L {port}:127.0.0.1:{port} HOST'，或加 --allow-remote 仍在该地址监听",
    ),
    "web.input.bind_failed": (
        "cannot listen on {host}:{port} ({error}) — pick another --port (0: any free port)",
        "无法监听 {host}:{port}（{error}）——请换一个 --port（0 表示任意空闲端口）",
    ),
    "web.input.workspace": (
        "{path}: cannot use this workspace ({error})",
        "{path}：无法使用该工作区（{error}）",
    ),
    "web.cli.not_loopback": (
        "Listening on {host}: reachable from other machines over plain HTTP. Every request still needs the token.",
        "正在监听 {host}：其他机器可通过未加密的 HTTP 访问。所有请求仍需令牌。",
    ),
    "web.cli.open": (
        "Open in a browser (the token is in the address): {url}",
        "在浏览器中打开（地址中含令牌）：{url}",
    ),
    "web.cli.open_env": (
        "Open in a browser: {url}/?token=<the token from {env}>",
        "在浏览器中打开：{url}/?token=<{env} 中的令牌>",
    ),
    "web.cli.token_file": ("The token is kept in {path} (mode 0600).", "令牌保存在 {path}（权限 0600）。"),
    "web.cli.tunnel": (
        "From another machine: ssh -L {port}:127.0.0.1:{port} {user}@{host}, then open the address above there.",
        "从另一台机器访问：ssh -L {port}:127.0.0.1:{port} {user}@{host}，然后在那台机器上打开上面的地址。",
    ),
    "web.cli.ready": (
        "Serving workspace {workspace}: one app per browser tab; a closed tab's runs go on. Ctrl-C stops the "
        "server and its runs (each writes a checkpoint).",
        "正在提供工作区 {workspace}：每个浏览器标签页一个应用；关闭标签页后其运行继续。Ctrl-C 停止服务器及其运行"
        "（每个运行都会写检查点）。",
    ),
    "web.cli.stopped": (
        "Server stopped ({tabs} tab processes ended; stop reports of their runs are in the workspace's tui-output.log).",
        "服务器已停止（结束了 {tabs} 个标签页进程；其运行的停止报告见工作区的 tui-output.log）。",
    ),
    "web.title": ("Paddle Workbench — {workspace}", "Paddle Workbench — {workspace}"),
    "web.ended": ("This tab's session ended.", "此标签页的会话已结束。"),
    "web.restart": ("Open a new one", "打开新的会话"),
    "web.refused": (
        "Forbidden: open the address 'paddle-workbench web' printed (it carries the token).",
        "禁止访问：请打开 'paddle-workbench web' 打印的地址（其中含令牌）。",
    ),
}
