"""``paddle-workbench validate FILE... [--json]``: check any workbench YAML file, every problem at once.

It reads the files only and never imports or runs the user's code: a ``task: custom`` entry is checked
for its form (``package.module:function``), and a line says so, because ``plan validate`` and ``train``
do import it (in a child process, for ``plan validate``).
"""

from __future__ import annotations

from pathlib import Path

import click

from workbench.cli.output import EXIT_BAD_INPUT, EXIT_OK, emit_json, human_console, print_issues
from workbench.config import ConfigError, ConfigIssue, validate_file
from workbench.i18n import t


def validate_command() -> click.Command:
    @click.command("validate", help=t("cli.validate.help"))
    @click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @click.pass_context
    def validate(ctx: click.Context, files: tuple[Path, ...], json_mode: bool) -> None:
        console = human_console(json_mode)
        all_issues: list[ConfigIssue] = []
        results: list[dict[str, object]] = []
        for path in files:
            try:
                kind, model = validate_file(path)
            except ConfigError as exc:
                all_issues.extend(exc.issues)
                results.append({"file": str(path), "ok": False, "kind": None})
                print_issues(console, exc.issues)
            else:
                entry = getattr(model, "entry", None) if getattr(model, "task", None) == "custom" else None
                result: dict[str, object] = {"file": str(path), "ok": True, "kind": kind.name}
                results.append(result)
                if entry:
                    result.update(entry=entry, entry_imported=False)
                    console.print(
                        t("cli.validate.entry_not_imported", file=str(path), entry=entry), markup=False
                    )
                console.print(t("cli.validate.ok", file=str(path), kind=t(kind.describe_key)), markup=False)
        if json_mode:
            emit_json(
                {
                    "ok": not all_issues,
                    "files": results,
                    "errors": [i.to_dict() for i in all_issues],
                    "warnings": [],
                }
            )
        if all_issues:
            console.print(t("cli.validate.summary", count=len(all_issues)))
        ctx.exit(EXIT_BAD_INPUT if all_issues else EXIT_OK)

    return validate
