"""``paddle-workbench check`` for real: the real Paddle in child processes, and environments broken on
purpose (fake packages on ``PYTHONPATH``). The command must always answer with a verdict and an exit
code, never a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from workbench.envcheck import DEFAULT_PROBES

pytestmark = pytest.mark.integration

GPU_ITEMS = ("gpu.driver", "gpu.cuda_version", "gpu.compute_capability", "gpu.visible", "gpu.libraries")


def run_check(
    tmp_path: Path, *args: str, pythonpath: Path | None = None, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PADDLE_WORKBENCH_LANG"] = "en"
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run(
        [sys.executable, "-m", "workbench", "--workspace", str(tmp_path / "ws"), "check", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=timeout,
    )


def checks_by_id(result: subprocess.CompletedProcess[str]) -> dict[str, dict[str, Any]]:
    document = json.loads(result.stdout)
    assert set(document) >= {"checks", "facts"}
    return {check["id"]: check for check in document["checks"]}


def test_check_json_on_this_machine(tmp_path: Path) -> None:
    result = run_check(tmp_path, "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    document = json.loads(result.stdout)
    facts = document["facts"]
    for probe in DEFAULT_PROBES:
        assert probe.name in facts, probe.name
        assert facts[probe.name]["ok"], (probe.name, facts[probe.name])
    checks = {check["id"]: check for check in document["checks"]}
    for check in checks.values():
        assert {"id", "status", "summary", "details", "fix"} <= check.keys()
        assert check["status"] in ("pass", "warn", "fail", "skip")
    for required in ("paddle.import", "run_check.static", "run_check.dygraph", "tensor_op"):
        assert checks[required]["status"] == "pass", checks[required]
    if not facts["driver"]["data"]["gpus"]:
        for item in (*GPU_ITEMS, "run_check.parallel"):
            assert checks[item]["status"] == "skip", checks[item]
            assert checks[item]["summary"]
    assert "Traceback" not in result.stderr


def test_check_markdown_and_human_output(tmp_path: Path) -> None:
    result = run_check(tmp_path, "--markdown")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("### Paddle Workbench environment check")
    assert "| Status | Check | Result |" in result.stdout and "Paddle version:" in result.stdout
    human = run_check(tmp_path)
    assert human.returncode == 0
    assert "passed" in human.stdout and "import paddle" in human.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("--json", "--markdown"),
        ("--timeout", "0"),
        ("--timeout", "soon"),
        ("--bogus",),
        ("--timeout", "nan"),
        ("--timeout", "inf"),
        ("--timeout=-inf",),
    ],
)
def test_bad_options_exit_2(tmp_path: Path, args: tuple[str, ...]) -> None:
    # nan and inf parse as floats; a NaN deadline never fired, so the check ran unbounded.
    result = run_check(tmp_path, *args, timeout=60)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    if "nan" in args or "inf" in args or "--timeout=-inf" in args:
        assert "is not a finite number of seconds" in result.stderr and result.stdout == ""


def test_fake_paddle_that_raises(tmp_path: Path) -> None:
    fake = tmp_path / "fake"
    (fake / "paddle").mkdir(parents=True)
    (fake / "paddle" / "__init__.py").write_text("raise ImportError('fake paddle refuses to import')\n")
    result = run_check(tmp_path, "--json", pythonpath=fake)
    assert result.returncode == 1
    checks = checks_by_id(result)
    assert checks["paddle.import"]["status"] == "fail"
    assert str(fake / "paddle") in checks["paddle.import"]["fix"]
    assert "Traceback" not in result.stderr


def test_fake_paddle_reporting_a_cuda_build(tmp_path: Path) -> None:
    package = tmp_path / "fake" / "paddle"
    (package / "version").mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from paddle import version\n__version__ = '3.3.1'\ndef is_compiled_with_cuda():\n    return True\n"
    )
    (package / "version" / "__init__.py").write_text(
        "cuda_version = '12.6'\ncompiled_cuda_archs = [80, 90]\n"
        "def cuda():\n    return cuda_version\n"
        "def cuda_archs():\n    return compiled_cuda_archs\n"
    )
    result = run_check(tmp_path, "--json", pythonpath=package.parent)
    assert result.returncode == 1
    document = json.loads(result.stdout)
    checks = {check["id"]: check for check in document["checks"]}
    assert "12.6" in checks["paddle.build"]["summary"]
    if not document["facts"]["driver"]["data"]["gpus"]:
        assert checks["gpu.driver"]["status"] == "fail"
        assert "pip install paddlepaddle==" in checks["gpu.driver"]["fix"]


def test_both_distributions_and_numpy_2_4(tmp_path: Path) -> None:
    site = tmp_path / "fake"
    for name, version in (("paddlepaddle_gpu", "3.3.1"), ("numpy", "2.4.0")):
        folder = site / f"{name}-{version}.dist-info"
        folder.mkdir(parents=True)
        (folder / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: {version}\n"
        )
    result = run_check(tmp_path, "--json", pythonpath=site)
    assert result.returncode == 1
    checks = checks_by_id(result)
    assert checks["numpy"]["status"] == "fail" and '"numpy<2.4"' in checks["numpy"]["fix"]
    if "paddlepaddle," in checks["paddle.install"]["summary"]:
        assert checks["paddle.install"]["status"] == "fail"
        assert "uninstall -y paddlepaddle paddlepaddle-gpu" in checks["paddle.install"]["fix"]


def test_a_hanging_paddle_is_cut_off_by_timeout(tmp_path: Path) -> None:
    fake = tmp_path / "fake"
    (fake / "paddle").mkdir(parents=True)
    (fake / "paddle" / "__init__.py").write_text("import time\ntime.sleep(600)\n")
    result = run_check(tmp_path, "--json", "--timeout", "3", pythonpath=fake, timeout=60)
    assert result.returncode == 1
    checks = checks_by_id(result)
    assert checks["paddle.import"]["status"] == "fail"
    # The probe's limit is what is left of the 3 s when it starts: a loaded machine starts it later.
    said = re.search(r"timed out after ([0-9.]+) s", checks["paddle.import"]["summary"])
    assert said is not None and 0 < float(said.group(1)) <= 3, checks["paddle.import"]["summary"]
