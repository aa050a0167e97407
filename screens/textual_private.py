"""Every place the workbench touches a private Textual name, in one module.

Textual's public API does not cover eight things the workbench needs: the screen's binding chain (the
type-ahead decides whether a key may be bound), the footer's "bindings are ready" flag (our footer
rebuilds once per frame instead of once per signal), the app's print capture (``print`` from Paddle must
reach our fd capture) and the Linux driver's output file and terminal size (the driver draws on a saved
terminal fd while fds 1 and 2 are captured), the app's driver (a bell or a notification escape
written in order with the frames, :func:`write_to_terminal`), the screens' stylesheet counter (a mode's
new screen would otherwise restyle the whole app twice, :func:`mark_styles_current`), whether the app
holds its updates (a screen then renders nothing, :func:`updates_held`), and a data table's render counter
(its caches outlive a change of column widths, :func:`renew_table_renders`). Each is reached through a
function here, and the classes that override a private hook name it in :data:`OVERRIDDEN_HOOKS`.
``tests/unit/test_textual_private.py`` checks every name in :data:`PRIVATE_NAMES` and
:data:`OVERRIDDEN_HOOKS` against the installed Textual, so an upgrade that renames one fails loudly there
instead of silently here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from textual.app import App
from textual.binding import BindingsMap
from textual.dom import DOMNode
from textual.drivers.linux_driver import LinuxDriver
from textual.screen import Screen
from textual.widgets import DataTable, Footer

PRIVATE_NAMES: Final[tuple[tuple[type, str], ...]] = (
    (Screen, "_binding_chain"),
    (Footer, "_bindings_ready"),
    (App, "_capture_stdout"),
    (App, "_capture_stderr"),
    (LinuxDriver, "_file"),
    (App, "_driver"),
    (App, "_css_update_count"),
    (Screen, "_css_update_count"),
    (App, "_batch_count"),
    (DataTable, "_update_count"),
)
"""Private attributes read or written through this module: (the Textual class, the name)."""

OVERRIDDEN_HOOKS: Final[tuple[tuple[str, str, str], ...]] = (
    # PlanEditor: escape is a visible binding, not TextArea's own "focus next"
    ("textual.widgets", "TextArea", "_on_key"),
    # CapturedTerminalDriver: SIGCONT after a hang-up; the size of the saved terminal fd
    ("textual.drivers.linux_driver", "LinuxDriver", "_sigcont_application"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_get_terminal_size"),
    # WorkbenchScreen: nothing drawn while the app holds its updates (start-up, a mode switch's pause)
    ("textual.screen", "Screen", "_compositor_refresh"),
    # MeasuredTable: a change of measured column widths renews the table's cached renderings
    ("textual.widgets", "DataTable", "_update_dimensions"),
)
"""Private methods our subclasses override: (Textual module, class, method), as names so that this
module does not import the text area on the start path."""


def binding_chain(screen: Screen[Any]) -> Iterable[tuple[DOMNode, BindingsMap]]:
    """The (node, bindings) pairs a key would be offered to, focused widget first."""
    chain: Iterable[tuple[DOMNode, BindingsMap]] = screen._binding_chain
    return chain


def mark_footer_bindings_ready(footer: Footer) -> None:
    """Tell Textual's footer its bindings are known (what ``Footer.bindings_changed`` itself sets)."""
    footer._bindings_ready = True


def wrap_print_capture(app: App[Any], wrap: Callable[[Any, int], Any]) -> None:
    """Replace the app's stdout/stderr print captures with ``wrap(original, fd)``."""
    app._capture_stdout = wrap(app._capture_stdout, 1)
    app._capture_stderr = wrap(app._capture_stderr, 2)


def set_driver_output(driver: LinuxDriver, stream: Any) -> None:
    """Make the driver write its frames to ``stream`` instead of ``sys.__stderr__``."""
    driver._file = stream


def write_to_terminal(app: App[Any], text: str) -> bool:
    """Write ``text`` (a bell, a notification escape) to the terminal the app draws on, in order with its
    frames (the driver's writer); ``False`` when there is none: headless, not started, or stopped."""
    driver = app._driver
    if driver is None or app.is_headless:
        return False
    try:
        driver.write(text)
    except (AssertionError, AttributeError):  # the driver is out of application mode (suspended, exiting)
        return False
    return True


def updates_held(app: App[Any]) -> bool:
    """Whether the app holds its updates now (``App.batch_update``, its start-up, the pause after a mode
    switch): Textual's ``App._display`` drops a frame drawn meanwhile, and redraws the screen after."""
    return app._batch_count > 0


def renew_table_renders(table: DataTable[Any]) -> None:
    """Make ``table`` render every cell, row and line anew at the next frame.

    ``DataTable`` keys those caches on its update counter (what ``add_row`` and a resize move), not on
    the column widths; moving the counter is how the table itself invalidates them.
    """
    table._update_count += 1
    table.refresh()


def mark_styles_current(app: App[Any], screen: Screen[Any]) -> None:
    """Tell Textual that ``screen``, built now for a mode, needs no stylesheet refresh when shown.

    A new screen's counter starts behind the app's, so the first switch to its mode re-parses the whole
    stylesheet and restyles the app twice (~0.1-0.3 s here, seconds under load), although the screen's
    widgets are styled from the current stylesheet as they mount (as for any pushed screen). A theme
    change later moves the app's counter on, and the screen is refreshed when next shown, as before.
    """
    screen._css_update_count = app._css_update_count
