"""The report bundle: a failed run becomes one markdown file and JSON beside it, with its diagnosis, logs per
rank, alerts, compare results and environment verdicts (stored one reused, and said so); ``--redact``
leaves no host name, IP address, user name or token from the run's logs."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.events import AlertRaised
from workbench.runner.in_process import start_in_process
from workbench.runs import RunStore
from workbench.troubleshoot.bundle import build_bundle, write_bundle
from workbench.troubleshoot.context import diagnose_run, open_failed_run
from workbench.troubleshoot.redact import Redactor

DATA = Path(__file__).parent / "data" / "diagnose"

HOST = "gpu-node-17.cluster.internal"
SHORT_HOST = "trainbox42"
IPV4 = "10.23.41.7"
IPV6 = "fe80::1ff:fe23:4567:890a"
USER = "alice_wu"
TOKEN = "sk-proj-Zx81hQ2mNc7Lr0pT4sVw9YbKe3Ju6Df"
BEARER = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2VjcmV0LXNpZ25hdHVyZQ"
HEXKEY = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


def _failed_run(workspace: Path) -> Path:
    store = RunStore(workspace)

    def job(ctx: object) -> None:
        from workbench.runner import JobContext

        assert isinstance(ctx, JobContext)
        ctx.log(1, loss=0.7)
        ctx.emit(AlertRaised(kind="nonfinite", message=f"loss is nan on {SHORT_HOST}", step=3, rank=0))
        raise RuntimeError(
            f"(PreconditionNotMet) TCPStore wait timeout for key: nccl_ids/1/0 at {IPV4}:6170, token={TOKEN}"
        )

    run = start_in_process(
        store, "report-demo", job, config={"train": {"lr": 0.1}, "data": {"dir": f"/home/{USER}/data"}}
    )
    run.wait(60)
    run_dir = store.resolve("latest")
    assert run_dir is not None
    lines = (DATA / "launch_matmul.log").read_text().replace("/home/ci/", f"/home/{USER}/").splitlines()
    lines.insert(3, f"LAUNCH INFO PADDLE_TRAINER_ENDPOINTS={HOST}:6170,{SHORT_HOST}:6171 master={IPV4}:6170")
    lines.insert(4, f"{SHORT_HOST}:4021:4101 [0] NCCL INFO Bootstrap : Using eth0:{IPV4}<0> and {IPV6}")
    lines.insert(5, f"curl -H 'Authorization: Bearer {BEARER}' https://{HOST}/upload?token={HEXKEY}")
    lines.insert(6, f"Model cache: C:\\Users\\{USER}\\.paddle\\weights and /Users/{USER}/cache")
    (run_dir / "logs.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (run_dir / "workerlog.0").write_text(
        (DATA / "launch_matmul.workerlog.0").read_text().replace("/home/ci/", f"/home/{USER}/"),
        encoding="utf-8",
    )
    (run_dir / "workerlog.1").write_text((DATA / "launch_matmul.workerlog.1").read_text(), encoding="utf-8")
    reports = run_dir / "reports"
    reports.mkdir(exist_ok=True)
    (reports / "compare-step5-20260101-000000.json").write_text(
        json.dumps(
            {
                "checkpoint": {"step": 5},
                "ok": False,
                "paths": [{"name": "jit_load", "status": "ok", "max_abs_diff": 0.0}],
                "findings": [
                    {"id": "train_mode", "severity": "fail", "summary": "dropout left on", "fix": "eval()"}
                ],
            }
        ),
        encoding="utf-8",
    )
    stored = workspace / "reports"
    stored.mkdir(parents=True, exist_ok=True)
    (stored / "check-20260101-000000.json").write_text(
        json.dumps(
            {
                "checks": [
                    {"id": "python", "status": "pass", "summary": f"Python 3.11 at /home/{USER}/.venv"}
                ],
                "started": 1767225600.0,
            }
        ),
        encoding="utf-8",
    )
    return run_dir


def test_a_failed_run_opens_into_a_diagnosis(tmp_path: Path) -> None:
    run_dir = _failed_run(tmp_path / "ws")
    diagnosis = diagnose_run(run_dir)
    ids = [m.id for m in diagnosis.matches]
    assert ids[0] == "shapes.matmul"  # rank 0's real error, above the time-outs and the launcher tail
    assert "distributed.tcpstore_wait" in ids and "distributed.container_failed" in ids
    assert "traceback" in diagnosis.sources and "workerlog.1" in diagnosis.sources
    opened, flow = open_failed_run(run_dir)
    assert opened.matches[0].id == "shapes.matmul"
    assert flow == "parallel_hangs"  # shapes have no flow; the next cause (a rendezvous wait) has one
    from workbench.troubleshoot.flows import FLOWS

    assert flow in FLOWS


def test_report_bundle_holds_every_part_and_reuses_the_stored_check(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    run_dir = _failed_run(workspace)
    bundle = build_bundle(run_dir, workspace, env="auto")
    doc = bundle.doc
    assert doc["environment"]["source"] == "stored"
    assert "check-20260101-000000.json" in doc["environment"]["note"]
    assert doc["diagnosis"]["matches"][0]["id"] == "shapes.matmul"
    assert set(doc["logs"]) == {"logs.txt", "workerlog.0", "workerlog.1"}
    assert doc["alerts"][0]["kind"] == "nonfinite"
    assert doc["compare"][0]["findings"][0]["id"] == "train_mode"
    assert doc["config"]["train"]["lr"] == 0.1
    assert doc["failure"]["error"]
    md, js = write_bundle(bundle, tmp_path / "out" / "r.md", run_dir)
    text = md.read_text(encoding="utf-8")
    for heading in (
        "## Diagnosis",
        "## Alerts",
        "## Environment",
        "## Train/inference comparisons",
        "### workerlog.1",
    ):
        assert heading in text
    assert json.loads(js.read_text(encoding="utf-8"))["run_id"] == doc["run_id"]
    skipped = build_bundle(run_dir, workspace, env="skip")
    assert skipped.doc["environment"]["source"] == "skipped"


def test_redacted_report_keeps_no_host_ip_user_or_token(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    run_dir = _failed_run(workspace)
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "--workspace", str(workspace), "report", "latest", "--redact",
         "--output", str(tmp_path / "issue.md")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    md = (tmp_path / "issue.md").read_text(encoding="utf-8")
    js = (tmp_path / "issue.json").read_text(encoding="utf-8")
    json.loads(js)
    secrets = [HOST, SHORT_HOST, IPV4, IPV6, USER, TOKEN, BEARER, HEXKEY, socket.gethostname()]
    for text in (md, js):
        for secret in secrets:
            assert secret not in text, secret
    assert "shapes.matmul" in md and "<ip>" in md and "/home/<user>/" in md and "token=<redacted>" in md
    unredacted = build_bundle(run_dir, workspace, env="stored").markdown
    assert IPV4 in unredacted and USER in unredacted  # the secrets were there to remove


@pytest.mark.parametrize(
    "text",
    [
        "paddle.io.DataLoader(num_workers=2) at step 3.3.1 took 10:12:01",
        "phi::DenseTensor add::kernel std::bad_alloc",
        'File "/usr/lib/python3.11/site-packages/paddle/nn/layer/layers.py", line 2706',
    ],
)
def test_redaction_keeps_ordinary_log_text(text: str) -> None:
    assert Redactor(user="nobody_here").text(text) == text


def test_report_cli_unknown_run_is_bad_input(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "--workspace", str(tmp_path), "report", "nope", "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert json.loads(result.stdout)["ok"] is False
