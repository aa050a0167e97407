"""Alerts that reach the user outside the TUI: the terminal bell, a desktop notification, a command hook.

A run that ends or stops on a NaN / hang while the user looks at another tmux window, another SSH
session or another application should still be noticed. Three channels, all driven by the settings
(docs/architecture.md, "Alerts outside the TUI"):

- **The bell** (``bell``, on by default): ``BEL`` written to the terminal. tmux marks the window ``!``
  (``window_bell_flag``) and SSH passes it through unchanged, so it crosses both.
- **A desktop notification** (``notify: off|osc9|osc777|kitty``, off by default): the terminal's own
  notification escape — OSC 9 (iTerm2, WezTerm, foot, Windows Terminal), OSC 777 (VTE terminals,
  rxvt-unicode), OSC 99 (kitty). Inside tmux (``$TMUX`` set) it is wrapped in tmux's passthrough
  (``ESC P tmux; … ESC \\`` with every ESC doubled), which tmux forwards only with ``set -g
  allow-passthrough on`` (tmux 3.3 only while the pane is visible); unwrapped, tmux drops it.
- **A hook** (``on_alert``): a command of the user's, given the alert as one JSON object on stdin.

This module decides and builds; it writes nothing to a terminal. :func:`alert_for` says which event
deserves an alert (a run finished or failed, a ``nonfinite`` / ``hang`` / ``stalled`` alert; a run the
user cancelled does not), :class:`Notifier` applies the rate limit and returns the text for the terminal,
which the caller writes where its terminal is (the TUI through the driver it draws with, ``train``
through its terminal stream: both reach the real terminal while fds 1 and 2 are captured).

The bell and the notification are rate-limited together (at most one per :data:`RING_INTERVAL_S`): a run
stopped by a NaN raises its alert and fails a moment later, and that is one ring. The hook gets every
alert; it runs on a thread of its own (the UI never waits for it), without a shell unless the command
uses shell syntax (:func:`hook_argv`), ends after :data:`HOOK_TIMEOUT_S`, and its first failure is
reported once through a callback, later ones are silent.

Every text that goes into an escape sequence passes through :func:`workbench.textsafe.inert` and is
folded onto one line: a run name or an error message cannot end the sequence early or start another.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal, get_args

from workbench.events import AlertRaised, Event, RunFailed, RunFinished
from workbench.i18n import t
from workbench.textsafe import inert

NotifyMode = Literal["off", "osc9", "osc777", "kitty"]
NOTIFY_MODES: tuple[str, ...] = get_args(NotifyMode)

RING_INTERVAL_S = 5.0
"""At most one bell (and notification) per this many seconds."""
HOOK_TIMEOUT_S = 10.0
"""An ``on_alert`` command still running after this long is ended (its whole process group)."""
ALERT_KINDS = frozenset({"nonfinite", "hang", "stalled"})
"""``AlertRaised`` kinds worth a ring: a NaN/Inf loss, a hung step, a stalled launched job."""
TITLE_MAX = 60
BODY_MAX = 240

BEL = "\a"
ESC = "\x1b"
ST = ESC + "\\"


@dataclass(frozen=True)
class Alert:
    """One thing worth telling the user about; :meth:`to_json` is what the hook reads on stdin."""

    kind: str
    """``finished``, ``failed``, or the alert's kind (``nonfinite``, ``hang``, ``stalled``)."""
    run_id: str
    name: str
    status: str
    """The run's status when it happened: ``finished``, ``failed`` or ``running``."""
    step: int | None
    message: str
    run_dir: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    def title(self) -> str:
        return t("notify.title")

    def body(self) -> str:
        step = "-" if self.step is None else str(self.step)
        if self.kind == "finished":
            return t("notify.finished", name=self.name, step=step)
        if self.kind == "failed":
            return t("notify.failed", name=self.name, step=step, error=self.message)
        return t("notify.alert", name=self.name, step=step, message=self.message)


def alert_for(event: Event, *, run_id: str, name: str, run_dir: str = "") -> Alert | None:
    """The alert ``event`` deserves, or ``None`` (a start, a checkpoint, a cancel, a minor alert)."""
    if isinstance(event, RunFinished):
        return Alert("finished", run_id, name, "finished", event.step, "", run_dir)
    if isinstance(event, RunFailed):
        return Alert("failed", run_id, name, "failed", event.step, event.error, run_dir)
    if isinstance(event, AlertRaised) and event.kind in ALERT_KINDS:
        return Alert(event.kind, run_id, name, "running", event.step, event.message, run_dir)
    return None


# -- the byte sequences ------------------------------------------------------------------------------


def one_line(text: str, limit: int) -> str:
    """``text`` safe inside an escape sequence: controls shown visibly (``inert``), on one line, at most
    ``limit`` characters (an ellipsis marks a cut)."""
    folded = " ".join(inert(text).split())
    return folded if len(folded) <= limit else folded[: limit - 1] + "…"


def osc9(title: str, body: str) -> str:
    """OSC 9 carries one text: ``title: body`` (a text starting with a digit and ``;`` would be read
    as one of ConEmu's OSC 9 commands; the title never does)."""
    return f"{ESC}]9;{one_line(title, TITLE_MAX)}: {one_line(body, BODY_MAX)}{BEL}"


def osc777(title: str, body: str) -> str:
    """``ESC ] 777 ; notify ; title ; body BEL`` (``;`` inside the fields would split them: made ``,``)."""
    clean_title = one_line(title, TITLE_MAX).replace(";", ",")
    clean_body = one_line(body, BODY_MAX).replace(";", ",")
    return f"{ESC}]777;notify;{clean_title};{clean_body}{BEL}"


def osc99(title: str, body: str) -> str:
    """kitty's OSC 99 in two parts under one id: the title (``d=0``: more follows), then the body."""
    return (
        f"{ESC}]99;i=paddle-workbench:d=0;{one_line(title, TITLE_MAX)}{ST}"
        f"{ESC}]99;i=paddle-workbench:p=body;{one_line(body, BODY_MAX)}{ST}"
    )


def tmux_passthrough(sequence: str) -> str:
    """``sequence`` wrapped for tmux's passthrough: ``ESC P tmux; <every ESC doubled> ESC \\``."""
    return f"{ESC}Ptmux;{sequence.replace(ESC, ESC + ESC)}{ST}"


def notification(mode: str, title: str, body: str, *, in_tmux: bool = False) -> str:
    """The escape sequence for ``mode`` (``""`` for ``off``), wrapped for tmux when ``in_tmux``."""
    builders: dict[str, Callable[[str, str], str]] = {"osc9": osc9, "osc777": osc777, "kitty": osc99}
    build = builders.get(mode)
    if build is None:
        return ""
    sequence = build(title, body)
    return tmux_passthrough(sequence) if in_tmux else sequence


def inside_tmux(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this process's terminal is a tmux pane (``$TMUX`` set and not empty)."""
    return bool((os.environ if environ is None else environ).get("TMUX", ""))


# -- the rate limit ----------------------------------------------------------------------------------


class RateLimit:
    """At most one :meth:`allow` per ``interval_s`` (on ``clock``, monotonic seconds); thread-safe."""

    def __init__(self, interval_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval_s = interval_s
        self._clock = clock
        self._last: float | None = None
        self._lock = threading.Lock()

    def allow(self) -> bool:
        with self._lock:
            now = self._clock()
            if self._last is not None and now - self._last < self.interval_s:
                return False
            self._last = now
            return True


# -- the hook ----------------------------------------------------------------------------------------

_SHELL_SYNTAX = frozenset("|&;<>()$`*?[]{}~\n")
"""Characters that mean something to a shell and nothing to an argument list (pipes, redirections,
variables, globs, ``~``, command lists)."""


def hook_argv(command: str) -> list[str]:
    """How ``command`` runs: split like a shell splits words and run directly; through ``/bin/sh -c``
    when it uses shell syntax (:data:`_SHELL_SYNTAX`, a leading ``VAR=value``, unbalanced quotes),
    where it means the same thing and the shell is what the user asked for."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = []
    if not words or any(c in _SHELL_SYNTAX for c in command) or "=" in words[0]:
        return ["/bin/sh", "-c", command]
    return words


class AlertHook:
    """Runs the ``on_alert`` command for each alert on a daemon thread; the first failure is reported
    through ``on_failure`` (once per hook: a broken command does not repeat itself every run)."""

    def __init__(
        self,
        command: str,
        on_failure: Callable[[str], None],
        *,
        timeout_s: float = HOOK_TIMEOUT_S,
    ) -> None:
        self.command = command
        self.argv = hook_argv(command)
        self.timeout_s = timeout_s
        self._on_failure = on_failure
        self._failed = False
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def run(self, alert: Alert) -> threading.Thread:
        """Start the command for ``alert`` and return at once (the thread that waits for it)."""
        thread = threading.Thread(
            target=self._run, args=(alert.to_json().encode("utf-8"),), name="on-alert-hook", daemon=True
        )
        with self._lock:
            self._threads = [th for th in self._threads if th.is_alive()]
            self._threads.append(thread)
        thread.start()
        return thread

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for every started command; whether all ended."""
        deadline = time.monotonic() + timeout
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in threads)

    def _run(self, payload: bytes) -> None:
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                start_new_session=True,  # its own process group: a timeout ends everything it started
                close_fds=True,
            )
        except OSError as exc:
            self._fail(t("notify.hook.start_failed", command=self.command, error=str(exc)))
            return
        try:
            _, err = proc.communicate(payload, timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            self._fail(t("notify.hook.timeout", command=self.command, seconds=f"{self.timeout_s:g}"))
            return
        if proc.returncode != 0:
            lines = err.decode("utf-8", errors="replace").strip().splitlines()
            self._fail(
                t(
                    "notify.hook.exit",
                    command=self.command,
                    code=proc.returncode,
                    error=one_line(lines[-1], BODY_MAX) if lines else "",
                )
            )

    def _fail(self, message: str) -> None:
        with self._lock:
            if self._failed:
                return
            self._failed = True
        with contextlib.suppress(Exception):  # whatever reports it must not end the hook thread loudly
            self._on_failure(one_line(message, 400))


# -- everything together -----------------------------------------------------------------------------


class Notifier:
    """The three channels configured once (from the settings); :meth:`handle` per alert.

    ``on_hook_failure`` receives the hook's first failure as a sentence (the TUI shows a toast, ``train``
    prints a line). ``environ`` decides whether the terminal is a tmux pane (``$TMUX``).
    """

    def __init__(
        self,
        *,
        bell: bool = True,
        notify: str = "off",
        on_alert: str | None = None,
        on_hook_failure: Callable[[str], None] | None = None,
        environ: Mapping[str, str] | None = None,
        interval_s: float = RING_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bell = bell
        self.notify = notify if notify in NOTIFY_MODES else "off"
        self.in_tmux = inside_tmux(environ)
        self.limit = RateLimit(interval_s, clock)
        self.hook = (
            AlertHook(on_alert, on_hook_failure or (lambda _message: None))
            if on_alert and on_alert.strip()
            else None
        )
        self.sent = 0
        """How many alerts produced terminal output (tests wait on it)."""

    @classmethod
    def from_settings(cls, settings: Any, **kwargs: Any) -> Notifier:
        """From a :class:`~workbench.settings.WorkbenchSettings` (``bell``, ``notify``, ``on_alert``)."""
        return cls(
            bell=bool(getattr(settings, "bell", True)),
            notify=str(getattr(settings, "notify", "off")),
            on_alert=getattr(settings, "on_alert", None),
            **kwargs,
        )

    @property
    def active(self) -> bool:
        """Whether any channel is on (nothing to watch for otherwise)."""
        return self.bell or self.notify != "off" or self.hook is not None

    def handle(self, alert: Alert) -> str:
        """Start the hook for ``alert`` and return the text for the terminal: the bell and/or the
        notification, or ``""`` when both are off or one was sent less than the interval ago."""
        if self.hook is not None:
            self.hook.run(alert)
        text = (BEL if self.bell else "") + notification(
            self.notify, alert.title(), alert.body(), in_tmux=self.in_tmux
        )
        if not text or not self.limit.allow():
            return ""
        self.sent += 1
        return text

    def wait_for_hooks(self, timeout: float = HOOK_TIMEOUT_S + 1.0) -> bool:
        """Wait for started hook commands (a command-line run before its process ends)."""
        return self.hook.wait(timeout) if self.hook is not None else True


__all__ = [
    "ALERT_KINDS",
    "BEL",
    "HOOK_TIMEOUT_S",
    "NOTIFY_MODES",
    "RING_INTERVAL_S",
    "Alert",
    "AlertHook",
    "NotifyMode",
    "Notifier",
    "RateLimit",
    "alert_for",
    "hook_argv",
    "inside_tmux",
    "notification",
    "one_line",
    "osc99",
    "osc777",
    "osc9",
    "tmux_passthrough",
]
