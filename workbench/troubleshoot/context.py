"""A run in the store as ``diagnose`` input: its recorded traceback, ``logs.txt`` and per-rank worker logs.

A failed run opens straight into a diagnosis: the traceback of its ``RunFailed`` event (what the job
itself saw), the run's ``logs.txt`` (everything it printed, the launcher's tail included) and any
``workerlog.N`` files a ``paddle.distributed.launch`` job left in the run folder. Each becomes one
source, named so the quoted evidence says where a line came from.
"""

from __future__ import annotations

from pathlib import Path

from workbench.i18n import t
from workbench.runs import read_run_brief
from workbench.troubleshoot.diagnose import (
    MAX_BYTES,
    DiagnoseInputError,
    Diagnosis,
    decode_log,
    diagnose_texts,
)

_LOG_GLOBS = ("logs.txt", "workerlog.*", "*/workerlog.*", "ranks/*/*.log", "ranks/*/*.txt", "*.log")


def run_log_files(run_dir: Path) -> list[Path]:
    """The text logs of a run, ``logs.txt`` first, then worker logs by rank."""
    found: list[Path] = []
    for pattern in _LOG_GLOBS:
        for path in sorted(run_dir.glob(pattern)):
            if path.is_file() and path not in found:
                found.append(path)
    return found


def run_sources(run_dir: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """``(name, text)`` for every readable source of ``run_dir`` and notices; binary or empty files are
    skipped with a notice, never raised."""
    sources: list[tuple[str, str]] = []
    notices: list[str] = []
    brief = read_run_brief(run_dir)
    if brief.failure is not None:
        text = "\n".join(part for part in (brief.failure.traceback, brief.failure.error) if part)
        if text.strip():
            sources.append((t("diagnose.source.traceback"), text))
    for path in run_log_files(run_dir):
        name = str(path.relative_to(run_dir))
        try:
            size = path.stat().st_size
            with open(path, "rb") as fh:
                if size > MAX_BYTES:  # a huge log: its end holds the failure
                    fh.seek(size - MAX_BYTES)
                data = fh.read(MAX_BYTES)
            text, more = decode_log(data, name)
        except DiagnoseInputError as exc:
            notices.append(str(exc))
            continue
        except OSError as exc:
            notices.append(t("diagnose.input.unreadable", source=name, error=exc.strerror))
            continue
        sources.append((name, text))
        notices.extend(more)
    return sources, notices


def diagnose_run(run_dir: Path) -> Diagnosis:
    """Diagnose a run folder; raise :class:`DiagnoseInputError` when it has nothing to read."""
    sources, notices = run_sources(run_dir)
    if not sources:
        raise DiagnoseInputError(t("diagnose.input.run_no_logs", run=run_dir.name))
    return diagnose_texts(sources, notices)


FAMILY_FLOWS: dict[str, str] = {
    "imports": "import_fails",
    "libraries": "import_fails",
    "numpy_compat": "import_fails",
    "distributed": "parallel_hangs",
    "kernels": "op_unsupported",
    "device": "op_unsupported",
    "data": "lowcode_data",
    "checkpoints": "inference_disagrees",
    "numerics": "parallel_worse",
    "versions": "import_fails",
    "install": "import_fails",
    "deploy": "op_unsupported",
}
"""Signature family → the troubleshooting flow that continues from it."""


def flow_for(diagnosis: Diagnosis) -> str | None:
    """The flow matching the top-ranked known cause (``None`` when nothing matched or no flow fits)."""
    for match in diagnosis.matches:
        flow = FAMILY_FLOWS.get(match.id.split(".", 1)[0])
        if flow is not None:
            return flow
    return None


def open_failed_run(run_dir: Path) -> tuple[Diagnosis, str | None]:
    """A failed run opened for troubleshooting: its diagnosis and the flow to walk next."""
    diagnosis = diagnose_run(run_dir)
    return diagnosis, flow_for(diagnosis)


__all__ = ["FAMILY_FLOWS", "diagnose_run", "flow_for", "open_failed_run", "run_log_files", "run_sources"]
