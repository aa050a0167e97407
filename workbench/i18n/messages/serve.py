"""Serving: ``serve`` and ``loadtest``, their bad input, and the errors the server returns to clients."""

MESSAGES: dict[str, tuple[str, str]] = {
    # -- serve: bad input (exit code 2) ------------------------------------------------------------
    "serve.input.extra_missing": (
        "serving needs the optional packages {modules} — install them: {fix}",
        "模型服务需要可选依赖 {modules}——请安装：{fix}",
    ),
    "serve.input.no_export": (
        "{run}: the run has no export to serve — export its newest checkpoint with '{command}' "
        "(or train with export.enabled: true), then serve again",
        "{run}：该运行没有可服务的导出模型——先用 '{command}' 导出最新检查点"
        "（或训练时设置 export.enabled: true），再重新启动服务",
    ),
    "serve.input.export_invalid": (
        "{path}: the export does not verify against its manifest (files changed or truncated) — "
        "delete the folder and export again with 'paddle-workbench compare'",
        "{path}：导出模型与其清单校验不符（文件被修改或截断）——删除该目录，并用 'paddle-workbench compare' 重新导出",
    ),
    "serve.input.export_unreadable": (
        "{path}: cannot read the export's manifest or preprocess.json ({error}) — export again",
        "{path}：无法读取导出模型的清单或 preprocess.json（{error}）——请重新导出",
    ),
    "serve.input.preprocess_changed": (
        "the preprocessing '{name}' has changed since this model was exported — serving it would feed the "
        "model different numbers; export again with this version (paddle-workbench compare)",
        "预处理 '{name}' 在导出该模型后已改变——继续服务会给模型输入不同的数据；请用当前版本重新导出（paddle-workbench compare）",
    ),
    "serve.drift.refused": (
        "{path}: this export is stale or drifted — it would not answer as the run's model and "
        "preprocessing do today:",
        "{path}：该导出已过期或发生漂移——它的回答将与该运行当前的模型和预处理不一致：",
    ),
    "serve.drift.key": (
        "the export records no key of what made it (exported by an older version)",
        "该导出没有记录生成它的依据（由旧版本导出）",
    ),
    "serve.drift.model_code": (
        "model code changed since the export: {files}",
        "导出之后模型代码已改变：{files}",
    ),
    "serve.drift.weights": (
        "the weights of {checkpoint} changed since the export",
        "导出之后 {checkpoint} 的权重已改变",
    ),
    "serve.drift.paddle": (
        "exported with Paddle {recorded}, Paddle {installed} is installed",
        "导出时使用 Paddle {recorded}，当前安装的是 Paddle {installed}",
    ),
    "serve.drift.preprocess_training": (
        "the export's preprocessing differs from the one the run trained with ({parts})",
        "导出的预处理与该运行训练时的不同（{parts}）",
    ),
    "serve.drift.preprocess_now": (
        "the preprocessing changed since the export ({parts})",
        "导出之后预处理已改变（{parts}）",
    ),
    "serve.drift.preprocess_unknown": (
        "the run's preprocessing cannot be checked today ({error})",
        "目前无法检查该运行的预处理（{error}）",
    ),
    "serve.drift.fix_training": (
        "restore the preprocessing the run trained with, or retrain with the new one",
        "恢复该运行训练时的预处理，或用新的预处理重新训练",
    ),
    "serve.drift.fix": (
        "export again with '{command}', or serve it anyway with --allow-drift",
        "用 '{command}' 重新导出，或加 --allow-drift 仍然提供服务",
    ),
    "serve.drift.allowed": (
        "warning: serving a stale or drifted export because of --allow-drift: {path}",
        "警告：因指定了 --allow-drift，正在服务一个已过期或漂移的导出：{path}",
    ),
    "serve.cli.opt.allow_drift": (
        "serve an export that is stale or drifted (changed model code, weights, Paddle or preprocessing) "
        "instead of refusing it; every start says so",
        "即使导出已过期或漂移（模型代码、权重、Paddle 或预处理已改变）也提供服务而不拒绝；每次启动都会提示",
    ),
    "serve.input.bind_failed": (
        "cannot listen on {host}:{port} ({error}) — pick another --port (0: any free port)",
        "无法监听 {host}:{port}（{error}）——请换一个 --port（0 表示任意空闲端口）",
    ),
    "serve.token.env_short": (
        "{env} is shorter than {min} characters — use a long random token (python -c 'import secrets; "
        "print(secrets.token_urlsafe(32))')",
        "{env} 少于 {min} 个字符——请使用足够长的随机令牌（python -c 'import secrets; "
        "print(secrets.token_urlsafe(32))'）",
    ),
    "serve.token.unsafe_mode": (
        "{path}: the token file is readable or writable by others (mode {mode}) — run 'chmod 600 {path}'",
        "{path}：令牌文件可被其他用户读写（权限 {mode}）——请执行 'chmod 600 {path}'",
    ),
    "serve.token.file_short": (
        "{path}: the token file holds fewer than {min} characters — delete it; serve makes a new one",
        "{path}：令牌文件少于 {min} 个字符——删除它，serve 会重新生成",
    ),
    # -- serve: console ----------------------------------------------------------------------------
    "serve.cli.opt.host": (
        "Address to listen on (loopback by default; another address exposes the model to the network).",
        "监听地址（默认仅本机回环；其他地址会把模型暴露到网络）。",
    ),
    "serve.cli.opt.port": ("Port to listen on (0: any free port).", "监听端口（0 表示任意空闲端口）。"),
    "serve.cli.opt.workers": (
        "Predictors: 1 runs requests one at a time behind a lock (fastest for small models here); "
        "N runs N at once, each predictor on its own thread.",
        "预测器个数：1 表示加锁逐个运行（在本机对小模型最快）；N 表示 N 个预测器各占一个线程并发运行。",
    ),
    "serve.cli.opt.guard": (
        "Override how concurrent requests are kept apart (default: lock for 1 worker, pool for more).",
        "覆盖并发请求的隔离方式（默认：1 个 worker 用 lock，多个用 pool）。",
    ),
    "serve.cli.opt.max_batch": ("Most inputs in one request.", "单个请求最多包含的输入数。"),
    "serve.cli.opt.max_body": (
        "Largest request body, in MiB (larger: 413).",
        "请求体上限（MiB，超出返回 413）。",
    ),
    "serve.cli.opt.rate": (
        "Requests per second per client, on average (more: 429).",
        "每个客户端平均每秒请求数（超出返回 429）。",
    ),
    "serve.cli.opt.burst": (
        "Requests a client may send at once before the rate applies.",
        "限流生效前客户端可一次性发送的请求数。",
    ),
    "serve.cli.opt.header_timeout": (
        "Seconds a client has to send a request's headers, from connecting or from the previous response "
        "(slower: 408, connection closed).",
        "客户端发送请求头的时限（秒），从连接建立或上一个响应结束算起（超时返回 408 并关闭连接）。",
    ),
    "serve.cli.opt.body_timeout": (
        "Seconds a client has to send a request's body after its headers (slower: 408, connection closed).",
        "客户端在请求头之后发送请求体的时限（秒）（超时返回 408 并关闭连接）。",
    ),
    "serve.cli.opt.idle_timeout": (
        "Seconds a connection may stay open with no request on it (keep-alive) before it is closed.",
        "连接上没有请求时保持打开的时长（秒，keep-alive），超时即关闭。",
    ),
    "serve.cli.opt.stop_timeout": (
        "After SIGTERM, SIGHUP or Ctrl-C: seconds in-flight requests may still take; then they are "
        "answered 503.",
        "收到 SIGTERM、SIGHUP 或 Ctrl-C 后，进行中的请求最多还可运行的秒数；之后返回 503。",
    ),
    "serve.cli.loading": ("Loading {name} from {path} …", "正在从 {path} 加载 {name} …"),
    "serve.cli.open_failed": (
        "Paddle Inference cannot open the export ({error}) — check it with 'paddle-workbench compare'",
        "Paddle Inference 无法打开导出模型（{error}）——请用 'paddle-workbench compare' 检查",
    ),
    "serve.cli.not_loopback": (
        "Listening on {host}: reachable from other machines. Every request still needs the token.",
        "正在监听 {host}：其他机器可以访问。所有请求仍需令牌。",
    ),
    "serve.cli.token_created": (
        "A token was created for this workspace (mode 0600). Clients send 'Authorization: Bearer <token>'; "
        "read it with: {command}",
        "已为本工作区生成令牌（权限 0600）。客户端需发送 'Authorization: Bearer <令牌>'；读取方式：{command}",
    ),
    "serve.cli.token_file": (
        "Clients send 'Authorization: Bearer <token>'; read the token with: {command}",
        "客户端需发送 'Authorization: Bearer <令牌>'；读取令牌：{command}",
    ),
    "serve.cli.token_env": (
        "Clients send 'Authorization: Bearer <token>' with the token from {env}.",
        "客户端需发送 'Authorization: Bearer <令牌>'，令牌取自 {env}。",
    ),
    "serve.cli.ready": (
        "Serving on {url} (guard {guard} × {workers}); access log {log}. "
        "Ctrl-C, SIGTERM or SIGHUP stops after in-flight requests; a second one exits at once.",
        "服务地址 {url}（隔离方式 {guard} × {workers}）；访问日志 {log}。"
        "Ctrl-C、SIGTERM 或 SIGHUP 会在处理完进行中的请求后停止；再按一次立即退出。",
    ),
    "serve.cli.stopping": (
        "Stopping: no new connections; finishing in-flight requests (signal again to exit at once) …",
        "正在停止：不再接受新连接，处理完进行中的请求（再发一次信号立即退出）…",
    ),
    "serve.cli.stopped": ("Stopped; the port is free.", "已停止，端口已释放。"),
    "serve.cli.cancelled": (
        "Stop timeout ({seconds} s) reached: {count} {count:request|requests} still running {count:was|were} cancelled and answered "
        "503 (raise --stop-timeout to let them finish).",
        "已到停止时限（{seconds} 秒）：仍在运行的 {count} 个请求已被取消并返回 503（可调大 --stop-timeout 让其完成）。",
    ),
    # -- serve: errors returned to clients ---------------------------------------------------------
    "serve.request.unauthorized": (
        "missing or wrong bearer token — send 'Authorization: Bearer <token>'",
        "缺少或错误的令牌——请发送 'Authorization: Bearer <令牌>'",
    ),
    "serve.request.rate_limited": (
        "too many requests from this client — retry after the Retry-After seconds",
        "该客户端请求过多——请在 Retry-After 秒后重试",
    ),
    "serve.request.auth_limited": (
        "too many failed authentications from this address — retry after the Retry-After seconds with "
        "'Authorization: Bearer <token>'",
        "该地址认证失败次数过多——请在 Retry-After 秒后携带 'Authorization: Bearer <令牌>' 重试",
    ),
    "serve.request.header_timeout": (
        "the request's headers did not arrive within {seconds} s — the connection is closed",
        "请求头未在 {seconds} 秒内到达——连接已关闭",
    ),
    "serve.request.body_timeout": (
        "the request body did not arrive within {seconds} s of its headers — the connection is closed",
        "请求体未在请求头之后 {seconds} 秒内到达——连接已关闭",
    ),
    "serve.request.cancelled": (
        "the server is stopping and this request did not finish in time — retry when it is back",
        "服务正在停止，该请求未能及时完成——请在服务恢复后重试",
    ),
    "serve.request.invalid_http": (
        "not a valid HTTP/1.1 request (or headers over 16 KiB)",
        "不是有效的 HTTP/1.1 请求（或请求头超过 16 KiB）",
    ),
    "serve.request.too_large": (
        "request body over {limit} bytes — send fewer or smaller inputs",
        "请求体超过 {limit} 字节——请减少或缩小输入",
    ),
    "serve.request.bad_json": ("the body is not valid JSON", "请求体不是有效的 JSON"),
    "serve.request.not_object": (
        'the body must be a JSON object: {"images": [...]} or {"arrays": [...]}',
        '请求体必须是 JSON 对象：{"images": [...]} 或 {"arrays": [...]}',
    ),
    "serve.request.unknown_keys": (
        "unknown keys {keys} — send only 'images' or 'arrays'",
        "未知的键 {keys}——只能发送 'images' 或 'arrays'",
    ),
    "serve.request.one_of": (
        "send exactly one of 'images' (base64 strings) or 'arrays' (preprocessed nested lists)",
        "'images'（base64 字符串）与 'arrays'（已预处理的嵌套列表）必须且只能提供一个",
    ),
    "serve.request.empty": ("the inputs must be a non-empty list", "输入必须是非空列表"),
    "serve.request.too_many": (
        "{count} inputs in one request; at most {max} — split the request",
        "单个请求包含 {count} 个输入，最多 {max} 个——请拆分请求",
    ),
    "serve.request.arrays_only": (
        "this model's preprocessing ({name}) is not built in: send preprocessed 'arrays', not images",
        "该模型的预处理（{name}）不是内置的：请发送已预处理的 'arrays'，而不是图片",
    ),
    "serve.request.image_not_string": (
        "images[{index}] is not a base64 string",
        "images[{index}] 不是 base64 字符串",
    ),
    "serve.request.bad_base64": ("images[{index}] is not valid base64", "images[{index}] 不是有效的 base64"),
    "serve.request.bad_image": (
        "images[{index}] is not an image Pillow can read ({error})",
        "images[{index}] 不是 Pillow 可读取的图片（{error}）",
    ),
    "serve.request.image_too_large": (
        "images[{index}] is {width}×{height} pixels — too large; resize it first",
        "images[{index}] 为 {width}×{height} 像素——过大，请先缩小",
    ),
    "serve.request.bad_array": (
        "arrays[{index}] is not a rectangular list of numbers",
        "arrays[{index}] 不是规整的数字列表",
    ),
    "serve.request.nonfinite": ("arrays[{index}] holds NaN or Inf", "arrays[{index}] 含有 NaN 或 Inf"),
    "serve.request.bad_shape": (
        "input {index} has shape {got}; the model takes {want} per item",
        "输入 {index} 的形状为 {got}；模型每项需要 {want}",
    ),
    "serve.request.internal": (
        "internal error — the server log has the request id",
        "服务内部错误——服务日志中记录了该请求 id",
    ),
    "serve.request.not_found": (
        "no such route — use POST /predict, GET /healthz, /metrics or /model",
        "没有该路径——请使用 POST /predict、GET /healthz、/metrics 或 /model",
    ),
    "serve.request.not_allowed": ("method not allowed on this route", "该路径不支持此方法"),
    # -- loadtest ----------------------------------------------------------------------------------
    "loadtest.cli.opt.concurrency": ("Requests in flight at once.", "同时进行的请求数。"),
    "loadtest.cli.opt.requests": ("Most requests to send.", "最多发送的请求数。"),
    "loadtest.cli.opt.duration": (
        "Most seconds to run (whichever limit comes first).",
        "最长运行秒数（先到先停）。",
    ),
    "loadtest.cli.opt.token": (
        "Bearer token (default: PADDLE_WORKBENCH_SERVE_TOKEN, else the workspace's token file). "
        "Visible to other users in the process list.",
        "令牌（默认取 PADDLE_WORKBENCH_SERVE_TOKEN，否则取工作区的令牌文件）。进程列表中对其他用户可见。",
    ),
    "loadtest.cli.opt.image": (
        "Image file to send (repeat for a batch; default: one input of zeros shaped like the model's input).",
        "要发送的图片文件（可重复以组成批次；默认发送一个与模型输入同形状的全零输入）。",
    ),
    "loadtest.cli.opt.allow_remote": (
        "Allow a target that is not this machine (only load-test servers you own).",
        "允许非本机目标（只压测你自己的服务）。",
    ),
    "loadtest.cli.opt.no_record": (
        "Write no report and no matrix row.",
        "不写报告，也不写兼容矩阵行。",
    ),
    "loadtest.input.bad_url": (
        "{url} is not an http(s) URL — e.g. http://127.0.0.1:8866",
        "{url} 不是 http(s) URL——例如 http://127.0.0.1:8866",
    ),
    "loadtest.input.remote": (
        "{host} is not this machine — load-test your own servers only; pass --allow-remote if it is yours",
        "{host} 不是本机——只压测你自己的服务；若确属你所有，请加 --allow-remote",
    ),
    "loadtest.input.no_token": (
        "no token: pass --token, set {env}, or start 'paddle-workbench serve' in this workspace "
        "(it writes {path})",
        "没有令牌：请传入 --token、设置 {env}，或在本工作区启动 'paddle-workbench serve'（它会写入 {path}）",
    ),
    "loadtest.input.unreachable": (
        "{url} does not answer ({error}) — is 'paddle-workbench serve' running there?",
        "{url} 无响应（{error}）——'paddle-workbench serve' 是否在运行？",
    ),
    "loadtest.input.model_status": (
        "{url}/model answered {status} — check the token (401) or the URL",
        "{url}/model 返回 {status}——请检查令牌（401）或 URL",
    ),
    "loadtest.cli.summary": (
        "{url}: concurrency {concurrency}, {sent} sent, {ok} answered 200",
        "{url}：并发 {concurrency}，已发送 {sent}，成功（200）{ok}",
    ),
    "loadtest.cli.figures": (
        "throughput {rps} req/s; latency p50 {p50} ms, p90 {p90} ms, p99 {p99} ms",
        "吞吐 {rps} 请求/秒；延迟 p50 {p50} ms，p90 {p90} ms，p99 {p99} ms",
    ),
    "loadtest.cli.errors": ("errors by status: {errors}", "按状态码统计的错误：{errors}"),
    "loadtest.cli.rate_limited": (
        "429 is the server's rate limit (per client, --rate/--burst of serve): to measure beyond it, "
        "restart serve with a higher --rate and --burst",
        "429 来自服务端的限流（按客户端，serve 的 --rate/--burst）：要测量超出该速率的负载，"
        "请用更高的 --rate 与 --burst 重启 serve",
    ),
    "loadtest.cli.reports": ("Report: {md} (matrix row added)", "报告：{md}（已写入兼容矩阵）"),
    "loadtest.report.title": ("Load test of {model}", "{model} 压测报告"),
    "loadtest.report.load": (
        "concurrency {concurrency}: {sent} sent, {ok} answered 200",
        "并发 {concurrency}：已发送 {sent}，成功（200）{ok}",
    ),
    "loadtest.report.throughput": (
        "throughput {rps} req/s over {seconds} s",
        "吞吐 {rps} 请求/秒，历时 {seconds} 秒",
    ),
    "loadtest.report.errors": ("errors by status", "按状态码统计的错误"),
    # -- serve + load test from the compare screen ------------------------------------------------------
    "serve.session.starting": ("starting the server for {run}…", "正在为 {run} 启动服务…"),
    "serve.session.loading": (
        "load test on {url}: concurrency {concurrency}, {requests} requests…",
        "正在压测 {url}：并发 {concurrency}，共 {requests} 个请求…",
    ),
    "serve.session.progress": ("load test: {done}/{total} requests", "压测：{done}/{total} 个请求"),
    "serve.session.no_token": (
        "the server started but no token is readable — set PADDLE_WORKBENCH_SERVE_TOKEN or check the workspace",
        "服务已启动但无法读取令牌——请设置 PADDLE_WORKBENCH_SERVE_TOKEN 或检查工作区",
    ),
    "serve.session.exited": ("the server exited before serving", "服务在开始前已退出"),
    "serve.session.start_timeout": (
        "the server did not start within {seconds} s",
        "服务未在 {seconds} 秒内启动",
    ),
    "ui.compare.key.loadtest": ("serve + load test", "服务压测"),
    "ui.compare.loadtest.title": (
        "serving latency of {model} (concurrency {concurrency}): {ok}/{sent} ok, {rps} req/s, "
        "p50 {p50} ms, p90 {p90} ms, p99 {p99} ms",
        "{model} 的服务延迟（并发 {concurrency}）：成功 {ok}/{sent}，{rps} 请求/秒，"
        "p50 {p50} ms，p90 {p90} ms，p99 {p99} ms",
    ),
    "ui.compare.loadtest.errors": ("errors by status: {errors}", "按状态码统计的错误：{errors}"),
    "ui.compare.loadtest.report": ("report: {path}", "报告：{path}"),
    "ui.compare.loadtest.none": (
        "pick a run's checkpoint first (the run must have an export)",
        "请先选择一个运行的检查点（该运行需有导出模型）",
    ),
    "worker.loadtest": ("Serve and load test", "服务与压测"),
}
