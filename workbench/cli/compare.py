"""``paddle-workbench compare CONFIG_OR_RUN|EXPORT [--checkpoint STEP] [--repeat N] [--json]``: parity.

``EXPORT`` is an export the workbench did not make — a ``paddle.jit.save`` prefix or folder, or a
PaddleX/PaddleOCR inference-model folder — with ``--inputs FILE.npz`` or ``--shape [NAME=]D,…`` for its
input and ``--reference FILE.npz|RUN`` for what it should give (:mod:`workbench.inference.foreign`);
a PATH that is neither a run nor an export is bad input listing what was looked for.

Latency per path is the median and interquartile range of ``--repeat N`` timed calls after the warm-up
(``--repeats`` is the same option); where two paths' ranges overlap the output says so and claims no
order between them (``latency_comparison`` in ``--json``).

Presentation only: :func:`workbench.inference.run_comparison` does the work. Exit codes: 0 every path
(but the deliberate train-mode one) within tolerance and no failing finding, 1 the check found a
difference or a failing pitfall, 2 bad input (no such run, no checkpoint, a corrupt checkpoint or
export, a missing optional extra) — always a message with the fix, never a traceback.

paddle2onnx runs in a child process with a time limit (:mod:`workbench.inference.onnx_convert`): when it
aborts on an operator it has no converter for, the ``onnxruntime`` path is an error naming those
operators (a ``path_error`` and an ``onnx_unconvertible`` finding: exit 1) and every other path is still
measured and reported, in JSON and in the table. Ctrl-C or a time-out kills the conversion's whole
process group; SIGTERM and SIGHUP stop the command the same way as Ctrl-C, Paddle loaded or not (one
"stopped by SIG…" line, exit ``128 + signal``: :mod:`workbench.stop_signals`).
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from workbench.cli.output import EXIT_BAD_INPUT, EXIT_FAILURES, EXIT_OK, emit_json, human_console
from workbench.cli.state import pass_settings
from workbench.formatting import format_number
from workbench.i18n import t
from workbench.runs import RunStore
from workbench.settings import WorkbenchSettings

PRECISIONS = ("int8", "fp16")
"""``--precision`` values: :data:`workbench.inference.quantize.PRECISIONS` (not imported: start-up
stays free of numpy and the inference engine)."""


def compare_command() -> click.Command:
    @click.command("compare", help=t("cli.compare.help"))
    @click.argument("config_or_run")
    @click.option("--checkpoint", "step", type=int, default=None, help=t("inference.cli.opt.checkpoint"))
    @click.option(
        "--repeat",
        "--repeats",
        "repeats",
        type=click.IntRange(1, 10_000),
        default=20,
        help=t("inference.cli.opt.repeats"),
    )
    @click.option(
        "--batch-size", type=click.IntRange(1, 100_000), default=None, help=t("inference.cli.opt.batch")
    )
    @click.option("--onnx/--no-onnx", default=None, help=t("inference.cli.opt.onnx"))
    @click.option(
        "--precision",
        "precision",
        multiple=True,
        type=click.Choice(PRECISIONS),
        help=t("precision.cli.opt"),
    )
    @click.option("--path", "paths", multiple=True, help=t("inference.cli.opt.path"))
    @click.option(
        "--matrix-out",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=t("inference.cli.opt.matrix_out"),
    )
    @click.option(
        "--inputs",
        "inputs_file",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=t("inference.foreign.opt.inputs"),
    )
    @click.option("--shape", "shapes", multiple=True, help=t("inference.foreign.opt.shape"))
    @click.option("--reference", default=None, help=t("inference.foreign.opt.reference"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @pass_settings
    @click.pass_context
    def compare(
        ctx: click.Context,
        settings: WorkbenchSettings,
        config_or_run: str,
        step: int | None,
        repeats: int,
        batch_size: int | None,
        onnx: bool | None,
        precision: tuple[str, ...],
        paths: tuple[str, ...],
        matrix_out: Path | None,
        inputs_file: Path | None,
        shapes: tuple[str, ...],
        reference: str | None,
        json_mode: bool,
    ) -> None:
        from workbench.inference import CompareInputError, CompareOptions, run_comparison
        from workbench.inference.foreign import ForeignOptions, compare_export, resolve_target
        from workbench.inference.report import latency_comparison, write_report

        console = human_console(json_mode)

        def matrix_out_exists() -> None:
            """A located refusal, exit 2: ``--matrix-out`` names a file that exists (never replaced)."""
            message = t("inference.cli.matrix_out_exists", path=str(matrix_out))
            console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message))
            if json_mode:
                emit_json({"ok": False, "errors": [message], "reference": None, "paths": [], "findings": []})
            ctx.exit(EXIT_BAD_INPUT)

        if matrix_out is not None and (matrix_out.exists() or matrix_out.is_symlink()):
            matrix_out_exists()  # before the comparison's minutes, not after
        store = RunStore(settings.workspace)
        options = CompareOptions(
            checkpoint=step,
            repeats=repeats,
            batch_size=batch_size,
            onnx=onnx,
            paths=list(paths) or None,
            precision=list(dict.fromkeys(precision)),
        )

        def progress(stage: str, name: str | None) -> None:
            console.print(
                t("inference.cli.progress", stage=stage, path=name or ""), markup=False, style="dim"
            )

        try:
            target = resolve_target(config_or_run, store)
            export_only = [
                name
                for name, given in (
                    ("--inputs", inputs_file),
                    ("--shape", shapes),
                    ("--reference", reference),
                )
                if given
            ]
            if isinstance(target, Path) and export_only:
                raise CompareInputError(
                    [t("inference.foreign.export_only", options=", ".join(export_only), ref=config_or_run)]
                )
            if isinstance(target, Path):
                result = run_comparison(target, store, options, progress)
            elif batch_size is not None or precision:
                run_only = (
                    "--batch-size" if batch_size is not None else "",
                    "--precision" if precision else "",
                )
                raise CompareInputError(
                    [t("inference.foreign.run_only", option=", ".join(o for o in run_only if o))]
                )
            else:
                foreign = ForeignOptions(
                    inputs=inputs_file,
                    shapes=shapes,
                    reference=reference,
                    checkpoint=step,
                    repeats=repeats,
                    onnx=onnx,
                    paths=list(paths) or None,
                )
                result = compare_export(target, store, foreign, progress)
        except CompareInputError as exc:
            for message in exc.messages:
                console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message))
            if json_mode:
                emit_json(
                    {"ok": False, "errors": exc.messages, "reference": None, "paths": [], "findings": []}
                )
            ctx.exit(EXIT_BAD_INPUT)
        json_path, md_path = write_report(result)
        if matrix_out is not None:
            from workbench.inference.matrix import read_rows, to_csv, to_json
            from workbench.permissions import create_private

            rows = read_rows(store.workspace)
            text = to_json(rows) if matrix_out.suffix.lower() == ".json" else to_csv(rows)
            try:
                create_private(matrix_out, text)  # O_EXCL: a file that appeared meanwhile is not replaced
            except FileExistsError:
                matrix_out_exists()
            except OSError as exc:
                console.print(
                    t("inference.cli.matrix_out_failed", path=str(matrix_out), error=str(exc)), markup=False
                )
                ctx.exit(EXIT_BAD_INPUT)
        doc = result.to_dict()
        doc["reports"] = {"json": str(json_path), "markdown": str(md_path)}
        doc["latency_comparison"] = latency_comparison(doc)
        if result.foreign is not None:
            header = t(
                "inference.foreign.cli.header", export=result.foreign["prefix"], kind=result.foreign["kind"]
            )
        else:
            header = t("inference.cli.header", run=result.run_dir.name, step=result.checkpoint["step"])
        console.print(header, markup=False)
        for note in result.notes:
            console.print(f"  {note}", markup=False)
        table = Table(box=None, pad_edge=False)
        for key in ("path", "status", "diff", "cosine", "agree", "latency", "iqr", "load"):
            table.add_column(t(f"inference.cli.col.{key}"), no_wrap=key == "path")
        n = doc["batch"]["size"]
        ref = result.reference.get("latency") or {}
        if result.reference.get("kind") != "anchor":  # an anchor is one of the paths below
            table.add_row(
                str(result.reference.get("name", "dygraph_eval")), "reference", "0", "1", "-",
                f"{format_number(ref.get('batch_1', {}).get('median'))} / "
                f"{format_number(ref.get(f'batch_{n}', {}).get('median'))}",
                _spread(ref.get(f"batch_{n}")), "-",
            )  # fmt: skip
        for path in result.paths:
            status = path["status"]
            key = "deliberate" if path["deliberate"] and status == "exceeds" else status
            style = {"ok": "green", "exceeds": "bold red", "error": "bold red", "deliberate": "yellow"}.get(
                key, "dim"
            )
            agree = path.get("string_agreement", path.get("top1_agreement"))
            latency = path.get("latency") or {}
            table.add_row(
                path["name"],
                Text(t(f"inference.cli.status.{key}"), style=style),
                format_number(path["max_abs_diff"]),
                format_number(path["cosine"], ".6f"),
                format_number(agree, ".0%"),
                f"{format_number(latency.get('batch_1', {}).get('median'))} / {format_number(latency.get(f'batch_{n}', {}).get('median'))}",
                _spread(latency.get(f"batch_{n}")),
                format_number(path.get("load_s"), ".2f"),
            )
        console.print(table)
        for verdict in doc["latency_comparison"].values():
            console.print(f"  {verdict['note']}", markup=False, style="dim")
        for finding in result.findings:
            colour = {"fail": "bold red", "warn": "yellow"}.get(finding.severity, "dim")
            console.print(Text.assemble((f"[{finding.severity}] {finding.id}: ", colour), finding.summary))
            if finding.fix:
                console.print(Text(f"    {t('inference.report.fix')}: {finding.fix}", style="dim"))
        console.print(
            t(
                "inference.cli.matrix",
                count=len(result.matrix_rows),
                path=str(store.workspace / "matrix.jsonl"),
            ),
            markup=False,
        )
        console.print(t("inference.cli.reports", md=str(md_path), json=str(json_path)), markup=False)
        console.print(
            t("inference.cli.summary_fail" if result.failed else "inference.cli.summary_ok"), markup=False
        )
        if json_mode:
            emit_json(doc)
        ctx.exit(EXIT_FAILURES if result.failed else EXIT_OK)

    return compare


def _spread(stats: dict[str, float] | None) -> str:
    """``0.12 (20)``: the interquartile range of the run-batch timings and how many calls were timed."""
    if not stats or stats.get("iqr") is None:
        return "-"
    return f"{format_number(stats['iqr'])} ({int(stats.get('samples', 0))})"
