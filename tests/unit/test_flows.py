"""Troubleshooting flows: every shipped flow validates; a broken one fails with its location; each of the six
problems (plus "which path" and "training is slow") is walked end to end with real probes on this machine."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from tests.troubled_run import write_troubled_run
from workbench.config.errors import ConfigError
from workbench.troubleshoot.flow import FlowWalk, load_flow, open_flow
from workbench.troubleshoot.flows import FLOWS
from workbench.troubleshoot.probes import PROBES, ProbeContext

SIX = [
    "import_fails",
    "parallel_hangs",
    "parallel_worse",
    "inference_disagrees",
    "op_unsupported",
    "lowcode_data",
]


def test_every_flow_validates_and_the_six_problems_are_there() -> None:
    assert set(SIX) | {"which_path", "training_slow"} <= set(FLOWS.names())
    for name, flow in FLOWS.items():
        spec = load_flow(name, flow.source)
        assert any(step.probe for step in spec.steps), name  # every flow checks something itself
    assert FLOWS.silent_modules() == []


def test_a_dangling_branch_and_an_unknown_probe_fail_with_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(
        "start: first\n"
        "steps:\n"
        "  - id: first\n"
        "    probe: no_such_probe\n"
        "    outcomes: {ok: gone}\n"
        "  - id: second\n"
        "    ask: yesno\n"
        "    if_yes: first\n"
        "    if_no: nowhere\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as info:
        load_flow("broken", path)
    issues = {(i.line, i.message.split(" (")[0]) for i in info.value.issues}
    text = "\n".join(str(i) for i in info.value.issues)
    assert (4, "unknown probe 'no_such_probe'") in issues, text
    assert any(line == 5 and "'gone'" in msg for line, msg in issues), text
    assert any(line == 9 and "'nowhere'" in msg for line, msg in issues), text
    assert any("never reached" in msg for _, msg in issues), text
    assert str(path) in text


def _walk(flow: str, answers: dict[str, Any], context: ProbeContext) -> FlowWalk:
    walk = open_flow(flow, context)
    probes = 0
    while not walk.done:
        step = walk.step
        if step.probe:
            evidence = walk.run_probe()
            assert len(evidence) >= 2, (flow, step.id, evidence)  # "probe x: outcome" and what it saw
            probes += 1
        else:
            walk.answer(answers[step.id])
    assert probes >= 1, flow
    finding = walk.finding()
    assert finding.title and finding.cause and finding.fix
    assert finding.evidence
    return walk


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    """A finished run with a config (seed, lr, batch, a broken dataset), metrics and a compare report."""
    return write_troubled_run(tmp_path)


def test_import_fails_walked(tmp_path: Path) -> None:
    walk = _walk("import_fails", {"platform": "linux", "linux_error": "other"}, ProbeContext(timeout_s=120))
    assert "interpreter" in walk.evidence and walk.path[-1] in {"imports_here", "paste_error"}


def test_parallel_hangs_walked() -> None:
    with socket.socket() as busy:  # a launcher already listening on the port
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        port = busy.getsockname()[1]
        walk = _walk("parallel_hangs", {"cpu_backend": False, "same_code": True}, ProbeContext(port=port))
    assert walk.path[-1] == "port_busy"
    assert any(f"port {port}: in use" in line for line in walk.finding().evidence)


def test_parallel_worse_walked(run_dir: Path) -> None:
    walk = _walk("parallel_worse", {"batchnorm": True}, ProbeContext(run_dir=run_dir))
    assert walk.path[-1] == "lr_too_high"  # lr 2.0 for a global batch of 8
    assert any("train.seed = 7" in line for line in walk.finding().evidence)


def test_inference_disagrees_walked(run_dir: Path) -> None:
    walk = _walk("inference_disagrees", {}, ProbeContext(run_dir=run_dir))
    assert walk.path[-1] == "train_mode"
    assert any("dropout on" in line for line in walk.finding().evidence)


def test_op_unsupported_walked(run_dir: Path) -> None:
    walk = _walk("op_unsupported", {"target": "gpu"}, ProbeContext(run_dir=run_dir))
    assert walk.path[-1] == "export_first"


def test_lowcode_data_walked(run_dir: Path) -> None:
    walk = _walk("lowcode_data", {}, ProbeContext(run_dir=run_dir))
    assert walk.path[-1] == "bad_lines"
    assert any("train.txt:2" in line for line in walk.finding().evidence), walk.finding().evidence


def test_which_path_science_probes_higher_order_grad() -> None:
    walk = _walk("which_path", {"task": "science"}, ProbeContext(timeout_s=120))
    assert walk.path[-1] == "science_ok", walk.finding().evidence
    assert any("= 12.0" in line and "= 12.0" in line for line in walk.finding().evidence)


def test_training_slow_walked(run_dir: Path) -> None:
    walk = _walk("training_slow", {"device": False}, ProbeContext(run_dir=run_dir))
    assert walk.path[1] == "threads" or walk.path[-1] == "more_workers"
    assert any("data wait 30.0 ms" in line for line in walk.finding().evidence)


def test_back_undoes_a_step() -> None:
    walk = open_flow("which_path")
    walk.answer("vision")
    walk.answer("none")
    assert walk.step.id == "deploy"
    assert walk.back() and walk.step.id == "customise"
    assert walk.back() and walk.step.id == "task"
    assert not walk.back()


def test_every_probe_names_its_outcomes() -> None:
    for name, probe in PROBES.items():
        assert probe.outcomes, name
