"""Human and machine output for every command: rich text for people, one JSON document for tools.

With ``--json``, stdout carries exactly one JSON document and human text goes to stderr
(docs/architecture.md, "CLI and JSON contracts").

**A reader that goes away is not an error.** ``train … | head -5``, ``check | head -2``, a ``--json``
reader that stops early, an SSH session that dropped: every command writes through
:class:`ClosedPipeGuard` (installed on ``sys.stdout``/``sys.stderr`` by :func:`install_pipe_guards` when
the CLI starts). The first write that fails with ``EPIPE`` (the reader closed the pipe) or ``EIO`` (the
terminal hung up) silences that stream for the rest of the process — the descriptor is pointed at
``/dev/null``, so C-level writers and the interpreter's final flush are silent too — and the command
carries on and exits with its own verdict. One mechanism for every command, no per-command special cases.

**Outside text is inert.** Every human line goes through :func:`human_console`, an :class:`InertConsole`:
file names, dataset lines, layer names, config values and log excerpts inside it reach the terminal with
their escape and control characters shown visibly (:mod:`workbench.textsafe`), never interpreted. JSON
keeps the data as it is (``json.dumps`` escapes control characters itself).
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.text import Text

from workbench.config.errors import ConfigIssue
from workbench.i18n import t
from workbench.textsafe import inert, needs_inert

EXIT_OK = 0
EXIT_FAILURES = 1
EXIT_BAD_INPUT = 2

_READER_GONE = (errno.EPIPE, errno.EIO)


class ClosedPipeGuard(io.TextIOBase):
    """A text stream that turns "the reader went away" into silence instead of an exception.

    Wraps a real stream (``target``). :meth:`retarget` points it at another stream for a while (the
    ``train`` command's terminal while fds 1/2 are captured), :meth:`divert` sends everything to a
    function instead (after SIGHUP: into the run's ``logs.txt``, never to the dead terminal).
    """

    def __init__(self, target: TextIO) -> None:
        super().__init__()
        self.target = target
        self.reader_gone = False
        self.terminal = _isatty(target)
        """Whether the stream was a terminal when it was wrapped (a hung-up terminal may not say so)."""
        self._divert: Callable[[str], None] | None = None

    # -- where the text goes ----------------------------------------------------------------------

    def divert(self, sink: Callable[[str], None] | None) -> None:
        """Send every later write to ``sink`` (``None``: back to the stream)."""
        self._divert = sink

    @contextlib.contextmanager
    def retarget(self, target: TextIO) -> Iterator[None]:
        """Write to ``target`` inside the block (its own "reader gone" state), then to the old stream."""
        saved = self.target, self.reader_gone, self.terminal
        self.target, self.reader_gone, self.terminal = target, False, _isatty(target)
        try:
            yield
        finally:
            self.flush()
            self.target, self.reader_gone, self.terminal = saved

    # -- the stream interface ---------------------------------------------------------------------

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        divert = self._divert
        if divert is not None:
            with contextlib.suppress(Exception):
                divert(text)
        elif not self.reader_gone:
            try:
                self.target.write(text)
            except OSError as exc:
                self._reader_went_away(exc)
        return len(text)

    def flush(self) -> None:
        if self._divert is not None or self.reader_gone:
            return
        try:
            self.target.flush()
        except OSError as exc:
            self._reader_went_away(exc)
        except ValueError:  # the stream was closed under us
            pass

    def _reader_went_away(self, exc: OSError) -> None:
        if exc.errno not in _READER_GONE:
            raise exc
        self.reader_gone = True
        # Point the descriptor at /dev/null: C-level writers and the interpreter's final flush of the
        # buffered text then succeed silently instead of failing again (or printing "Exception ignored").
        with contextlib.suppress(OSError, ValueError, AttributeError):
            fd = self.target.fileno()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, fd)
            os.close(devnull)
        with contextlib.suppress(OSError, ValueError):
            self.target.flush()  # drops what was buffered into /dev/null

    def isatty(self) -> bool:
        if self._divert is not None or self.reader_gone:
            return False
        try:
            return self.target.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        return self.target.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.target, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.target, "errors", None)

    @property
    def buffer(self) -> Any:
        return self.target.buffer


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (OSError, ValueError, AttributeError):
        return False


def install_pipe_guards() -> tuple[ClosedPipeGuard, ClosedPipeGuard]:
    """Wrap ``sys.stdout`` and ``sys.stderr`` in guards (once per process); return both guards."""
    guards = []
    for name in ("stdout", "stderr"):
        current = getattr(sys, name)
        if not isinstance(current, ClosedPipeGuard):
            current = ClosedPipeGuard(current)
            setattr(sys, name, current)
        guards.append(current)
    return guards[0], guards[1]


def pipe_guard(name: str) -> ClosedPipeGuard | None:
    """The guard on ``sys.stdout`` / ``sys.stderr`` (``name``), looking through output routers."""
    stream: Any = getattr(sys, name)
    for _ in range(4):
        if isinstance(stream, ClosedPipeGuard):
            return stream
        stream = getattr(stream, "fallback", None)
    return None


class InertConsole(Console):
    """A Rich console that never lets a text segment's control characters reach the terminal.

    The chokepoint for CLI output: whatever a command prints (a ``Text`` holding a file name, a table of
    layer names, a markup string with a log line in it), each text segment passes
    :func:`~workbench.textsafe.inert` on its way out; Rich's own control segments (cursor moves of a
    progress bar) and styles are untouched. Rich already drops BEL, BS, VT, FF and CR from text; ESC, the
    other C0 controls, C1 controls and bidi overrides become visible here. Text without any costs one scan.
    """

    def render(self, renderable: RenderableType, options: ConsoleOptions | None = None) -> Iterable[Segment]:
        for segment in super().render(renderable, options):
            text, style, control = segment
            if control is None and needs_inert(text):
                yield Segment(inert(text), style)
            else:
                yield segment


def human_console(json_mode: bool = False) -> Console:
    """Where human text goes: stderr when stdout is reserved for JSON; no colours when the user's
    settings say so (``NO_COLOR``, ``PADDLE_WORKBENCH_NO_COLOR``, the user config file); outside text
    inert (:class:`InertConsole`)."""
    from workbench.cli.state import current_settings  # pydantic: not for --help

    return InertConsole(
        file=sys.stderr if json_mode else sys.stdout,
        no_color=current_settings().no_color,
        highlight=False,
        soft_wrap=True,
    )


def emit_json(document: Any) -> None:
    """Write ``document`` as the one JSON document on stdout (silently dropped if the reader left)."""
    out: Any = pipe_guard("stdout") or sys.stdout
    out.write(json.dumps(document, ensure_ascii=False, indent=2, default=str) + "\n")
    out.flush()


def report_usage_error(exc: Any, *, json_mode: bool) -> int:
    """Show a click usage error (bad option, bad ``--workspace``); under ``--json`` also as a document.

    Returns the exit code (2 for bad input). Without ``--json`` this is click's own message and usage.
    """
    if not json_mode:
        exc.show()
        return int(getattr(exc, "exit_code", EXIT_BAD_INPUT))
    message = exc.format_message()
    human_console(True).print(
        Text.assemble((t("cli.error_prefix"), "bold red"), " ", message), highlight=False
    )
    emit_json({"ok": False, "status": "invalid", "errors": [{"message": message}]})
    return int(getattr(exc, "exit_code", EXIT_BAD_INPUT))


def print_issues(console: Console, issues: list[ConfigIssue]) -> None:
    """One line per problem: ``file:line:col: message (hint)``."""
    for issue in issues:
        # User text (paths, values) is never parsed as Rich markup: "[red]" in a path stays literal.
        console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", str(issue)), highlight=False)


def is_headless(plain: bool) -> bool:
    """Line-mode output: ``--plain``, a non-TTY stdout, or ``TERM=dumb`` (never Textual then)."""
    return plain or not sys.stdout.isatty() or os.environ.get("TERM", "") == "dumb"
