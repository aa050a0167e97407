"""``paddle-workbench report RUN --redact`` on a real failed run folder with secrets planted everywhere a
report reads: the launcher's environment dump, ``NAME=value`` listings, log lines, the run's config, its
failure traceback and paths. Every planted secret is gone from both the markdown and the JSON, and the
command prints how many it took out, by kind (issue 18, findings 6 and 7)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from workbench.runner.in_process import start_in_process
from workbench.runs import RunStore

pytestmark = pytest.mark.integration

CLI = Path(sys.executable).with_name("paddle-workbench")

# -- the corpus: (kind, secret) — each secret string must not survive anywhere in the report ----------

ENV_DUMP_SECRETS = {
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",
    "DB_PASSWORD": "Tr0ub4dor/3x&horse",
    "GITHUB_TOKEN": "ghp_R4nd0mT0kenValue0123456789abcdefXYZ",
    "HF_TOKEN": "hf_QwErTyUiOpAsDfGhJkLzXcVbNm12345",
    "MY_APP_SETTING": "opaque-value-7f3k9q",  # not secret-named: gone only because dumps never go in
    "PADDLE_WORKBENCH_SERVE_TOKEN": "serveTok-8c1e5d2f9a7b",
    "HOSTNAME": "gpu-node-17.cluster.internal",
}
ENV_LINES = {
    "SLACK_WEBHOOK_URL": "https://hooks.slack.com/services/T000/B000/XXXXsecretpath",
    "OPENAI_API_KEY": "sk-proj-9f8e7d6c5b4a3f2e1d0cBLAHblah",
    "WANDB_API_KEY": "0123456789abcdef0123456789abcdef01234567",
    "INTERNAL_DSN": "mysql://svc:envDsnP4ss@10.9.8.7:3306/app",
}
LOG_SECRETS = [
    ("MYSQL_PWD with /", "pa/ss/w0rd9"),
    ("basic auth", "dXNlcjpzM2NyZXQvcGFzcw=="),
    ("bearer JWT", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXBhcnQ"),
    ("URL password with /", "Sup3r/Secret"),
    ("URL user", "deployer77"),
    ("OpenSSH key body", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn"),
    ("OpenSSH key body with /", "NhAAAAAwEAAQAAAYEAx/9+abcDEFghiJKLmnoPQRstuVWXyz0123456789+/abcdEFGHIJ"),
    ("IPv4", "10.23.4.56"),
    ("IPv6", "fe80::1ff:fe23:4567:890a"),
    ("endpoint host", "trainer-b.corp.example.com"),
    ("endpoint IP", "10.23.4.57"),
    ("AWS access key", "AKIAZ3MPLEK3YQWERTY1"),
    ("Google API key", "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"),
    ("Slack token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"),
    ("Stripe key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    (
        "Azure storage key",
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
    ),
    ("--api-key flag", "K3yV4lue99x"),
    ("JSON client_secret", "c1i3nt-s3cr3t-val"),
    ("INI password with spaces", "correct horse battery staple"),
    ("cookie", "abc123sessXYZ"),
    ("NCCL host prefix", "gpu-node-17"),
]
CONFIG_SECRETS = [
    ("options.password", "cfg-pass/word1"),
    ("options.api_token", "cfg-tok-998877"),
    ("config URL password", "cfgP4ss/x"),
    ("config DSN", "dsnUser:dsnPass"),
    ("nested aws_secret_access_key", "AbCdEf/GhIjKl/1234567890abcdEFGH+ijklmn"),
    ("numeric password", "48213977"),
    ("home path in config", "zhangwei"),
]
PATH_SECRETS = [
    ("home path in traceback", "lihua"),
    ("macOS home", "wangfang"),
    ("Windows home", "liuyang"),
    ("failure URL password", "F41l/Pass"),
    ("failure host", "db-3.prod.internal"),
]


def _environ_repr() -> str:
    env = {"HOME": "/home/lihua", "CUDA_VISIBLE_DEVICES": "0,1", "FLAGS_cudnn_deterministic": "1"}
    env.update(ENV_DUMP_SECRETS)
    return f"environ({env!r})"


def _failed_run(root: Path) -> Path:
    store = RunStore(root / "ws")
    config: dict[str, Any] = {
        "task": "image_classification",
        "data": {"dir": "/home/zhangwei/datasets/flowers", "format": "cls"},
        "train": {"seed": 7, "lr": 0.1},
        "options": {"password": "cfg-pass/word1", "api_token": "cfg-tok-998877"},
        "remote": "https://cfguser:cfgP4ss/x@models.internal.corp/x",
        "db": {"dsn": "postgresql://dsnUser:dsnPass@db-9/app"},
        "nested": {"aws_secret_access_key": "AbCdEf/GhIjKl/1234567890abcdEFGH+ijklmn"},
        "service": {"pin_password": 48213977},
    }

    def job(ctx: Any) -> None:
        ctx.log(1, loss=1.0)
        raise RuntimeError(
            'File "/home/lihua/project/train.py", line 3: connect failed: '
            "postgres://svc:F41l/Pass@db-3.prod.internal:5432 (cache /Users/wangfang/ckpt, C:\\Users\\liuyang\\AppData)"
        )

    job_handle = start_in_process(store, "leaky", job, config=config, system_metrics=False)
    job_handle.wait(60)
    run = store.resolve("latest")
    assert run is not None
    log_dir = run / "ranks" / "log"
    log_dir.mkdir(parents=True)
    # What paddle.distributed.launch writes first into its pod log (controller.save_pod_log).
    (log_dir / "default.0.log").write_text(
        _environ_repr() + "\nContainer rank 0 status failed code 1 log ranks/log/workerlog.0\n",
        encoding="utf-8",
    )
    env_lines = "".join(f"{k}={v}\n" for k, v in ENV_LINES.items())
    (log_dir / "env.0.log").write_text("CUDA_VISIBLE_DEVICES=0,1\n" + env_lines, encoding="utf-8")
    (log_dir / "auth.1.log").write_text(
        "export MYSQL_PWD=pa/ss/w0rd9\n"
        "Authorization: Basic dXNlcjpzM2NyZXQvcGFzcw==\n"
        'curl -H "Authorization: Bearer '
        'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXBhcnQ"\n'
        "pulling https://deployer77:Sup3r/Secret@registry.example.com/v2/\n"
        "Cookie: sessionid=abc123sessXYZ\n"
        "-----BEGIN OPENSSH PRIVATE KEY-----\n"
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn\n"
        "NhAAAAAwEAAQAAAYEAx/9+abcDEFghiJKLmnoPQRstuVWXyz0123456789+/abcdEFGHIJ\n"
        "-----END OPENSSH PRIVATE KEY-----\n",
        encoding="utf-8",
    )
    (log_dir / "net.2.log").write_text(
        "gpu-node-17:4512:4512 [0] NCCL INFO Bootstrap : Using eth0:10.23.4.56<0>\n"
        "connecting to gpu-node-17.cluster.internal:6170 over fe80::1ff:fe23:4567:890a\n"
        "PADDLE_TRAINER_ENDPOINTS=10.23.4.57:6170,trainer-b.corp.example.com:6170\n"
        "aws configure set aws_access_key_id AKIAZ3MPLEK3YQWERTY1\n"
        "maps key AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx\n"
        "stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc\n"
        "conn = 'DefaultEndpointsProtocol=https;AccountName=foo;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;'\n"
        "python train.py --api-key=K3yV4lue99x --epochs 3\n"
        '{"client_id": "abc", "client_secret": "c1i3nt-s3cr3t-val"}\n'
        "password = correct horse battery staple\n",
        encoding="utf-8",
    )
    return run


def _corpus() -> list[tuple[str, str]]:
    found = [(f"env dump {k}", v) for k, v in ENV_DUMP_SECRETS.items()]
    found += [(f"env line {k}", v) for k, v in ENV_LINES.items()]
    return found + LOG_SECRETS + CONFIG_SECRETS + PATH_SECRETS


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _report(run: Path, out: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [str(CLI), "--workspace", str(run.parent.parent), "report", run.name, "--no-check"]
    return subprocess.run(
        [*command, "--output", str(out), *args], capture_output=True, text=True, env=env, timeout=240
    )


def test_every_planted_secret_is_gone_from_markdown_and_json(
    tmp_path: Path, subprocess_env: dict[str, str]
) -> None:
    corpus = _corpus()
    assert len(corpus) >= 30
    run = _failed_run(tmp_path)
    out = tmp_path / "share" / "report.md"
    result = _report(run, out, subprocess_env, "--redact")
    assert result.returncode == 0, result.stdout + result.stderr
    markdown = out.read_text(encoding="utf-8")
    raw_json = out.with_suffix(".json").read_text(encoding="utf-8")
    strings = _strings(json.loads(raw_json))
    survivors = [
        (kind, secret)
        for kind, secret in corpus
        if secret in markdown or secret in raw_json or any(secret in s for s in strings)
    ]
    assert survivors == []
    # A host is replaced whole (it used to become "<host>.cluster.internal").
    assert ".cluster.internal" not in markdown and ".cluster.internal" not in raw_json
    # The logs and config still say something: the report is redacted, not empty.
    assert "Container rank 0 status failed" in markdown and "image_classification" in markdown
    # Only Paddle's own variables are listed, from the dump.
    assert "CUDA_VISIBLE_DEVICES=0,1" in markdown and "FLAGS_cudnn_deterministic=1" in markdown
    doc = json.loads(raw_json)
    assert doc["environment_variables"]["CUDA_VISIBLE_DEVICES"] == "0,1"
    counts = doc["redactions"]
    for kind in (
        "environment",
        "secret_value",
        "auth_header",
        "url_credentials",
        "private_key",
        "host",
        "ip",
    ):
        assert counts.get(kind, 0) > 0, (kind, counts)
    assert counts.get("home_path", 0) + counts.get("user", 0) > 0, counts
    # The command says what it took out, by kind.
    total = sum(counts.values())
    assert f"redacted {total}: " in result.stdout, result.stdout
    assert re.search(r"\d+ environment variables? of process-environment dumps", result.stdout)
    assert re.search(r"auth headers?\b", result.stdout) and re.search(r"host names?\b", result.stdout)


def test_environment_dumps_never_reach_a_report_even_unredacted(
    tmp_path: Path, subprocess_env: dict[str, str]
) -> None:
    run = _failed_run(tmp_path)
    out = tmp_path / "plain.md"
    result = _report(run, out, subprocess_env)
    assert result.returncode == 0, result.stdout + result.stderr
    for path in (out, out.with_suffix(".json")):
        text = path.read_text(encoding="utf-8")
        for name, secret in {**ENV_DUMP_SECRETS, **ENV_LINES}.items():
            if name != "HOSTNAME":  # a host name is only taken out by --redact
                assert secret not in text, (path.name, name)
        assert "environ({" not in text
    assert "CUDA_VISIBLE_DEVICES=0,1" in out.read_text(encoding="utf-8")
    assert re.search(r"\d+ environment variables? of process-environment dumps", result.stdout)


def _report_in_process(run: Path, *args: str) -> Result:
    """``report RUN --no-check ARGS`` in this process (click's runner): the two tests above run the
    command as a process; this one is about which files it writes, which a fresh interpreter (a second
    of CPU each) does not change."""
    from click.testing import CliRunner

    from workbench.cli.root import build_cli

    command = ["--workspace", str(run.parent.parent), "report", run.name, "--no-check", *args]
    return CliRunner().invoke(build_cli(), command)


def test_report_never_overwrites_the_markdown_or_its_json(tmp_path: Path) -> None:
    run = _failed_run(tmp_path)
    out = tmp_path / "X.md"
    out.with_suffix(".json").write_text("mine\n", encoding="utf-8")
    result = _report_in_process(run, "--output", str(out), "--redact")
    assert result.exit_code == 2, result.output
    assert str(out.with_suffix(".json")) in result.stdout and "already exists" in result.stdout
    assert out.with_suffix(".json").read_text(encoding="utf-8") == "mine\n" and not out.exists()
    out.with_suffix(".json").unlink()
    out.write_text("mine too\n", encoding="utf-8")
    result = _report_in_process(run, "--output", str(out))
    assert result.exit_code == 2 and str(out) in result.stdout
    assert out.read_text(encoding="utf-8") == "mine too\n" and not out.with_suffix(".json").exists()
    # The default name never replaces an earlier report either: two in the same second get two names.
    first = _report_in_process(run, "--json")
    second = _report_in_process(run, "--json")
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    paths = {json.loads(r.stdout)["markdown"] for r in (first, second)}
    assert len(paths) == 2 and all(os.path.exists(p) for p in paths)
