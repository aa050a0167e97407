"""Serving end to end: a tiny trained demo export, served in process and as the real command.

The demo classifier is trained once for the module (few steps, export on). The in-process tests drive
the real ASGI app (real predictors, real preprocessing) through httpx's ASGI client: authentication,
rate limits, body limits, JSON errors, metrics and the access log. The command test starts
``paddle-workbench serve`` on a free loopback port, checks its top-1 against the compare engine's
predictor path for the same images, load-tests it at concurrency 1, 4 and 16, and stops it with
SIGTERM (exit 0, port free). The hostile-client tests run the real uvicorn server on 127.0.0.1 (port 0)
with small limits and real sockets: silent and slow clients are cut off, failed authentications are
limited per address, the stop timeout answers JSON, and no stop signal leaves a process behind. Every
loop is bounded; nothing asserts on time (a wait for the server's close is bounded by a socket timeout).
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import importlib.util
import json
import os
import queue
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.train_helpers import SAMPLE_CONFIGS, cli_env, train_finished
from workbench.datasets import generate_cls_demo
from workbench.runs import RunStore

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
    pytest.mark.skipif(
        any(importlib.util.find_spec(m) is None for m in ("fastapi", "uvicorn", "httpx")),
        reason="the serve extra is not installed",
    ),
]

TOKEN = "t" * 40


class Demo:
    def __init__(self, root: Path, store: RunStore, run_dir: Path, images: list[Path]) -> None:
        self.root = root
        self.store = store
        self.run_dir = run_dir
        self.images = images

    def env(self) -> dict[str, str]:
        env = cli_env(self.root, {"PYTHONUNBUFFERED": "1"})
        env.pop("PADDLE_WORKBENCH_SERVE_TOKEN", None)
        return env


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    """The cls demo trained for a few steps with its export (HOME in tmp while Paddle imports and exports)."""
    root = tmp_path_factory.mktemp("serve")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(root / "home"))
        patch.setenv("GLOG_minloglevel", "2")
        data = generate_cls_demo(root / "data" / "cls", n_train=64, n_val=16, seed=1)
        store = RunStore(root / "ws")
        overrides = [
            "train.steps=6", "train.warmup_steps=0", f"data.dir={data}", "train.batch_size=8",
            "eval.every=3", "checkpoint.every=3", "export.enabled=true",
        ]  # fmt: skip
        run_dir = train_finished(SAMPLE_CONFIGS / "train_cls_demo.yaml", store, overrides, timeout=180)
        lines = (Path(data) / "val.txt").read_text(encoding="utf-8").split("\n")
        images = [Path(data) / line.split()[0] for line in lines if line.strip()]
        yield Demo(root, store, run_dir, images)


@pytest.fixture(autouse=True)
def _home(demo: Demo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(demo.root / "home"))


def _b64(path: Path) -> str:
    return base64.b64encode(path.read_bytes()).decode("ascii")


def _compare_engine_top1(export_prefix: Path, images: list[Path]) -> list[int]:
    """Top-1 from the compare engine's ``predictor_ir_on`` path on the shared preprocessing."""
    from workbench.datasets.readers import load_rgb
    from workbench.inference.paths import PATHS, PathContext
    from workbench.training.runtime import import_paddle

    paddle = import_paddle()
    runner = PATHS.get("predictor_ir_on").open(
        PathContext(paddle=paddle, model=None, prefix=export_prefix, input_name="x")
    )
    batch = np.stack([load_rgb(p, (32, 32)) for p in images])
    return [int(v) for v in np.argmax(runner.call(batch), axis=1)]


# -- in process: the app with a real predictor --------------------------------------------------------


@pytest.fixture(scope="module")
def served(demo: Demo) -> Iterator[Any]:
    from workbench.serve.auth import Token
    from workbench.serve.options import ServeOptions
    from workbench.serve.server import close_logger, open_state
    from workbench.serve.source import resolve_export

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(demo.root / "home"))
        export = resolve_export(demo.run_dir.name, demo.store)
        options = ServeOptions(
            port=0, workers=2, max_batch=8, max_body_bytes=64 * 1024, rate=1000, burst=1000
        )
        state = open_state(export, Token(TOKEN, "test"), options)
    yield state
    state.predictor.close()
    close_logger(state.access_log)


def _client(state: Any) -> Any:
    import httpx

    from workbench.serve.app import create_app

    transport = httpx.ASGITransport(app=create_app(state), client=("127.0.0.9", 5000))
    return httpx.AsyncClient(transport=transport, base_url="http://test")


AUTH = {"Authorization": f"Bearer {TOKEN}"}


async def test_token_rate_body_limits_and_json_errors_then_still_serving(served: Any, demo: Demo) -> None:
    from workbench.serve.ratelimit import RateLimiter

    image = {"images": [_b64(demo.images[0])]}
    async with _client(served) as client:
        assert (await client.get("/healthz")).json() == {"status": "ok"}  # the one open route
        for headers in ({}, {"Authorization": "Bearer wrong-token"}, {"Authorization": f"Basic {TOKEN}"}):
            res = await client.post("/predict", json=image, headers=headers)
            assert res.status_code == 401 and res.headers["www-authenticate"] == "Bearer"
            assert "Bearer" in res.json()["error"] and res.json()["request_id"]
        assert (await client.get("/metrics")).status_code == 401

        model = (await client.get("/model", headers=AUTH)).json()
        assert model["input_spec"][0]["shape"] == [None, 3, 32, 32]
        assert model["model"] == "image_classification:small_cnn"  # as compare labels its matrix rows
        assert model["preprocess"]["name"] == "workbench.datasets.readers.load_rgb"
        assert model["paddle_version"] and model["guard"] == "pool" and model["workers"] == 2

        ok = await client.post("/predict", json=image, headers=AUTH)
        assert ok.status_code == 200 and isinstance(ok.json()["outputs"][0]["top1"], int)

        # Malformed and invalid bodies: 400 with a JSON error, never a traceback.
        for content in (b"{not json", b"[1, 2]", json.dumps({"images": ["%%%"]}).encode(),
                        json.dumps({"arrays": [[1.0, 2.0]]}).encode(), b"[" * 100_000 + b"]" * 100_000):  # fmt: skip
            res = await client.post("/predict", content=content, headers=AUTH)
            assert res.status_code in (400, 413), content[:20]
            assert "error" in res.json() and "Traceback" not in res.text
        too_many = {"images": [_b64(demo.images[0])] * 9}
        res = await client.post("/predict", json=too_many, headers=AUTH)
        assert res.status_code == 400 and "at most 8" in res.json()["error"]

        # Oversized: declared (refused before reading) and streamed without a length.
        big = b"x" * (65 * 1024)
        res = await client.post("/predict", content=big, headers=AUTH)
        assert res.status_code == 413 and "65536" in res.json()["error"]

        async def chunks() -> Any:
            for _ in range(70):
                yield b"y" * 1024

        res = await client.post("/predict", content=chunks(), headers=AUTH)
        assert res.status_code == 413 and res.json()["error"]
        res = await client.get("/nowhere", headers=AUTH)
        assert res.status_code == 404 and res.json()["error"]
        res = await client.get("/x%0A2026-01-01 INFO rid=forged", headers=AUTH)  # a forged log line
        assert res.status_code == 404

        # Over the rate: 429 with Retry-After; after the wait, served again.
        now = [0.0]
        saved = served.limiter
        served.limiter = RateLimiter(rate=1.0, burst=2, clock=lambda: now[0])
        try:
            codes = [(await client.get("/model", headers=AUTH)).status_code for _ in range(3)]
            assert codes == [200, 200, 429]
            limited = await client.post("/predict", json=image, headers=AUTH)
            assert limited.status_code == 429 and limited.headers["retry-after"] == "1"
            now[0] += 1.0
            assert (await client.post("/predict", json=image, headers=AUTH)).status_code == 200
        finally:
            served.limiter = saved

        assert (await client.post("/predict", json=image, headers=AUTH)).json()["outputs"][0]["top1"] == (
            ok.json()["outputs"][0]["top1"]
        )
        metrics = (await client.get("/metrics", headers=AUTH)).text
    for status in (200, 400, 401, 404, 413, 429):
        assert f'status="{status}"' in metrics, status
    assert "pwb_request_duration_seconds_bucket" in metrics
    log = (demo.run_dir / "serve.log").read_text(encoding="utf-8")
    assert "rid=" in log and '"POST /predict" 401' in log and '"POST /predict" 429' in log
    assert TOKEN not in log
    assert not any(line.startswith("2026-01-01") for line in log.splitlines()) and "\\n2026-01-01" in log


@pytest.mark.parametrize("workers", [1, 2])
async def test_concurrent_requests_get_their_own_answers(workers: int, demo: Demo) -> None:
    """One predictor behind the lock, or two on owner threads: 32 requests at once, each its own answer."""
    import asyncio

    from workbench.serve.auth import Token
    from workbench.serve.options import ServeOptions
    from workbench.serve.server import close_logger, open_state
    from workbench.serve.source import resolve_export

    export = resolve_export(demo.run_dir.name, demo.store)
    served = open_state(export, Token(TOKEN, "test"), ServeOptions(port=0, workers=workers))
    assert served.predictor.guard == ("lock" if workers == 1 else "pool")
    try:
        async with _client(served) as client:
            single = []
            for path in demo.images[:8]:
                res = await client.post("/predict", json={"images": [_b64(path)]}, headers=AUTH)
                single.append(res.json()["outputs"][0]["top1"])
            results = await asyncio.gather(
                *[
                    client.post("/predict", json={"images": [_b64(p)]}, headers=AUTH)
                    for p in demo.images[:8] * 4
                ]
            )
    finally:
        served.predictor.close()
        close_logger(served.access_log)
    assert [r.json()["outputs"][0]["top1"] for r in results] == single * 4


# -- the command --------------------------------------------------------------------------------------


def _start(
    demo: Demo, *args: str, new_session: bool = False
) -> tuple[subprocess.Popen[str], str, queue.Queue[str]]:
    """``paddle-workbench serve`` on a free loopback port (its own session when ``new_session``)."""
    script = Path(sys.executable).with_name("paddle-workbench")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "workbench"]
    proc = subprocess.Popen(
        [*command, "--workspace", str(demo.store.workspace), "serve", demo.run_dir.name, "--port", "0", *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=demo.env(),
        start_new_session=new_session,
    )  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + 180
    seen = []
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            if proc.poll() is not None:
                break
            continue
        seen.append(line)
        if "Serving on http://" in line:
            url = line.split("Serving on ", 1)[1].split()[0]
            return proc, url, lines
    proc.kill()
    raise AssertionError("server did not start:\n" + "".join(seen))


def test_serve_matches_compare_top1_load_tests_and_stops_cleanly(demo: Demo) -> None:
    import httpx
    import psutil

    from workbench.serve.auth import token_path
    from workbench.serve.loadtest import run_loadtest

    proc, url, lines = _start(demo, "--workers", "2")
    try:
        token = token_path(demo.store.workspace).read_text(encoding="utf-8").strip()
        assert url.startswith("http://127.0.0.1:")
        port = int(url.rsplit(":", 1)[1])
        images = demo.images[:16]
        res = httpx.post(
            f"{url}/predict", json={"images": [_b64(p) for p in images]},
            headers={"Authorization": f"Bearer {token}"}, timeout=60,
        )  # fmt: skip
        assert res.status_code == 200, res.text
        served_top1 = [item["top1"] for item in res.json()["outputs"]]
        export = demo.run_dir / "export" / "model"
        assert served_top1 == _compare_engine_top1(export, images)

        rss_before = psutil.Process(proc.pid).memory_info().rss
        figures = {}
        for concurrency in (1, 4, 16):
            result = run_loadtest(url, token=token, concurrency=concurrency, requests=48, duration_s=120)
            assert result.errors == {} and result.ok == 48, result.errors
            assert result.throughput_rps > 0 and result.percentile(99) is not None
            figures[concurrency] = (round(result.throughput_rps, 1), result.percentile(99))
        rss_after = psutil.Process(proc.pid).memory_info().rss
        print(
            f"loadtest (req/s, p99 ms) by concurrency: {figures}; RSS {rss_before >> 20} → {rss_after >> 20} MiB"
        )
        assert rss_after - rss_before < 256 * 2**20

        # The command: report in the run's reports/, a row in the matrix, figures in JSON.
        cli = subprocess.run(
            [sys.executable, "-m", "workbench", "--workspace", str(demo.store.workspace), "loadtest", url,
             "-c", "2", "-n", "8", "--json"],
            capture_output=True, text=True, env=demo.env(), timeout=120,
        )  # fmt: skip
        assert cli.returncode == 0, cli.stderr
        doc = json.loads(cli.stdout)
        assert doc["ok"] and doc["latency_ms"]["p99"] is not None and doc["errors"] == {}
        assert Path(doc["reports"]["json"]).parent == demo.run_dir / "reports"
        assert doc["matrix_row"]["path"] == "serve:poolx2:c2" and doc["matrix_row"]["p99_ms"] is not None
        rows = (demo.store.workspace / "matrix.jsonl").read_text(encoding="utf-8").splitlines()
        assert any(json.loads(r)["path"] == "serve:poolx2:c2" for r in rows)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    rest = []
    while not lines.empty():
        rest.append(lines.get())
    assert code == 0, "".join(rest)
    assert any("Stopped" in line for line in rest), rest
    with socket.socket() as sock:  # the port is free again
        sock.bind(("127.0.0.1", port))
    log = (demo.run_dir / "serve.log").read_text(encoding="utf-8")
    assert log.count('"POST /predict" 200') >= 48 * 3 and token not in log


def test_serve_bad_input_says_how_to_fix_it(demo: Demo, tmp_path: Path) -> None:
    def serve(*args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
        prefix = [sys.executable, "-c", code, "--"] if code else [sys.executable, "-m", "workbench"]
        return subprocess.run(
            [*prefix, "--workspace", str(demo.store.workspace), "serve", *args],
            capture_output=True, text=True, env=demo.env(), timeout=120,
        )  # fmt: skip

    run = tmp_path / "run"
    shutil.copytree(demo.run_dir, run, ignore=shutil.ignore_patterns("export", "serve.log", "reports"))
    res = serve(str(run))
    assert res.returncode == 2 and "paddle-workbench compare" in res.stdout and "Traceback" not in res.stderr
    res = serve("no-such-run")
    assert res.returncode == 2 and "no run 'no-such-run'" in res.stdout
    blocked = (
        "import sys; sys.modules['fastapi'] = None; sys.argv[0] = 'paddle-workbench'; "
        "from workbench.cli import main; main(sys.argv[2:])"
    )
    res = serve(demo.run_dir.name, code=blocked)
    assert res.returncode == 2 and "pip install 'paddle-workbench[serve]'" in res.stdout
    # A changed export no longer verifies against its manifest.
    changed = tmp_path / "changed"
    shutil.copytree(demo.run_dir / "export", changed)
    with open(changed / "model.pdiparams", "ab") as fh:
        fh.write(b"\0")
    res = serve(str(changed))
    assert res.returncode == 2 and "does not verify" in res.stdout and "model.pdiparams" in res.stdout
    # A port already in use.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        res = serve(demo.run_dir.name, "--port", str(sock.getsockname()[1]))
    assert res.returncode == 2 and "--port" in res.stdout


def test_serve_refuses_an_export_whose_preprocessing_drifted_from_training(
    demo: Demo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run trained with another mean than the export's (as ``compare`` reports ``preprocess_drift``):
    refused before binding (the port given is taken, so nothing is ever served)."""
    from click.testing import CliRunner

    from workbench.cli.root import build_cli
    from workbench.training.checkpoints import MANIFEST, CheckpointStore

    run = shutil.copytree(
        demo.run_dir, tmp_path / "run", ignore=shutil.ignore_patterns("serve.log", "reports")
    )
    checkpoint = CheckpointStore(run / "checkpoints", keep=None).committed()[-1].path
    manifest = json.loads((checkpoint / MANIFEST).read_text(encoding="utf-8"))
    trained = manifest["preprocess"]
    manifest["preprocess"] = {
        **trained,
        "config": {**trained["config"], "mean": [0.45] * 3},
        "config_hash": "0" * 16,
    }
    (checkpoint / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    monkeypatch.setenv("PADDLE_WORKBENCH_LANG", "en")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = str(sock.getsockname()[1])
        res = CliRunner().invoke(
            build_cli(), ["--workspace", str(demo.store.workspace), "serve", str(run), "--port", port]
        )
    assert res.exit_code == 2, res.output
    assert (
        "differs from the one the run trained with" in res.output
        and "'mean': [0.45, 0.45, 0.45]" in res.output
    )
    assert "paddle-workbench compare" in res.output and "--allow-drift" in res.output


def _wait_for(lines: queue.Queue[str], text: str, timeout: float = 60) -> list[str]:
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        seen.append(line)
        if text in line:
            return seen
    raise AssertionError(f"no {text!r} in:\n" + "".join(seen))


def _half_sent_request(url: str, token: str, demo: Demo) -> tuple[socket.socket, bytes]:
    """A ``POST /predict`` whose body is half sent: in flight until the rest arrives."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    body = json.dumps({"images": [_b64(demo.images[0])]}).encode()
    head = (
        f"POST /predict HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    sock = socket.create_connection((host, int(port)), timeout=60)
    sock.sendall(head + body[:10])
    return sock, body[10:]


def _wait_in_flight(url: str, token: str) -> None:
    """Until the half-sent request is in the app: the metrics request itself plus that one (bounded)."""
    import httpx

    for _ in range(200):
        text = httpx.get(f"{url}/metrics", headers={"Authorization": f"Bearer {token}"}, timeout=30).text
        if "pwb_requests_in_flight 2" in text:
            return
        time.sleep(0.05)
    raise AssertionError("the half-sent request never reached the app")


@contextlib.contextmanager
def _server(demo: Demo, *args: str) -> Iterator[tuple[subprocess.Popen[str], str, queue.Queue[str]]]:
    """A started server that is killed on the way out, whatever the test did (nothing left running)."""
    proc, url, lines = _start(demo, *args)
    try:
        yield proc, url, lines
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def test_first_signal_finishes_in_flight_requests_second_exits_at_once(demo: Demo) -> None:
    from workbench.serve.auth import token_path

    with _server(demo) as (proc, url, lines):
        token = token_path(demo.store.workspace).read_text(encoding="utf-8").strip()
        sock, rest = _half_sent_request(url, token, demo)
        with sock:
            _wait_in_flight(url, token)
            proc.send_signal(signal.SIGTERM)
            _wait_for(lines, "Stopping")
            assert proc.poll() is None  # still running: the request is in flight
            sock.sendall(rest)
            answer = b""
            while b"\r\n\r\n" not in answer:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
            assert proc.wait(timeout=60) == 0

    with _server(demo) as (proc, url, lines):
        sock, _ = _half_sent_request(url, token, demo)
        with sock:
            _wait_in_flight(url, token)
            proc.send_signal(signal.SIGTERM)
            _wait_for(lines, "Stopping")
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 128 + signal.SIGTERM  # at once, the request abandoned


async def test_compare_screen_serves_the_run_load_tests_it_and_plots_the_latencies(demo: Demo) -> None:
    """``l`` in the compare mode: the real ``serve`` in a child process, a bounded load test, SIGTERM."""
    from textual.widgets import DataTable, Static

    from workbench.screens.app import WorkbenchApp
    from workbench.screens.compare import CompareScreen

    os.environ.pop("PADDLE_WORKBENCH_SERVE_TOKEN", None)
    app = WorkbenchApp(demo.store.workspace, preload_paddle=False)
    async with app.run_test(size=(140, 50)) as pilot:
        await pilot.pause(0.1)
        await app.switch_mode("compare")
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, CompareScreen)
        table = screen.query_one("#checkpoints", DataTable)
        for _ in range(100):
            await pilot.pause(0.05)
            if table.row_count:
                break
        keys = [row.value for row in table.rows]
        table.move_cursor(row=next(i for i, key in enumerate(keys) if key and demo.run_dir.name in key))
        await pilot.press("l")
        pane = screen.query_one("#compare-serve", Static)
        for _ in range(3600):  # bounded: 180 s at most (a Paddle import in the child, then the load test)
            await pilot.pause(0.05)
            if "serving latency" in str(pane.render()) or "Error" in str(pane.render()):
                break
        text = str(pane.render())
    assert "serving latency" in text and "200/200 ok" in text, text
    assert "p99" in text and "█" in text and "reports" in text
    rows = (demo.store.workspace / "matrix.jsonl").read_text(encoding="utf-8").splitlines()
    assert any(json.loads(r)["path"] == "serve:lockx1:c4" for r in rows)


def test_serve_and_loadtest_reports_a_server_that_cannot_start(demo: Demo, tmp_path: Path) -> None:
    from workbench.serve.loadtest import LoadtestInputError
    from workbench.serve.session import serve_and_loadtest

    run = tmp_path / "no-export"
    shutil.copytree(demo.run_dir, run, ignore=shutil.ignore_patterns("export", "serve.log", "reports"))
    with pytest.raises(LoadtestInputError) as caught:
        serve_and_loadtest(demo.store.workspace, str(run), start_timeout_s=120)
    assert any("paddle-workbench compare" in m for m in caught.value.messages)


# -- hostile clients: the real uvicorn server with small limits, real sockets --------------------------


@contextlib.contextmanager
def _uvicorn(served: Any, **limits: Any) -> Iterator[tuple[int, Any]]:
    """The real server (uvicorn, the workbench's protocol and app) for ``served`` with ``limits`` on
    127.0.0.1, port 0, in a thread; stopped and joined on the way out."""
    from workbench.serve.server import access_logger, build_server, run_server
    from workbench.serve.sockets import bind
    from workbench.serve.telemetry import Telemetry

    options = served.options.model_copy(update=limits)
    # access_logger: the same logger as ``served``'s, its file handler back if another test closed it
    # (the served fixture closes it at the end).
    log = access_logger(served.export.log_dir)
    state = dataclasses.replace(served, options=options, telemetry=Telemetry(), access_log=log)
    server = build_server(state)
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    thread = threading.Thread(target=run_server, args=(server, sock, state.access_log), daemon=True)
    thread.start()
    try:
        for _ in range(600):  # bounded: 30 s
            if server.started:
                break
            time.sleep(0.05)
        assert server.started, "uvicorn did not start"
        yield port, state
    finally:
        server.stop()
        thread.join(timeout=60)
        assert not thread.is_alive(), "the server did not stop"


def _read_to_close(sock: socket.socket, timeout: float = 30) -> bytes:
    """Everything the server sends until it closes the connection (bounded by ``timeout`` per read)."""
    sock.settimeout(timeout)
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return data
        if not chunk:
            return data
        data += chunk


def _trickle_until_answered(sock: socket.socket, piece: bytes, answered: bytes = b"") -> bytes:
    """Send ``piece`` every 0.1 s (at most 300 times) until the server answers and closes; its answer.

    ``answered``: bytes the server already sent (an early answer) — then trickle until it closes.
    """
    for _ in range(300):
        readable, _, _ = select.select([sock], [], [], 0.1)
        if readable:
            chunk = b""
            with contextlib.suppress(ConnectionResetError):
                chunk = sock.recv(65536)
            if not chunk:
                return answered
            answered += chunk
            continue
        try:
            sock.sendall(piece)
        except (BrokenPipeError, ConnectionResetError):
            return answered + _read_to_close(sock)
    raise AssertionError("the server kept a trickling connection open: " + repr(answered[:200]))


def _json_answer(raw: bytes) -> tuple[int, dict[str, str], dict[str, Any]]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    assert headers.get("content-type") == "application/json", raw[:300]
    return int(lines[0].split()[1]), headers, json.loads(body)


def test_silent_slow_and_malformed_clients_are_cut_off_with_json(served: Any) -> None:
    """Finding 13: a silent socket, slow headers, a slow body, a body trickling after an early answer,
    an idle kept-alive connection — each closed by the server within its limit; errors are JSON."""
    limits = {"idle_timeout_s": 0.5, "header_timeout_s": 1.0, "body_timeout_s": 1.0}
    with _uvicorn(served, **limits) as (port, state):
        # Connects and sends nothing: closed, nothing said.
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            assert _read_to_close(sock) == b""

        # Slowloris: a header line every 0.1 s never completes the headers: 408 JSON, closed.
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(b"GET /model HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            status, headers, doc = _json_answer(_trickle_until_answered(sock, b"X-Slow: 1\r\n"))
        assert status == 408 and headers["connection"] == "close"
        assert "headers did not arrive within 1 s" in doc["error"] and doc["request_id"]

        # A body one byte every 0.1 s: the app answers 408 JSON and closes.
        head = (
            f"POST /predict HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n"
            "Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(head + b'{"arrays": [')
            status, headers, doc = _json_answer(_trickle_until_answered(sock, b"0"))
        assert status == 408 and headers["connection"] == "close" and "body did not arrive" in doc["error"]

        # No token: answered 401 at once without reading the body; the trickling body is then cut off.
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(head.replace(f"Authorization: Bearer {TOKEN}\r\n".encode(), b"") + b"{")
            answer = _trickle_until_answered(sock, b"0")
        status, _, doc = _json_answer(answer)
        assert status == 401 and doc["error"]

        # Kept alive after a response, then idle: closed.
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answer = _read_to_close(sock)
        assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b'{"status":"ok"}')

        # Not HTTP: uvicorn's plain-text 400 becomes JSON.
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(b"\x16\x03\x01 not http\r\n\r\n")
            status, _, doc = _json_answer(_read_to_close(sock))
        assert status == 400 and "HTTP/1.1" in doc["error"]

        # Headers past 16 KiB: the same JSON 400, before they are all read.
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(b"GET /model HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 20_000)
            status, _, doc = _json_answer(_read_to_close(sock))
        assert status == 400 and "16 KiB" in doc["error"]
    log = (state.export.log_dir / "serve.log").read_text(encoding="utf-8")
    assert "408 headers not complete in time" in log and "400 invalid HTTP request" in log
    assert "Traceback" not in log


def test_failed_authentications_are_limited_per_address(served: Any) -> None:
    """Finding 13: wrong tokens get 429 after the allowance — even the right token from that address
    then (so guessing stays slow) — while the holder of the token on another address is served."""
    import httpx

    wrong = {"Authorization": "Bearer wrong-token-wrong-token-wrong"}
    with _uvicorn(served, auth_failure_burst=3, auth_failure_rate=0.01) as (port, _):
        url = f"http://127.0.0.1:{port}/model"
        with httpx.Client(timeout=30) as attacker:
            codes = [attacker.get(url, headers=wrong).status_code for _ in range(3)]
            assert codes == [401, 401, 401]
            limited = attacker.get(url, headers=wrong)
            assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1
            assert "failed authentications" in limited.json()["error"] and limited.json()["request_id"]
            assert attacker.get(url, headers=AUTH).status_code == 429
            assert attacker.get(url).status_code == 429  # no token at all: refused too
            assert attacker.get(f"http://127.0.0.1:{port}/healthz").status_code == 200  # the open route
        elsewhere = httpx.HTTPTransport(local_address="127.0.0.2")  # another loopback address
        with httpx.Client(transport=elsewhere, timeout=30) as holder:
            assert holder.get(url, headers=AUTH).status_code == 200
            assert holder.get(url, headers=wrong).status_code == 401  # its own allowance


async def test_an_unexpected_error_is_a_json_500(served: Any) -> None:
    """Starlette answers an exception in a route with a plain-text 500; the app answers JSON."""
    import httpx

    from workbench.serve.app import create_app

    app = create_app(served)

    async def broken() -> None:
        raise RuntimeError("a bug")

    app.app.add_api_route("/broken", broken)  # type: ignore[attr-defined]
    transport = httpx.ASGITransport(app=app, client=("127.0.0.10", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        res = await client.get("/broken", headers=AUTH)
    assert res.status_code == 500 and res.headers["content-type"] == "application/json"
    assert res.json()["request_id"] and "a bug" not in res.text and "Traceback" not in res.text


def test_stop_timeout_answers_json_and_says_one_line(demo: Demo) -> None:
    """Finding 13: a request still running at the stop timeout gets a JSON 503 (not uvicorn's plain
    500); the console gets one line about it and no traceback."""
    from workbench.serve.auth import token_path

    with _server(demo, "--stop-timeout", "1") as (proc, url, lines):
        token = token_path(demo.store.workspace).read_text(encoding="utf-8").strip()
        sock, _ = _half_sent_request(url, token, demo)
        with sock:
            _wait_in_flight(url, token)
            proc.send_signal(signal.SIGTERM)
            answer = _read_to_close(sock, timeout=60)
        assert proc.wait(timeout=60) == 0
        output = "".join(_wait_for(lines, "Stopped"))
    status, headers, doc = _json_answer(answer)
    assert status == 503 and headers["connection"] == "close", answer[:300]
    assert "stopping" in doc["error"] and doc["request_id"]
    after_stop = [line for line in output.splitlines() if line.strip()]
    after_stop = after_stop[next(i for i, line in enumerate(after_stop) if "Stopping" in line) + 1 :]
    assert len(after_stop) == 2, output  # the one line, then "Stopped"
    assert "1 request still running was cancelled" in after_stop[0] and "Stopped" in after_stop[1]
    assert "Traceback" not in output and "Internal Server Error" not in output
    log = (demo.run_dir / "serve.log").read_text(encoding="utf-8")
    assert '"POST /predict" 503' in log and "Traceback" not in log


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name)
def test_every_stop_signal_leaves_no_process(demo: Demo, sig: signal.Signals) -> None:
    """Finding 13 / "jobs end whole": SIGTERM, SIGINT and SIGHUP each stop ``paddle-workbench serve``
    (with a pool of 2 predictors) like Ctrl-C — exit 0, port free — and no process of it is left."""
    import httpx
    import psutil

    from workbench.serve.auth import token_path

    proc, url, lines = _start(demo, "--workers", "2", new_session=True)
    try:
        token = token_path(demo.store.workspace).read_text(encoding="utf-8").strip()
        res = httpx.post(
            f"{url}/predict", json={"images": [_b64(demo.images[0])]},
            headers={"Authorization": f"Bearer {token}"}, timeout=60,
        )  # fmt: skip
        assert res.status_code == 200, res.text
        tree = [proc.pid, *(child.pid for child in psutil.Process(proc.pid).children(recursive=True))]
        proc.send_signal(sig)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
    assert code == 0, "".join(_drain(lines))
    left = []
    for process in psutil.process_iter(["pid", "cmdline"]):
        with contextlib.suppress(psutil.Error, OSError):
            if process.pid in tree or os.getsid(process.pid) == proc.pid:
                left.append(process.info)
    assert left == [], left
    with socket.socket() as sock:  # the port is free again
        sock.bind(("127.0.0.1", int(url.rsplit(":", 1)[1])))


def _drain(lines: queue.Queue[str]) -> list[str]:
    out = []
    while not lines.empty():
        out.append(lines.get())
    return out
