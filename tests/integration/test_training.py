"""Real Paddle training runs, tiny on purpose (seconds each): the engine end to end.

Most runs happen in this process through the same API the CLI and the TUI use
(``prepare_training`` + ``start_training``); a few go through the ``paddle-workbench`` command line in a
subprocess. Every run writes into a tmp workspace; ``HOME`` points into tmp so ``paddle.jit.save``'s
``~/.cache`` writes stay in the test.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.train_helpers import event_rows, run_cli, train_job
from workbench.datasets import generate_cls_demo, generate_rec_demo
from workbench.events import AlertRaised, RunFailed
from workbench.runner import InProcessJob
from workbench.runs import RunStore
from workbench.training import prepare_training, start_training
from workbench.training.checkpoints import CheckpointStore, verify_checkpoint

# Not importorskip: importing Paddle here would run before HOME points into tmp (it mkdirs ~/.cache).
pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

CLS_CONFIG = """\
task: image_classification
data: {{dir: {data}, format: cls}}
train: {{steps: 20, batch_size: 16, lr: 0.01, optimizer: adam, lr_schedule: cosine, warmup_steps: 3, seed: 7}}
eval: {{every: 10}}
checkpoint: {{every: 10, keep: 2}}
alerts: {{hang_after_s: 30}}
export: {{enabled: false}}
"""


@pytest.fixture(scope="module", autouse=True)
def _module_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """HOME in tmp for the whole module, so even the first ``import paddle`` writes nothing to ~/."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(home))
        yield home


@pytest.fixture(scope="module")
def data_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("data")
    generate_cls_demo(root / "cls", n_train=128, n_val=32, seed=1)
    generate_rec_demo(root / "rec", n_train=96, n_val=16, seed=1)
    return root


@pytest.fixture(autouse=True)
def _home_in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """``paddle.jit.save`` writes under ``~/.cache``: keep it in tmp and check it is cleaned."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    yield home


def _config(tmp_path: Path, data_root: Path, text: str = CLS_CONFIG, name: str = "tiny.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text.format(data=data_root / "cls", rec=data_root / "rec"))
    return path


def _series(run_dir: Path, name: str) -> dict[int, float]:
    out: dict[int, float] = {}
    for row in event_rows(run_dir):
        if row["type"] == "metrics" and name in row["values"]:
            out[row["step"]] = float(row["values"][name])
    return out


@pytest.fixture(scope="module")
def reference(data_root: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RunStore, Path]:
    """One uninterrupted 20-step run that several tests compare against."""
    tmp = tmp_path_factory.mktemp("reference")
    store = RunStore(tmp / "ws")
    config = _config(tmp, data_root)
    job = train_job(config, store)
    assert job.status == "finished", job.result
    return config, store, job.run_dir


def test_classification_run_logs_every_metric_and_keeps_the_artifacts(
    tmp_path: Path, data_root: Path, _home_in_tmp: Path
) -> None:
    store = RunStore(tmp_path / "ws")
    job = train_job(_config(tmp_path, data_root), store, ["export.enabled=true", "train.steps=30"])
    assert job.status == "finished", job.result
    rows = event_rows(job.run_dir)
    step_rows = [r for r in rows if r["type"] == "metrics" and "loss" in r["values"]]
    assert [r["step"] for r in step_rows] == list(range(1, 31))
    expected = {
        "loss",
        "lr",
        "samples_per_s",
        "data_wait_ms",
        "compute_ms",
        "step_ms",
        "grad_norm",
        "host_rss_mib",
    }
    assert expected <= set(step_rows[0]["values"])
    evals = _series(job.run_dir, "eval/accuracy")
    assert sorted(evals) == [10, 20, 30] and all(0.0 <= v <= 1.0 for v in evals.values())
    assert set(_series(job.run_dir, "eval/loss")) == {10, 20, 30}
    # keep: 2 -> only the two newest checkpoints remain; latest points at the last one.
    store_ = CheckpointStore(job.run_dir / "checkpoints")
    assert [c.step for c in store_.committed()] == [20, 30] and store_.pointer() == "step-30"
    assert [r["step"] for r in rows if r["type"] == "checkpoint_saved"] == [10, 20, 30]
    assert all(not verify_checkpoint(c.path) for c in store_.committed())
    assert {p.name for p in (job.run_dir / "export").iterdir()} >= {"model.json", "model.pdiparams"}
    doc = yaml.safe_load((job.run_dir / "run.yaml").read_text())
    env = doc["environment"]
    assert env["seeds"] == {"paddle": 7, "numpy": 7, "random": 7}
    assert env["paddle"]["version"] and env["paddle"]["commit"] and env["device"] == "cpu"
    assert doc["config"]["train"]["steps"] == 30
    summary = job.result.summary  # type: ignore[union-attr]
    assert summary["final_metrics"]["eval/accuracy"] == evals[30]
    assert summary["export"].endswith("export/model")
    # jit.save's transformed-code folder for this process is gone again.
    assert not (_home_in_tmp / ".cache" / "paddle" / "to_static_tmp" / str(os.getpid())).exists()


def test_rerun_with_the_same_config_is_bit_identical(reference: tuple[Path, RunStore, Path]) -> None:
    config, store, first = reference
    second = train_job(config, store)
    assert second.status == "finished"
    assert _series(second.run_dir, "loss") == _series(first, "loss")  # exact float equality
    assert _series(second.run_dir, "eval/accuracy") == _series(first, "eval/accuracy")


def test_resume_continues_bit_identically_in_a_linked_run(reference: tuple[Path, RunStore, Path]) -> None:
    config, store, uninterrupted = reference
    expected = _series(uninterrupted, "loss")
    crashed = train_job(config, store, ["debug.inject=raise@15"])
    assert crashed.status == "failed"
    assert isinstance(crashed.result, RunFailed) and "injected fault at step 15" in crashed.result.error
    before = _series(crashed.run_dir, "loss")
    assert sorted(before) == list(range(1, 15))  # every metric before the failure was kept
    assert all(before[s] == expected[s] for s in before)

    resumed = train_job(config, store, resume=crashed.run_id)
    assert resumed.status == "finished", resumed.result
    after = _series(resumed.run_dir, "loss")
    assert sorted(after) == list(range(11, 21))
    assert after == {s: expected[s] for s in range(11, 21)}  # bit for bit
    lrs = _series(uninterrupted, "lr")
    assert _series(resumed.run_dir, "lr") == {s: lrs[s] for s in range(11, 21)}  # the scheduler resumed too
    assert _series(resumed.run_dir, "eval/accuracy")[20] == _series(uninterrupted, "eval/accuracy")[20]
    env = yaml.safe_load((resumed.run_dir / "run.yaml").read_text())["environment"]
    assert (
        env["resumed_from"]["run_dir"] == str(crashed.run_dir.resolve()) and env["resumed_from"]["step"] == 10
    )
    # The crashed run's folder is left exactly as it was.
    assert sorted(_series(crashed.run_dir, "loss")) == list(range(1, 15))


def test_text_recognition_loss_falls_and_reports_word_accuracy(tmp_path: Path, data_root: Path) -> None:
    config = _config(
        tmp_path,
        data_root,
        "task: text_recognition\n"
        "data: {{dir: {rec}, format: rec}}\n"
        "train: {{steps: 24, batch_size: 16, lr: 0.003, optimizer: adam}}\n"
        "eval: {{every: 0}}\n"
        "checkpoint: {{every: 0}}\n"
        "export: {{enabled: true}}\n",
    )
    job = train_job(config, RunStore(tmp_path / "ws"))
    assert job.status == "finished", job.result
    losses = list(_series(job.run_dir, "loss").values())
    assert len(losses) == 24 and all(math.isfinite(v) for v in losses)
    assert sum(losses[-4:]) / 4 < 0.5 * losses[0]  # CTC loss falls clearly (≈17 → ≈4 here)
    assert set(_series(job.run_dir, "eval/word_accuracy")) == {24}
    assert (job.run_dir / "export" / "model.json").exists()


def _alerts(job: InProcessJob, kind: str) -> list[AlertRaised]:
    return [e for e in job.lifecycle if isinstance(e, AlertRaised) and e.kind == kind]


@pytest.mark.parametrize("inject", ["nan@5", "nan@5,hang@3:1.5"], ids=["steady", "system-samples-between"])
def test_nan_with_stop_fails_and_keeps_what_came_before(
    reference: tuple[Path, RunStore, Path], inject: str
) -> None:
    """A NaN at step 5 with ``stop``; a 1.5 s step 3 (the second case) lets the 1 Hz system sampler
    write between the lifecycle events, which the check leaves out."""
    config, store, _ = reference
    job = train_job(config, store, [f"debug.inject={inject}", "checkpoint.every=2", "alerts.nonfinite=stop"])
    assert job.status == "failed"
    assert isinstance(job.result, RunFailed) and "NonFiniteLossError" in job.result.error
    [alert] = _alerts(job, "nonfinite")
    assert alert.step == 5 and "nan" in alert.message
    losses = _series(job.run_dir, "loss")
    assert sorted(losses) == [1, 2, 3, 4, 5] and math.isnan(losses[5])
    # The lifecycle, without the samples (metrics per step, the 1 Hz system sampler) that come as the
    # clock lets them.
    kinds = [r["type"] for r in event_rows(job.run_dir) if r["type"] not in ("metrics", "system")]
    assert kinds == ["run_started", "checkpoint_saved", "checkpoint_saved", "alert_raised", "run_failed"]
    assert CheckpointStore(job.run_dir / "checkpoints").latest_valid().step == 4  # type: ignore[union-attr]


def test_nan_with_warn_alerts_after_patience_and_carries_on(reference: tuple[Path, RunStore, Path]) -> None:
    config, store, _ = reference
    job = train_job(
        config,
        store,
        ["debug.inject=nan@5", "alerts.nonfinite=warn", "alerts.nonfinite_patience=3", "train.steps=9"],
    )
    assert job.status == "finished"
    [alert] = _alerts(job, "nonfinite")
    assert alert.step == 7  # the third non-finite step in a row (the NaN weights keep it NaN)
    assert sorted(_series(job.run_dir, "loss")) == list(range(1, 10))


def test_stop_keep_last_good_exports_the_last_good_checkpoint(reference: tuple[Path, RunStore, Path]) -> None:
    config, store, _ = reference
    job = train_job(
        config,
        store,
        [
            "debug.inject=nan@5",
            "alerts.nonfinite=stop_keep_last_good",
            "alerts.nonfinite_patience=2",
            "checkpoint.every=2",
            "export.enabled=true",
        ],
    )
    assert job.status == "failed"
    assert isinstance(job.result, RunFailed) and "step 4" in job.result.error
    ckpts = CheckpointStore(job.run_dir / "checkpoints")
    assert [c.step for c in ckpts.committed()] == [2, 4]  # nothing committed after the first NaN (step 5)
    assert (job.run_dir / "export" / "model.pdiparams").exists()


def test_hang_raises_an_alert_with_the_training_stack_and_cancel_checkpoints(
    reference: tuple[Path, RunStore, Path],
) -> None:
    config, store, _ = reference
    plan = prepare_training(
        config, ["debug.inject=hang@3:60", "alerts.hang_after_s=0.5"], store=store, environ={}
    )
    job = start_training(plan, store)
    alert = next((e for e in job.events(timeout=60) if isinstance(e, AlertRaised) and e.kind == "hang"), None)
    assert alert is not None and alert.step == 3
    assert "_inject" in alert.details and "loop.py" in alert.details  # the training thread's stack
    hang_file = job.run_dir / "hang-3.txt"
    assert hang_file.exists() and "_inject" in hang_file.read_text()
    job.cancel()  # wakes the injected hang; the loop finishes step 3, checkpoints and stops
    assert job.wait(60)
    assert job.status == "cancelled"
    assert CheckpointStore(job.run_dir / "checkpoints").latest_valid().step == 3  # type: ignore[union-attr]
    assert sorted(_series(job.run_dir, "loss")) == [1, 2, 3]


CUSTOM_MODULE = """
import numpy as np
import paddle
from workbench import track
from workbench.training import TrainParts


class Points(paddle.io.Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.x = rng.normal(size=(n, 4)).astype("float32")
        self.y = (self.x.sum(axis=1) > 0).astype("int64")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def build(cfg):
    model = paddle.nn.Sequential(paddle.nn.Linear(4, cfg.options["hidden"]), paddle.nn.ReLU(),
                                 paddle.nn.Linear(cfg.options["hidden"], 2))
    opt = paddle.optimizer.Adam(cfg.train.lr, parameters=model.parameters())
    calls = []

    def loss(outputs, labels):
        calls.append(1)
        value = paddle.nn.functional.cross_entropy(outputs, labels)
        track.log(len(calls), user_metric=float(len(calls)))
        return value

    return TrainParts(model=model, optimizer=opt, train_data=Points(64, 0), val_data=Points(32, 1), loss=loss)
"""


def test_custom_entry_with_track_log_inside_the_job(tmp_path: Path) -> None:
    (tmp_path / "my_model.py").write_text(CUSTOM_MODULE)
    config = tmp_path / "custom.yaml"
    config.write_text(
        "task: custom\nentry: my_model:build\noptions: {hidden: 8}\n"
        "train: {steps: 12, batch_size: 16, lr: 0.05}\neval: {every: 6}\ncheckpoint: {every: 0}\n"
        "export: {enabled: true}\n"
    )
    job = train_job(config, RunStore(tmp_path / "ws"))
    assert job.status == "finished", job.result
    assert len(_series(job.run_dir, "loss")) == 12
    assert len(_series(job.run_dir, "user_metric")) >= 12  # track.log from the user's code joined this run
    assert set(_series(job.run_dir, "eval/accuracy")) == {6, 12}  # the default evaluation of classifiers
    assert (job.run_dir / "export" / "model.json").exists()  # InputSpec inferred from the first batch


def test_model_fit_callback_streams_into_its_own_run(tmp_path: Path) -> None:
    import numpy as np
    import paddle

    from workbench.training.callback import WorkbenchCallback

    class Points(paddle.io.Dataset):  # type: ignore[misc]
        def __init__(self, n: int) -> None:
            super().__init__()
            rng = np.random.default_rng(0)
            self.x = rng.normal(size=(n, 4)).astype("float32")
            self.y = (self.x.sum(axis=1, keepdims=True) > 0).astype("int64")

        def __len__(self) -> int:
            return len(self.y)

        def __getitem__(self, i: int) -> tuple[Any, Any]:
            return self.x[i], self.y[i]

    paddle.seed(0)
    net = paddle.nn.Linear(4, 2)
    model = paddle.Model(net)
    model.prepare(
        paddle.optimizer.Adam(0.05, parameters=net.parameters()),
        paddle.nn.CrossEntropyLoss(),
        paddle.metric.Accuracy(),
    )
    workspace = tmp_path / "ws"
    callback = WorkbenchCallback(name="fit-demo", workspace=str(workspace))
    model.fit(Points(64), Points(16), epochs=2, batch_size=16, verbose=0, callbacks=[callback])
    [record] = [RunStore(workspace).read(d) for d in RunStore(workspace).run_dirs()]
    assert record.summary.status == "finished" and record.summary.name == "fit-demo"
    loss = record.metrics.series("loss")
    assert loss is not None and len(loss) == 8  # 4 batches x 2 epochs
    assert record.metrics.series("lr") is not None and record.metrics.series("eval/acc") is not None


TRACK_SCRIPT = """
import sys
from workbench import track
run = track.init(name="script-run", workspace=sys.argv[1])
for step in range(1, 6):
    track.log(step, loss=1.0 / step)
if sys.argv[2] == "fail":
    raise RuntimeError("the script broke")
print(run.run_dir)
"""


@pytest.mark.parametrize("outcome", ["ok", "fail"])
def test_track_in_a_standalone_script_creates_a_run(tmp_path: Path, outcome: str) -> None:
    script = tmp_path / "script.py"
    script.write_text(TRACK_SCRIPT)
    result = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "ws"), outcome],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode == 0) == (outcome == "ok"), result.stderr
    [run_dir] = RunStore(tmp_path / "ws").run_dirs()
    record = RunStore(tmp_path / "ws").read(run_dir)
    assert record.summary.status == ("finished" if outcome == "ok" else "failed")
    loss = record.metrics.series("loss")
    assert loss is not None and len(loss) == 5
    if outcome == "fail":
        assert record.failure is not None and "the script broke" in record.failure.traceback
    # Tracking a script never imports Paddle or Textual.
    code = "import sys; from workbench import track; print('paddle' in sys.modules, 'textual' in sys.modules)"
    check = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert check.stdout.strip() == "False False"


def test_cli_train_plain_json_prints_the_run_folder(tmp_path: Path) -> None:
    config = tmp_path / "cli.yaml"
    config.write_text(
        textwrap.dedent(
            """\
            task: image_classification
            data: {dir: data/cls, format: cls, demo: {train: 64, val: 16}}
            train: {steps: 6, batch_size: 16}
            eval: {every: 3}
            checkpoint: {every: 3}
            export: {enabled: true}
            """
        )
    )
    result = run_cli(tmp_path, ["train", str(config), "--plain", "--json"])
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)  # stdout is exactly one JSON document
    assert doc["status"] == "finished" and Path(doc["run_dir"]).is_dir()
    assert set(doc["final_metrics"]) >= {"loss", "eval/accuracy", "eval/loss"}
    assert doc["checkpoint"].endswith("step-6") and doc["export"].endswith("export/model")
    assert result.stderr.strip().splitlines()[-1] == doc["run_dir"]  # the run folder is the last human line
    assert (
        "generating the demo dataset" in result.stderr and (tmp_path / "data" / "cls" / "label.txt").exists()
    )
    # jit.save's temp folders were removed again (`import paddle` itself makes ~/.cache/paddle/dataset).
    assert not (tmp_path / "home" / ".cache" / "paddle" / "to_static_tmp").exists()


def test_cli_train_failure_and_bad_input_exit_codes(tmp_path: Path) -> None:
    config = tmp_path / "cli.yaml"
    config.write_text(
        "task: image_classification\ndata: {dir: data, format: cls, demo: {train: 32, val: 8}}\n"
        "train: {steps: 4, batch_size: 8}\nexport: {enabled: false}\n"
    )
    failed = run_cli(
        tmp_path, ["train", str(config), "--plain"], extra_env={"PADDLE_WORKBENCH_INJECT": "raise@2"}
    )
    assert failed.returncode == 1
    assert "injected fault at step 2" in failed.stdout and "Traceback" not in failed.stdout
    assert Path(failed.stdout.strip().splitlines()[-1]).is_dir()
    nothing = run_cli(tmp_path, ["train", str(config), "--resume", "no-such-run"])
    assert nothing.returncode == 2 and "no run matches 'no-such-run'" in nothing.stdout
    # A dataset problem is bad input (2), located to the line, and found before Paddle is loaded.
    (tmp_path / "data" / "train.txt").write_text("images/00000.png 1\nimages/00001.png  2\n")
    bad = run_cli(tmp_path, ["train", str(config), "--plain", "--json"])
    assert bad.returncode == 2
    assert f"{tmp_path / 'data' / 'train.txt'}:2:" in bad.stderr
    assert json.loads(bad.stdout)["status"] == "invalid"


SLOW_MODULE = """
import time
import numpy as np
import paddle
from workbench.training import TrainParts


class Points(paddle.io.Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return np.full([4], i % 2, dtype="float32"), np.int64(i % 2)


def build(cfg):
    model = paddle.nn.Linear(4, 2)
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())

    def loss(outputs, labels):
        print("STEP", flush=True)  # into the run's logs.txt: a step has started
        time.sleep(3)  # a slow step that does not look at the stop request
        return paddle.nn.functional.cross_entropy(outputs, labels)

    return TrainParts(model=model, optimizer=opt, train_data=Points(), loss=loss)
"""


@pytest.mark.parametrize("json_mode", [False, True], ids=["plain", "json"])
def test_cli_train_second_ctrl_c_aborts_with_130_and_the_run_folder_last(
    tmp_path: Path, json_mode: bool
) -> None:
    import signal
    import time

    (tmp_path / "slow_model.py").write_text(SLOW_MODULE)
    config = tmp_path / "slow.yaml"
    config.write_text(
        "task: custom\nentry: slow_model:build\ntrain: {steps: 50, batch_size: 8}\n"
        "checkpoint: {every: 0}\neval: {every: 0}\nexport: {enabled: false}\n"
    )
    env = dict(os.environ, HOME=str(tmp_path / "home"), GLOG_minloglevel="2", PADDLE_WORKBENCH_LANG="en")
    env.pop("PADDLE_WORKBENCH_INJECT", None)
    args = ["--workspace", str(tmp_path / "ws"), "train", str(config), "--plain"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench", *args, *(["--json"] if json_mode else [])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 120
        logs = None
        while time.monotonic() < deadline:  # wait until the first (3 s) step is running
            runs = list((tmp_path / "ws" / "runs").glob("*/logs.txt"))
            if runs and "STEP" in runs[0].read_text():
                logs = runs[0]
                break
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        assert logs is not None, "the run never started a step"
        proc.send_signal(signal.SIGINT)  # stop after this step...
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)  # ...no: abort now, while the step still sleeps
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (out, err)
    assert "Aborted!" not in out + err and "Traceback" not in out + err
    human = err if json_mode else out
    assert "aborted at step" in human
    assert human.strip().splitlines()[-1] == str(logs.parent)  # the run folder is the last line
    if json_mode:
        document = json.loads(out)
        assert document["run_dir"] == str(logs.parent) and document["status"] == "cancelled"


def _in_pause(job: InProcessJob) -> bool:
    """Whether the job's training thread is blocked in ``JobContext.wait_while_paused``."""
    frame = sys._current_frames().get(job.thread.ident or -1)
    while frame is not None:
        if frame.f_code.co_name == "wait_while_paused":
            return True
        frame = frame.f_back
    return False


@pytest.mark.parametrize("slow", [[], ["debug.inject=hang@2:1"]], ids=["steady", "a-slow-step-first"])
def test_pause_and_checkpoint_now_from_the_monitor_controls(
    reference: tuple[Path, RunStore, Path], slow: list[str]
) -> None:
    """The loop honours the job controls the monitor offers: checkpoint now, pause (not a hang), cancel.

    A paused loop sits in ``wait_while_paused`` (its thread's stack says so); while it does, no step runs
    and no hang alert is raised. A hang alert raised before the pause (a step slower than the 0.2 s floor
    on a busy machine, which ``slow`` makes certain) is the watchdog doing its job, not a verdict on
    pausing."""
    config, store, _ = reference
    plan = prepare_training(
        config,
        ["train.steps=100000", "checkpoint.every=0", "eval.every=0", "alerts.hang_after_s=0.2", *slow],
        store=store,
    )
    job = start_training(plan, store)
    while job.metrics.last_step.get(0) is None:
        assert job.wait(0.02) is False
    assert job.request_checkpoint()
    saved = next(e for e in job.events(timeout=30) if e.TYPE == "checkpoint_saved")
    assert 0 < saved.step < 100000  # checkpoint.every is 0: only the requested one comes before the end
    assert job.pause()
    while not _in_pause(job):  # the current step finishes first
        assert job.wait(0.02) is False
    paused_at = job.metrics.last_step.get(0)
    hangs_before_the_pause = len(_alerts(job, "hang"))
    assert job.wait(1.0) is False  # five times hang_after_s, paused throughout
    assert _in_pause(job) and job.metrics.last_step.get(0) == paused_at
    assert _alerts(job, "hang")[hangs_before_the_pause:] == []
    job.resume()
    job.cancel()
    assert job.wait(60) and job.status == "cancelled"
