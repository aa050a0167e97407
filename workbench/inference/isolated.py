"""A whole comparison in a child process, for a caller that must outlive it (the TUI's compare mode).

A comparison rebuilds the model (a ``task: custom`` run imports the user's module), exports it with
``paddle.jit.save``, opens Paddle Inference predictors and converts with paddle2onnx: native code that
can abort the process. The TUI hosts in-process training runs, so it never does this itself:
:func:`compare_in_child` runs ``python -m workbench.inference.isolated`` through
:mod:`workbench.isolate` (own process group, time limit, killed whole when the screen's worker is
cancelled — quitting the TUI — or on a time-out). The child streams ``{"progress": [stage, path]}`` on
marked lines, writes the reports, and ends with ``{"result": doc}`` (``CompareResult.to_dict()`` plus
``reports``) or ``{"errors": [...]}`` (bad input). A child that dies is a :class:`CompareCrashed`
naming how it ended and its last output.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from workbench.i18n import t
from workbench.inference.source import CompareInputError
from workbench.isolate import (
    Cancel,
    Child,
    ChildTimeout,
    describe_exit,
    emit_marked,
    format_seconds,
    parse_marked,
    parse_marked_line,
    run_module,
    watch_parent,
)

COMPARE_TIMEOUT_S = 1800.0
"""A comparison of a small model takes seconds to a minute; half an hour is a hang."""


class CompareCrashed(Exception):
    """The comparison's child process died or hung; the message says how, with its last output."""


def main(argv: Sequence[str] | None = None) -> int:
    """``--workspace WS [--checkpoint N] [--repeats R] RUN``: compare, write the reports, print the
    marked documents (see the module docstring). Exit 0, or 2 for bad input."""
    parser = argparse.ArgumentParser(prog="python -m workbench.inference.isolated")
    parser.add_argument("--workspace", required=True)
    parser.add_argument("--checkpoint", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("run")
    args = parser.parse_args(argv)
    watch_parent()

    from workbench.inference.engine import CompareOptions, run_comparison
    from workbench.inference.report import write_report
    from workbench.runs import RunStore

    def progress(stage: str, name: str | None) -> None:
        emit_marked({"progress": [stage, name]})

    options = CompareOptions(checkpoint=args.checkpoint, repeats=args.repeats)
    try:
        result = run_comparison(args.run, RunStore(Path(args.workspace)), options, progress)
    except CompareInputError as exc:
        emit_marked({"errors": list(exc.messages)})
        return 2
    json_path, md_path = write_report(result)
    doc = result.to_dict()
    doc["reports"] = {"json": str(json_path), "markdown": str(md_path)}
    emit_marked({"result": doc})
    return 0


def compare_in_child(
    workspace: Path,
    ref: str,
    *,
    checkpoint: int | None = None,
    repeats: int = 20,
    progress: Callable[[str, str | None], None] | None = None,
    cancel: Cancel | None = None,
    timeout_s: float = COMPARE_TIMEOUT_S,
    started: Callable[[Child], None] | None = None,
) -> dict[str, Any]:
    """The comparison document of ``ref`` (a run or config), computed in a child process.

    Raises :class:`~workbench.inference.source.CompareInputError` (bad input, as the CLI reports it),
    :class:`CompareCrashed` (the child died or ran past ``timeout_s``) and
    :class:`~workbench.isolate.ChildCancelled` (``cancel`` was set; the child's group is gone).
    """
    args = ["--workspace", str(workspace), "--repeats", str(repeats)]
    if checkpoint is not None:
        args += ["--checkpoint", str(checkpoint)]
    args.append(ref)

    def on_line(line: str) -> None:
        document = parse_marked_line(line)
        if document is not None and "progress" in document and progress is not None:
            stage, name = document["progress"]
            progress(str(stage), None if name is None else str(name))

    try:
        result = run_module(
            "workbench.inference.isolated",
            args,
            timeout_s=timeout_s,
            cancel=cancel,
            on_line=on_line,
            started=started,
        )
    except ChildTimeout as exc:
        raise CompareCrashed(
            t(
                "inference.isolated.timed_out",
                seconds=format_seconds(exc.seconds),
                tail=exc.output_tail or "-",
            )
        ) from None
    document = parse_marked(result.stdout) or {}
    if "result" in document:
        return dict(document["result"])
    if "errors" in document:
        raise CompareInputError([str(m) for m in document["errors"]])
    raise CompareCrashed(
        t("inference.isolated.crashed", how=describe_exit(result.returncode), tail=result.output_tail or "-")
    )


if __name__ == "__main__":
    sys.exit(main())
