"""The diagnose corpus (``tests/data/diagnose_corpus/``): read it, check its format, score an engine on it.

Shared by ``benchmarks/diagnose.py --corpus`` (the figures) and ``tests/unit/test_diagnose_corpus.py``
(the floors). Imports nothing of the workbench: the engine to score is passed in as a function, so the
benchmark can score an older tree's engine as well (``--engine DIR``).

A log file is header lines (``# key: value``), a line ``---``, then the log as a user pasted it (format
and rules: the corpus README). Three parts: ``dev/`` (read while writing signatures), ``test/`` (only
scored: nothing here prints which of its logs missed), ``clean/`` (normal kit output: any claim there is
a false claim).
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PARTS = ("dev", "test", "clean")
REQUIRED = ("source", "cause", "established-by", "expected")
OPTIONAL = ("versions", "collected")
"""``collected``: the day a later batch was added (``YYYY-MM-DD``); the first batch (2026-12-01) has none."""
DEV_ONLY_BATCHES = ("2026-12-02b", "2026-12-02c", "2026-12-02d", "2026-12-02e")
"""Batches (their ``collected`` value) gathered for ``dev/`` alone, to give signature writers more real
wordings to learn from while the test part stayed as it was: the split rule does not place them, and none
may sit in ``test/`` (a log placed by hand would no longer be a blind sample)."""
ESTABLISHED_BY = ("user-fix", "maintainer")
NAME = re.compile(r"^(?P<repo>[A-Za-z0-9][A-Za-z0-9._-]*)-(?P<number>[0-9]+)\.log$")
SOURCE = re.compile(
    r"^https://github\.com/(?P<owner>[A-Za-z0-9_.-]+)/(?P<repo>[A-Za-z0-9_.-]+)/"
    r"(?:issues|pull|discussions)/(?P<number>[0-9]+)$"
)
ID = re.compile(r"^[a-z0-9_]+\.[a-z0-9_]+$")


@dataclass(frozen=True)
class CorpusLog:
    """One log of the corpus."""

    path: Path
    part: str
    headers: dict[str, str]
    body: str

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def expected(self) -> tuple[str, ...]:
        value = self.headers.get("expected", "").strip()
        if value == "none":
            return ()
        return tuple(part.strip() for part in value.split(",") if part.strip())

    @property
    def family(self) -> str:
        """The family the log is scored under: its first expected id's prefix (``clean`` for clean logs)."""
        return self.expected[0].split(".", 1)[0] if self.expected else "clean"


def split_of(source: str) -> str:
    """The corpus split rule: ``test`` when the SHA-1 of the source URL ends in an even hex digit."""
    return "test" if int(hashlib.sha1(source.encode()).hexdigest()[-1], 16) % 2 == 0 else "dev"


def parse(path: Path, part: str) -> tuple[CorpusLog | None, list[str]]:
    """Read one log file; return it and the format problems found (located to the file)."""
    problems: list[str] = []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [f"{part}/{path.name}: cannot read ({exc})"]
    head, sep, body = text.partition("\n---\n")
    if not sep:
        return None, [f"{part}/{path.name}: no '---' line between the header and the log"]
    headers: dict[str, str] = {}
    for number, line in enumerate(head.splitlines(), 1):
        found = re.match(r"^# ([a-z-]+):\s*(.*?)\s*$", line)
        if found is None:
            problems.append(f"{part}/{path.name}:{number}: not a '# key: value' header line")
            continue
        key, value = found.group(1), found.group(2)
        if key not in REQUIRED + OPTIONAL:
            problems.append(f"{part}/{path.name}:{number}: unknown header '{key}'")
        if key in headers:
            problems.append(f"{part}/{path.name}:{number}: header '{key}' given twice")
        headers[key] = value
    required = REQUIRED if part != "clean" else tuple(k for k in REQUIRED if k != "established-by")
    problems += [f"{part}/{path.name}: header '{key}' missing" for key in required if not headers.get(key)]
    if not body.strip():
        problems.append(f"{part}/{path.name}: the log is empty")
    if "\r" in text:
        problems.append(f"{part}/{path.name}: CR characters (the corpus is CRLF-free)")
    return CorpusLog(path, part, headers, body), problems


def load(folder: Path, parts: Sequence[str] = PARTS) -> tuple[list[CorpusLog], list[str]]:
    """Every log of ``parts`` under ``folder`` and every format problem (header, names, split rule)."""
    logs: list[CorpusLog] = []
    problems: list[str] = []
    for part in parts:
        for path in sorted((folder / part).glob("*")):
            if path.name.startswith(".") or path.is_dir():
                continue
            log, found = parse(path, part)
            problems += found
            if log is not None:
                logs.append(log)
    problems += check_logs(logs)
    return logs, problems


def check_logs(logs: Iterable[CorpusLog]) -> list[str]:
    """The rules across files: file named after its thread, one log per thread, the split rule, clean
    logs expect nothing and error logs expect ids, ``established-by`` is one of the two words."""
    problems: list[str] = []
    seen_names: dict[str, str] = {}
    seen_sources: dict[str, str] = {}
    for log in logs:
        where = f"{log.part}/{log.name}"
        name = NAME.match(log.name)
        source = log.headers.get("source", "")
        url = SOURCE.match(source)
        if name is None:
            problems.append(f"{where}: not named <Repo>-<issue number>.log")
        elif url is None:
            problems.append(f"{where}: source '{source}' is not a GitHub issue/pull/discussion URL")
        elif (url.group("repo"), url.group("number")) != (name.group("repo"), name.group("number")):
            problems.append(f"{where}: the name does not match the source {source}")
        lowered = log.name.lower()
        if lowered in seen_names:
            problems.append(f"{where}: a second log from the same thread (also {seen_names[lowered]})")
        seen_names.setdefault(lowered, where)
        if source in seen_sources:
            problems.append(f"{where}: the same source as {seen_sources[source]}")
        seen_sources.setdefault(source, where)
        if log.part == "clean":
            if log.headers.get("expected") != "none":
                problems.append(f"{where}: a clean log must say '# expected: none'")
        else:
            batch = log.headers.get("collected", "")
            if batch in DEV_ONLY_BATCHES:
                if log.part != "dev":
                    problems.append(f"{where}: batch {batch} was collected for dev/ only")
            elif source and split_of(source) != log.part:
                problems.append(f"{where}: the split rule puts this log in {split_of(source)}/")
            if not log.expected:
                problems.append(f"{where}: an error log needs expected signature ids")
            bad = [i for i in log.expected if not ID.match(i)]
            if bad:
                problems.append(f"{where}: expected ids not of the form family.name: {', '.join(bad)}")
        established = log.headers.get("established-by", "")
        if established and established.split()[0] not in ESTABLISHED_BY:
            problems.append(f"{where}: established-by '{established}' is not user-fix or maintainer")
    return problems


def unknown_ids(logs: Iterable[CorpusLog], known: set[str]) -> list[str]:
    """Expected ids that name no registered signature, with the logs that expect them."""
    missing: dict[str, list[str]] = {}
    for log in logs:
        for expected in log.expected:
            if expected not in known:
                missing.setdefault(expected, []).append(log.part)
    return [f"{i} (expected by {len(parts)} log(s))" for i, parts in sorted(missing.items())]


# -- scoring ------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What the engine answered for one log."""

    log: CorpusLog
    ids: list[str]
    kind: str
    """``recognised``, ``unrecognised`` or ``none``."""
    seconds: float
    closest_family: str | None = None
    similar: int = 0
    """How many of :attr:`ids` (at their end) came from similar public reports, not signatures."""

    @property
    def top1(self) -> bool:
        return bool(self.ids) and self.ids[0] in self.log.expected

    @property
    def top3(self) -> bool:
        return any(i in self.log.expected for i in self.ids[:3])

    @property
    def via_similar(self) -> bool:
        """Right in the top 3 only through a similar public report."""
        signatures = self.ids[: len(self.ids) - self.similar]
        return self.top3 and not any(i in self.log.expected for i in signatures[:3])

    @property
    def family_top3(self) -> bool:
        families = {e.split(".", 1)[0] for e in self.log.expected}
        return any(i.split(".", 1)[0] in families for i in self.ids[:3])


@dataclass
class Tally:
    n: int = 0
    top1: int = 0
    top3: int = 0
    family3: int = 0
    silent: int = 0
    """No recognised answer."""
    unrecognised: int = 0
    """No recognised answer, but the structured reading answered."""
    nothing: int = 0
    """Neither: the engine said nothing at all."""
    similar: int = 0
    """Right in the top 3 only through a similar public report."""

    def add(self, outcome: Outcome) -> None:
        self.n += 1
        self.top1 += outcome.top1
        self.top3 += outcome.top3
        self.family3 += outcome.family_top3
        self.silent += outcome.kind != "recognised"
        self.unrecognised += outcome.kind == "unrecognised"
        self.nothing += outcome.kind == "none"
        self.similar += outcome.via_similar


@dataclass
class Score:
    """The corpus figures: recall per family and overall, silence, clean-log claims, time per MB."""

    families: dict[str, Tally] = field(default_factory=dict)
    total: Tally = field(default_factory=Tally)
    clean: int = 0
    clean_claims: int = 0
    clean_unrecognised: int = 0
    clean_similar: int = 0
    """Clean logs given a similar public report (must stay zero, as claims)."""
    seconds: float = 0.0
    megabytes: float = 0.0
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def ms_per_mb(self) -> float:
        return self.seconds * 1000 / self.megabytes if self.megabytes else 0.0

    def recall(self, which: str = "top3") -> float:
        total = self.total
        return getattr(total, which) / total.n if total.n else 0.0


Diagnose = Callable[..., Any]
"""``diagnose_text`` of the engine being scored (returns its ``Diagnosis``); with ``leave_out`` it is
also given the keyword ``leave_out``: the log's own source URL."""


def outcome_of(log: CorpusLog, diagnosis: Any, seconds: float) -> Outcome:
    """The answer's ids: the signature matches, then the similar public reports after them (an engine
    without that layer has none)."""
    ids = [m.id for m in diagnosis.matches]
    kind = getattr(diagnosis, "kind", "recognised" if ids else "none")  # an engine before "kind"
    unrecognised = getattr(diagnosis, "unrecognised", None)
    family = getattr(unrecognised, "family", None) if unrecognised is not None else None
    similar = [s.id for s in getattr(diagnosis, "similar", ())]
    return Outcome(log, ids + similar, kind, seconds, family, len(similar))


def score(logs: Sequence[CorpusLog], diagnose: Diagnose, runs: int = 3, *, leave_out: bool = False) -> Score:
    """Diagnose every log (``runs`` times; its time is the median), tally the answers. ``leave_out``:
    pass each log's source URL as ``leave_out=(source,)``, so the engine's similar public reports (made
    from ``dev/``) never compare a dev log with its own report."""
    result = Score()
    for log in logs:
        times = []
        diagnosis: Any = None
        source = log.headers.get("source", "")
        for _ in range(max(1, runs)):
            start = time.perf_counter()
            diagnosis = diagnose(log.body, leave_out=(source,)) if leave_out else diagnose(log.body)
            times.append(time.perf_counter() - start)
        seconds = sorted(times)[len(times) // 2]
        result.seconds += seconds
        result.megabytes += len(log.body.encode("utf-8")) / 1024 / 1024
        outcome = outcome_of(log, diagnosis, seconds)
        result.outcomes.append(outcome)
        if log.part == "clean":
            result.clean += 1
            result.clean_claims += outcome.kind == "recognised"
            result.clean_unrecognised += outcome.kind == "unrecognised"
            result.clean_similar += outcome.similar > 0
            continue
        result.families.setdefault(log.family, Tally()).add(outcome)
        result.total.add(outcome)
    return result


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def report(result: Score, *, misses: bool, title: str) -> list[str]:
    """The figures as lines: a table per family and overall; with ``misses``, each dev/ log that missed
    (never a test/ one)."""
    lines = [title]
    head = f"  {'family':16s} {'logs':>5s} {'top-1':>7s} {'top-3':>7s} {'family@3':>9s} {'silent':>7s} {'unrec.':>7s} {'nothing':>8s}"
    lines.append(head)
    rows = sorted(result.families.items(), key=lambda item: (-item[1].n, item[0]))
    for family, tally in [*rows, ("ALL", result.total)]:
        lines.append(
            f"  {family:16s} {tally.n:5d} {_pct(tally.top1, tally.n):>7s} {_pct(tally.top3, tally.n):>7s} "
            f"{_pct(tally.family3, tally.n):>9s} {_pct(tally.silent, tally.n):>7s} "
            f"{_pct(tally.unrecognised, tally.n):>7s} {_pct(tally.nothing, tally.n):>8s}"
        )
    lines.append(
        f"  right in the top 3 only through a similar public report: {result.total.similar} of {result.total.n}"
    )
    lines.append(
        f"  clean logs: {result.clean}, recognised claims: {result.clean_claims}, "
        f"unrecognised answers: {result.clean_unrecognised}, similar reports: {result.clean_similar}"
    )
    lines.append(
        f"  time: {result.seconds * 1000:.1f} ms for {result.megabytes:.3f} MB "
        f"= {result.ms_per_mb:.0f} ms per MB (median of runs per log)"
    )
    if misses:
        missed = [o for o in result.outcomes if o.log.part == "dev" and not o.top3]
        lines.append(f"  dev misses (right cause not in the top 3): {len(missed)}")
        for outcome in missed:
            got = ", ".join(outcome.ids[:3]) or outcome.kind
            if outcome.kind == "unrecognised" and outcome.closest_family:
                got += f" (closest family {outcome.closest_family})"
            lines.append(
                f"    {outcome.log.name:30s} expected {','.join(outcome.log.expected):40s} got {got}"
            )
        wrong_top = [o for o in result.outcomes if o.log.part == "dev" and o.top3 and not o.top1]
        lines.append(f"  dev logs right in the top 3 but not first: {len(wrong_top)}")
        for outcome in wrong_top:
            lines.append(
                f"    {outcome.log.name:30s} expected {','.join(outcome.log.expected):40s} got {', '.join(outcome.ids[:3])}"
            )
        claims = [o for o in result.outcomes if o.log.part == "clean" and (o.kind != "none" or o.similar)]
        for outcome in claims:
            lines.append(
                f"    clean {outcome.log.name:24s} answered {outcome.kind}: {', '.join(outcome.ids[:3])}"
            )
    return lines


__all__ = [
    "PARTS",
    "CorpusLog",
    "Outcome",
    "Score",
    "Tally",
    "check_logs",
    "load",
    "parse",
    "report",
    "score",
    "split_of",
    "unknown_ids",
]
