"""``paddle-workbench serve RUN_OR_EXPORT``: the export over HTTP, with a token, rate limits and a log.

Presentation and order only; :mod:`workbench.serve` does the work. Everything that can be wrong with the
input is checked before Paddle loads (the extra, the export and its manifest, whether the export is
stale or drifted — refused unless ``--allow-drift``, then said on every start and logged — the token
file, the port), each problem with its fix and exit code 2. Then the predictors open, the socket
listens, and the command runs until SIGTERM, SIGHUP or Ctrl-C: in-flight requests finish (those still running after
``--stop-timeout`` are answered 503 and counted in one console line) and it exits 0 (a second signal: at
once). The token is never printed — only how to read it.
"""

from __future__ import annotations

import os
import signal
import sys

import click
from rich.text import Text

from workbench.cli.output import EXIT_BAD_INPUT, EXIT_FAILURES, EXIT_OK, human_console
from workbench.cli.state import pass_settings
from workbench.i18n import t
from workbench.runs import RunStore
from workbench.settings import WorkbenchSettings


def serve_command() -> click.Command:
    from workbench.serve.options import DEFAULT_PORT, ServeOptions
    from workbench.serve.predictor import GUARDS

    defaults = ServeOptions()

    @click.command("serve", help=t("cli.serve.help"))
    @click.argument("run_or_export")
    @click.option("--host", default=defaults.host, show_default=True, help=t("serve.cli.opt.host"))
    @click.option(
        "--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
        help=t("serve.cli.opt.port"),
    )  # fmt: skip
    @click.option(
        "--workers", type=click.IntRange(1, 64), default=defaults.workers, show_default=True,
        help=t("serve.cli.opt.workers"),
    )  # fmt: skip
    @click.option(
        "--guard", type=click.Choice(GUARDS), default=None,
        help=t("serve.cli.opt.guard"),
    )  # fmt: skip
    @click.option(
        "--max-batch", type=click.IntRange(1, 4096), default=defaults.max_batch, show_default=True,
        help=t("serve.cli.opt.max_batch"),
    )  # fmt: skip
    @click.option(
        "--max-body-mb", type=click.FloatRange(0.001, 1024), default=defaults.max_body_bytes / 2**20,
        show_default=True, help=t("serve.cli.opt.max_body"),
    )  # fmt: skip
    @click.option(
        "--rate", type=click.FloatRange(0.01, 1e6), default=defaults.rate, show_default=True,
        help=t("serve.cli.opt.rate"),
    )  # fmt: skip
    @click.option(
        "--burst", type=click.IntRange(1, 10**7), default=defaults.burst, show_default=True,
        help=t("serve.cli.opt.burst"),
    )  # fmt: skip
    @click.option(
        "--header-timeout", type=click.FloatRange(0.1, 3600), default=defaults.header_timeout_s,
        show_default=True, help=t("serve.cli.opt.header_timeout"),
    )  # fmt: skip
    @click.option(
        "--body-timeout", type=click.FloatRange(0.1, 3600), default=defaults.body_timeout_s,
        show_default=True, help=t("serve.cli.opt.body_timeout"),
    )  # fmt: skip
    @click.option(
        "--idle-timeout", type=click.FloatRange(0.1, 3600), default=defaults.idle_timeout_s,
        show_default=True, help=t("serve.cli.opt.idle_timeout"),
    )  # fmt: skip
    @click.option(
        "--stop-timeout", type=click.FloatRange(0.1, 3600), default=defaults.graceful_timeout_s,
        show_default=True, help=t("serve.cli.opt.stop_timeout"),
    )  # fmt: skip
    @click.option("--allow-drift", is_flag=True, default=False, help=t("serve.cli.opt.allow_drift"))
    @pass_settings
    @click.pass_context
    def serve(
        ctx: click.Context,
        settings: WorkbenchSettings,
        run_or_export: str,
        host: str,
        port: int,
        workers: int,
        guard: str | None,
        max_batch: int,
        max_body_mb: float,
        rate: float,
        burst: int,
        header_timeout: float,
        body_timeout: float,
        idle_timeout: float,
        stop_timeout: float,
        allow_drift: bool,
    ) -> None:
        from workbench.serve import SERVE_FIX, missing_modules

        console = human_console()

        def fail(messages: list[str]) -> None:
            for message in messages:
                console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message))
            ctx.exit(EXIT_BAD_INPUT)

        missing = missing_modules()
        if missing:
            fail([t("serve.input.extra_missing", modules=", ".join(missing), fix=SERVE_FIX)])
        from workbench.serve.auth import TokenProblem, load_token
        from workbench.serve.preprocess import PreprocessMismatch
        from workbench.serve.server import open_state
        from workbench.serve.server import serve as run_server
        from workbench.serve.sockets import bind, is_loopback_host, served_url
        from workbench.serve.source import ServeInputError, drift_messages, resolve_export

        options = ServeOptions(
            host=host, port=port, workers=workers, guard=guard,
            max_batch=max_batch, max_body_bytes=int(max_body_mb * 2**20), rate=rate, burst=burst,
            header_timeout_s=header_timeout, body_timeout_s=body_timeout, idle_timeout_s=idle_timeout,
            graceful_timeout_s=stop_timeout, allow_drift=allow_drift,
        )  # fmt: skip
        store = RunStore(settings.workspace)
        try:
            export = resolve_export(run_or_export, store)
        except ServeInputError as exc:
            fail(exc.messages)
            return
        drift_warning = []
        if export.drift and not options.allow_drift:
            fail(["\n".join(drift_messages(export))])
            return
        if export.drift:  # served anyway, as asked: said now and in the log once it is open
            drift_warning = [
                t("serve.drift.allowed", path=str(export.directory)),
                *[d.message for d in export.drift],
            ]
            for line in drift_warning:
                console.print(line, style="bold yellow", markup=False)
        try:
            token, created = load_token(store.workspace)
        except TokenProblem as exc:
            fail([str(exc)])
            return
        try:
            sock = bind(host, port)
        except OSError as exc:
            fail([t("serve.input.bind_failed", host=host, port=port, error=exc.strerror or str(exc))])
            return
        try:
            console.print(t("serve.cli.loading", name=export.name, path=str(export.directory)), markup=False)
            try:
                from workbench.training.runtime import import_paddle

                import_paddle()
                # Importing Paddle installs its own SIGTERM handler (a stack dump, then death): while the
                # model loads, SIGTERM and SIGHUP stop the command like Ctrl-C instead; the server
                # installs its own.
                signal.signal(signal.SIGTERM, signal.default_int_handler)
                signal.signal(signal.SIGHUP, signal.default_int_handler)
                state = open_state(export, token, options)
            except KeyboardInterrupt:
                console.print(t("serve.cli.stopped"), markup=False)
                ctx.exit(130)
                return
            except PreprocessMismatch as exc:
                fail([str(exc)])
                return
            except Exception as exc:  # noqa: BLE001 - Paddle cannot open this export: the reason, no traceback
                console.print(
                    Text.assemble(
                        (t("cli.error_prefix"), "bold red"), " ",
                        t("serve.cli.open_failed", error=f"{type(exc).__name__}: {exc}"),
                    )
                )  # fmt: skip
                ctx.exit(EXIT_FAILURES)
                return
        except BaseException:
            sock.close()
            raise
        for line in drift_warning:
            state.access_log.warning(line)
        if not is_loopback_host(host):
            console.print(t("serve.cli.not_loopback", host=host), style="bold yellow", markup=False)
        url = served_url(sock)
        if token.source == "env":
            console.print(t("serve.cli.token_env", env="PADDLE_WORKBENCH_SERVE_TOKEN"), markup=False)
        else:
            key = "serve.cli.token_created" if created else "serve.cli.token_file"
            console.print(t(key, command=f"cat {token.source}"), markup=False)
        console.print(
            t(
                "serve.cli.ready", url=url, guard=state.predictor.guard, workers=state.predictor.size,
                log=str(export.log_dir / "serve.log"),
            ),
            markup=False,
        )  # fmt: skip
        sys.stdout.flush()

        def on_stop(signum: int) -> None:
            os.write(sys.stderr.fileno(), (t("serve.cli.stopping") + "\n").encode("utf-8"))

        def on_cancelled(count: int, seconds: float) -> None:
            line = t("serve.cli.cancelled", count=count, seconds=f"{seconds:g}")
            os.write(sys.stderr.fileno(), (line + "\n").encode("utf-8"))

        run_server(state, sock, on_stop, on_cancelled)
        console.print(t("serve.cli.stopped"), markup=False)
        ctx.exit(EXIT_OK)

    return serve
