"""Signature patterns as linear-time regular expressions: RE2 (``google-re2``), never Python's ``re``.

``diagnose`` reads whatever a user pastes, and one line can be megabytes long. Python's backtracking
``re`` is super-linear on patterns like ``(gloo|nccl).*(Connection reset by peer|…)`` (every ``gloo`` on
a line starts a scan to its end: a 40 KB line took seconds, 1 MB hours). RE2 matches with automata, so a
search costs time linear in the line whatever the pattern — which is why no pattern is checked for nested
quantifiers or crossing ``.*``: under RE2 they are harmless. What RE2 cannot run (look-around,
back-references) fails to compile and is refused with a sentence, and so is a pattern whose program is
larger than :data:`MAX_PROGRAM_SIZE` (the automaton's size is the constant in "linear").

RE2 syntax differs from ``re`` in a few ways a signature author meets: ``\\d \\w \\s \\b`` are ASCII only
(logs' error text is), and there is no ``(?!…)``/``(?=…)``/``\\1``. Patterns are compiled with
``never_capture`` (a search only says *whether* a line matches, so no sub-match is ever computed).

:class:`LiteralSet` is the keys' side: which of many literal strings occur in a text, in one RE2 set pass
whose cost does not grow with the number of literals.
"""

from __future__ import annotations

from functools import cache

import re2

MAX_PROGRAM_SIZE = 1000
"""The largest compiled RE2 program a signature pattern may have (the shipped ones are under 200)."""

_OPTIONS = re2.Options()
_OPTIONS.never_capture = True  # whether a line matches, never where groups are: the DFA alone answers
_OPTIONS.log_errors = False  # a refused pattern is our ValueError, not RE2 writing to stderr


class LinearPattern:
    """One compiled signature pattern; :meth:`search` is linear in the searched bytes."""

    __slots__ = ("_regexp", "pattern")

    def __init__(self, pattern: str, regexp: re2._Regexp) -> None:
        self.pattern = pattern
        self._regexp = regexp

    def search(self, line: bytes) -> bool:
        """Whether the pattern occurs anywhere in ``line`` (UTF-8 bytes of one line, no line end)."""
        return self._regexp.search(line) is not None

    @property
    def program_size(self) -> int:
        """Instructions in RE2's compiled program (the cost per input byte grows with it)."""
        size: int = self._regexp.programsize
        return size

    def __repr__(self) -> str:
        return f"LinearPattern({self.pattern!r})"


def _why(pattern: str, error: str) -> str:
    if any(mark in pattern for mark in ("(?=", "(?!", "(?<=", "(?<!")):
        return (
            f"pattern {pattern!r} uses look-around, which RE2 (linear-time matching) does not have: "
            "write the cases out instead (e.g. 'for (?:[^\\Wa]|a(?:$|[^l]))' for 'for (?!al)\\w')"
        )
    if "invalid escape sequence: \\" in error and any(f"\\{d}" in pattern for d in "123456789"):
        return f"pattern {pattern!r} uses a back-reference, which RE2 (linear-time matching) does not have"
    return f"pattern {pattern!r} is not an RE2 regular expression: {error}"


@cache
def compile_linear(pattern: str) -> LinearPattern:
    """Compile ``pattern`` with RE2; raise ``ValueError`` (a sentence naming the pattern) when RE2 cannot
    run it or its program is over :data:`MAX_PROGRAM_SIZE`."""
    try:
        regexp = re2.compile(pattern, _OPTIONS)
    except re2.error as exc:
        detail = exc.args[0] if exc.args else exc
        error = detail.decode("utf-8", "replace") if isinstance(detail, bytes) else str(detail)
        raise ValueError(_why(pattern, error)) from None
    compiled = LinearPattern(pattern, regexp)
    if compiled.program_size > MAX_PROGRAM_SIZE:
        raise ValueError(
            f"pattern {pattern!r} compiles to {compiled.program_size} RE2 instructions, more than "
            f"{MAX_PROGRAM_SIZE}: split it or drop large counted repeats ({{n}})"
        )
    return compiled


_CAPTURING = re2.Options()
_CAPTURING.log_errors = False


@cache
def compile_capturing(pattern: str) -> re2._Regexp:
    """Compile a pattern whose groups are read (the engine's own structural reading of a log, never a
    signature's): RE2 still, so a search is linear in the searched text; refused like
    :func:`compile_linear` when RE2 cannot run it."""
    compile_linear(pattern)
    return re2.compile(pattern, _CAPTURING)


def compile_any(patterns: tuple[str, ...]) -> LinearPattern:
    """One RE2 program that matches where any of ``patterns`` does (each checked by
    :func:`compile_linear` first): a line is then searched once per signature, not once per pattern.
    Each pattern is its own group, so a leading ``(?i)`` applies to that pattern only."""
    parts = [compile_linear(pattern) for pattern in patterns]
    if len(parts) == 1:
        return parts[0]
    combined = "|".join(f"(?:{pattern})" for pattern in patterns)
    try:
        return LinearPattern(combined, re2.compile(combined, _OPTIONS))
    except re2.error:  # over RE2's memory budget together: keep the patterns apart
        raise ValueError(f"patterns {patterns!r} do not compile together") from None


_LITERALS = re2.Options()
_LITERALS.never_capture = True
_LITERALS.log_errors = False
_LITERALS.max_mem = 256 << 20
"""A budget, not an allocation: the DFA of a literal set has at most one state per prefix of a key (about
12,000 for the shipped keys), far below it, so its cache never fills and a match never gives up."""


class LiteralSet:
    """Which of many literal strings occur in a text, found in one linear pass whatever their number.

    An RE2 ``Set`` of the escaped literals: its DFA is an Aho–Corasick automaton built lazily, so one
    pass over the text reports every literal that occurs anywhere (overlapping and nested ones too),
    at a cost per byte that does not grow with the number of literals. The answer is exact: literal ``i``
    is reported if and only if ``literals[i] in text``. Should RE2 refuse the set, or fail the check made
    once at compile time (the literals joined, every one must be reported), :meth:`present` asks the text
    for each literal directly instead — slower, never wrong.
    """

    __slots__ = ("_encoded", "_set", "literals")

    def __init__(self, literals: tuple[str, ...]) -> None:
        self.literals = literals
        self._encoded = tuple(literal.encode("utf-8", "surrogatepass") for literal in literals)
        self._set: re2.Set | None = None
        if not literals:
            return
        try:
            matcher = re2.Set.SearchSet(_LITERALS)
            for literal in self._encoded:
                matcher.Add(re2.escape(literal))
            matcher.Compile()
        except re2.error:
            return
        found = matcher.Match(b"\n".join(self._encoded)) or []
        if len(set(found)) == len(literals):
            self._set = matcher

    def present(self, text: bytes) -> frozenset[str]:
        """The literals that occur in ``text`` (UTF-8 bytes, ``surrogatepass`` for lone surrogates)."""
        if self._set is None:
            return frozenset(
                lit for lit, enc in zip(self.literals, self._encoded, strict=True) if enc in text
            )
        found = self._set.Match(text) or ()
        return frozenset(self.literals[index] for index in found)

    @property
    def uses_set(self) -> bool:
        """Whether the one-pass RE2 set answers (``False``: each literal is searched for directly)."""
        return self._set is not None


@cache
def compile_literals(literals: tuple[str, ...]) -> LiteralSet:
    """A :class:`LiteralSet` of ``literals`` (empty strings are not allowed: they occur everywhere)."""
    if any(not literal for literal in literals):
        raise ValueError("an empty literal occurs in every text: give non-empty literals")
    return LiteralSet(literals)


__all__ = [
    "MAX_PROGRAM_SIZE",
    "LinearPattern",
    "LiteralSet",
    "compile_any",
    "compile_capturing",
    "compile_linear",
    "compile_literals",
]
