"""Shared fixtures: every test gets its own workspace and never touches the repository or ~/."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from workbench.i18n import set_language
from workbench.runs import RunStore


def pytest_configure(config: pytest.Config) -> None:
    """Give the commands the tests start Ctrl-C as a terminal gives it, however the suite was started.

    A shell starts a background job (``cmd &`` without job control: a CI script, a nohup-like wrapper)
    with SIGINT ignored, every process it starts inherits that, and Python installs no Ctrl-C handler in
    a process that starts with SIGINT ignored: every test that presses Ctrl-C on a command would then
    wait for an exit that never comes. Resetting it here (each xdist worker runs this too) makes the
    children start with the default.
    """
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    config.addinivalue_line("markers", "xdist_group(name): tests that run in one xdist worker (see below)")
    if hasattr(config.option, "loadscopereorder"):  # xdist hands out groups in the order they are collected
        config.option.loadscopereorder = False


LONGEST_FIRST = (
    "tests/integration/test_job_ends_whole.py",
    "tests/integration/test_parallel_runs.py",
    "tests/integration/test_tui_quit_jobs.py",
    "tests/integration/test_dist_checkpoints.py",
)
"""The test files whose group takes longest (launched multi-rank runs), longest first. Under xdist each
worker takes the next group when it runs low, in collection order (xdist's own reorder, by the number of
tests in a group, is turned off above): these start at once, the other integration and UI tests follow,
and the many short unit tests fill the end of every worker's time instead of one long group."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep each fixture this suite builds once per module or session in one xdist worker.

    ``make test`` runs ``pytest -n 3 --dist loadgroup``: tests without an ``xdist_group`` mark are dealt
    out one by one, so a test file whose module-scoped fixture (a launched run, a trained model) would
    be built again in each worker runs in one group, and every file that uses a session fixture (the
    demo workspace) joins that fixture's group. A file's explicit ``xdist_group`` mark wins. First
    among the hooks: xdist's worker reads the marks into each test's id in its own
    ``pytest_collection_modifyitems``, and a mark added after that groups nothing.
    """
    groups: dict[str, str] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        for scope, name in _shared_fixtures(item):
            if scope != "module":
                groups[path] = f"session-{name}"
            groups.setdefault(path, path)
    for item in items:
        group = groups.get(item.nodeid.split("::", 1)[0])
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=_longest_first)  # stable: a file's own order is kept


def _longest_first(item: pytest.Item) -> tuple[int, int]:
    """Where ``item`` goes in the run: the files of :data:`LONGEST_FIRST` in that order, then the other
    integration tests, the UI tests and the unit tests."""
    path = item.nodeid.split("::", 1)[0]
    if path in LONGEST_FIRST:
        return (0, LONGEST_FIRST.index(path))
    folders = ("tests/integration/", "tests/ui/")
    return (1, next((n for n, folder in enumerate(folders) if path.startswith(folder)), len(folders)))


def _shared_fixtures(item: pytest.Item) -> list[tuple[str, str]]:
    """(scope, name) of each module-, package- or session-scoped fixture defined in tests/ that
    ``item`` uses (pytest's own, such as ``tmp_path_factory``, cost nothing to build again)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    shared = []
    for name in info.names_closure:
        for definition in info.name2fixturedefs.get(name, ()):
            if definition.scope in ("module", "package", "session") and definition.baseid.startswith("tests"):
                shared.append((definition.scope, name))
    return shared


@pytest.fixture(autouse=True)
def _english_and_isolated(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """English by default; workspace and settings variables cleared, no user config file; Paddle's
    caches and logs land in tmp."""
    monkeypatch.delenv("PADDLE_WORKBENCH_WORKSPACE", raising=False)
    monkeypatch.delenv("PADDLE_WORKBENCH_RUN_DIR", raising=False)
    for name in ("THEME", "LOW_BANDWIDTH", "PLAIN", "NO_COLOR", "BELL", "NOTIFY", "ON_ALERT"):
        monkeypatch.delenv(f"PADDLE_WORKBENCH_{name}", raising=False)
    # The user's own settings file never leaks into a test (nor into the processes tests start).
    monkeypatch.setenv("PADDLE_WORKBENCH_CONFIG", str(tmp_path_factory.mktemp("user") / "config.yaml"))
    monkeypatch.setenv("PADDLE_WORKBENCH_LANG", "en")
    monkeypatch.setenv("GLOG_minloglevel", "2")
    # Paddle writes ~/.cache/paddle on import (and jit.save, run_check): tests, and every subprocess
    # they start, get a HOME of their own so nothing is left behind in the real one.
    # (Outside tmp_path, which some tests list.)
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
    set_language("en")


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    return RunStore(tmp_path / "ws")


@pytest.fixture
def subprocess_env(tmp_path: Path) -> dict[str, str]:
    """Environment for child processes: HOME in tmp so Paddle's ~/.cache writes stay in the test."""
    env = dict(os.environ)
    env["HOME"] = str(tmp_path / "home")
    env["PADDLE_WORKBENCH_LANG"] = "en"
    env["GLOG_minloglevel"] = "2"
    return env


class DemoWorkspace:
    """A workspace that walked the path on the demo: env check stored, a tiny baseline, a comparison."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.workspace = root / "ws"
        self.data = root / "data" / "cls"
        self.run = Path()

    def copy(self, dest: Path) -> Path:
        """A copy of the workspace (modes and times kept) a test may damage; returns its path."""
        import shutil

        target = dest / "ws"
        shutil.copytree(self.workspace, target, symlinks=True)
        return target


@pytest.fixture(scope="session")
def demo_workspace(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Built once per session (about 30 s: a real env check, a 6-step training run and a comparison);
    tests that change it work on :meth:`DemoWorkspace.copy`."""
    from click.testing import CliRunner

    from workbench.cli.root import build_cli
    from workbench.datasets import generate_cls_demo
    from workbench.inference import CompareOptions, run_comparison
    from workbench.inference.report import write_report
    from workbench.training import prepare_training, start_training

    root = tmp_path_factory.mktemp("demo-path")
    out = DemoWorkspace(root)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(root / "home"))
        patch.setenv("GLOG_minloglevel", "2")
        patch.setenv("PADDLE_WORKBENCH_LANG", "en")
        patch.setenv("PADDLE_WORKBENCH_CONFIG", str(root / "config.yaml"))
        patch.delenv("PADDLE_WORKBENCH_WORKSPACE", raising=False)
        set_language("en")
        result = CliRunner().invoke(build_cli(), ["--workspace", str(out.workspace), "check", "--json"])
        assert result.exit_code in (0, 1), result.output
        generate_cls_demo(out.data, n_train=64, n_val=16, seed=1)
        store = RunStore(out.workspace)
        config = Path(__file__).resolve().parents[1] / "sample_configs" / "train_cls_demo.yaml"
        overrides = ["train.steps=6", "train.warmup_steps=0", "train.batch_size=8", f"data.dir={out.data}"]
        overrides += ["eval.every=3", "checkpoint.every=3", "checkpoint.keep=2"]
        job = start_training(prepare_training(config, overrides, store=store, environ={}), store)
        assert job.wait(120) and job.status == "finished", job.status
        out.run = job.run_dir
        write_report(run_comparison(str(job.run_dir), store, CompareOptions(repeats=2, warmup=1)))
    return out
