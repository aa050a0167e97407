"""``paddle-workbench web`` in a real browser: Playwright driving Debian's Chromium, headless.

One server for the module (``web --port 0`` as a user starts it). The page draws on a canvas, so the
screen's text is read from the websocket's frames fed to a terminal emulator (``pyte``). The flow: the
printed address (with the token) → the runs screen → ``2``: the environment screen → ``1``, ``t`` and a
training config → the monitor (a screenshot of it is saved as ``<tmp>/monitor.png``, the path printed) →
the tab closed while the run is held at a step → a new tab (the cookie, no token in the address) lists
the run as running → the run goes on after the close and finishes. Without
the token every page, static file and websocket is refused. The page makes no request outside the
server, and its title names the workspace.

Chromium comes from Debian (``make setup-test`` installs it where apt-get can): Playwright's own browser
download needs the internet. Without it, or without Playwright, the module skips and says why.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.train_helpers import SAMPLE_CONFIGS, cli_env
from workbench.runs import summarize

pytestmark = pytest.mark.integration

CHROMIUM = Path("/usr/lib/chromium/chromium")
"""Debian's real binary: /usr/bin/chromium is a shell wrapper Playwright cannot drive."""
CHROMIUM_ARGS = [
    "--no-sandbox",  # root in a container
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",  # a closed network refuses what it would ask for
    "--disable-component-update",
    "--disable-sync",
]
HOLD_S = 15
"""The run sleeps this long at step 2 (``hang@2``): the tab is closed, and a new one opened, while it is
held there (long enough for a new tab's start on a loaded two-core machine)."""
COLS, ROWS = 120, 40

playwright_sync = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (the test extra)"
)
pyte = pytest.importorskip("pyte", reason="pyte is not installed (the test extra)")
pytest.importorskip("textual_serve", reason="textual-serve is not installed (the web extra)")
if not CHROMIUM.is_file():
    pytest.skip(
        f"{CHROMIUM} is missing: install Debian's chromium (make setup-test does, as root, where apt-get works)",
        allow_module_level=True,
    )


class WebServer:
    def __init__(self, process: subprocess.Popen[str], url: str, workspace: Path, output: list[str]) -> None:
        self.process = process
        self.url = url
        self.base = url.split("/?", 1)[0]
        self.token = url.split("token=", 1)[1]
        self.workspace = workspace
        self.output = output


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    tmp = tmp_path_factory.mktemp("web")
    workspace = tmp / "ws"
    env = cli_env(tmp, {"PYTHONUNBUFFERED": "1"})
    process = subprocess.Popen(
        [sys.executable, "-m", "workbench", "--workspace", str(workspace), "web", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=tmp,
    )
    assert process.stdout is not None
    output: list[str] = []
    url = ""
    for line in process.stdout:
        output.append(line)
        if "?token=" in line:
            url = line.split(": ", 1)[1].strip()
        if line.startswith("Serving workspace"):
            break
    assert url, "".join(output)
    import psutil

    try:
        yield WebServer(process, url, workspace, output)
    finally:
        tabs = psutil.Process(process.pid).children()
        process.send_signal(signal.SIGTERM)
        try:
            rest, _ = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            rest, _ = process.communicate()
        output.append(rest)
        gone, alive = psutil.wait_procs(tabs, timeout=30)
        for tab in alive:  # never left behind, even when the assertion below fails
            tab.kill()
        assert not alive, f"tab processes outlived the server: {alive}"
        assert "Server stopped" in "".join(output), "".join(output)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield launched
        finally:
            launched.close()


class Terminal:
    """The tab's screen as text: every frame the server sends, fed to a terminal emulator."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.screen: Any = None
        self.stream: Any = None
        page.on("websocket", self._on_socket)

    def _on_socket(self, socket: Any) -> None:
        query = dict(part.split("=", 1) for part in socket.url.split("?", 1)[1].split("&"))
        self.size = (int(query["width"]), int(query["height"]))
        self.screen = pyte.Screen(*self.size)
        self.stream = pyte.ByteStream(self.screen)
        socket.on("framereceived", self._on_frame)
        socket.on("framesent", self._on_sent)

    def _on_sent(self, payload: Any) -> None:
        if isinstance(payload, str) and payload.startswith('["resize"'):
            size = json.loads(payload)[1]
            self.size = (int(size["width"]), int(size["height"]))
            self.screen.resize(lines=self.size[1], columns=self.size[0])

    def _on_frame(self, payload: Any) -> None:
        if isinstance(payload, bytes):
            self.stream.feed(payload)

    def text(self) -> str:
        return "\n".join(self.screen.display) if self.screen is not None else ""

    def wait_for(self, condition: Callable[[str], object], timeout: float = 90.0) -> str:
        """The screen's text once ``condition(text)`` holds (events are delivered while waiting)."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if condition(text):
                return text
            assert time.monotonic() < deadline, f"screen never matched; it shows:\n{text}"
            self.page.wait_for_timeout(50)

    def press(self, *keys: str) -> None:
        self.page.focus(".xterm-helper-textarea")  # where xterm.js reads keys from
        for key in keys:
            self.page.keyboard.press(key)


def _status(url: str, headers: dict[str, str] | None = None) -> int:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_without_the_token_everything_is_refused(server: WebServer, browser: Any) -> None:
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13"}
    upgrade["Sec-WebSocket-Key"] = "dGhlIHNhbXBsZSBub25jZQ=="
    assert _status(f"{server.base}/") == 403
    assert _status(f"{server.base}/?token=wrong-{server.token[:8]}") == 403
    assert _status(f"{server.base}/static/js/textual.js") == 403
    assert _status(f"{server.base}/ws?width=80&height=24", upgrade) == 403  # no app process started
    cookie = f"paddle_workbench_web_{server.base.rsplit(':', 1)[1]}={server.token}"
    evil = {**upgrade, "Cookie": cookie, "Origin": "http://evil.example"}
    assert _status(f"{server.base}/ws?width=80&height=24", evil) == 403  # another site's page
    page = browser.new_page()
    try:
        assert page.goto(f"{server.base}/").status == 403
    finally:
        page.close()


def _config(tmp_path: Path) -> Path:
    """The demo sample, small: 6 steps held ``HOLD_S`` s at step 2, no export; its data generated in tmp."""
    text = (SAMPLE_CONFIGS / "train_cls_demo.yaml").read_text(encoding="utf-8")
    text = text.replace("dir: ../demo_data/cls", f"dir: {tmp_path / 'demo_data'}")
    text = text.replace("steps: 300", "steps: 6").replace("warmup_steps: 20", "warmup_steps: 1")
    text = text.replace("enabled: true", "enabled: false").replace("device: auto", "device: cpu")
    text += f"debug:\n  inject: hang@2:{HOLD_S}\n"
    path = tmp_path / "train.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _events(run_dir: Path) -> list[dict[str, Any]]:
    lines = (run_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_a_tab_trains_and_a_closed_tab_leaves_the_run_going(
    server: WebServer, browser: Any, tmp_path: Path
) -> None:
    config = _config(tmp_path)
    # 120x40 cells of the 16 px font: the fit add-on measures the page.
    context = browser.new_context(viewport={"width": 1085, "height": 775})
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    terminal = Terminal(page)
    started = time.monotonic()
    page.goto(server.url)
    terminal.wait_for(lambda text: "Run  Status" in text and "workspace" in text)
    ready_s = time.monotonic() - started
    print(f"\nweb: ready screen {ready_s:.2f} s after the first request; terminal {terminal.size}")
    assert terminal.size[0] >= COLS and terminal.size[1] >= ROWS, terminal.size
    assert str(server.workspace.resolve()) in page.title()
    assert "?token=" not in page.url  # the token left the address bar for a cookie

    terminal.press("2")
    terminal.wait_for(lambda text: "Run  Status" not in text and "Shared memory" in text)

    terminal.press("1")
    terminal.wait_for(lambda text: "Run  Status" in text)
    terminal.press("t")
    terminal.wait_for(lambda text: "Train from a config" in text)
    page.keyboard.type(str(config))
    page.keyboard.press("Enter")
    runs_dir = server.workspace / "runs"

    def held_run() -> Path | None:
        for run_dir in runs_dir.glob("*train*") if runs_dir.is_dir() else []:
            rows = (
                (run_dir / "events.jsonl").read_text(encoding="utf-8")
                if (run_dir / "events.jsonl").is_file()
                else ""
            )
            if '"step": 1,' in rows or '"step": 1}' in rows:
                return run_dir
        return None

    # The monitor has drawn step 1; the run is held at step 2 for HOLD_S s.
    monitor = terminal.wait_for(
        lambda text: held_run() is not None and re.search(r"step 1\b", text), timeout=180
    )
    run_dir = held_run()
    assert run_dir is not None and run_dir.name in monitor, monitor
    shot = tmp_path / "monitor.png"
    page.screenshot(path=str(shot))
    print(f"web: monitor screenshot {shot}")
    assert shot.stat().st_size > 0

    closed_at = time.time()
    page.close()  # the tab: textual-serve tells its app to quit
    # A new tab (the browser's cookie, no token in the address) is a new app: it lists the held run as
    # running — its process is alive, its tab gone.
    page = context.new_page()
    page.on("request", lambda request: requests.append(request.url))
    terminal = Terminal(page)
    page.goto(server.base + "/")
    listed = terminal.wait_for(lambda text: run_dir.name in text and "Last step" in text)
    row = next(line for line in listed.splitlines() if line.lstrip().startswith(run_dir.name))
    reopened_s = time.time() - closed_at
    print(f"web: reopened tab lists the run {reopened_s:.1f} s after the close: {row.split('│')[0].strip()}")
    assert "running" in row, row
    page.close()
    context.close()
    deadline = time.monotonic() + 180
    while (summary := summarize(run_dir)).status == "running":  # a dead writer reads "interrupted"
        assert time.monotonic() < deadline, "the run did not end after its tab closed"
        time.sleep(0.2)
    assert summary.status == "finished", summary
    events = _events(run_dir)
    after = [row for row in events if row.get("type") == "metrics" and row["time"] > closed_at]
    assert after, "no step was trained after the tab closed"
    assert max(row["step"] for row in events if row.get("type") == "metrics") == 6
    outside = [url for url in requests if not url.startswith(server.base)]
    assert not outside, f"the page asked outside its server: {outside}"
