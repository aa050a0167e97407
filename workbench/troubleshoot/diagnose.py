"""``diagnose``: find the known errors in a log or traceback, quote them back, rank the root cause first.

The knowledge is the :data:`~workbench.troubleshoot.signatures.SIGNATURES` registry; this module reads
text and applies it. What it does to a log, and why:

- **Reads anything a user pastes.** Bytes are decoded as UTF-8, else GB18030 (Chinese Windows consoles),
  else UTF-8 with the undecodable bytes replaced (said in a notice). Binary input (NUL bytes), empty
  input and files over :data:`MAX_BYTES` are refused with a sentence, never a traceback
  (:class:`DiagnoseInputError`).
- **Normalises** ANSI colour codes away and CRLF / lone CR (progress bars) to line ends, so line numbers
  are the ones an editor shows.
- **Is fast on 100k+ lines.** Each signature names literal ``keys``. One RE2 set pass over the text
  finds which keys occur at all (:func:`present_keys`: its cost does not grow with the number of keys),
  ``str.find`` (C speed) locates the lines holding those, and only those lines are searched with their
  signatures' compiled regular expressions. A normal training log holds none of the keys and costs a
  few passes over the text (``benchmarks/diagnose.py`` prints the figure).
- **Is linear in its input, whatever the input.** The patterns run on RE2
  (:mod:`~workbench.troubleshoot.signatures._linear`), whose search time is linear in the line — a 1 MB
  line of ``gloo gloo …`` costs what any 1 MB line costs — and every step around them (the key set,
  the key scans, line numbering) is a constant number of passes over the text. Python's ``re`` never
  touches the input here. No line is cut short for matching: a match anywhere in a line is found.
- **Reads at most :data:`READ_CHARS` of each input and :data:`TOTAL_CHARS` of all together**, keeping
  the end (where a failure's traceback is) from a line start; a notice says how much was skipped and the
  quoted line numbers stay the file's own.
- **Ranks root causes above consequences**: a signature marked ``consequence`` (the launcher's
  "Container failed", a peer's NCCL time-out, the comm watchdog) ranks below every root cause; within each
  group a higher ``priority`` (specific above generic) ranks first, then the earlier first occurrence. A
  match ranks with the highest priority of the ways it matched: a pattern or an exception condition may
  carry its own (a precise message above a generic one).
- **Quotes the decisive lines** with their line numbers (the first few of each signature) and counts the
  rest.
- **Reads the structure of each input** (:mod:`~workbench.troubleshoot.reading`: the final exception, a
  C++ error block, the frames, errnos, library names, versions): signatures may match on it (an
  exception type and message, errno names, library names, version facts of
  :mod:`~workbench.troubleshoot.versions`) where one line cannot say it; a condition may be gated on the
  frame the final exception was raised in (a kit's, Paddle's, the user's), and a signature may match on
  how a log ends — the lines it stops at, with no failure after them (a hang at NCCL start-up).
- **Is never silent on a traceback**: when no signature matches but an input shows a Python traceback or
  a C++ error block, the answer is :class:`Unrecognised` — the failure read out, the closest known cause
  marked "not sure", what to try (:attr:`Diagnosis.kind` ``"unrecognised"``; ``"recognised"`` and
  ``"none"`` for the other two answers).
- **Adds similar public reports after the signatures** (:mod:`~workbench.troubleshoot.similar`): when an
  input shows a failure (a match, a traceback or a C++ error block), the real users' reports of the
  corpus's ``dev/`` part it most resembles fill the slots the signatures left (up to three causes in
  all), each with its report's link and the cause its thread established (:attr:`Diagnosis.similar`,
  JSON ``"via": "similar"``). They never rank above a signature match and never change :attr:`kind`:
  a resemblance is a lead to read, not a recognised cause.

Nothing here imports Paddle or Textual.
"""

from __future__ import annotations

import io
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import IO, Any, Literal

from workbench.i18n import t
from workbench.textsafe import strip_sequences
from workbench.troubleshoot.reading import LINE_CHARS, Reading, read_log
from workbench.troubleshoot.signatures import SIGNATURES, ExceptionCondition, Signature
from workbench.troubleshoot.signatures._linear import LinearPattern, LiteralSet, compile_any, compile_literals
from workbench.troubleshoot.similar import MAX_SHOWN, SimilarReport, similar_reports

MAX_BYTES = 512 * 1024 * 1024
"""The largest file or stream diagnose reads through (a longer one is refused: pass its tail)."""
READ_CHARS = 32 * 1024 * 1024
"""Of each input only the end is diagnosed: its last this-many bytes (characters, for text given as such),
from a line start. 32 MB is ~300k lines of a training log; linear matching keeps it under a few seconds."""
TOTAL_CHARS = 128 * 1024 * 1024
"""Characters diagnosed over all inputs together (a run with many rank logs); later inputs get what is
left, from their end."""
MAX_QUOTES = 3
"""Evidence lines quoted per signature (the rest are counted)."""
MAX_CANDIDATES = 200_000
"""Lines holding a key that one signature searches at most (a key repeated on every line stays cheap)."""
MAX_LINE_CHARS = 400
"""A quoted line is cut to this many characters."""


class DiagnoseInputError(Exception):
    """The input cannot be diagnosed (empty, binary, too large, unreadable); the message says why."""


@dataclass(frozen=True)
class Evidence:
    """One quoted line: where it is (``source`` file name or ``"-"``, 1-based ``line``) and its text."""

    source: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.text}"

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "line": self.line, "text": self.text}


@dataclass
class Match:
    """One signature found in the input, with its evidence."""

    id: str
    signature: Signature
    evidence: list[Evidence] = field(default_factory=list)
    count: int = 0
    first: tuple[int, int] = (0, 0)
    """(source index, line) of the first occurrence: the earlier one ranks first among equals."""
    priority: int | None = None
    """The priority it ranks with: the highest of what matched (a pattern's or an exception condition's
    own, else the signature's); ``None`` until something matched."""

    def seen(self, priority: int | None) -> None:
        """Count a way it matched that ranks with ``priority`` (``None``: the signature's own)."""
        rank = self.signature.priority if priority is None else priority
        self.priority = rank if self.priority is None else max(self.priority, rank)

    @property
    def title(self) -> str:
        return self.signature.text.of().title

    @property
    def cause(self) -> str:
        return self.signature.text.of().cause

    @property
    def fix(self) -> str:
        return self.signature.text.of().fix

    def rank_key(self) -> tuple[bool, int, tuple[int, int]]:
        priority = self.signature.priority if self.priority is None else self.priority
        return (self.signature.consequence, -priority, self.first)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "cause": self.cause,
            "fix": self.fix,
            "evidence": [str(e) for e in self.evidence],
            "lines": [e.to_dict() for e in self.evidence],
            "occurrences": self.count,
            "consequence": self.signature.consequence,
            "via": "signature",
        }


@dataclass
class Unrecognised:
    """No signature matched but the log shows a failure: what it shows, read out (never a guess).

    ``closest`` is the signature whose keys the final error shares most (shown as "not sure"), ``family``
    the family the reading points at (errno names, library names, an import error), ``flow`` the
    troubleshooting flow that continues from that family."""

    source: str
    reading: Reading
    closest: str | None = None
    family: str | None = None
    flow: str | None = None

    @property
    def closest_title(self) -> str:
        return _title_of(self.closest)

    def suggestions(self) -> list[str]:
        """What to try, most specific first (translated sentences)."""
        reading = self.reading
        tips: list[str] = []
        network = [e for e in reading.errnos if _ERRNO_FAMILY.get(e) == "network"]
        files = [e for e in reading.errnos if _ERRNO_FAMILY.get(e) == "filesystem"]
        if files:
            tips.append(t("diagnose.try.filesystem", errnos=", ".join(files)))
        if network:
            tips.append(t("diagnose.try.network", errnos=", ".join(network)))
        if reading.libraries:
            tips.append(t("diagnose.try.library", library=reading.libraries[0]))
        frame = reading.user_frame
        if frame is not None:
            tips.append(t("diagnose.try.frame", where=f"{frame.path}:{frame.line}"))
        named = set(reading.versions) - {"python", "cuda", "cudnn", "driver"}
        if named or self.family in ("imports", "versions"):
            tips.append(t("diagnose.try.versions"))
        if self.flow:
            tips.append(t("diagnose.try.flow", flow=t(f"wizard.flow.{self.flow}")))
        tips.append(t("diagnose.try.check"))
        return tips

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "closest": {"id": self.closest, "title": self.closest_title, "sure": False}
            if self.closest
            else None,
            "family": self.family,
            "flow": self.flow,
            "suggestions": self.suggestions(),
        }


@dataclass
class Diagnosis:
    """What ``diagnose`` found: ranked matches (root cause first), what it read, and any notices.

    :attr:`kind` says which of three answers it is: ``"recognised"`` (known causes, ranked),
    ``"unrecognised"`` (no known cause, but a traceback or an error block read out in
    :attr:`unrecognised`), ``"none"`` (no known cause and no failure in sight)."""

    matches: list[Match]
    sources: list[str]
    lines_read: int
    notices: list[str] = field(default_factory=list)
    readings: list[Reading] = field(default_factory=list)
    """The structured reading of each input, in the order of :attr:`sources`."""
    unrecognised: Unrecognised | None = None
    similar: list[SimilarReport] = field(default_factory=list)
    """Causes of similar public reports, after :attr:`matches` (never ids already matched; together at
    most :data:`~workbench.troubleshoot.similar.MAX_SHOWN`). They do not make the answer recognised."""

    @property
    def found(self) -> bool:
        return bool(self.matches)

    @property
    def kind(self) -> Literal["recognised", "unrecognised", "none"]:
        if self.matches:
            return "recognised"
        return "unrecognised" if self.unrecognised is not None else "none"

    def to_dict(self) -> dict[str, Any]:
        primary = _primary(self.sources, self.readings)
        return {
            "kind": self.kind,
            "matches": [m.to_dict() for m in self.matches],
            "unrecognised": self.unrecognised.to_dict() if self.unrecognised else None,
            "similar": [_similar_dict(s) for s in self.similar],
            "reading": primary[1].to_dict() if primary else None,
            "sources": self.sources,
            "lines_read": self.lines_read,
            "notices": self.notices,
        }


# -- reading ------------------------------------------------------------------------------------------


def decode_log(data: bytes, source: str = "-") -> tuple[str, list[str]]:
    """Bytes → normalised text and notices; raise :class:`DiagnoseInputError` for binary or empty input."""
    if not data.strip():
        raise DiagnoseInputError(t("diagnose.input.empty", source=source))
    head = data[:65536]
    if b"\x00" in head and not (head.startswith((b"\xff\xfe", b"\xfe\xff"))):
        raise DiagnoseInputError(t("diagnose.input.binary", source=source))
    notices: list[str] = []
    text: str
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 with a byte-order mark (PowerShell's `>`)
        text = data.decode("utf-16", errors="replace")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            try:
                text = data.decode("gb18030")
                notices.append(t("diagnose.input.gbk", source=source))
            except UnicodeDecodeError:
                text = data.decode("utf-8", errors="replace")
                notices.append(t("diagnose.input.replaced", source=source))
    return normalise(text), notices


def normalise(text: str) -> str:
    """Strip escape sequences (colours, titles, links, 8-bit CSI); CRLF and lone CR become line ends."""
    text = strip_sequences(text)  # the project's one escape-sequence reader (workbench.textsafe)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


class LogText(str):
    """Decoded text that starts at line :attr:`first_line` of its source (a tail of a long input), so
    quoted line numbers stay the source's own."""

    first_line: int = 1

    @classmethod
    def at(cls, text: str, first_line: int) -> str:
        """``text`` marked as starting at ``first_line`` (plain ``text`` when that is line 1)."""
        if first_line == 1:
            return text
        marked = cls(text)
        marked.first_line = first_line
        return marked


def read_log_file(path: Path) -> tuple[str, list[str]]:
    """Read and decode one log file; every failure is a :class:`DiagnoseInputError` with the path.

    A file over :data:`READ_CHARS` bytes is read from its end (from a line start) with a notice; the lines
    before it are counted, so quoted line numbers are the file's. Over :data:`MAX_BYTES` it is refused.
    """
    source = str(path)
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise DiagnoseInputError(t("diagnose.input.is_dir", source=source))
        if size > MAX_BYTES:
            raise DiagnoseInputError(
                t("diagnose.input.too_large", source=source, size=_mb(size), limit=_mb(MAX_BYTES))
            )
        with open(path, "rb") as fh:
            if size <= READ_CHARS or fh.read(2) in (b"\xff\xfe", b"\xfe\xff"):
                fh.seek(0)  # small, or UTF-16 (no byte-level cut): whole; diagnose_texts keeps the tail
                return decode_log(fh.read(MAX_BYTES), source)
            fh.seek(0)
            skipped_lines, data = _tail_of(fh, size - READ_CHARS)
    except FileNotFoundError:
        raise DiagnoseInputError(t("diagnose.input.missing", source=source)) from None
    except OSError as exc:
        raise DiagnoseInputError(t("diagnose.input.unreadable", source=source, error=exc.strerror)) from None
    return _decoded_tail(data, source, size, skipped_lines)


def read_log_stream(stream: IO[bytes], source: str = "-") -> tuple[str, list[str]]:
    """Read a byte stream (standard input), keeping its last :data:`READ_CHARS` bytes (from a line start)
    and counting the lines before them; refuse a stream longer than :data:`MAX_BYTES`."""
    chunks: list[bytes] = []
    kept = total = skipped_lines = 0
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            break
        total += len(chunk)
        if total > MAX_BYTES:
            raise DiagnoseInputError(
                t("diagnose.input.too_large", source=source, size=f"> {_mb(MAX_BYTES)}", limit=_mb(MAX_BYTES))
            )
        chunks.append(chunk)
        kept += len(chunk)
        while len(chunks) > 1 and kept - len(chunks[0]) >= READ_CHARS:  # memory stays ~READ_CHARS
            kept -= len(chunks[0])
            skipped_lines += chunks.pop(0).count(b"\n")
    data = b"".join(chunks)
    if total <= READ_CHARS:
        return decode_log(data, source)
    cut = len(data) - READ_CHARS
    skipped_lines_cut, data = _tail_of(io.BytesIO(data), cut)
    return _decoded_tail(data, source, total, skipped_lines + skipped_lines_cut)


_CHUNK = 1024 * 1024


def _tail_of(fh: IO[bytes], cut: int) -> tuple[int, bytes]:
    """Skip ``cut`` bytes of ``fh`` and the rest of the line they end in; return the lines skipped and
    the bytes after them (read in chunks: memory stays one chunk plus the tail)."""
    skipped = 0
    left = cut
    while left > 0:
        chunk = fh.read(min(_CHUNK, left))
        if not chunk:
            break
        skipped += chunk.count(b"\n")
        left -= len(chunk)
    rest = fh.read()
    line_end = rest.find(b"\n")
    if line_end == -1:  # one line longer than the tail: keep the tail of that line
        return skipped, rest
    return skipped + 1, rest[line_end + 1 :]


def _decoded_tail(data: bytes, source: str, size: int, skipped_lines: int) -> tuple[str, list[str]]:
    text, notices = decode_log(data, source)
    notices.insert(0, _skip_notice(source, size, len(data), skipped_lines))
    return LogText.at(text, skipped_lines + 1), notices


def _skip_notice(source: str, size: int, kept: int, skipped_lines: int) -> str:
    return t(
        "diagnose.input.tail",
        source=source,
        size=_mb(size),
        kept=_mb(kept),
        skipped=_mb(size - kept),
        line=skipped_lines + 1,
    )


def _mb(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / 1024 / 1024:.1f} MB" if size < 10 * 1024 * 1024 else f"{size / 1024 / 1024:.0f} MB"


# -- matching -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Compiled:
    id: str
    signature: Signature
    keys: tuple[str, ...]
    patterns: tuple[LinearPattern, ...]
    """The signature's patterns as RE2 alternations, one per (priority, frame gate) group — one group
    unless patterns have their own rules — so a line is searched once per group; empty for a signature
    that matches only on the log's structure."""
    exception_message: LinearPattern | None = None
    """The signature's exception-message patterns as one alternation (``None``: no message condition)."""
    libraries: LinearPattern | None = None
    """The signature's library-name patterns as one alternation (``None``: no library condition)."""
    groups: tuple[tuple[int | None, tuple[str, ...]], ...] = ()
    """(priority, frame gate) of each of :attr:`patterns`, in the same order (``None``: the signature's)."""
    exceptions: tuple[tuple[ExceptionCondition, LinearPattern | None, LinearPattern | None], ...] = ()
    """Every condition on the final exception with its message patterns and its frame-code patterns, each
    compiled as one alternation (``None``: no such condition)."""
    log_ends: LinearPattern | None = None
    """The signature's ``log_ends`` patterns as one alternation (``None``: no such condition)."""
    log_ends_after: LinearPattern | None = None
    """The lines that may follow the ``log_ends`` line, as one alternation (``None``: none may)."""


def _compiled() -> tuple[_Compiled, ...]:
    """Every registered signature with its patterns compiled (once per set of registered names)."""
    return _compile(tuple(SIGNATURES.names()))


@cache
def _compile(names: tuple[str, ...]) -> tuple[_Compiled, ...]:
    entries = [(name, SIGNATURES.get(name)) for name in names]
    return tuple(
        _Compiled(
            name,
            sig,
            sig.keys,
            tuple(compile_any(patterns) for patterns in groups.values()),
            compile_any(sig.exception_message) if sig.exception_message else None,
            compile_any(sig.libraries) if sig.libraries else None,
            tuple(groups),
            tuple(
                (
                    condition,
                    compile_any(condition.message) if condition.message else None,
                    compile_any(condition.code) if condition.code else None,
                )
                for condition in sig.exception_conditions()
            ),
            compile_any(sig.log_ends) if sig.log_ends else None,
            compile_any(sig.log_ends_after) if sig.log_ends_after else None,
        )
        for name, sig in entries
        for groups in (_pattern_groups(sig),)
    )


def _pattern_groups(sig: Signature) -> dict[tuple[int | None, tuple[str, ...]], tuple[str, ...]]:
    """A signature's patterns grouped by (priority, frame gate), the rule-less ones first; a pattern
    written both plain and with rules is in each of its groups."""
    rules: dict[str, list[tuple[int | None, tuple[str, ...]]]] = {}
    for rule in sig.pattern_rules:
        rules.setdefault(rule.pattern, []).append((rule.priority, rule.raised_in))
    groups: dict[tuple[int | None, tuple[str, ...]], list[str]] = {}
    for pattern in sig.patterns:
        if pattern not in rules:
            groups.setdefault((None, ()), []).append(pattern)
    for pattern in sig.patterns:
        for group in rules.get(pattern, ()):
            groups.setdefault(group, []).append(pattern)
    return {group: tuple(dict.fromkeys(patterns)) for group, patterns in groups.items()}


def reset_cache() -> None:
    """Forget the compiled signatures (an entry was replaced under the same name)."""
    _compile.cache_clear()
    _LAST_INDEX.clear()


@dataclass(frozen=True)
class _Index:
    """What a scan needs from the compiled signatures, derived once per :func:`_compiled` tuple."""

    compiled: tuple[_Compiled, ...]
    keys: LiteralSet
    """Every key of the line-matching signatures, matched in a single pass over a text."""
    owners: Mapping[str, tuple[int, ...]]
    """Each key's signatures, by position in :attr:`compiled`."""
    keyless: tuple[int, ...]
    """Line-matching signatures without keys: every line is searched for them."""
    structural: tuple[_Compiled, ...]
    """The signatures with a condition on the reading (exception, errno, library, version fact)."""
    ending: tuple[_Compiled, ...] = ()
    """The signatures with a ``log_ends`` condition."""


_LAST_INDEX: list[_Index] = []


def _index() -> _Index:
    """The :class:`_Index` of the current :func:`_compiled` tuple (rebuilt when that tuple changes)."""
    compiled = _compiled()
    last = _LAST_INDEX[0] if _LAST_INDEX else None
    if last is not None and last.compiled is compiled:
        return last
    owners: dict[str, list[int]] = {}
    keyless: list[int] = []
    for at, entry in enumerate(compiled):
        if entry.patterns and not entry.keys:
            keyless.append(at)
        elif entry.patterns:
            for key in entry.keys:
                owners.setdefault(key, []).append(at)
    structural = tuple(
        entry
        for entry in compiled
        if entry.exceptions or entry.signature.errnos or entry.libraries is not None or entry.signature.facts
    )
    index = _Index(
        compiled,
        compile_literals(tuple(sorted(owners))),
        {key: tuple(ats) for key, ats in owners.items()},
        tuple(keyless),
        structural,
        tuple(entry for entry in compiled if entry.log_ends is not None),
    )
    _LAST_INDEX[:] = [index]
    return index


def present_keys(text: str) -> frozenset[str]:
    """The signature keys that occur in ``text`` — exactly those for which ``key in text`` holds.

    One RE2 set pass over the text's UTF-8 bytes (:class:`~workbench.troubleshoot.signatures._linear.
    LiteralSet`): its cost is linear in the text and does not grow with the number of keys, so neither
    a 1 MB hostile line nor a long log pays per key; only the signatures whose keys occurred then search
    the lines that hold them.
    """
    return _index().keys.present(text.encode("utf-8", "surrogatepass"))


def _selected(keys: frozenset[str]) -> list[_Compiled]:
    """The line-matching signatures holding any of ``keys`` or no key at all, in registration order."""
    index = _index()
    chosen = {at for key in keys for at in index.owners.get(key, ())}
    chosen.update(index.keyless)
    return [index.compiled[at] for at in sorted(chosen)]


def _candidate_lines(text: str, keys: Sequence[str]) -> Iterable[int]:
    """Start offsets of the lines holding any of ``keys`` (each line once, in no particular order)."""
    if not keys:
        yield 0
        start = text.find("\n")
        while start != -1:
            yield start + 1
            start = text.find("\n", start + 1)
        return
    seen: set[int] = set()
    for key in keys:
        at = text.find(key)
        while at != -1 and len(seen) < MAX_CANDIDATES:
            line_start = text.rfind("\n", 0, at) + 1
            line_end = text.find("\n", at)
            if line_start not in seen:
                seen.add(line_start)
                yield line_start
            if line_end == -1:
                break
            at = text.find(key, line_end)


def _structural(reading: Reading, source_index: int, source: str, found: dict[str, Match]) -> None:
    """Signatures that match on the reading of the text: its final exception, its version facts."""
    from workbench.troubleshoot.versions import FACTS

    errors = reading.errors
    for entry in _index().structural:
        sig = entry.signature
        if sig.raised_in and not reading.raised_in(sig.raised_in):
            continue
        quotes: list[tuple[int, str, int | None]] = []
        for condition, message, code in entry.exceptions if errors else ():
            if condition.raised_in and not reading.raised_in(condition.raised_in):
                continue
            if code is not None:
                frame = reading.raising_frame
                if frame is None or not code.search(frame.code.encode("utf-8", "surrogatepass")):
                    continue
            for error in errors:
                if condition.types and not error.is_type(condition.types):
                    continue
                if message is not None and not any(
                    message.search(part.encode("utf-8", "surrogatepass"))
                    for part in (error.message, error.hint)
                    if part
                ):
                    continue
                quotes.append((error.log_line, str(error), condition.priority))
                break
        for errno in sig.errnos:
            if errno in reading.errnos:
                quotes.append((*reading.fact_lines.get(errno, (0, errno)), None))
                break
        if entry.libraries is not None:
            for library in reading.libraries:
                if entry.libraries.search(library.encode("utf-8", "surrogatepass")):
                    quotes.append((*reading.fact_lines.get(library, (0, library)), None))
                    break
        for fact in sig.facts:
            finding = FACTS[fact](reading)
            if finding is not None:
                quotes.append((finding.line, finding.quote, None))
        for line_no, text, priority in sorted(quotes, key=lambda quote: quote[:2]):
            _found(found, entry, source_index, source, line_no, text, priority)


def _found(
    found: dict[str, Match],
    entry: _Compiled,
    source_index: int,
    source: str,
    line_no: int,
    text: str,
    priority: int | None,
) -> None:
    """Record one structural way ``entry`` matched (a line quoted once however many ways name it)."""
    match = found.get(entry.id)
    if match is None:
        match = found[entry.id] = Match(entry.id, entry.signature, first=(source_index, line_no))
    elif (source_index, line_no) < match.first:
        match.first = (source_index, line_no)
    match.seen(priority)
    if any(e.line == line_no and e.source == source for e in match.evidence):
        return
    match.count += 1
    if len(match.evidence) < MAX_QUOTES:
        quoted = text.strip()
        if len(quoted) > MAX_LINE_CHARS:
            quoted = quoted[: MAX_LINE_CHARS - 1] + "…"
        match.evidence.append(Evidence(source, line_no, quoted))


MAX_END_LINES_WALKED = 2000
"""Lines (blank ones included) walked back from a text's end to find its last non-blank lines."""


def _last_lines(text: str, count: int) -> list[tuple[int, int, str]]:
    """The last ``count`` non-blank lines of ``text``, the last first, each as (its start offset, how many
    lines of the text follow it, the line cut to ``LINE_CHARS``). The walk is bounded
    (:data:`MAX_END_LINES_WALKED`), and so is the text each line gives."""
    found: list[tuple[int, int, str]] = []
    end = len(text)
    walked = following = 0
    while end > 0 and len(found) < count and walked < MAX_END_LINES_WALKED:
        start = text.rfind("\n", 0, end) + 1
        if end - start > LINE_CHARS:
            line = text[start : start + LINE_CHARS // 2] + " … " + text[end - LINE_CHARS // 2 : end]
        else:
            line = text[start:end]
        if line.strip():
            found.append((start, following, line))
        walked += 1
        if start == 0:
            break
        following += 1
        end = start - 1
    return found


def _failure_line(reading: Reading) -> int:
    """The last line a failure is read at (an exception, a C++ error, a traceback frame); 0 if none."""
    lines = [error.log_line for error in reading.errors]
    if reading.frames:
        lines.append(reading.frames[-1].log_line)
    return max(lines, default=0)


def _log_end(
    text: str, reading: Reading, first_line: int, source_index: int, source: str, found: dict[str, Match]
) -> None:
    """Signatures whose ``log_ends`` patterns match the line the text stops at (its last non-blank line,
    or the last before only ``after`` lines), with no failure read at or after it."""
    entries = _index().ending
    if not entries:
        return
    last = _last_lines(text, max(entry.signature.log_ends_lines for entry in entries))
    encoded = [line.encode("utf-8", "surrogatepass") for _, _, line in last]
    numbers: list[int] = []  # the last line's number, counted only once something matched

    def line_number(at: int) -> int:
        if not numbers:
            numbers.append(first_line + text.count("\n", 0, last[0][0]))
        return numbers[0] - (last[at][1] - last[0][1])

    after = _failure_line(reading)
    for entry in entries:
        sig, pattern = entry.signature, entry.log_ends
        if pattern is None or (sig.raised_in and not reading.raised_in(sig.raised_in)):
            continue
        for at in range(min(sig.log_ends_lines, len(last))):  # from the last line up
            if pattern.search(encoded[at]):
                if line_number(at) > after:
                    line = last[at][2].strip()
                    _found(found, entry, source_index, source, line_number(at), line, sig.log_ends_priority)
                break
            if entry.log_ends_after is None or not entry.log_ends_after.search(encoded[at]):
                break  # a line that is neither: the log went on past its start-up


def _line_at(text: str, start: int) -> str:
    end = text.find("\n", start)
    return text[start:] if end == -1 else text[start:end]


_MISS = object()
"""A line's verdict when no group of a signature's patterns matches it."""
_UNSEEN = object()
"""A line not searched yet."""


def _scan(
    text: str,
    source_index: int,
    source: str,
    found: dict[str, Match],
    first_line: int = 1,
    reading: Reading | None = None,
) -> None:
    """The per-line signatures: the lines holding a signature's keys searched with its patterns.
    ``reading`` (the text's structure) answers the frame gates; without it no gated pattern counts."""
    hits: list[tuple[int, _Compiled, int | None]] = []
    keys = present_keys(text)
    encoded: dict[int, bytes] = {}  # line start → its UTF-8 bytes, encoded once for every signature
    for entry in _selected(keys):  # a signature none of whose keys occurs cannot match a line
        groups = _open_groups(entry, reading)
        if not groups:
            continue
        present = [key for key in entry.keys if key in keys]
        verdicts: dict[bytes, object] = {}  # a repeated line (a warning printed per step) is searched once
        for start in _candidate_lines(text, present):
            line = encoded.get(start)
            if line is None:  # RE2 reads UTF-8 bytes
                line = encoded[start] = _line_at(text, start).encode("utf-8", "surrogatepass")
            hit = verdicts.get(line, _UNSEEN)
            if hit is _UNSEEN:
                hit = verdicts[line] = _best(entry, groups, line)
            if hit is not _MISS:
                hits.append((start, entry, hit if isinstance(hit, int) else None))
    if not hits:
        return
    hits.sort(key=lambda hit: hit[0])
    line_no, last = first_line, 0
    for start, entry, priority in hits:
        line_no += text.count("\n", last, start)
        last = start
        match = found.get(entry.id)
        if match is None:
            match = found[entry.id] = Match(entry.id, entry.signature, first=(source_index, line_no))
        match.seen(priority)
        match.count += 1
        if len(match.evidence) < MAX_QUOTES:
            quoted = _line_at(text, start).strip()
            if len(quoted) > MAX_LINE_CHARS:
                quoted = quoted[: MAX_LINE_CHARS - 1] + "…"
            match.evidence.append(Evidence(source, line_no, quoted))


def _open_groups(entry: _Compiled, reading: Reading | None) -> list[int]:
    """The pattern groups of ``entry`` whose frame gates (the signature's and the group's) the reading
    passes, by index, the highest priority first (a line's search stops at the first group that hits)."""
    sig = entry.signature
    if sig.raised_in and (reading is None or not reading.raised_in(sig.raised_in)):
        return []
    open_ = [
        at
        for at, (_, gate) in enumerate(entry.groups)
        if not gate or (reading is not None and reading.raised_in(gate))
    ]
    return sorted(open_, key=lambda at: -_rank(entry, entry.groups[at][0]))


def _best(entry: _Compiled, groups: list[int], line: bytes) -> object:
    """The priority ``line`` gives ``entry``: that of the highest group matching it (``None`` for the
    signature's own), or :data:`_MISS` when none does."""
    for at in groups:
        if entry.patterns[at].search(line):
            return entry.groups[at][0]
    return _MISS


def _rank(entry: _Compiled, priority: int | None) -> int:
    return entry.signature.priority if priority is None else priority


def diagnose_texts(
    texts: Sequence[tuple[str, str]], notices: Sequence[str] = (), *, leave_out: Collection[str] = ()
) -> Diagnosis:
    """Diagnose several already-decoded texts, each ``(source name, text)``; rank what they show.

    Every caller (``diagnose``, ``report``, the wizard's paste box, a failed run) comes through here, so
    the bounds hold for all: each text is diagnosed from its last :data:`READ_CHARS` characters and all
    together from :data:`TOTAL_CHARS` (a notice says what was skipped). ``leave_out``: source URLs of
    public reports the similar layer must not compare with (a corpus log scored against the others).
    """
    found: dict[str, Match] = {}
    said = list(notices)
    lines = 0
    budget = TOTAL_CHARS
    readings: list[Reading] = []
    read: list[str] = []
    for index, (source, given) in enumerate(texts):
        first_line = given.first_line if isinstance(given, LogText) else 1
        text = normalise(given)
        if len(text) > min(READ_CHARS, budget):
            size = len(text)
            text, skipped = _char_tail(text, min(READ_CHARS, budget))
            if text:
                said.append(_skip_notice(source, size, len(text), first_line - 1 + skipped))
            else:
                said.append(t("diagnose.input.over_total", source=source, limit=_mb(TOTAL_CHARS)))
            first_line += skipped
        budget -= len(text)
        lines += text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        reading = read_log(text, first_line) if text else Reading()
        readings.append(reading)
        read.append(text)
        if text:
            _scan(text, index, source, found, first_line, reading)
            _structural(reading, index, source, found)
            _log_end(text, reading, first_line, index, source, found)
    ranked = sorted(found.values(), key=Match.rank_key)
    sources = [source for source, _ in texts]
    unrecognised = None if ranked else _unrecognised(sources, readings)
    similar = _similar(ranked, readings, read, leave_out) if ranked or unrecognised else []
    return Diagnosis(ranked, sources, lines, said, readings, unrecognised, similar)


def _similar(
    ranked: Sequence[Match], readings: Sequence[Reading], texts: Sequence[str], leave_out: Collection[str]
) -> list[SimilarReport]:
    """The similar public reports of the input that shows the failure (the first with a final error,
    else with a traceback, else the one the first match is in), for the slots the matches left."""
    at = next((i for i, r in enumerate(readings) if r.final is not None), None)
    if at is None:
        at = next((i for i, r in enumerate(readings) if r.has_error), None)
    if at is None:
        at = ranked[0].first[0] if ranked else 0
    if at >= len(texts) or not texts[at]:
        return []
    skip = {m.id for m in ranked}
    return similar_reports(texts[at], readings[at], skip, MAX_SHOWN - len(ranked), leave_out)


def _title_of(signature_id: str | None) -> str:
    """The translated title of a signature id; empty for none or an id no signature has."""
    if signature_id is None or signature_id not in SIGNATURES:
        return ""
    return SIGNATURES.get(signature_id).text.of().title


def _similar_dict(report: SimilarReport) -> dict[str, Any]:
    title = _title_of(report.id)
    return {
        "id": report.id,
        "title": title,
        "via": "similar",
        "report": report.where,
        "source": report.source,
        "similarity": report.similarity,
        "score": report.score,
    }


def similar_lines(doc: Mapping[str, Any]) -> list[str]:
    """The similar public reports of a diagnosis document (:meth:`Diagnosis.to_dict`) as translated
    lines: a header that says what they are, then one ``- `` item per cause (the report, its link, the
    cause its thread established, the similarity). Empty when there are none. ``diagnose``, ``report``
    and the wizard show the same lines."""
    similar = doc.get("similar") or []
    if not similar:
        return []
    lines = [t("diagnose.cli.similar")]
    for entry in similar:
        lines.append(
            "- "
            + t(
                "diagnose.cli.similar_item",
                report=entry.get("report", ""),
                source=entry.get("source", ""),
                title=entry.get("title") or entry["id"],
                id=entry["id"],
                similarity=f"{entry.get('similarity', 0):.2f}",
            )
        )
    return lines


def unrecognised_lines(doc: Mapping[str, Any]) -> list[str]:
    """The unrecognised answer of a diagnosis document (:meth:`Diagnosis.to_dict`, possibly redacted) as
    translated lines: a header, then ``- `` items (the error, or the failing line of a tool when there is
    no exception, Paddle's hint and C++ location, the frame in
    the user's or kit's code, versions, errnos, libraries, the closest known cause marked "not sure"),
    "what to try:" and its ``- `` items. Empty when the document is not ``"kind": "unrecognised"``.
    ``diagnose``, ``report`` and the wizard show the same lines."""
    answer, reading = doc.get("unrecognised"), doc.get("reading")
    if doc.get("kind") != "unrecognised" or not answer or not reading:
        return []
    lines = [t("diagnose.cli.unrecognised")]
    python, cpp, final = reading.get("python_exception"), reading.get("cpp_error"), reading.get("exception")
    if python:
        lines.append("- " + t("diagnose.cli.exception", text=_cut(_error_text(python))))
    if cpp:
        lines.append("- " + t("diagnose.cli.cpp_error", text=_cut(_error_text(cpp))))
    logged = reading.get("logged_error")
    if logged and not python and not cpp:
        lines.append(
            "- " + t("diagnose.cli.logged_error", line=logged["line"], text=_cut(_error_text(logged)))
        )
    if final and final.get("hint"):
        lines.append("- " + t("diagnose.cli.hint", text=_cut(final["hint"])))
    if final and final.get("at"):
        lines.append("- " + t("diagnose.cli.at", text=final["at"]))
    frame = reading.get("frame")
    if frame:
        where = f"{frame['path']}:{frame['line']}" + (
            f" in {frame['function']}" if frame.get("function") else ""
        )
        if frame.get("code"):
            where += f"  ·  {_cut(frame['code'])}"
        lines.append("- " + t("diagnose.cli.frame", where=where))
    if reading.get("versions"):
        text = ", ".join(f"{name} {version}" for name, version in reading["versions"].items())
        lines.append("- " + t("diagnose.cli.versions", text=text))
    if reading.get("errnos"):
        lines.append("- " + t("diagnose.cli.errnos", text=", ".join(reading["errnos"])))
    if reading.get("libraries"):
        lines.append("- " + t("diagnose.cli.libraries", text=", ".join(reading["libraries"])))
    closest = answer.get("closest")
    if closest:
        lines.append("- " + t("diagnose.cli.closest", title=closest.get("title", ""), id=closest["id"]))
    elif answer.get("family"):
        lines.append("- " + t("diagnose.cli.family", family=answer["family"]))
    lines.append(t("diagnose.cli.try"))
    lines.extend(f"- {tip}" for tip in answer.get("suggestions", []))
    return lines


def _error_text(error: Mapping[str, Any]) -> str:
    message = (
        f"({error['category']}) {error['message']}" if error.get("category") else error.get("message", "")
    )
    return f"{error['type']}: {message}" if message else str(error["type"])


def _cut(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _primary(sources: Sequence[str], readings: Sequence[Reading]) -> tuple[str, Reading] | None:
    """The input whose reading answers for the whole: the first with a final error, else the first with
    a traceback, else the first with anything read."""
    pairs = list(zip(sources, readings, strict=False))
    for test in (
        lambda r: r.final is not None,
        lambda r: r.has_error,
        lambda r: bool(r.versions or r.errnos or r.libraries or r.kits),
    ):
        for source, reading in pairs:
            if test(reading):
                return source, reading
    return None


_ERRNO_FAMILY = {
    "ENOSPC": "filesystem",
    "EDQUOT": "filesystem",
    "EACCES": "filesystem",
    "EPERM": "filesystem",
    "EROFS": "filesystem",
    "EMFILE": "filesystem",
    "ECONNREFUSED": "network",
    "ECONNRESET": "network",
    "ECONNABORTED": "network",
    "ETIMEDOUT": "network",
    "EHOSTUNREACH": "network",
    "ENETUNREACH": "network",
    "EAI_NONAME": "network",
    "EAI_AGAIN": "network",
}
"""An errno name → the family of causes it points at."""


def _unrecognised(sources: Sequence[str], readings: Sequence[Reading]) -> Unrecognised | None:
    """The structured answer when no signature matched: ``None`` unless an input shows a failure."""
    primary = _primary(sources, readings)
    if primary is None or not primary[1].has_error:
        return None
    source, reading = primary
    closest, family = _closest(reading)
    from workbench.troubleshoot.context import FAMILY_FLOWS  # context builds on this module

    flow = FAMILY_FLOWS.get(family) if family else None
    return Unrecognised(source, reading, closest, family, flow)


def _closest(reading: Reading) -> tuple[str | None, str | None]:
    """The signature the final error is closest to (most of its keys in the error's text) and the family
    the reading points at; each ``None`` when nothing points anywhere."""
    final = reading.final or reading.logged
    text = " ".join(part for part in (final.type, final.message, final.hint) if part) if final else ""
    hinted: list[str] = [_ERRNO_FAMILY[e] for e in reading.errnos if e in _ERRNO_FAMILY]
    if reading.libraries:
        hinted.append("libraries")
    if final is not None:
        kind = final.short_type
        if kind in ("ImportError", "ModuleNotFoundError"):
            hinted.append("imports")
        if kind in ("AttributeError", "ImportError", "TypeError") and "paddle" in final.message.lower():
            hinted.append("versions")
        if kind in ("MemoryError", "ResourceExhaustedError"):
            hinted.append("memory")
    families = {name.split(".", 1)[0] for name in SIGNATURES.names()}
    hinted = [family for family in dict.fromkeys(hinted) if family in families]
    closest: str | None = None
    if text:  # the reading's families first; only when it points nowhere, any family's keys
        for allowed in ([*hinted], None) if hinted else (None,):
            best: tuple[int, str] | None = None
            for name, sig in SIGNATURES.items():
                if allowed is not None and name.split(".", 1)[0] not in allowed:
                    continue
                hits = sum(1 for key in sig.keys if key in text)
                if hits and (best is None or hits > best[0]):
                    best = (hits, name)
            if best is not None:
                closest = best[1]
                break
            if allowed is not None:
                break  # the reading names a family but none of its signatures: say the family only
    family = closest.split(".", 1)[0] if closest else (hinted[0] if hinted else None)
    return closest, family


def _char_tail(text: str, keep: int) -> tuple[str, int]:
    """The end of ``text``: at most ``keep`` characters, from a line start when the cut falls in a line
    that ends inside them; and how many lines were skipped."""
    if keep <= 0:
        return "", text.count("\n") + (0 if text.endswith("\n") else 1)
    cut = len(text) - keep
    line_end = text.find("\n", cut)
    if line_end == -1:
        return text[cut:], text.count("\n", 0, cut)
    return text[line_end + 1 :], text.count("\n", 0, line_end + 1)


def diagnose_text(text: str, source: str = "-", *, leave_out: Collection[str] = ()) -> Diagnosis:
    """Diagnose one pasted text (a traceback, a log); ``leave_out`` as for :func:`diagnose_texts`."""
    return diagnose_texts([(source, text)], leave_out=leave_out)


def diagnose_files(paths: Sequence[Path], names: Sequence[str] | None = None) -> Diagnosis:
    """Read and diagnose log files (raises :class:`DiagnoseInputError` if one cannot be read)."""
    texts: list[tuple[str, str]] = []
    notices: list[str] = []
    for index, path in enumerate(paths):
        text, more = read_log_file(path)
        texts.append((names[index] if names else str(path), text))
        notices.extend(more)
    return diagnose_texts(texts, notices)


__all__ = [
    "MAX_BYTES",
    "READ_CHARS",
    "TOTAL_CHARS",
    "LogText",
    "Diagnosis",
    "Unrecognised",
    "DiagnoseInputError",
    "Evidence",
    "Match",
    "decode_log",
    "diagnose_files",
    "diagnose_text",
    "diagnose_texts",
    "normalise",
    "read_log_file",
    "read_log_stream",
    "reset_cache",
    "similar_lines",
    "unrecognised_lines",
]
