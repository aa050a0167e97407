"""Untrusted text made inert before a terminal sees it: the one sanitiser for the TUI and the CLI.

Logs, dataset lines, config values, layer names, pasted errors and file names come from outside. Written
to a terminal raw, their escape sequences act: OSC 52 writes the clipboard, OSC 8 makes a link that says
one address and opens another, OSC 0/2 retitle the window, ``ESC[2J`` clears the screen, an 8-bit CSI
(U+009B) does all of that on terminals that read C1 controls, and bidi overrides reorder what is shown
(docs/architecture.md, "Safety"). :func:`inert` shows each such character **visibly** instead:

- ESC and the other C0 controls (everything below U+0020 but ``\\n`` and ``\\t``) and DEL become the
  Control Pictures glyph for them (ESC → ``␛``, BEL → ``␇``, CR → ``␍``, DEL → ``␡``), one cell each;
  ``\\r\\n`` is a line end and becomes ``\\n``.
- C1 controls (U+0080–U+009F, the 8-bit CSI, OSC, DCS, ST …) become ``\\x9b``-style text.
- Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) become ``\\u202e``-style text.
- Lone surrogates — a file name's undecodable byte as Python carries it (``surrogateescape``) — become
  the byte as ``\\x9b``-style text: written out, they would be that raw byte (an 8-bit C1 control) or
  an encoding error.
- Complete SGR colour sequences (``ESC [ digits ; m``) are dropped: they only colour text, and
  Paddle's and the kits' coloured logs would otherwise be full of ``␛[32m``.

Each character is replaced on its own, so the result never depends on where a stream was cut: a
sequence split across two reads is inert in both halves, with no state carried between calls. Printable
text (CJK, emoji with their joiners, combining marks) passes unchanged, and text with nothing to replace
is returned as is after one C-speed scan (:func:`needs_inert`), which is what the log pane and the
monitor pay per write. Everything is linear: a character-class scan, one regex whose parameter run
stops at the next non-digit, and one substitution that calls back only at the characters it replaces.

:func:`strip_sequences` is the other use, for *matching* rather than showing (``diagnose`` normalises
logs with it): whole escape sequences removed, nothing made visible.

Nothing here imports Rich or Textual; the UI and the CLI apply this at their output chokepoints.
"""

from __future__ import annotations

import re

__all__ = ["drop_controls", "inert", "needs_inert", "strip_sequences"]

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""Every character :func:`inert` replaces (``\\n`` and ``\\t`` are the only controls kept)."""

_SGR = re.compile(r"\x1b\[[0-9;:]*m")
"""A complete colour/attribute sequence: dropped, never shown (the parameter run ends at any non-digit)."""


def _stand_in(code: int) -> str:
    """What a character :data:`_UNSAFE` matches is shown as (computed, not tabled: a table of every lone
    surrogate would be built at every start, and most processes never replace a character)."""
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures glyph: ␛, ␇, ␍ …
    if code == 0x7F:
        return "\u2421"  # ␡
    if 0x80 <= code < 0xA0:
        return f"\\x{code:02x}"
    if 0xDC80 <= code < 0xDD00:
        return f"\\x{code - 0xDC00:02x}"  # a byte a file name could not decode
    return f"\\u{code:04x}"  # bidi controls, other lone surrogates


_SEQUENCE = re.compile(
    r"""
    \x1b\[ [0-?]* [\x20-/]* [@-~]                     # CSI: ESC [ params intermediates final
    | \x1b[\]PX^_] [^\n\x07\x1b\x90\x98\x9b-\x9f]* (?:\x07|\x1b\\|\x9c)  # OSC DCS SOS PM APC to BEL/ST
    | \x1b [\x20-/]* [0-~]                             # any other ESC sequence (nF, Fp, Fe, Fs)
    | \x9b [0-?]* [\x20-/]* [@-~]                      # 8-bit CSI
    | [\x90\x98\x9d-\x9f] [^\n\x07\x1b\x90\x98\x9b-\x9f]* (?:\x07|\x1b\\|\x9c)  # 8-bit string starts
    """,
    re.VERBOSE,
)
"""Whole escape sequences. Linear: a repeated part stops at the next character that could start another
sequence (ESC, an 8-bit introducer) or end one, so no two attempts scan the same characters twice. A
string never runs past a line end: an unterminated title cannot swallow the log lines after it (only its
``ESC ]`` goes)."""

_INTRODUCERS = "\x1b\x90\x98\x9b\x9d\x9e\x9f"
"""The characters a sequence can start with (each looked for with ``in``: memchr speed on long logs)."""


def needs_inert(text: str) -> bool:
    """Whether ``text`` holds anything :func:`inert` would replace (one scan, no allocation)."""
    return _UNSAFE.search(text) is not None


def inert(text: str) -> str:
    """``text`` safe to write to a terminal: controls, escapes, C1 and bidi controls shown visibly.

    ``\\n`` and ``\\t`` stay; ``\\r\\n`` becomes ``\\n``; complete SGR colour sequences are dropped; every
    other control character becomes a visible stand-in (module docstring). Idempotent, linear, and the
    same object back when there is nothing to replace.
    """
    if _UNSAFE.search(text) is None:
        return text
    if "\x1b[" in text:
        text = _SGR.sub("", text)
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    return _UNSAFE.sub(_visible, text)


def _visible(match: re.Match[str]) -> str:
    return _stand_in(ord(match.group()))


def _dropped(match: re.Match[str]) -> str:
    return "\ufffd" if "\ud800" <= match.group() <= "\udfff" else ""


def drop_controls(text: str) -> str:
    """``text`` without any character :func:`inert` would replace, for text already laid out in terminal
    cells (the TUI's last line of defence, ``workbench.screens.inert``): the controls are zero cells wide
    and go; a lone surrogate (one cell) becomes ``�``; so no width changes. Everywhere else, show them
    with :func:`inert`."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(_dropped, text)


def strip_sequences(text: str) -> str:
    """``text`` with its whole escape sequences (CSI, OSC/DCS/SOS/PM/APC strings, 8-bit CSI and string
    introducers) removed: for matching a log's words, not for showing it (what is left may still hold
    lone controls — pass shown text through :func:`inert`)."""
    if not any(introducer in text for introducer in _INTRODUCERS):
        return text
    return _SEQUENCE.sub("", text)
