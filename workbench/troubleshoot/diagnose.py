"""``diagnose``: find the known errors in a log or traceback, quote them back, rank the root cause first.

The knowledge is the :data:`~workbench.troubleshoot.signatures.SIGNATURES` registry; this module reads
text and applies it. What it does to a log, and why:

- **Reads anything a user pastes.** Bytes are decoded as UTF-8, else GB18030 (Chinese Windows consoles),
  else UTF-8 with the undecodable bytes replaced (said in a notice). Binary input (NUL bytes), empty
  input and files over :data:`MAX_BYTES` are refused with a sentence, never a traceback
  (:class:`DiagnoseInputError`).
- **Normalises** ANSI colour codes away and CRLF / lone CR (progress bars) to line ends, so line numbers
  are the ones an editor shows.
- **Is fast on 100k+ lines.** Each signature names literal ``keys``; ``str.find`` (C speed) locates the
  lines holding a key and only those lines are searched with the signature's compiled regular
  expressions. A normal training log holds none of the keys and costs a few scans of the text
  (``benchmarks/diagnose.py`` prints the figure).
- **Ranks root causes above consequences**: a signature marked ``consequence`` (the launcher's
  "Container failed", a peer's NCCL time-out, the comm watchdog) ranks below every root cause; within each
  group a higher ``priority`` (specific above generic) ranks first, then the earlier first occurrence.
- **Quotes the decisive lines** with their line numbers (the first few of each signature) and counts the
  rest.

Nothing here imports Paddle or Textual.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import IO, Any

from workbench.i18n import t
from workbench.troubleshoot.signatures import SIGNATURES, Signature

MAX_BYTES = 512 * 1024 * 1024
"""The largest log read at once (a longer one: pass its tail)."""
MAX_QUOTES = 3
"""Evidence lines quoted per signature (the rest are counted)."""
MAX_CANDIDATES = 200_000
"""Lines holding a key that one signature searches at most (a key repeated on every line stays cheap)."""
MAX_LINE_CHARS = 400
"""A quoted line is cut to this many characters."""

_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")


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

    @property
    def title(self) -> str:
        return t(self.signature.title_key)

    @property
    def cause(self) -> str:
        return t(self.signature.cause_key)

    @property
    def fix(self) -> str:
        return t(self.signature.fix_key)

    def rank_key(self) -> tuple[bool, int, tuple[int, int]]:
        return (self.signature.consequence, -self.signature.priority, self.first)

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
        }


@dataclass
class Diagnosis:
    """What ``diagnose`` found: ranked matches (root cause first), what it read, and any notices."""

    matches: list[Match]
    sources: list[str]
    lines_read: int
    notices: list[str] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return bool(self.matches)

    def to_dict(self) -> dict[str, Any]:
        return {
            "matches": [m.to_dict() for m in self.matches],
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
    """Strip ANSI escapes; CRLF and lone CR become line ends."""
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def read_log_file(path: Path) -> tuple[str, list[str]]:
    """Read and decode one log file; every failure is a :class:`DiagnoseInputError` with the path."""
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise DiagnoseInputError(t("diagnose.input.is_dir", source=str(path)))
        if size > MAX_BYTES:
            raise DiagnoseInputError(
                t("diagnose.input.too_large", source=str(path), size=_mb(size), limit=_mb(MAX_BYTES))
            )
        data = path.read_bytes()
    except FileNotFoundError:
        raise DiagnoseInputError(t("diagnose.input.missing", source=str(path))) from None
    except OSError as exc:
        raise DiagnoseInputError(
            t("diagnose.input.unreadable", source=str(path), error=exc.strerror)
        ) from None
    return decode_log(data, str(path))


def read_log_stream(stream: IO[bytes], source: str = "-") -> tuple[str, list[str]]:
    """Read a byte stream (standard input) up to :data:`MAX_BYTES` and decode it."""
    data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise DiagnoseInputError(
            t("diagnose.input.too_large", source=source, size=f"> {_mb(MAX_BYTES)}", limit=_mb(MAX_BYTES))
        )
    return decode_log(data, source)


def _mb(size: int) -> str:
    return f"{size / 1024 / 1024:.0f} MB"


# -- matching -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Compiled:
    id: str
    signature: Signature
    keys: tuple[str, ...]
    patterns: tuple[re.Pattern[str], ...]


def _compiled() -> tuple[_Compiled, ...]:
    """Every registered signature with its patterns compiled (once per set of registered names)."""
    return _compile(tuple(SIGNATURES.names()))


@cache
def _compile(names: tuple[str, ...]) -> tuple[_Compiled, ...]:
    entries = [(name, SIGNATURES.get(name)) for name in names]
    return tuple(
        _Compiled(name, sig, sig.keys, tuple(re.compile(p) for p in sig.patterns)) for name, sig in entries
    )


def reset_cache() -> None:
    """Forget the compiled signatures (an entry was replaced under the same name)."""
    _compile.cache_clear()


_NOT_LETTER = bytes(b if (65 <= b <= 90 or 97 <= b <= 122) else 32 for b in range(256))
_LETTER_RUN = re.compile(r"[A-Za-z]+")
MAX_TOKENS = 50_000
"""Distinct letter runs above which the word prefilter is skipped (every key is then searched directly)."""


class _KeyFilter:
    """Which keys can occur in a text, decided from its distinct ASCII letter runs, in one cheap pass.

    ``str.find`` costs about 10 ms per key on an 11 MB log, and the signatures hold ~170 keys: too slow to
    try them all. Instead the text's letter runs are collected once (``bytes.translate`` + ``split``, a
    few tens of ms) — a training log has only a few hundred distinct ones. A key can occur only if each
    of its inner letter runs is one of them and its edge runs are part of one; only the keys that pass are
    searched with ``str.find``. The test never says "absent" wrongly, so no error is missed.
    """

    def __init__(self, text: str) -> None:
        self.ascii = text.isascii()
        tokens = set(text.encode("utf-8", "surrogatepass").translate(_NOT_LETTER).split())
        self.tokens: set[str] | None = (
            {token.decode("ascii") for token in tokens} if len(tokens) <= MAX_TOKENS else None
        )
        self._cache: dict[str, bool] = {}

    def may_contain(self, key: str) -> bool:
        known = self._cache.get(key)
        if known is None:
            known = self._cache[key] = self._check(key)
        return known

    def _check(self, key: str) -> bool:
        if not key.isascii():
            return not self.ascii  # a pure-ASCII text cannot hold a Chinese key
        tokens = self.tokens
        runs = list(_LETTER_RUN.finditer(key))
        if tokens is None or not runs:
            return True
        for run in runs:
            word = run.group()
            starts, ends = run.start() == 0, run.end() == len(key)
            if not starts and not ends:
                if word not in tokens:
                    return False
            elif starts and ends:
                if word not in tokens and not any(word in token for token in tokens):
                    return False
            elif starts:  # the key's first run may be the end of a longer word ("libcudnn")
                if word not in tokens and not any(token.endswith(word) for token in tokens):
                    return False
            elif word not in tokens and not any(token.startswith(word) for token in tokens):
                return False
        return True


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


def _line_at(text: str, start: int) -> str:
    end = text.find("\n", start)
    return text[start:] if end == -1 else text[start:end]


def _scan(text: str, source_index: int, source: str, found: dict[str, Match]) -> None:
    hits: list[tuple[int, _Compiled]] = []
    keys = _KeyFilter(text)
    for entry in _compiled():
        present = [key for key in entry.keys if keys.may_contain(key)]
        if entry.keys and not present:
            continue
        for start in _candidate_lines(text, present):
            line = _line_at(text, start)
            if any(p.search(line) for p in entry.patterns):
                hits.append((start, entry))
    if not hits:
        return
    hits.sort(key=lambda hit: hit[0])
    line_no, last = 1, 0
    for start, entry in hits:
        line_no += text.count("\n", last, start)
        last = start
        match = found.get(entry.id)
        if match is None:
            match = found[entry.id] = Match(entry.id, entry.signature, first=(source_index, line_no))
        match.count += 1
        if len(match.evidence) < MAX_QUOTES:
            quoted = _line_at(text, start).strip()
            if len(quoted) > MAX_LINE_CHARS:
                quoted = quoted[: MAX_LINE_CHARS - 1] + "…"
            match.evidence.append(Evidence(source, line_no, quoted))


def diagnose_texts(texts: Sequence[tuple[str, str]], notices: Sequence[str] = ()) -> Diagnosis:
    """Diagnose several already-decoded texts, each ``(source name, text)``; rank what they show."""
    found: dict[str, Match] = {}
    lines = 0
    for index, (source, text) in enumerate(texts):
        text = normalise(text)
        lines += text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        _scan(text, index, source, found)
    ranked = sorted(found.values(), key=Match.rank_key)
    return Diagnosis(ranked, [source for source, _ in texts], lines, list(notices))


def diagnose_text(text: str, source: str = "-") -> Diagnosis:
    """Diagnose one pasted text (a traceback, a log)."""
    return diagnose_texts([(source, text)])


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
    "Diagnosis",
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
]
