"""The run overview's engine parts: the dataset fingerprint, the user's code version (git) and the
overview itself, read from a run stored by the run store."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.stored_runs import COMMIT, RUN_ID, write_stored_run
from workbench.datasets.fingerprint import dataset_fingerprint
from workbench.events import RunStarted
from workbench.gitversion import code_version
from workbench.metric_store import MetricStore
from workbench.overview import (
    CONFIG_COPY_NAME,
    build_overview,
    config_yaml,
    environment_section,
    read_overview,
    write_config_copy,
)
from workbench.runs import RunStore, read_run_doc

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _cls_dataset(root: Path) -> Path:
    (root / "images").mkdir(parents=True)
    for i in range(5):
        (root / "images" / f"{i}.png").write_bytes(b"\x89PNG" + bytes([i]) * 64)
    (root / "label.txt").write_text("0 cat\n1 dog\n")
    (root / "train.txt").write_text("".join(f"images/{i}.png {i % 2}\n" for i in range(4)) + "\n")
    (root / "val.txt").write_text("images/4.png 0\n")
    return root


def test_dataset_fingerprint_changes_with_a_label_and_is_stable_otherwise(tmp_path: Path) -> None:
    data = _cls_dataset(tmp_path / "cls")
    first = dataset_fingerprint(data)
    assert first == dataset_fingerprint(data)  # nothing changed: the same fingerprint
    assert first["samples"] == {"train": 4, "val": 1}  # blank lines are not samples
    train = data / "train.txt"
    train.write_text(train.read_text().replace("images/1.png 1", "images/1.png 0"))  # one relabelled line
    relabelled = dataset_fingerprint(data)
    assert relabelled["sha256"] != first["sha256"]
    assert relabelled["samples"] == first["samples"] and relabelled["files"] == first["files"]
    (data / "label.txt").write_text("0 cat\n1 wolf\n")  # a class renamed
    assert dataset_fingerprint(data)["sha256"] != relabelled["sha256"]


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com"}
    env |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@needs_git
def test_code_version_of_a_checkout_clean_then_dirty(tmp_path: Path) -> None:
    repo = tmp_path / "proj"
    (repo / "src").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    (repo / "train.py").write_text("print('hi')\n")
    _git(repo, "add", "train.py")
    _git(repo, "commit", "-q", "-m", "first")
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True)
    clean = code_version(repo / "src")  # any folder inside the checkout
    assert clean == {
        "commit": head.stdout.strip(),
        "branch": "main",
        "dirty": False,
        "changed": 0,
        "root": str(repo.resolve()),
    }
    (repo / "notes.txt").write_text("untracked output\n")  # untracked files do not make it dirty
    assert code_version(repo)["dirty"] is False  # type: ignore[index]
    (repo / "train.py").write_text("print('changed')\n")
    dirty = code_version(repo)
    assert dirty is not None and dirty["dirty"] is True and dirty["changed"] == 1
    _git(repo, "checkout", "-q", "--detach")
    assert code_version(repo)["branch"] is None  # type: ignore[index]


@needs_git
def test_code_version_is_absent_outside_a_checkout_or_without_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # no checkout above tmp counts
    assert code_version(plain) is None
    empty = tmp_path / "empty"
    empty.mkdir()
    _git(empty, "init", "-q")
    assert code_version(empty) is None  # a checkout without a commit has no version
    assert code_version(tmp_path / "missing") is None
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))  # git not installed
    assert code_version(plain) is None


@needs_git
def test_a_tracked_script_records_its_code_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench import track

    repo = tmp_path / "proj"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "train.py").write_text("pass\n")
    _git(repo, "add", "train.py")
    _git(repo, "commit", "-q", "-m", "first")
    monkeypatch.chdir(repo)
    run = track.init("script", workspace=tmp_path / "ws")
    run.finish()
    code = read_run_doc(run.run_dir)["environment"]["code"]
    assert code["dirty"] is False and len(code["commit"]) == 40 and code["root"] == str(repo.resolve())


def test_overview_of_a_stored_run(tmp_path: Path) -> None:
    run_dir = write_stored_run(tmp_path / "ws")
    overview = read_overview(run_dir)
    assert (overview.run_id, overview.name, overview.kind) == (RUN_ID, "tiny_cls", "in_process")
    summary = overview.summary
    assert (summary.status, summary.last_step, summary.total_steps, summary.duration_s) == (
        "finished",
        60,
        60,
        95.0,
    )
    best = {b.name: (b.value, b.step, b.lower_is_better) for b in summary.best_eval}
    assert best["eval/accuracy"] == (0.6875, 40, False)  # the highest, not the last
    assert best["eval/loss"][1:] == (60, True)
    env = overview.environment
    assert (env.paddle_version, env.build, env.device) == ("3.3.1", "CPU", "cpu")
    assert env.seeds == {"paddle": 42, "numpy": 42, "random": 42}
    assert env.dataset is not None and env.dataset.samples == {"train": 64, "val": 16}
    assert env.code is not None and env.code.commit == COMMIT and env.code.dirty is True
    assert [(a.kind, a.step) for a in overview.alerts] == [("nonfinite", 33)]
    doc = json.loads(json.dumps(overview.to_dict()))  # JSON-ready
    assert doc["summary"]["best_eval"][0]["name"] == "eval/accuracy"


def test_overview_of_a_live_run_and_of_a_gpu_build(tmp_path: Path) -> None:
    metrics = MetricStore()
    metrics.record(0, 5, {"loss": 1.0, "eval/error": 0.3}, 10.0)
    metrics.record(0, 10, {"loss": float("nan"), "eval/error": 0.2}, 20.0)
    metrics.record_system(10, {"sys/cpu_percent": 42.0})
    overview = build_overview(
        run_id="r",
        name="r",
        kind="launched",
        run_dir=None,
        doc={},
        status="running",
        events=[RunStarted(run_id="r", time=100.0)],
        metrics=metrics,
        now=160.0,
    )
    assert overview.summary.duration_s == 60.0 and overview.summary.ended is None  # running: so far
    assert overview.summary.best_eval[0].value == 0.2  # an error rate: lower is better
    assert overview.environment.paddle_version is None and overview.environment.code is None
    assert overview.to_dict()["summary"]["latest"]["loss"] == "nan"
    assert "sys/cpu_percent" not in overview.summary.latest  # the system pane's, not the summary's
    gpu = environment_section(
        {"paddle": {"version": "3.3.1", "cuda": "12.6", "cudnn": "9.5.1", "compiled_with_cuda": True}}
    )
    assert gpu.build == "CUDA 12.6, cuDNN 9.5.1"


def test_config_copy_is_the_config_with_an_absolute_data_dir(tmp_path: Path) -> None:
    run_dir = write_stored_run(tmp_path / "ws")
    overview = read_overview(run_dir)
    text = config_yaml(overview)
    copied = yaml.safe_load(text)
    expected = {**overview.config, "data": {**overview.config["data"], "dir": "/home/ada/proj/demo_data/cls"}}
    assert copied == expected
    assert overview.config["data"]["dir"] == "../demo_data/cls"  # the overview itself is unchanged
    path = write_config_copy(run_dir, text)
    assert path == (run_dir / CONFIG_COPY_NAME).absolute() and path.read_text(encoding="utf-8") == text
    assert RunStore(tmp_path / "ws").list()[0].run_id == RUN_ID  # the copy does not disturb the run list


def test_the_report_bundle_carries_the_overview(tmp_path: Path) -> None:
    from workbench.troubleshoot.bundle import build_bundle

    run_dir = write_stored_run(tmp_path / "ws")
    doc = build_bundle(run_dir, tmp_path / "ws", env="skip").doc
    overview = json.loads(json.dumps(doc["overview"]))
    assert overview["summary"]["duration_s"] == 95.0
    assert overview["summary"]["best_eval"][0] == {
        "name": "eval/accuracy",
        "value": 0.6875,
        "step": 40,
        "lower_is_better": False,
    }
    assert overview["environment"]["code"]["commit"] == COMMIT


def test_overview_of_a_linked_kit_log(tmp_path: Path) -> None:
    from workbench.attach.link import link_log

    log = Path(__file__).resolve().parents[1] / "fixtures" / "kit_logs" / "paddleocr_train.log"
    run_dir = link_log(RunStore(tmp_path / "ws"), log)
    overview = read_overview(run_dir)
    assert overview.kind == "linked" and overview.summary.status == "finished"
    assert (overview.environment.source, overview.environment.source_format) == (str(log), "paddleocr")
    # When the workbench linked the file is not when the kit trained: no start, no duration.
    assert overview.summary.started is None and overview.summary.duration_s is None
    assert overview.config == {}  # nothing to copy: the kit's own config is not recorded
