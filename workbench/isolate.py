"""Run fragile native work in a child process with a hard time limit: its crash or hang is a fact, not ours.

Anything that can abort or hang in C++ — Paddle probes, paddle2onnx conversions, model builds that import
a user's code, a whole comparison started from the TUI — runs here as an argument list (never through a
shell) in a session and process group of its own. The child and everything it started (multiprocessing
workers, their resource tracker, a DataLoader's workers) are killed together, as one group:

* when the time limit passes (:class:`ChildTimeout`), when the caller cancels (:class:`ChildCancelled`),
  or when the caller is interrupted while it waits (Ctrl-C: the group is killed, then the interrupt goes on);
* when the child itself ends — whatever it left behind is ended too, so nothing of it outlives the job
  or keeps its output pipe open;
* when the caller dies without cleaning up (SIGKILL, Paddle's C-level SIGTERM handler): a Python child of
  ours calls :func:`watch_parent` first thing, which forks a watchdog into the group that ends the group
  once the caller is gone (a process, so a child stuck in native code holding the GIL goes too).

The group is signalled only while its leader is not yet reaped (it is still running, or a zombie), so
the process group id can never belong to a reused pid. A child reports one JSON document on a stdout
line that starts with :data:`MARKER`; ``on_line`` sees every stdout line as it comes (progress); all
other output is kept only as a tail for the error message.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

from workbench.i18n import t

MARKER = "@@paddle-workbench-facts@@"
POLL_S = 0.1
TAIL_LINES = 12
DRAIN_S = 2.0
"""How long to wait for the output pipes to close once the child's group is gone (a process that left
the group on purpose, with ``setsid``, may hold them; it is not waited for longer)."""
PARENT_POLL_S = 0.25
BACKGROUND_NICE = 10
"""The nice value of a child started with ``background=True``: work the user did not wait on (the TUI's
environment checks) yields the CPU to the UI and to a run training in the same process. On Linux the
child's session is its own scheduling autogroup (``start_new_session``), which competes with ours as an
equal whatever the child's own nice value, so the autogroup is lowered too (:func:`_lower_priority`)."""
PARENT_PID_ENV = "PADDLE_WORKBENCH_PARENT_PID"
"""Set by :class:`Child` to the caller's pid: :func:`watch_parent` knows its parent even when the parent
died before the child got that far (``os.getppid()`` would already name init)."""

# Set for every child: quiet glog (it writes to fd 2 before Python can stop it) and keep Python's own
# output unbuffered and UTF-8 so a child killed at its time-out still leaves readable text.
CHILD_ENV: dict[str, str] = {
    "GLOG_minloglevel": "2",
    "PYTHONUNBUFFERED": "1",
    "PYTHONIOENCODING": "utf-8",
    "PYTHONDONTWRITEBYTECODE": "1",
}

Cancel = threading.Event | Callable[[], bool]
"""A cancel flag: an event, or a function that says whether the caller gave up."""


class ChildError(Exception):
    """The child could not produce its result (crash, unreadable output); the message says why.

    ``returncode`` is the child's exit status (negative: the signal that ended it) when it ended on its
    own, and ``output_tail`` the last lines it printed.
    """

    def __init__(self, message: str, *, returncode: int | None = None, output_tail: str = "") -> None:
        super().__init__(message)
        self.returncode = returncode
        self.output_tail = output_tail


class ChildTimeout(ChildError):
    """The child ran past its limit; its whole process group was killed."""

    def __init__(self, seconds: float, output_tail: str = "") -> None:
        self.seconds = seconds
        super().__init__(t("envcheck.timed_out", seconds=format_seconds(seconds)), output_tail=output_tail)


class ChildCancelled(ChildError):
    """The caller cancelled while the child ran; its whole process group was killed."""


@dataclass(frozen=True)
class ChildResult:
    returncode: int
    stdout: str
    stderr: str

    @property
    def output_tail(self) -> str:
        return tail(self.stderr) or tail(self.stdout)


def format_seconds(seconds: float) -> str:
    """``1.0`` → ``"1"``, ``2.5`` → ``"2.5"``: how time-outs read in messages."""
    return f"{seconds:.1f}".rstrip("0").rstrip(".")


def describe_exit(code: int) -> str:
    """``-11`` → ``killed by signal SIGSEGV``; ``3`` → ``exit code 3`` (translated)."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return t("envcheck.exit.signal", signal=name)
    return t("envcheck.exit.code", code=code)


def child_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a child: ``base`` (default: ours) plus :data:`CHILD_ENV`, and our language, so
    the messages it writes read like ours."""
    from workbench.i18n import current_language

    env = dict(os.environ if base is None else base)
    env.update(CHILD_ENV)
    env["PADDLE_WORKBENCH_LANG"] = current_language()
    return env


def tail(text: str, lines: int = TAIL_LINES) -> str:
    """The last ``lines`` non-empty lines of ``text``: enough context for an error, never a wall."""
    kept = [line.rstrip() for line in text.splitlines() if line.strip()]
    return "\n".join(kept[-lines:])


def _cancelled(cancel: Cancel | None) -> bool:
    if cancel is None:
        return False
    if isinstance(cancel, threading.Event):
        return cancel.is_set()
    return bool(cancel())


class Child:
    """One running child in its own session; :meth:`wait` collects it, :meth:`kill` ends its group.

    Safe to :meth:`kill` from another thread while one thread waits (leaving a screen ends its build).
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        on_line: Callable[[str], None] | None = None,
        background: bool = False,
    ) -> None:
        self._lock = threading.Lock()
        self._reaped = False
        self._stdout: list[str] = []
        self._stderr: list[str] = []
        child_environ = dict(os.environ if env is None else env)
        child_environ[PARENT_PID_ENV] = str(os.getpid())
        self.proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=child_environ,
            cwd=cwd,
            start_new_session=True,
        )
        if background:
            _lower_priority(self.proc.pid)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._readers: list[threading.Thread] = []
        try:  # from here on, an interrupt (Ctrl-C) must not leave the child behind
            for pipe, into, callback in (
                (self.proc.stdout, self._stdout, on_line),
                (self.proc.stderr, self._stderr, None),
            ):
                reader = threading.Thread(target=self._read, args=(pipe, into, callback), daemon=True)
                reader.start()
                self._readers.append(reader)
        except BaseException:
            self._collect()
            raise

    @property
    def pid(self) -> int:
        return self.proc.pid

    @staticmethod
    def _read(pipe: IO[bytes], into: list[str], on_line: Callable[[str], None] | None) -> None:
        with contextlib.suppress(OSError, ValueError):
            for raw in iter(pipe.readline, b""):
                line = raw.decode("utf-8", errors="replace")
                into.append(line)
                if on_line is not None:
                    with contextlib.suppress(Exception):  # a caller's display problem never stops the read
                        on_line(line.rstrip("\r\n"))

    def _exited(self) -> bool:
        """Whether the leader has ended, without reaping it (its pid, and so the group id, stay ours)."""
        with self._lock:
            if self._reaped:
                return True
            if not hasattr(os, "waitid"):  # not Linux: reaping is the only way to ask
                return self.proc.poll() is not None
            try:
                info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return True
            return info is not None

    def kill(self) -> None:
        """SIGKILL to the child's whole process group (no-op once it has been collected)."""
        with self._lock:
            if self._reaped:
                return
            # The child leads its own session, so its group id is its pid (never reaped yet: still ours).
            # Not Popen.kill(): that polls first, and reaping here would free the pid under the group.
            with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)

    def _collect(self) -> int:
        """End what the child left in its group, reap it, and let the readers finish (bounded).
        Safe to call again (the exit status is kept)."""
        self.kill()
        code = self.proc.wait()
        with self._lock:
            self._reaped = True
        deadline = time.monotonic() + DRAIN_S
        for reader in self._readers:
            reader.join(max(0.0, deadline - time.monotonic()))
        return code

    def output(self) -> tuple[str, str]:
        return "".join(self._stdout), "".join(self._stderr)

    def wait(self, timeout_s: float, cancel: Cancel | None = None) -> ChildResult:
        """Wait for the child within ``timeout_s``; raise :class:`ChildTimeout` / :class:`ChildCancelled`
        (the group killed first). Any exception in the waiting thread (Ctrl-C) kills the group too."""
        deadline = time.monotonic() + timeout_s
        try:
            while not self._exited():
                if _cancelled(cancel):
                    self._collect()
                    raise ChildCancelled(t("envcheck.cancelled"), output_tail=self._tail())
                if time.monotonic() >= deadline:
                    self._collect()
                    raise ChildTimeout(timeout_s, self._tail())
                time.sleep(POLL_S)
        except BaseException:
            self._collect()
            raise
        code = self._collect()
        if _cancelled(cancel):  # the caller gave up (and maybe killed it): not a result of the child
            raise ChildCancelled(t("envcheck.cancelled"), output_tail=self._tail())
        stdout, stderr = self.output()
        return ChildResult(code, stdout, stderr)

    def _tail(self) -> str:
        stdout, stderr = self.output()
        return tail(stdout + stderr)


def _lower_priority(pid: int) -> None:
    """Give child ``pid`` (just started, alone in its session) :data:`BACKGROUND_NICE`: its own nice value
    (inherited by the threads and processes it starts) and, where the kernel groups sessions for
    scheduling, its autogroup's. Best effort: a system without either keeps the child's priority."""
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, pid, BACKGROUND_NICE)
    with contextlib.suppress(OSError), open(f"/proc/{pid}/autogroup", "w", encoding="ascii") as group:
        group.write(str(BACKGROUND_NICE))


def run_command(
    argv: Sequence[str],
    *,
    timeout_s: float,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    cancel: Cancel | None = None,
    on_line: Callable[[str], None] | None = None,
) -> tuple[int, str, str]:
    """Run ``argv`` to completion within ``timeout_s``; return ``(returncode, stdout, stderr)``.

    Raises :class:`ChildTimeout` when the limit passes and :class:`ChildCancelled` when ``cancel`` is
    set; in both cases the whole process group is killed first. ``FileNotFoundError`` propagates (the
    caller decides whether a missing tool is a fact or an error).
    """
    result = Child(argv, env=env, cwd=cwd, on_line=on_line).wait(timeout_s, cancel)
    return result.returncode, result.stdout, result.stderr


def parse_marked(stdout: str) -> dict[str, Any] | None:
    """The JSON document on the last :data:`MARKER` line of ``stdout``, or ``None``."""
    for line in reversed(stdout.splitlines()):
        document = parse_marked_line(line)
        if document is not None:
            return document
    return None


def parse_marked_line(line: str) -> dict[str, Any] | None:
    """The JSON document of one :data:`MARKER` line, or ``None`` for any other line."""
    if not line.startswith(MARKER):
        return None
    try:
        document = json.loads(line[len(MARKER) :])
    except json.JSONDecodeError:
        return None
    return document if isinstance(document, dict) else None


def emit_marked(document: Mapping[str, Any]) -> None:
    """In a child: print ``document`` on one :data:`MARKER` line (flushed: the parent may be streaming)."""
    sys.stdout.write(MARKER + json.dumps(document, default=str) + "\n")
    sys.stdout.flush()


def marked_document(result: ChildResult, no_output: str) -> dict[str, Any]:
    """The document a finished child printed; :class:`ChildError` naming how it ended when there is none
    (``no_output`` is the reason when it exited 0 without one)."""
    document = parse_marked(result.stdout)
    if document is not None:
        return document
    reason = describe_exit(result.returncode) if result.returncode != 0 else no_output
    raise ChildError(
        f"{reason}\n{result.output_tail}".strip(),
        returncode=result.returncode,
        output_tail=result.output_tail,
    )


def run_python(
    code: str,
    *,
    python: str,
    env: Mapping[str, str],
    timeout_s: float,
    cwd: str | None = None,
    cancel: Cancel | None = None,
    background: bool = False,
) -> dict[str, Any]:
    """Run probe ``code`` in ``python`` and return the document it printed after :data:`MARKER`.

    A child that crashes, exits non-zero without a document, or prints none raises :class:`ChildError`
    with how it ended and the tail of its output. ``background``: at :data:`BACKGROUND_NICE`.
    """
    child = Child([python, "-c", code], env=child_env(env), cwd=cwd, background=background)
    result = child.wait(timeout_s, cancel)
    return marked_document(result, t("envcheck.no_output"))


def run_module(
    module: str,
    args: Sequence[str] = (),
    *,
    timeout_s: float,
    cancel: Cancel | None = None,
    on_line: Callable[[str], None] | None = None,
    cwd: str | None = None,
    started: Callable[[Child], None] | None = None,
) -> ChildResult:
    """``python -m module args…`` with this interpreter, our environment (plus :data:`CHILD_ENV`).

    ``started(child)`` is called once it runs (a screen keeps it to :meth:`Child.kill` it when left).
    """
    child = Child([sys.executable, "-m", module, *args], env=child_env(), cwd=cwd, on_line=on_line)
    try:
        if started is not None:
            started(child)
    except BaseException:
        child._collect()
        raise
    return child.wait(timeout_s, cancel)


def _parent_of(pid: int) -> int | None:
    try:
        import psutil

        return int(psutil.Process(pid).ppid())
    except Exception:  # noqa: BLE001 - gone, or unreadable: either way not the caller's any more
        return None


def watch_parent(poll_s: float = PARENT_POLL_S) -> None:
    """In a child started by :class:`Child`: end this process group as soon as the caller is gone.

    A caller that dies without cleaning up (SIGKILL, Paddle's C-level SIGTERM handler) leaves its child
    re-parented to init. Call this first thing in the child's ``main`` (before any thread exists): it
    forks a small watchdog into the child's process group that checks every ``poll_s`` whether the
    child's parent is still the caller (:data:`PARENT_PID_ENV`), and kills the whole group — the child,
    what it started (multiprocessing workers), itself — when not. A process, not a thread: a child stuck
    in native code holding the GIL is ended all the same. The watchdog leaves quietly when the child
    ends (and :class:`Child` ends the group then anyway). Does nothing outside a :class:`Child`.
    """
    try:
        caller = int(os.environ.get(PARENT_PID_ENV, ""))
    except ValueError:
        return
    child = os.getpid()
    if os.getpgid(0) != child:  # not the leader of its own group: not started by Child, not ours
        return
    sys.stdout.flush()
    sys.stderr.flush()
    if os.fork() != 0:
        return  # the child goes on with its work
    try:  # the watchdog
        while True:
            if os.getppid() != child:  # the child has ended: nothing left to guard
                break
            if _parent_of(child) != caller:
                with contextlib.suppress(OSError):
                    os.killpg(0, signal.SIGKILL)
                break
            time.sleep(poll_s)
    finally:
        os._exit(0)
