"""The alerts that leave the TUI (``workbench.notify``): which event rings, the exact escape sequences, the
tmux wrapping, the rate limit and the ``on_alert`` hook (real commands)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from workbench.config.errors import ConfigError
from workbench.events import (
    AlertRaised,
    CheckpointSaved,
    Event,
    RunCancelled,
    RunFailed,
    RunFinished,
    RunStarted,
)
from workbench.notify import (
    Alert,
    AlertHook,
    Notifier,
    RateLimit,
    alert_for,
    hook_argv,
    notification,
    osc9,
    osc99,
    osc777,
    tmux_passthrough,
)
from workbench.settings import resolve_settings


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _alert(kind: str = "finished", name: str = "cls-demo", message: str = "") -> Alert:
    return Alert(kind, "run-1", name, "finished", 300, message, "/ws/runs/run-1")


def test_which_events_deserve_an_alert() -> None:
    def kind(event: Event) -> str | None:
        alert = alert_for(event, run_id="r", name="n")
        return None if alert is None else f"{alert.kind}/{alert.status}/{alert.step}"

    assert kind(RunFinished(step=300)) == "finished/finished/300"
    assert kind(RunFailed(error="FloatingPointError: nan", step=12)) == "failed/failed/12"
    assert kind(AlertRaised(kind="nonfinite", message="loss is nan", step=7)) == "nonfinite/running/7"
    assert kind(AlertRaised(kind="hang", message="no step for 60 s", step=9)) == "hang/running/9"
    assert kind(AlertRaised(kind="stalled", message="rank 1 silent")) == "stalled/running/None"
    # the user's own stop, a start, a checkpoint and a minor alert are not news
    for quiet in (RunCancelled(step=5), RunStarted(), CheckpointSaved(step=1), AlertRaised(kind="export")):
        assert kind(quiet) is None


def test_the_escape_sequences_byte_for_byte() -> None:
    assert osc9("Paddle Workbench", "run a finished") == "\x1b]9;Paddle Workbench: run a finished\x07"
    assert osc777("Paddle Workbench", "a; b") == "\x1b]777;notify;Paddle Workbench;a, b\x07"
    assert osc99("T", "B") == (
        "\x1b]99;i=paddle-workbench:d=0;T\x1b\\" + "\x1b]99;i=paddle-workbench:p=body;B\x1b\\"
    )
    assert notification("off", "T", "B") == ""


def test_tmux_passthrough_doubles_every_escape() -> None:
    inner = osc99("T", "B")
    wrapped = tmux_passthrough(inner)
    assert wrapped.startswith("\x1bPtmux;") and wrapped.endswith("\x1b\\")
    body = wrapped[len("\x1bPtmux;") : -2]
    assert body == inner.replace("\x1b", "\x1b\x1b") and body.count("\x1b") == 2 * inner.count("\x1b")
    assert notification("osc9", "T", "B", in_tmux=True) == "\x1bPtmux;\x1b\x1b]9;T: B\x07\x1b\\"


def test_outside_text_cannot_end_or_start_a_sequence() -> None:
    hostile = "evil\x1b]52;c;aGk=\x07\x1b\\\x9b2J\nline two\u202e\x00"
    for mode in ("osc9", "osc777", "kitty"):
        text = notification(mode, "Paddle Workbench", hostile)
        framing = {"osc9": 2, "osc777": 2, "kitty": 4}[mode]  # the sequence's own ESC / BEL / ST
        controls = [c for c in text if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or c == "\u202e"]
        assert len(controls) == framing, (mode, text)
        assert "␛]52" in text and "aGk=␇" in text and "line two" in text
    assert len(osc9("T", "x" * 1000)) < 300  # a long error is cut


def test_the_rate_limit_lets_one_through_per_interval() -> None:
    clock = Clock()
    limit = RateLimit(5.0, clock)
    assert limit.allow() and not limit.allow()
    clock.now += 4.9
    assert not limit.allow()
    clock.now += 0.2
    assert limit.allow() and not limit.allow()


def test_the_notifier_rings_once_for_an_alert_and_the_failure_after_it() -> None:
    clock = Clock()
    notifier = Notifier(notify="osc9", environ={}, clock=clock)
    nan = alert_for(AlertRaised(kind="nonfinite", message="loss is nan", step=7), run_id="r", name="cls")
    failed = alert_for(RunFailed(error="FloatingPointError", step=7), run_id="r", name="cls")
    assert nan is not None and failed is not None
    text = notifier.handle(nan)
    assert text.startswith("\x07\x1b]9;Paddle Workbench: run cls, step 7: loss is nan")
    assert notifier.handle(failed) == ""  # the same stop, a moment later: one ring
    clock.now += 6
    assert notifier.handle(_alert()).startswith("\x07\x1b]9;")
    assert notifier.sent == 2


def test_the_notifier_follows_the_settings_and_tmux() -> None:
    assert Notifier(environ={}).handle(_alert()) == "\x07"  # the default: the bell alone
    assert Notifier(bell=False, environ={}).handle(_alert()) == ""
    assert not Notifier(bell=False, environ={}).active
    in_tmux = Notifier(bell=False, notify="osc777", environ={"TMUX": "/tmp/tmux-1/default,1,0"})
    assert in_tmux.handle(_alert()).startswith("\x1bPtmux;\x1b\x1b]777;notify;Paddle Workbench;")


def test_settings_take_the_alert_keys_from_variables(tmp_path: Path) -> None:
    env = {"PADDLE_WORKBENCH_CONFIG": str(tmp_path / "none.yaml")}
    settings = resolve_settings(
        environ={
            **env,
            "PADDLE_WORKBENCH_BELL": "0",
            "PADDLE_WORKBENCH_NOTIFY": "kitty",
            "PADDLE_WORKBENCH_ON_ALERT": "notify-send x",
        }
    )
    assert (settings.bell, settings.notify, settings.on_alert) == (False, "kitty", "notify-send x")
    with pytest.raises(ConfigError) as caught:
        resolve_settings(environ={**env, "PADDLE_WORKBENCH_NOTIFY": "growl"})
    assert "PADDLE_WORKBENCH_NOTIFY" in str(caught.value) and "osc777" in str(caught.value)


def test_a_hook_runs_without_a_shell_unless_its_command_needs_one() -> None:
    assert hook_argv("notify-send 'run done'") == ["notify-send", "run done"]
    assert hook_argv("~/bin/alert.sh") == ["/bin/sh", "-c", "~/bin/alert.sh"]
    assert hook_argv("jq .name | logger") == ["/bin/sh", "-c", "jq .name | logger"]
    assert hook_argv("URL=x curl -d @- $URL")[0] == "/bin/sh"
    assert hook_argv("echo 'unbalanced")[0] == "/bin/sh"


def test_the_hook_reads_the_event_as_json_on_stdin(tmp_path: Path) -> None:
    out = tmp_path / "event.json"
    script = tmp_path / "hook.py"
    script.write_text("import sys\nopen(sys.argv[1], 'w').write(sys.stdin.read())\n")
    failures: list[str] = []
    command = shlex.join([sys.executable, str(script), str(out)])
    notifier = Notifier(bell=False, on_alert=command, on_hook_failure=failures.append)
    assert notifier.hook is not None and notifier.hook.argv[0] == sys.executable  # no shell needed
    notifier.handle(_alert("failed", message="FloatingPointError: nan"))
    assert notifier.wait_for_hooks(30)
    assert json.loads(out.read_text()) == {
        "kind": "failed",
        "run_id": "run-1",
        "name": "cls-demo",
        "status": "finished",
        "step": 300,
        "message": "FloatingPointError: nan",
        "run_dir": "/ws/runs/run-1",
    }
    assert failures == []


def test_a_shell_hook_gets_the_same_json(tmp_path: Path) -> None:
    out = tmp_path / "event.json"
    notifier = Notifier(bell=False, on_alert=f"cat > {shlex.quote(str(out))}")
    notifier.handle(_alert())
    assert notifier.wait_for_hooks(30)
    assert json.loads(out.read_text())["kind"] == "finished"


def test_a_failing_hook_is_reported_once_and_never_raises(tmp_path: Path) -> None:
    failures: list[str] = []
    missing = AlertHook(str(tmp_path / "no-such-command"), failures.append)
    for _ in range(3):
        missing.run(_alert())
    assert missing.wait(30)
    assert len(failures) == 1 and "could not start" in failures[0] and "later failures" in failures[0]

    exits: list[str] = []
    script = "import sys; sys.stderr.write('token expired\\n'); sys.exit(3)"
    failing = AlertHook(shlex.join([sys.executable, "-c", script]), exits.append)
    failing.run(_alert())
    failing.run(_alert())
    assert failing.wait(30)
    assert len(exits) == 1 and "exited with 3" in exits[0] and "token expired" in exits[0]


def test_a_hook_that_hangs_is_ended_at_its_timeout(tmp_path: Path) -> None:
    failures: list[str] = []
    pid_file = tmp_path / "pid"
    hook = AlertHook(f"echo $$ > {shlex.quote(str(pid_file))}; exec sleep 60", failures.append, timeout_s=1.0)
    assert hook.argv[:2] == ["/bin/sh", "-c"]
    thread = hook.run(_alert())
    thread.join(30)
    assert not thread.is_alive()
    assert len(failures) == 1 and "longer than 1 s" in failures[0]
    assert not Path(f"/proc/{pid_file.read_text().strip()}").exists()  # killed and reaped, not left behind
