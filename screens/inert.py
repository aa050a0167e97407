"""Outside text in the TUI is inert: shown with its escape and control characters visible, never acted on.

Two layers, both built on :mod:`workbench.textsafe` (the one sanitiser of the project):

- **Where outside text enters**, the widgets that show it make it visible before layout:
  :class:`InertLog` (the monitor's log pane: a run's ``logs.txt``, an attached kit log) and
  :class:`InertStatic` (run details, failures and tracebacks, alerts, the wizard's evidence and findings),
  plus :func:`inert` on the names that go into titles and tables (run ids, metric names). ``ESC]2;…``
  then reads ``␛]2;…`` on screen, in the cells Textual laid out for it.
- **Where every line leaves a widget**, :data:`INERT_FILTER` (a Textual line filter the app applies to
  every widget) drops whatever control character is still in a text segment, from a widget nobody
  thought of (a data table cell, an option label, a text box). Those characters are zero cells wide, so
  dropping them leaves the layout exactly as Textual measured it; Textual's own escape sequences
  (colours, cursor moves, links) live in styles and control segments and are untouched.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.segment import Segment
from rich.text import Span, Text
from textual.color import Color
from textual.filter import LineFilter
from textual.widgets import Log, Static
from typing_extensions import Self

from workbench.textsafe import drop_controls, inert, needs_inert

__all__ = ["INERT_FILTER", "InertFilter", "InertLog", "InertStatic", "inert", "inert_content", "inert_text"]


def inert_text(text: Text) -> Text:
    """A Rich ``Text`` with its characters made inert and its styles kept on the characters they styled."""
    plain = text.plain
    if not needs_inert(plain):
        return text
    cuts = sorted({cut for span in text.spans for cut in (span.start, span.end)} - {0, len(plain)})
    out = Text(
        style=text.style, justify=text.justify, no_wrap=text.no_wrap, overflow=text.overflow, end=text.end
    )
    for piece in text.divide(cuts):
        shown = inert(piece.plain)
        # After dividing at every span boundary, each span of a piece covers all of it (or nothing).
        spans = [Span(0, len(shown), span.style) for span in piece.spans if span.end > span.start]
        out.append_text(Text(shown, spans=spans))
    return out


def inert_content(content: Any) -> Any:
    """``content`` for a widget, outside text made inert: a string or a Rich ``Text``; anything else as is
    (a table or group built from already inert names; :data:`INERT_FILTER` covers what is left)."""
    if isinstance(content, str):
        return inert(content)
    if isinstance(content, Text):
        return inert_text(content)
    return content


class InertStatic(Static):
    """A ``Static`` for outside text: never markup, and what it shows is inert (:func:`inert_content`)."""

    def __init__(self, content: Any = "", **kwargs: Any) -> None:
        kwargs.setdefault("markup", False)
        super().__init__(inert_content(content), **kwargs)

    def update(self, content: Any = "", *, layout: bool = True) -> None:
        super().update(inert_content(content), layout=layout)


class InertLog(Log):
    """The log pane: every line written is inert; a lone CR (a progress bar redrawing) is a line end, as
    ``Log`` itself reads it, rather than a visible ``␍``. Text without control characters costs one scan."""

    def write(self, data: str, scroll_end: bool | None = None) -> Self:
        if needs_inert(data):
            if "\r" in data:
                data = data.replace("\r\n", "\n").replace("\r", "\n")
            data = inert(data)
        return super().write(data, scroll_end)

    def write_lines(self, lines: Iterable[str], scroll_end: bool | None = None) -> Self:
        return super().write_lines([inert(line) for line in lines], scroll_end)


class InertFilter(LineFilter):
    """The TUI's last line of defence: no text segment of any widget puts a control character on the
    terminal.

    A Textual line filter (the app adds it to every widget's lines, ``WorkbenchApp.get_line_filters``):
    a line whose text segments hold a control, C1 or bidi character comes out with those characters
    removed (they are zero cells wide) and any lone surrogate as ``�`` (one cell, as it was measured), so
    the layout stays exactly as Textual measured it. Textual caches the filtered line per line, so a line
    costs one scan of its text the first time it is drawn.
    """

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if not needs_inert("".join([segment.text for segment in segments])):
            return segments
        return [Segment(drop_controls(text), style, control) for text, style, control in segments]


INERT_FILTER = InertFilter()
"""The one instance (Textual caches filtered lines per filter object)."""
