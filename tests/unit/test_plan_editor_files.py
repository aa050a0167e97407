"""The files behind the plan editor: sample copies a user saved are kept, the recent-plans list,
``tui --plan FILE`` on the command line, and an unknown key's fix in a plan's list entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench import samples
from workbench.parallel.recent import RECENT_FILE, recent_plans, remember_plan

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from workbench.cli.root import build_cli

    try:
        code = build_cli().main(args=args, prog_name="paddle-workbench", standalone_mode=False)
    except SystemExit as exc:  # ctx.exit inside a command
        code = exc.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err


def test_a_sample_copy_the_user_saved_is_kept_and_an_untouched_one_follows_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = samples.materialize_sample("plan_cls_tp.yaml", tmp_path)
    packaged = copy.read_text()
    copy.write_text(packaged + "# the user's line\n")  # saved from the editor
    assert samples.materialize_sample("plan_cls_tp.yaml", tmp_path) == copy
    assert copy.read_text().endswith("# the user's line\n")

    untouched = samples.materialize_sample("train_cls_mlp.yaml", tmp_path)
    newer = untouched.read_text() + "# a newer packaged sample\n"
    original = samples.sample_text
    monkeypatch.setattr(
        samples, "sample_text", lambda name: newer if name == "train_cls_mlp.yaml" else original(name)
    )
    samples.materialize_sample("train_cls_mlp.yaml", tmp_path)
    assert untouched.read_text() == newer  # never edited: refreshed
    samples.materialize_sample("plan_cls_tp.yaml", tmp_path)
    assert copy.read_text().endswith("# the user's line\n")  # edited: still the user's


def test_recent_plans_newest_first_without_duplicates_or_missing_files(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    assert recent_plans(workspace) == []
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("x")
    b.write_text("y")
    remember_plan(workspace, a)
    remember_plan(workspace, b)
    remember_plan(workspace, a)
    assert recent_plans(workspace) == [a.resolve(), b.resolve()]
    b.unlink()
    assert recent_plans(workspace) == [a.resolve()]
    (workspace / RECENT_FILE).write_text("{not json")
    assert recent_plans(workspace) == []
    (workspace / RECENT_FILE).write_text(json.dumps({"a": 1}))
    assert recent_plans(workspace) == []


def test_tui_plan_names_an_existing_file_or_exits_2_with_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import workbench.cli.tui as tui
    import workbench.screens.launch as launch

    opened: list[object] = []
    monkeypatch.setattr(tui, "is_headless", lambda plain: False)
    monkeypatch.setattr(
        launch, "run_tui", lambda settings, demo=False, open_plan=None: opened.append(open_plan) or 0
    )
    monkeypatch.chdir(tmp_path)
    workspace = str(tmp_path / "ws")

    code, out, err = _cli(["--workspace", workspace, "tui", "--plan", "nope.yaml"], capsys)
    text = out + err
    assert code == 2 and "nope.yaml: no such plan file" in text and "fix:" in text
    assert opened == [] and "Traceback" not in text

    (tmp_path / "mine.yaml").write_text("train: t.yaml\n")
    code, _, _ = _cli(["--workspace", workspace, "tui", "--plan", "mine.yaml"], capsys)
    assert code == 0 and opened == [tmp_path / "mine.yaml"]  # absolute: the TUI may change folder


def test_an_unknown_key_in_a_plan_entry_lists_the_keys_allowed_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text(
        "train: train.yaml\nmesh: {shape: [2], dim_names: [mp]}\n"
        "layers:\n  - {match: fc1, plan: ColWiseParallel, bogus: 1}\n"
    )
    code, text, _ = _cli(["plan", "validate", str(plan), "--json"], capsys)
    assert code == 2
    errors = json.loads(text)["errors"]
    bogus = next(e for e in errors if "layers.0.bogus" in e["message"])
    assert bogus["line"] == 4 and bogus["fix"].startswith("allowed here: match, plan")
    assert not any(e["fix"].rstrip().endswith(":") for e in errors)  # never an empty list
