"""The shareable report bundle: one markdown file (and JSON beside it) about one run, ready for an issue.

What goes in: the environment verdicts (a stored ``check`` reused, one run now, or none — the report
says which), the run's config and fingerprint, how it ended, the last lines of each log (per rank), its
alerts, the compare reports it has (``reports/compare-*.json``) and the ``diagnose`` result over its
logs. A report never carries a process environment: every dump is dropped
(:class:`~workbench.troubleshoot.redact.EnvironmentFilter`) and only the variables that change Paddle's
behaviour are listed. ``redact=True`` passes everything through
:class:`~workbench.troubleshoot.redact.Redactor` too; what went is counted by kind (``doc["redactions"]``).

Writing never replaces a file: an ``--output`` whose markdown or JSON exists is refused
(:class:`ReportExists`), a default name taken in the same second gets ``-2``, ``-3``… Reports, their
folders and stored checks are created owner-only (0600/0700).

Stored environment checks live in ``<workspace>/reports/check-<time>.json`` (the ``check --json``
document); running the check for a report writes one there, so the next report reuses it.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from workbench.events import AlertRaised
from workbench.i18n import t
from workbench.overview import overview_of_record
from workbench.permissions import create_private, private_dir
from workbench.runs import read_run, read_run_doc_environment
from workbench.troubleshoot.context import run_log_files, run_sources
from workbench.troubleshoot.diagnose import (
    DiagnoseInputError,
    diagnose_texts,
    similar_lines,
    unrecognised_lines,
)
from workbench.troubleshoot.redact import EnvironmentFilter, Redactor

TAIL_LINES = 20
"""Last lines quoted per log (per rank)."""

EnvMode = Literal["auto", "run", "stored", "skip"]


@dataclass
class Bundle:
    """A report ready to write: the JSON document and its markdown rendering."""

    doc: dict[str, Any]
    markdown: str
    notes: list[str] = field(default_factory=list)

    @property
    def redactions(self) -> dict[str, int]:
        """What was taken out, by kind (``environment``: variables of dropped dumps)."""
        return dict(self.doc.get("redactions") or {})


class ReportExists(FileExistsError):
    """The report's markdown or JSON file is already there; nothing was written."""

    def __init__(self, paths: list[Path]) -> None:
        super().__init__(", ".join(str(p) for p in paths))
        self.paths = paths


def stored_checks(workspace: Path) -> list[Path]:
    """Stored environment checks of the workspace, newest first."""
    folder = workspace / "reports"
    return sorted(folder.glob("check-*.json"), reverse=True) if folder.is_dir() else []


def _environment(workspace: Path, mode: EnvMode, timeout_s: float) -> dict[str, Any]:
    if mode == "skip":
        return {"source": "skipped", "checks": [], "note": t("report.env.skipped")}
    stored = stored_checks(workspace)
    if stored and mode in ("auto", "stored"):
        try:
            doc = json.loads(stored[0].read_text(encoding="utf-8"))
            taken = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(doc.get("started") or 0)))
            return {
                "source": "stored",
                "file": str(stored[0]),
                "checks": list(doc.get("checks") or []),
                "note": t("report.env.stored", file=stored[0].name, taken=taken),
            }
        except (OSError, ValueError, TypeError):
            pass
    if mode == "stored":
        return {"source": "none", "checks": [], "note": t("report.env.none")}
    from workbench.envcheck.engine import run_checks

    report = run_checks(timeout_s=timeout_s)
    doc = report.to_dict()
    folder = workspace / "reports"
    path = folder / f"check-{time.strftime('%Y%m%d-%H%M%S')}.json"
    try:
        private_dir(folder, ours=True)
        create_private(path, json.dumps(doc, default=str, ensure_ascii=False, indent=1))
    except OSError:
        pass
    return {"source": "ran", "file": str(path), "checks": doc["checks"], "note": t("report.env.ran")}


def _tails(run_dir: Path) -> dict[str, list[str]]:
    tails: dict[str, list[str]] = {}
    for path in run_log_files(run_dir):
        try:
            with open(path, "rb") as fh:
                fh.seek(0, 2)
                size = fh.tell()
                fh.seek(max(0, size - 256_000))
                text = fh.read().decode("utf-8", errors="replace")
        except OSError:
            continue
        lines = [line.rstrip("\r") for line in text.splitlines() if line.strip()]
        tails[str(path.relative_to(run_dir))] = lines[-TAIL_LINES:]
    return tails


def _compares(run_dir: Path) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for path in sorted((run_dir / "reports").glob("compare-*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        found.append(
            {
                "file": path.name,
                "checkpoint": doc.get("checkpoint", {}).get("step")
                if isinstance(doc.get("checkpoint"), dict)
                else None,
                "ok": doc.get("ok"),
                "paths": [
                    {k: p.get(k) for k in ("name", "status", "max_abs_diff", "cosine", "top1_agreement")}
                    for p in doc.get("paths") or []
                    if isinstance(p, dict)
                ],
                "findings": [
                    {k: f.get(k) for k in ("id", "severity", "summary", "fix")}
                    for f in doc.get("findings") or []
                    if isinstance(f, dict)
                ],
            }
        )
    return found


def build_bundle(
    run_dir: Path,
    workspace: Path,
    *,
    env: EnvMode = "auto",
    redact: bool = False,
    timeout_s: float = 60.0,
    progress: Callable[[str], None] | None = None,
) -> Bundle:
    """Collect everything about ``run_dir`` into a report (not yet written)."""
    record = read_run(run_dir)
    summary = record.summary
    say = progress or (lambda _msg: None)
    say(t("report.progress.env"))
    environment = _environment(workspace, env, timeout_s)
    say(t("report.progress.diagnose"))
    sources, notices = run_sources(run_dir)
    try:
        diagnosis = diagnose_texts(sources, notices).to_dict() if sources else None
    except DiagnoseInputError:
        diagnosis = None
    failure = record.failure
    alerts = [
        {"kind": e.kind, "message": e.message, "step": e.step, "rank": e.rank}
        for e in record.events
        if isinstance(e, AlertRaised)
    ]
    doc: dict[str, Any] = {
        "run_id": summary.run_id,
        "run_dir": str(run_dir),
        "name": summary.name,
        "status": summary.status,
        "last_step": summary.last_step,
        "generated": time.strftime("%Y-%m-%d %H:%M:%S"),
        "redacted": redact,
        "environment": environment,
        "fingerprint": read_run_doc_environment(run_dir),
        "config": record.config,
        "failure": {
            "error": failure.error,
            "traceback": failure.traceback,
            "step": failure.step,
            "rank": failure.rank,
        }
        if failure is not None
        else None,
        "alerts": alerts,
        "logs": _tails(run_dir),
        "compare": _compares(run_dir),
        "diagnosis": diagnosis,
    }
    # The monitor's overview (v): duration, best eval values, the user's code version, the dataset.
    overview = overview_of_record(run_dir, record).to_dict()
    doc["overview"] = {"summary": overview["summary"], "environment": overview["environment"]}
    # Never a process environment, redacted or not: dumps go, Paddle's own variables are listed.
    environ = EnvironmentFilter()
    doc = environ.value(doc)
    counts: dict[str, int] = {"environment": environ.dropped} if environ.dropped else {}
    doc["environment_variables"] = dict(sorted(environ.variables.items()))
    if redact:
        hosts = Redactor.discover_hosts(text for _, text in sources)
        redactor = Redactor(hosts)
        doc = redactor.value(doc)
        doc["redacted"] = True
        counts.update({kind: n for kind, n in sorted(redactor.counts.items()) if n})
    doc["redactions"] = counts
    return Bundle(doc, to_markdown(doc))


def _fence(lines: list[str] | str) -> str:
    body = lines if isinstance(lines, str) else "\n".join(lines)
    return "```\n" + body.replace("```", "ʼʼʼ") + "\n```\n"


def to_markdown(doc: dict[str, Any]) -> str:
    """The report as markdown, in the order a reader needs it: what failed, why, then the context."""
    out = [f"# {t('report.md.title', run=doc['run_id'])}\n"]
    out.append(
        t(
            "report.md.summary",
            status=doc["status"],
            step=doc["last_step"] if doc["last_step"] is not None else "-",
        )
        + "\n"
    )
    if doc["redacted"]:
        out.append(f"_{t('report.md.redacted')}_\n")
    if doc.get("redactions"):
        out.append(f"_{t('report.md.redactions', summary=redaction_summary(doc['redactions']))}_\n")
    diagnosis = doc.get("diagnosis")
    out.append(f"\n## {t('report.md.diagnosis')}\n")
    if diagnosis and diagnosis["matches"]:
        for i, match in enumerate(diagnosis["matches"], 1):
            out.append(
                f"{i}. **{match['title']}** (`{match['id']}`)  \n   {match['cause']}  \n   → {match['fix']}\n"
            )
            out.append(_fence(match["evidence"]))
    elif diagnosis and diagnosis.get("kind") == "unrecognised":
        out.append("\n".join(unrecognised_lines(diagnosis)) + "\n")
    else:
        out.append(t("diagnose.cli.none") + "\n")
    similar = similar_lines(diagnosis) if diagnosis else []
    if similar:
        out.append("\n" + "\n".join(similar) + "\n")
    failure = doc.get("failure")
    if failure:
        out.append(f"\n## {t('report.md.failure')}\n")
        out.append(_fence(failure.get("traceback") or failure.get("error") or ""))
    out.append(f"\n## {t('report.md.alerts')}\n")
    if doc["alerts"]:
        for alert in doc["alerts"]:
            out.append(
                f"- step {alert['step']}, rank {alert['rank']}: `{alert['kind']}` {alert['message']}\n"
            )
    else:
        out.append(t("report.md.none") + "\n")
    env = doc["environment"]
    out.append(f"\n## {t('report.md.environment')}\n\n{env['note']}\n\n")
    if env["checks"]:
        out.append("| check | status | summary |\n|---|---|---|\n")
        for check in env["checks"]:
            summary = str(check.get("summary", "")).replace("|", "\\|")
            out.append(f"| {check.get('id')} | {check.get('status')} | {summary} |\n")
    out.append(f"\n## {t('report.md.compare')}\n")
    if doc["compare"]:
        for report in doc["compare"]:
            out.append(
                f"\n`{report['file']}` — ok: {report['ok']}\n\n| path | status | max abs diff |\n|---|---|---|\n"
            )
            for path in report["paths"]:
                out.append(f"| {path['name']} | {path['status']} | {path['max_abs_diff']} |\n")
            for finding in report["findings"]:
                out.append(f"- {finding['severity']}: {finding['summary']}\n")
    else:
        out.append(t("report.md.none") + "\n")
    out.append(f"\n## {t('report.md.logs')}\n")
    for name, lines in doc["logs"].items():
        out.append(f"\n### {name}\n")
        out.append(_fence(lines))
    out.append(f"\n## {t('report.md.env_vars')}\n\n")
    if doc.get("environment_variables"):
        out.append(_fence([f"{k}={v}" for k, v in doc["environment_variables"].items()]))
    else:
        out.append(t("report.md.none") + "\n")
    out.append(f"\n## {t('report.md.config')}\n")
    out.append("```yaml\n" + yaml.safe_dump(doc["config"], sort_keys=False, allow_unicode=True) + "```\n")
    out.append(f"\n## {t('report.md.fingerprint')}\n")
    out.append(
        "```yaml\n" + yaml.safe_dump(doc["fingerprint"], sort_keys=False, allow_unicode=True) + "```\n"
    )
    return "".join(out)


def redaction_summary(counts: dict[str, int]) -> str:
    """``12 secret values, 3 host names, …`` in the user's language, largest first."""
    shown = sorted(((n, kind) for kind, n in counts.items() if n), key=lambda item: (-item[0], item[1]))
    return t("report.redact.sep").join(t(f"report.redact.kind.{kind}", count=n) for n, kind in shown)


def json_beside(markdown: Path) -> Path:
    """The JSON file written beside ``markdown`` (``X.md`` → ``X.json``; never ``markdown`` itself)."""
    path = markdown.with_suffix(".json")
    return path if path != markdown else markdown.with_name(markdown.name + ".json")


MAX_NAME_TRIES = 100


def write_bundle(bundle: Bundle, output: Path | None, run_dir: Path) -> tuple[Path, Path]:
    """Write the markdown and the JSON beside it, both new files created 0600; return both paths.

    Never replaces a file: a chosen ``output`` whose markdown or JSON exists raises
    :class:`ReportExists` (nothing written); the default ``RUN/reports/report-<time>.md`` takes the next
    free ``-2``, ``-3``… name. ``OSError`` on other failures."""
    chosen = output is not None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    text = json.dumps(bundle.doc, ensure_ascii=False, indent=2, default=str)
    existing: list[Path] = []
    for attempt in range(1, MAX_NAME_TRIES + 1):
        suffix = "" if attempt == 1 else f"-{attempt}"
        md_path = output if output is not None else run_dir / "reports" / f"report-{stamp}{suffix}.md"
        json_path = json_beside(md_path)
        existing = [p for p in (md_path, json_path) if os.path.lexists(p)]
        if not existing:
            private_dir(md_path.parent, ours=not chosen)
            try:
                create_private(md_path, bundle.markdown)
            except FileExistsError:  # made meanwhile
                existing = [md_path]
            else:
                try:
                    create_private(json_path, text)
                    return md_path, json_path
                except BaseException as exc:  # never a markdown without its JSON
                    md_path.unlink()
                    if not isinstance(exc, FileExistsError):
                        raise
                    existing = [json_path]
        if chosen:
            break
    raise ReportExists(existing)


__all__ = [
    "Bundle",
    "EnvMode",
    "ReportExists",
    "build_bundle",
    "json_beside",
    "redaction_summary",
    "stored_checks",
    "to_markdown",
    "write_bundle",
    "write_findings",
]


def write_findings(
    workspace: Path,
    title: str,
    finding: dict[str, Any] | None,
    diagnosis: dict[str, Any] | None,
    *,
    redact: bool = False,
) -> Path:
    """The wizard's "export report": the walked flow's finding and/or a diagnosis as one markdown file in
    ``<workspace>/reports/wizard-<time>.md`` (``OSError`` if it cannot be written)."""
    doc: dict[str, Any] = {"title": title, "finding": finding, "diagnosis": diagnosis}
    doc = EnvironmentFilter().value(doc)
    if redact:
        doc = Redactor().value(doc)
    out = [f"# {doc['title']}\n"]
    if doc["finding"]:
        found = doc["finding"]
        out.append(f"\n## {found['title']}\n\n{found['cause']}\n\n→ {found['fix']}\n\n")
        out.append(_fence(found["evidence"]))
    if doc["diagnosis"]:
        out.append(f"\n## {t('report.md.diagnosis')}\n")
        for i, match in enumerate(doc["diagnosis"]["matches"], 1):
            out.append(
                f"{i}. **{match['title']}** (`{match['id']}`)  \n   {match['cause']}  \n   → {match['fix']}\n"
            )
            out.append(_fence(match["evidence"]))
        if not doc["diagnosis"]["matches"]:  # no known cause: the reading the wizard showed, or that none
            reading = unrecognised_lines(doc["diagnosis"])
            out.append("\n".join(reading) + "\n" if reading else t("diagnose.cli.none") + "\n")
        similar = similar_lines(doc["diagnosis"])
        if similar:
            out.append("\n" + "\n".join(similar) + "\n")
    folder = private_dir(workspace / "reports", ours=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for attempt in range(1, MAX_NAME_TRIES + 1):
        path = folder / (f"wizard-{stamp}.md" if attempt == 1 else f"wizard-{stamp}-{attempt}.md")
        try:
            return create_private(path, "".join(out))  # never over an earlier export
        except FileExistsError:
            continue
    raise ReportExists([path])
