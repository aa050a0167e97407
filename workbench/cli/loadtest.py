"""``paddle-workbench loadtest URL --concurrency C --requests N [--duration S]``: measure a served model.

Presentation only; :mod:`workbench.serve.loadtest` does the work. The token comes from ``--token``,
else ``PADDLE_WORKBENCH_SERVE_TOKEN``, else the workspace's token file (the one ``serve`` made).
The report goes into the served run's ``reports/`` (found by the run id the server names, in this
workspace; else ``<workspace>/reports/``) and a row into the workspace's compatibility matrix.
Exit codes: 0 every request answered 200, 1 some did not, 2 bad input (a remote target without
``--allow-remote``, no token, a server that does not answer ``GET /model``).
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.text import Text

from workbench.cli.output import EXIT_BAD_INPUT, EXIT_FAILURES, EXIT_OK, emit_json, human_console
from workbench.cli.state import pass_settings
from workbench.i18n import t
from workbench.runs import RunStore
from workbench.settings import WorkbenchSettings


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def loadtest_command() -> click.Command:
    @click.command("loadtest", help=t("cli.loadtest.help"))
    @click.argument("url")
    @click.option("--concurrency", "-c", type=click.IntRange(1, 256), default=4, show_default=True,
                  help=t("loadtest.cli.opt.concurrency"))  # fmt: skip
    @click.option("--requests", "-n", "count", type=click.IntRange(1, 1_000_000), default=200,
                  show_default=True, help=t("loadtest.cli.opt.requests"))  # fmt: skip
    @click.option("--duration", type=click.FloatRange(0.1, 3600), default=60.0, show_default=True,
                  help=t("loadtest.cli.opt.duration"))  # fmt: skip
    @click.option("--token", default=None, help=t("loadtest.cli.opt.token"))
    @click.option("--image", "images", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
                  help=t("loadtest.cli.opt.image"))  # fmt: skip
    @click.option("--allow-remote", is_flag=True, help=t("loadtest.cli.opt.allow_remote"))
    @click.option("--no-record", is_flag=True, help=t("loadtest.cli.opt.no_record"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @pass_settings
    @click.pass_context
    def loadtest(
        ctx: click.Context,
        settings: WorkbenchSettings,
        url: str,
        concurrency: int,
        count: int,
        duration: float,
        token: str | None,
        images: tuple[Path, ...],
        allow_remote: bool,
        no_record: bool,
        json_mode: bool,
    ) -> None:
        from workbench.serve import LOADTEST_MODULES, SERVE_FIX, missing_modules

        console = human_console(json_mode)

        def fail(messages: list[str]) -> None:
            for message in messages:
                console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message))
            if json_mode:
                emit_json({"ok": False, "errors": messages})
            ctx.exit(EXIT_BAD_INPUT)

        missing = missing_modules(LOADTEST_MODULES)
        if missing:
            fail([t("serve.input.extra_missing", modules=", ".join(missing), fix=SERVE_FIX)])
        from workbench.serve.auth import TOKEN_ENV, read_token, token_path
        from workbench.serve.loadtest import LoadtestInputError, check_target, record_result, run_loadtest

        problems = check_target(url, allow_remote)
        store = RunStore(settings.workspace)
        secret = token or read_token(store.workspace) or ""
        if not secret:
            problems.append(
                t("loadtest.input.no_token", path=str(token_path(store.workspace)), env=TOKEN_ENV)
            )
        if problems:
            fail(problems)
        try:
            result = run_loadtest(
                url, token=secret, concurrency=concurrency, requests=count, duration_s=duration, images=images
            )
        except LoadtestInputError as exc:
            fail(exc.messages)
            return
        doc = result.to_dict()
        if not no_record:
            doc.update(record_result(result, store))
        lat = doc["latency_ms"]
        console.print(
            t(
                "loadtest.cli.summary",
                url=result.url,
                concurrency=concurrency,
                sent=result.sent,
                ok=result.ok,
            ),
            markup=False,
        )
        console.print(
            t("loadtest.cli.figures", rps=f"{result.throughput_rps:.1f}", p50=_ms(lat["p50"]),
              p90=_ms(lat["p90"]), p99=_ms(lat["p99"])),
            markup=False,
        )  # fmt: skip
        if result.errors:
            errors = ", ".join(f"{status}×{n}" for status, n in sorted(result.errors.items()))
            console.print(t("loadtest.cli.errors", errors=errors), style="bold red", markup=False)
            if "429" in result.errors:
                console.print(t("loadtest.cli.rate_limited"), markup=False)
        if "reports" in doc:
            console.print(t("loadtest.cli.reports", md=doc["reports"]["markdown"]), markup=False)
        doc["ok"] = not result.errors and result.ok > 0
        if json_mode:
            emit_json(doc)
        ctx.exit(EXIT_OK if doc["ok"] else EXIT_FAILURES)

    return loadtest
