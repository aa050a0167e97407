"""The model facts a plan check builds are reused only when everything that made them is unchanged."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.parallel_helpers import write_plan, write_train
from workbench.datasets import generate_cls_demo
from workbench.parallel import facts_cache
from workbench.parallel.facts import LayerFact, ModelFacts, ParamFact
from workbench.parallel.facts_cache import cache_folder, facts_key, load_facts, store_facts


@pytest.fixture
def train(tmp_path: Path) -> Path:
    path = write_train(tmp_path / "cfg")
    generate_cls_demo(tmp_path / "cfg" / "data", n_train=16, n_val=8, seed=0)
    return path


def _facts(hidden: int = 64) -> ModelFacts:
    return ModelFacts(
        layers=[LayerFact("fc1", "Linear")],
        params=[ParamFact("fc1.weight", "fc1", "weight", (8, hidden), "float32")],
        activation_bytes_per_sample=128,
    )


def test_the_key_follows_config_data_code_and_paddle(train: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = facts_key(train)
    assert key is not None and facts_key(train) == key
    assert facts_key(train, ["model.hidden=32"]) != key
    data = train.parent / "data"
    (data / "train.txt").write_text((data / "train.txt").read_text() + "\n")  # a list's bytes
    changed_list = facts_key(train)
    assert changed_list not in (None, key)
    image = next((data / "images").rglob("*.png"))
    os.utime(image, (1, 1))  # an image's mtime
    assert facts_key(train) not in (None, changed_list)
    now = facts_key(train)
    monkeypatch.setattr(facts_cache, "_workbench_code_hash", lambda: "other code")
    assert facts_key(train) != now
    monkeypatch.setattr(facts_cache, "_installed_paddle", lambda: ("paddlepaddle", "0.0.0"))
    assert facts_key(train) != now


def test_what_is_never_cached(train: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user's own model code, data not made yet, and a device that a GPU build could resolve otherwise."""
    assert facts_key(train, ["task=custom", "entry=mymodel:build"]) is None
    fresh = write_train(tmp_path / "fresh")  # its demo data is made by the first build
    assert facts_key(fresh) is None
    monkeypatch.setattr(facts_cache, "_installed_paddle", lambda: ("paddlepaddle-gpu", "3.3.1"))
    assert facts_key(train, ["train.device=auto"]) is None
    assert facts_key(train, ["train.device=cpu"]) is not None
    assert facts_key(tmp_path / "missing.yaml") is None


def test_entries_round_trip_and_a_damaged_one_is_a_miss(tmp_path: Path) -> None:
    folder = cache_folder(tmp_path / "ws")
    store_facts(folder, "k1", _facts())
    assert load_facts(folder, "k1") == _facts()
    assert (folder / "k1.json").stat().st_mode & 0o077 == 0
    assert load_facts(folder, "k2") is None
    (folder / "k1.json").write_text('{"key": "k1", "facts": {"layers": [')
    assert load_facts(folder, "k1") is None
    (folder / "k3.json").write_text('{"key": "another", "facts": {}}')
    assert load_facts(folder, "k3") is None


def test_plan_validate_reuses_the_facts_of_an_unchanged_config_and_rebuilds_a_changed_one(
    tmp_path: Path, train: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the command: the first check builds (here a stand-in for the child build), the second says
    it reused them and builds nothing, a changed override builds again."""
    from workbench.cli.root import build_cli
    from workbench.parallel import validate

    plan = write_plan(train.parent, "dp", "mesh: {shape: [2], dim_names: [dp]}\n")
    builds: list[tuple[str, ...]] = []

    def build(train_path: Path, overrides: tuple[str, ...] = (), **_: object) -> ModelFacts:
        builds.append(tuple(overrides))
        facts = _facts(32 if "model.hidden=32" in overrides else 64)
        facts.params = [ParamFact("fc1.weight", "fc1", "weight", (8, 64), "float32")]
        return facts

    monkeypatch.setattr(validate, "build_facts_isolated", build)
    cli = build_cli()
    argv = ["--workspace", str(tmp_path / "ws"), "plan", "validate", str(plan)]
    first = CliRunner().invoke(cli, argv)
    second = CliRunner().invoke(cli, argv)
    third = CliRunner().invoke(cli, [*argv, "-o", "model.hidden=32"])
    assert builds == [(), ("model.hidden=32",)], builds
    assert "not built again" not in first.output and "not built again" in second.output, second.output
    assert "not built again" not in third.output
    assert first.exit_code == second.exit_code


def test_cached_or_built_builds_once_and_keeps_no_failed_build(train: Path, tmp_path: Path) -> None:
    """The one path both the command and the plan editor take: a build that ended without facts (shown
    by the editor) is kept nowhere, a good one is reused by the next check."""
    from workbench.parallel.facts_cache import cached_or_built

    folder = cache_folder(tmp_path / "ws")
    calls: list[str] = []

    def failed() -> ModelFacts | None:
        calls.append("failed")
        return None

    def built() -> ModelFacts | None:
        calls.append("built")
        return _facts()

    assert cached_or_built(folder, train, (), failed) == (None, False)
    assert cached_or_built(folder, train, (), built) == (_facts(), False)
    assert cached_or_built(folder, train, (), built) == (_facts(), True)
    assert calls == ["failed", "built"]
