"""Text that tries to take over a terminal, and the check that it did not.

:data:`HOSTILE` holds every kind of sequence issue #18 found reaching the terminal: OSC 52 (clipboard
write), OSC 8 (a link that shows one address and opens another), OSC 0 and OSC 2 (window title) each
with the BEL and the ST terminator, ``ESC[2J`` (clear screen), the 8-bit CSI and OSC (U+009B, U+009D)
with the 8-bit ST, and a bidi override. :func:`assert_inert` says none of it reached the output.
"""

from __future__ import annotations

import re
from pathlib import Path

OSC52 = "\x1b]52;c;ZWNobyBwd25lZA==\x07"
OSC8 = "\x1b]8;;https://evil.example/\x1b\\https://docs.example\x1b]8;;\x1b\\"
OSC0 = "\x1b]0;title-zero\x07"
OSC2 = "\x1b]2;title-two\x1b\\"
CLEAR = "\x1b[2J"
C1 = "\x9b2J\x9d2;c1-title\x9c"
BIDI = "\u202eevil\u202c"

HOSTILE = OSC52 + OSC8 + OSC0 + OSC2 + CLEAR + C1 + BIDI
"""All of the above in one string (no newline: it fits in a name, a path, a log line)."""

HOSTILE_NAME = "x" + CLEAR + OSC0.replace("\x07", "") + "\x9b"
"""What a file or folder name can hold (no ``/``)."""

_C1 = re.compile("[\x80-\x9f]")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def assert_inert(output: str | bytes, *, allowed: tuple[str, ...] = ()) -> None:
    """``output`` (text written to a terminal; bytes are read as UTF-8) holds no ESC, no BEL, no C1 and no
    bidi control — none of :data:`HOSTILE` acted. ``allowed``: sequences the program itself writes (a
    terminal UI's own cursor moves and colours), removed before looking."""
    text = output.decode("utf-8", "replace") if isinstance(output, bytes) else output
    for own in allowed:
        text = text.replace(own, "")
    assert "\x1b" not in text, _around(text, text.index("\x1b"))
    assert "\x07" not in text, _around(text, text.index("\x07"))
    found = _C1.search(text) or _BIDI.search(text)
    assert found is None, _around(text, found.start()) if found else ""


def _around(text: str, at: int) -> str:
    return f"control character reached the terminal at {at}: {text[max(0, at - 60) : at + 60]!r}"


def write_hostile_run(workspace: Path, run_id: str = "20261201-101010-hostile-0bad") -> Path:
    """A failed run whose every outside text holds :data:`HOSTILE`: its config file path, a metric
    name, an alert, the error and traceback, and its captured log (``logs.txt``)."""
    from workbench.events import AlertRaised, RunFailed, RunStarted
    from workbench.runs import RunStore

    started = 1764583810.0
    env = {"config_file": f"/home/ada/{HOSTILE}.yaml", "device": "cpu"}
    handle = RunStore(workspace).create("hostile", {"name": "hostile"}, fingerprint=env, run_id=run_id)
    handle.emit(RunStarted(run_id=run_id, name="hostile", kind="in_process", time=started))
    for step in (1, 2, 3):
        handle.writer.sample(0, step, {"loss": 2.0 / step, f"acc{HOSTILE}": 0.1 * step}, started + step)
    handle.emit(AlertRaised(kind="nonfinite", message=f"loss is nan {HOSTILE}", step=2, time=started + 2))
    failed = RunFailed(
        step=3,
        error=f"RuntimeError: {HOSTILE}",
        traceback=f'Traceback (most recent call last):\n  File "{HOSTILE}.py", line 1\nRuntimeError: {HOSTILE}\n',
        time=started + 4,
    )
    handle.writer.close(last=failed)
    handle.update_state(failed)
    handle.close()
    (handle.run_dir / "logs.txt").write_text(
        f"step 1 {HOSTILE}\nplain line\nlast {OSC2} line\n", encoding="utf-8"
    )
    return handle.run_dir
