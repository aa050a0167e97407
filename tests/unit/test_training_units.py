"""Paddle-free pieces of the training engine: faults, sampler, watchdog, seeds, config, planning."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from workbench.config import ConfigError, TrainingConfig, load_model, validate_file
from workbench.runs import RunStore
from workbench.training import PrepareError, prepare_training
from workbench.training.faults import INJECT_ENV, FaultPlan, faults_from, parse_faults
from workbench.training.sampler import BatchSource, EpochSampler
from workbench.training.seeds import capture_rng_state, restore_rng_state, seed_everything
from workbench.training.watchdog import HangReport, HangWatchdog

SAMPLES = Path(__file__).parents[2] / "sample_configs"


def test_fault_specs_parse_and_bad_ones_are_named() -> None:
    faults = parse_faults("nan@5, raise@9,hang@3:1.5,slow_checkpoint@20")
    assert [(f.kind, f.step) for f in faults] == [
        ("nan", 5),
        ("raise", 9),
        ("hang", 3),
        ("slow_checkpoint", 20),
    ]
    assert faults[2].seconds == 1.5
    plan = FaultPlan(faults_from("nan@5", {INJECT_ENV: "raise@7"}))
    assert plan.get("nan", 5) and plan.get("raise", 7) and plan.get("raise", 5) is None
    assert not FaultPlan()
    with pytest.raises(ValueError, match="'explode@3'"):
        parse_faults("nan@1,explode@3")


def test_sampler_is_deterministic_and_resumes_mid_epoch() -> None:
    a = EpochSampler(10, 4, seed=3)
    first = [a.next_indices().tolist() for _ in range(5)]  # crosses two epoch boundaries
    assert first == [EpochSampler(10, 4, seed=3).next_indices().tolist()] + first[1:]
    assert len(set(first[0] + first[1])) == 8 and first[0] + first[1] != list(
        range(8)
    )  # shuffled, no repeats
    assert a.epoch == 2  # 10 samples in batches of 4: the partial third batch of each epoch is dropped
    b = EpochSampler(10, 4, seed=3)
    for _ in range(3):
        b.next_indices()
    state = b.state()
    c = EpochSampler(10, 4, seed=3)
    c.load_state(state)
    assert [c.next_indices().tolist() for _ in range(2)] == first[3:]
    with pytest.raises(ValueError, match="batches of"):
        EpochSampler(10, 5, seed=3).load_state(state)


def test_batch_source_over_an_iterable_skips_consumed_batches_on_resume() -> None:
    class Batches:  # re-iterable, no len/getitem: taken as ready batches (like a DataLoader)
        def __iter__(self) -> Iterator[tuple[str]]:
            return iter([("a",), ("b",), ("c",)])

    batches = Batches()
    source = BatchSource(batches, batch_size=1, seed=0, collate=list)
    assert [source.next_batch() for _ in range(4)] == [("a",), ("b",), ("c",), ("a",)]
    resumed = BatchSource(batches, batch_size=1, seed=0, collate=list)
    resumed.load_state(source.state())
    assert resumed.next_batch() == ("b",)


def test_seeds_and_rng_state_round_trip() -> None:
    seed_everything(5)
    state = capture_rng_state()
    first = (np.random.rand(), __import__("random").random())
    restore_rng_state(state)
    assert (np.random.rand(), __import__("random").random()) == first


def test_watchdog_reports_a_stall_once_with_the_stack() -> None:
    reports: list[HangReport] = []
    stuck = threading.Event()
    release = threading.Event()

    def worker() -> None:
        stuck.set()
        release.wait(10)

    thread = threading.Thread(target=worker)
    thread.start()
    stuck.wait(5)
    assert thread.ident is not None
    dog = HangWatchdog(thread_id=thread.ident, min_after_s=0.2, on_hang=reports.append, poll_s=0.02).start(
        step=4
    )
    deadline = time.monotonic() + 5
    while not reports and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.2)
    dog.stop()
    release.set()
    thread.join()
    assert len(reports) == 1  # one alert per stall
    assert reports[0].step == 5 and "release.wait" in reports[0].stack


def test_watchdog_threshold_follows_the_median_step() -> None:
    dog = HangWatchdog(thread_id=0, min_after_s=1.0, on_hang=lambda r: None)
    for _ in range(5):
        dog.beat(duration_s=0.5)
    assert dog.threshold_s() == 5.0  # 10 x median beats the 1 s floor
    paused = HangWatchdog(thread_id=0, min_after_s=0.05, on_hang=lambda r: None, is_paused=lambda: True)
    assert paused.is_paused is not None and paused.is_paused()


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cfg.yaml"
    path.write_text(text)
    return path


def test_config_extensions_validate_strictly(tmp_path: Path) -> None:
    cfg = load_model(_write(tmp_path, "task: text_recognition\ndata: {dir: d}\n"), TrainingConfig)
    assert cfg.data is not None and cfg.data.format == "rec" and cfg.model_name() == "crnn"  # from the task
    with pytest.raises(ConfigError) as caught:
        load_model(
            _write(
                tmp_path, "task: image_classification\ndata: {dir: d, format: cls}\nmodel: {name: crnn}\n"
            ),
            TrainingConfig,
        )
    assert "no model 'crnn'" in str(caught.value)
    with pytest.raises(ConfigError) as caught:
        load_model(_write(tmp_path, "task: custom\nentry: m:b\ndebug: {inject: boom@1}\n"), TrainingConfig)
    assert "'boom@1' is not kind@step" in str(caught.value)
    with pytest.raises(ConfigError) as caught:
        load_model(_write(tmp_path, "task: custom\nentry: m:b\ntrain: {warmup: 3}\n"), TrainingConfig)
    assert "unknown key 'train.warmup'" in str(caught.value) and "warmup_steps" in str(caught.value)


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_every_sample_config_validates_and_prepares(sample: Path, tmp_path: Path) -> None:
    kind, cfg = validate_file(sample)
    if (
        kind.name == "plan"
    ):  # a sharding plan: its training config is a sample too (tests/unit/test_parallel_plans.py)
        assert (sample.parent / cfg.train).is_file()  # type: ignore[attr-defined]
        return
    if (
        kind.name == "verify"
    ):  # a release checklist: validating it is the whole check (tests/unit/test_verify.py)
        return
    assert kind.name == "training" and isinstance(cfg, TrainingConfig)
    if cfg.task == "custom":
        return
    assert cfg.data is not None and not Path(cfg.data.dir).is_absolute() and cfg.data.demo_spec() is not None
    # Prepare it as `train` would, with the demo data generated small and into tmp (never the repo).
    notes: list[str] = []
    plan = prepare_training(
        sample,
        [f"data.dir={tmp_path / 'data'}", "data.demo={train: 20, val: 10}"],
        store=RunStore(tmp_path / "ws"),
        environ={},
        notify=notes.append,
    )
    assert plan.data_dir == tmp_path / "data" and (tmp_path / "data" / "train.txt").exists()
    assert any("generating the demo dataset" in n for n in notes)


def test_prepare_rejects_bad_faults_missing_entries_and_unknown_resume(tmp_path: Path) -> None:
    cfg = _write(tmp_path, "task: custom\nentry: no_such_module_here:build\n")
    with pytest.raises(PrepareError, match="no_such_module_here"):
        prepare_training(cfg, environ={})
    (tmp_path / "mine.py").write_text("def build(cfg):\n    return None\n")
    cfg = _write(tmp_path, "task: custom\nentry: mine:build\n")
    with pytest.raises(PrepareError, match="fault injection"):
        prepare_training(cfg, environ={INJECT_ENV: "nan"})
    with pytest.raises(PrepareError, match="no run named 'cfg'"):
        prepare_training(cfg, resume="latest", store=RunStore(tmp_path / "ws"), environ={})


# --------------------------------------------------------------------------- bad input, never a traceback


def _cli_in_process(tmp_path: Path, *args: str) -> Any:
    """``paddle-workbench --workspace <tmp>/ws ARGS`` in this process (nothing here imports Paddle)."""
    from click.testing import CliRunner

    from workbench.cli.root import build_cli

    return CliRunner().invoke(build_cli(), ["--workspace", str(tmp_path / "ws"), *args])


def _cli_subprocess(tmp_path: Path, *args: str, pythonpath: Path | None = None) -> Any:
    env = dict(os.environ, HOME=str(tmp_path / "home"), PADDLE_WORKBENCH_LANG="en", GLOG_minloglevel="2")
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )


def _custom_config(folder: Path, module: str = "mine") -> Path:
    """A ``task: custom`` config (no dataset to generate) with a trivial entry module next to it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{module}.py").write_text("def build(cfg):\n    return None\n")
    config = folder / "cfg.yaml"
    config.write_text(f"task: custom\nentry: {module}:build\n")
    return config


def test_cli_train_prints_user_text_as_text_not_rich_markup(tmp_path: Path) -> None:
    config = _custom_config(tmp_path)
    # "[/x]" used to be parsed as a closing markup tag: MarkupError, a traceback.
    result = _cli_in_process(tmp_path, "train", str(config), "--resume", "[/x]", "--plain")
    assert result.exit_code == 2, result.output
    assert "no run matches '[/x]'" in result.output
    # A path with "[red]" in it used to lose those characters (taken for a style).
    folder = tmp_path / "[red]data"
    cls = folder / "cfg.yaml"
    folder.mkdir()
    cls.write_text("task: image_classification\ndata: {dir: missing, format: cls}\n")
    result = _cli_in_process(tmp_path, "train", str(cls), "--plain")
    assert result.exit_code == 2, result.output
    assert f"{folder / 'missing'}: dataset folder not found" in result.output


def test_cli_train_with_the_workspace_under_a_file_is_bad_input_before_paddle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # were Paddle imported after all, ~/ stays clean
    (tmp_path / "afile").write_text("not a folder")
    config = _custom_config(tmp_path / "cfg")
    workspace = tmp_path / "afile" / "ws"
    with pytest.raises(PrepareError, match="is not a folder"):
        prepare_training(config, store=RunStore(workspace), environ={})
    from click.testing import CliRunner

    from workbench.cli.root import build_cli

    result = CliRunner().invoke(build_cli(), ["--workspace", str(workspace), "train", str(config), "--json"])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    document = json.loads(result.stdout)
    assert document["run_dir"] is None and document["status"] == "invalid"
    assert str(tmp_path / "afile") in document["errors"][0]["message"]


def test_cli_train_without_an_importable_paddle_exits_2_with_the_fix(tmp_path: Path) -> None:
    fake = tmp_path / "fake"
    (fake / "paddle").mkdir(parents=True)
    (fake / "paddle" / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'paddle.base'\")\n"
    )
    config = _custom_config(tmp_path / "cfg")
    result = _cli_subprocess(
        tmp_path, "--workspace", str(tmp_path / "ws"), "train", str(config), "--json", pythonpath=fake
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    document = json.loads(result.stdout)  # stdout still carries exactly one JSON document
    assert document["status"] == "invalid" and document["run_dir"] is None
    message = document["errors"][0]["message"]
    assert "Paddle is not importable here" in message and "pip install paddlepaddle==3.3.1" in message
    assert "paddle-workbench check" in message
    assert "pip install paddlepaddle==3.3.1" in result.stderr
    assert not (tmp_path / "ws" / "runs").exists() or not list((tmp_path / "ws" / "runs").iterdir())


def test_the_first_paddle_import_puts_what_is_alive_out_of_the_collectors_reach(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full collection would walk Paddle's ~130,000 objects on whichever thread allocates (the TUI's,
    in the middle of a key): the first import freezes them; an import already done freezes nothing."""
    import gc

    from workbench.training import runtime

    fake = tmp_path / "fake"
    (fake / "paddle").mkdir(parents=True)
    (fake / "paddle" / "__init__.py").write_text("def in_dynamic_mode():\n    return True\n")
    monkeypatch.syspath_prepend(str(fake))
    monkeypatch.delitem(sys.modules, "paddle", raising=False)
    frozen: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append("paddle" in sys.modules))
    paddle = runtime.import_paddle()
    assert Path(paddle.__file__) == fake / "paddle" / "__init__.py"
    assert frozen == [True]  # after the import: its objects are among the frozen
    runtime.import_paddle()
    assert frozen == [True]


def test_start_training_turns_a_failing_paddle_import_into_a_prepare_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import workbench.training.start as start

    def no_paddle() -> Any:
        raise ModuleNotFoundError("No module named 'paddle'")

    monkeypatch.setattr(start, "import_paddle", no_paddle)
    store = RunStore(tmp_path / "ws")
    plan = prepare_training(_custom_config(tmp_path / "cfg"), store=store, environ={})
    with pytest.raises(PrepareError, match=r"not importable.*pip install paddlepaddle==3\.3\.1"):
        start.start_training(plan, store)  # the TUI catches PrepareError: a message, not a traceback


def test_check_entry_reports_a_failing_package_init_and_leaves_sys_path_alone(tmp_path: Path) -> None:
    from workbench.training.tasks.custom import resolve_entry

    before = list(sys.path)
    config = _custom_config(tmp_path / "ok", module="plain_entry_module")
    prepare_training(config, store=RunStore(tmp_path / "ws"), environ={})
    assert sys.path == before  # not the config's folder nor the cwd, forever, in a long-lived TUI
    assert callable(resolve_entry("plain_entry_module:build", config.parent))  # the job still finds it
    assert sys.path == before
    package = tmp_path / "bad" / "broken_pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("x = 1\nraise RuntimeError('boom in init')\n")
    (package / "mod.py").write_text("def build(cfg):\n    return None\n")
    config = tmp_path / "bad" / "cfg.yaml"
    config.write_text("task: custom\nentry: broken_pkg.mod:build\n")
    with pytest.raises(PrepareError) as caught:
        prepare_training(config, store=RunStore(tmp_path / "ws"), environ={})
    message = caught.value.messages[0]
    assert f"{package / '__init__.py'}:2" in message and "RuntimeError: boom in init" in message
    assert sys.path == before
    (package / "__init__.py").write_text("import no_such_dependency_here\n")
    with pytest.raises(PrepareError, match="importing 'broken_pkg.mod' failed: ModuleNotFoundError"):
        prepare_training(config, store=RunStore(tmp_path / "ws"), environ={})
    assert sys.path == before


def test_demo_data_that_cannot_be_written_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("not a folder")
    cfg = _write(
        tmp_path,
        f"task: image_classification\ndata: {{dir: {tmp_path / 'afile' / 'data'}, format: cls, "
        "demo: {train: 4, val: 2}}\n",
    )
    with pytest.raises(PrepareError, match="cannot create the demo dataset in .*afile"):
        prepare_training(cfg, store=RunStore(tmp_path / "ws"), environ={})


def test_resume_is_resolved_before_the_demo_data_is_generated(tmp_path: Path) -> None:
    cfg = _write(
        tmp_path, "task: image_classification\ndata: {dir: data, format: cls, demo: {train: 20, val: 10}}\n"
    )
    store = RunStore(tmp_path / "ws")
    with pytest.raises(PrepareError, match="no run matches 'nosuchrun'"):
        prepare_training(cfg, resume="nosuchrun", store=store, environ={})
    with pytest.raises(PrepareError, match="no run matches '~no_such_user_x/run'"):
        prepare_training(cfg, resume="~no_such_user_x/run", store=store, environ={})
    assert not (tmp_path / "data").exists()  # nothing generated for a run that does not exist
