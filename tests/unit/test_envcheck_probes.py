"""Probes, isolation and the engine: real child processes, fake ``paddle`` packages on ``PYTHONPATH``,
hanging probes cut off at their time limit, and findings that stream before slow probes end."""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import psutil
import pytest

from workbench.envcheck import (
    DEFAULT_PROBES,
    Facts,
    Finding,
    Probe,
    ProbeContext,
    ProbeError,
    ProbeTimeout,
    Rule,
    Verdict,
    default_rules,
    run_checks,
    select,
)
from workbench.envcheck.isolate import MARKER, ProbeCancelled, parse_marked, run_python
from workbench.envcheck.nvidia import parse_cuda_version, parse_query_csv
from workbench.envcheck.probes import (
    REDACTED,
    merge_driver_facts,
    parse_cpuinfo,
    probe_system,
    relevant_environment,
    scan_library_path,
)
from workbench.i18n import set_language


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    set_language("en")
    yield
    set_language(None)


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(extra)
    return env


def _no_driver(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
    """A driver probe that reports a machine without NVIDIA GPUs, whatever this machine has."""
    return merge_driver_facts(None, None, {"found": False}, [])


def _probes(**replacements: Any) -> list[Probe]:
    probes = [p for p in DEFAULT_PROBES if p.name not in replacements]
    return probes + [Probe(name, run) for name, run in replacements.items()]


# --------------------------------------------------------------------------- isolation


def test_run_python_returns_the_marked_document_and_ignores_other_output() -> None:
    code = f"print('PaddlePaddle works well on 1 CPU.'); print({MARKER!r} + '{{\"a\": 1}}')"
    assert run_python(code, python=sys.executable, env=_env(), timeout_s=30) == {"a": 1}
    assert parse_marked("noise\n" + MARKER + "[1]") is None


def test_a_hanging_child_is_killed_at_its_timeout() -> None:
    with pytest.raises(ProbeTimeout) as caught:
        run_python("import time; time.sleep(60)", python=sys.executable, env=_env(), timeout_s=1.0)
    assert str(caught.value) == "timed out after 1 s"


def test_a_crashing_child_reports_its_signal() -> None:
    code = "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"
    with pytest.raises(ProbeError, match="SIGSEGV"):
        run_python(code, python=sys.executable, env=_env(), timeout_s=30)


def test_a_child_without_a_document_reports_its_output() -> None:
    with pytest.raises(ProbeError, match="no result"):
        run_python("print('hello')", python=sys.executable, env=_env(), timeout_s=30)
    with pytest.raises(ProbeError, match="exit code 3"):
        run_python("import sys; sys.exit(3)", python=sys.executable, env=_env(), timeout_s=30)


def test_cancel_kills_the_child() -> None:
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    with pytest.raises(ProbeCancelled):
        run_python(
            "import time; time.sleep(60)", python=sys.executable, env=_env(), timeout_s=30, cancel=cancel
        )


def test_probe_children_get_quiet_glog() -> None:
    code = f"import os; print({MARKER!r} + '{{\"glog\": \"' + os.environ['GLOG_minloglevel'] + '\"}}')"
    assert run_python(code, python=sys.executable, env=_env(), timeout_s=30) == {"glog": "2"}


# --------------------------------------------------------------------------- the engine


def _rule(rule_id: str, *needs: str) -> Rule:
    def evaluate(facts: Facts) -> Verdict:
        return Verdict("pass", f"{rule_id} ok")

    return Rule(rule_id, needs, evaluate)


def test_a_hanging_probe_is_reported_as_failed_with_its_timeout() -> None:
    def hang(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
        return ctx.run_script("import time; time.sleep(60)")

    probes = [Probe("hang", hang, timeout_s=1.0), Probe("quick", lambda ctx, facts: {"x": 1})]
    report = run_checks(probes=probes, rules=[_rule("check.hang", "hang"), _rule("check.quick", "quick")])
    by_id = {f.id: f for f in report.findings}
    assert by_id["check.hang"].status == "fail"
    assert "timed out after 1 s" in by_id["check.hang"].summary
    assert by_id["check.quick"].status == "pass"
    assert report.facts["hang"].timed_out and report.exit_code == 1


def test_an_in_process_probe_that_never_returns_is_cut_off_by_the_watchdog() -> None:
    stuck = threading.Event()

    def stuck_forever(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
        stuck.wait(30)  # ignores ctx.cancel on purpose: the watchdog must still end the check
        return {}

    report = run_checks(probes=[Probe("stuck", stuck_forever, timeout_s=0.2)], rules=[_rule("c", "stuck")])
    stuck.set()
    assert report.findings[0].status == "fail" and "timed out after 0.2 s" in report.findings[0].summary


def test_findings_stream_before_slow_probes_finish() -> None:
    seen_fast = threading.Event()

    def slow(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
        # Only finishes once the fast finding was delivered: proves the engine streams.
        return {"saw_fast": seen_fast.wait(20)}

    order: list[str] = []

    def on_finding(finding: Finding) -> None:
        order.append(finding.id)
        if finding.id == "check.fast":
            seen_fast.set()

    probes = [Probe("slow", slow), Probe("fast", lambda ctx, facts: {})]
    report = run_checks(
        probes=probes, rules=[_rule("check.slow", "slow"), _rule("check.fast", "fast")], on_finding=on_finding
    )
    assert order == ["check.fast", "check.slow"]
    assert report.facts["slow"].data == {"saw_fast": True}
    assert [f.id for f in report.findings] == ["check.slow", "check.fast"]  # report keeps rule order


def test_only_runs_the_probes_a_rule_needs_including_after_dependencies() -> None:
    rules, probes = select(default_rules(), DEFAULT_PROBES, ["run_check.parallel"])
    assert [r.id for r in rules] == ["run_check.parallel"]
    assert {p.name for p in probes} == {"run_check.parallel", "paddle"}
    with pytest.raises(KeyError):
        select([], DEFAULT_PROBES, ["no.such.rule"])


def test_overall_timeout_ends_the_run_and_probes_that_never_started_are_skipped() -> None:
    def hang(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
        return ctx.run_script("import time; time.sleep(60)")

    probes = [Probe("first", hang, timeout_s=30), Probe("second", lambda c, f: {}, after=("first",))]
    report = run_checks(probes=probes, rules=[_rule("a", "first"), _rule("b", "second")], timeout_s=1.0)
    by_id = {f.id: f for f in report.findings}
    # "first" ran and was cut off: a failure. "second" waited for it and never started: not a
    # time-out of its own (it would say "timed out after 1 s" having run for 0 s), a skip that says why.
    assert by_id["a"].status == "fail" and "timed out after 1 s" in by_id["a"].summary
    assert by_id["b"].status == "skip" and "timed out" not in by_id["b"].summary
    assert "did not start before the overall time budget of 1 s ran out" in by_id["b"].summary
    assert "--timeout" in by_id["b"].fix
    second = report.facts["second"]
    assert second.not_run and not second.timed_out and not second.ok
    assert second.error == "not run: the overall time budget of 1 s ran out"
    assert report.facts.to_dict()["second"]["not_run"] is True
    assert report.exit_code == 1  # because of "first" only


def test_a_non_finite_overall_timeout_never_means_forever_by_accident() -> None:
    probes = [Probe("quick", lambda c, f: {"x": 1})]
    with pytest.raises(ValueError, match="positive number of seconds"):
        run_checks(probes=probes, rules=[_rule("a", "quick")], timeout_s=float("nan"))
    with pytest.raises(ValueError, match="positive number of seconds"):
        run_checks(probes=probes, rules=[_rule("a", "quick")], timeout_s=-1.0)
    report = run_checks(probes=probes, rules=[_rule("a", "quick")], timeout_s=float("inf"))  # unbounded
    assert report.findings[0].status == "pass"


def test_the_findings_table_shows_summaries_as_text_not_rich_markup() -> None:
    from rich.console import Console

    from workbench.envcheck.report import findings_table

    summary = "76.8 GiB free for the workspace /tmp/[/x]/[red]ws"  # "[/x]" was a MarkupError
    console = Console(record=True, width=200, color_system=None)
    console.print(findings_table([Finding("system.disk", "pass", summary)]))
    assert summary in console.export_text()


def test_cancel_stops_the_run() -> None:
    cancel = threading.Event()

    def hang(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
        return ctx.run_script("import time; time.sleep(60)")

    threading.Timer(0.3, cancel.set).start()
    report = run_checks(probes=[Probe("h", hang)], rules=[_rule("a", "h")], cancel=cancel)
    assert report.cancelled and report.findings == []


def test_a_probe_ended_by_the_cancel_is_not_a_finding() -> None:
    """The cancel can land while the loop waits for a result: the probe it ended then reports a failure
    ("cancelled"), which must not become a failed finding of a run that reads as finished."""
    cancel = threading.Event()

    def cancelled_mid_probe(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
        time.sleep(0.3)  # the loop is waiting for a result by now: the cancel lands there
        cancel.set()
        raise OSError("cancelled")

    report = run_checks(probes=[Probe("h", cancelled_mid_probe)], rules=[_rule("a", "h")], cancel=cancel)
    assert report.cancelled and report.findings == []


def test_a_probe_that_raises_is_a_failed_finding_not_a_crash() -> None:
    def broken(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
        raise OSError("disk on fire")

    report = run_checks(probes=[Probe("b", broken)], rules=[_rule("a", "b"), _rule("c", "missing")])
    by_id = {f.id: f for f in report.findings}
    assert by_id["a"].status == "fail" and "disk on fire" in by_id["a"].summary
    assert by_id["c"].status == "fail"  # a rule needing an undefined probe says so


# --------------------------------------------------------------------------- the Paddle probes' shared child

SHARED_RULES = ["tensor_op", "run_check.static", "run_check.dygraph"]
"""Rules whose probes are the four that share a child: paddle, tensor_op and the two run_check stages."""


def _pid_paddle(root: Path, tensor: str = "pass") -> tuple[dict[str, str], Path]:
    """A fake ``paddle`` that writes the pid of each process importing it to a file; ``to_tensor`` does
    ``tensor``: ``pass`` (returns its input), ``segv`` (the process dies of SIGSEGV) or ``hang``.
    Returns the environment that puts it first and the pid file."""
    (root / "paddle").mkdir(parents=True)
    pids = root / "pids"
    (root / "paddle" / "__init__.py").write_text(
        "import os, signal, time\n"
        "with open(os.environ['FAKE_PADDLE_PIDS'], 'a') as fh:\n    fh.write(f'{os.getpid()}\\n')\n"
        "__version__ = '3.3.1'\n"
        "def to_tensor(value):\n"
        f"    if {tensor!r} == 'segv':\n        os.kill(os.getpid(), signal.SIGSEGV)\n"
        f"    if {tensor!r} == 'hang':\n        time.sleep(600)\n"
        "    return value\n"
    )
    return _env(PYTHONPATH=str(root), FAKE_PADDLE_PIDS=str(pids)), pids


def _pids(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()]


def test_the_paddle_probes_import_paddle_once_per_check(tmp_path: Path) -> None:
    env, pids = _pid_paddle(tmp_path / "fake")
    report = run_checks(context=ProbeContext(env=env, workspace=tmp_path), only=SHARED_RULES, timeout_s=60)
    assert len(_pids(pids)) == 1  # one child imported it for all four probes
    assert report.facts.data("paddle")["import_ok"] and report.facts.data("paddle")["version"] == "3.3.1"
    # Each probe got its own document: the fake has no install_check, no tensor add.
    assert report.facts.data("run_check.static")["import_failed"]
    assert report.facts.data("run_check.dygraph")["import_failed"]
    assert report.facts["tensor_op"].ok and report.facts.data("tensor_op")["ok"] is False
    assert {f.id for f in report.findings} == set(SHARED_RULES)


def test_a_probe_that_crashes_the_shared_child_is_reported_as_alone_and_the_rest_run_alone(
    tmp_path: Path,
) -> None:
    env, pids = _pid_paddle(tmp_path / "fake", tensor="segv")
    alone = run_checks(context=ProbeContext(env=env, workspace=tmp_path), only=["tensor_op"], timeout_s=60)
    pids.unlink()  # (one rule, one Paddle probe beside ``paddle``: two children, nothing shared)
    report = run_checks(context=ProbeContext(env=env, workspace=tmp_path), only=SHARED_RULES, timeout_s=60)
    crashed = report.facts["tensor_op"]
    assert crashed.error is not None and "SIGSEGV" in crashed.error
    assert crashed.error == alone.facts["tensor_op"].error
    finding = next(f for f in report.findings if f.id == "tensor_op")
    assert finding.status == "fail" and "SIGSEGV" in finding.summary
    # The shared child delivered ``paddle`` and died in ``tensor_op``; then tensor_op and both stages
    # each ran in a child of its own (four imports in all), and the stages still have their facts.
    assert len(set(_pids(pids))) == 4
    assert report.facts.data("paddle")["import_ok"]
    assert report.facts.data("run_check.static")["import_failed"]
    assert report.facts.data("run_check.dygraph")["import_failed"]


def test_a_probe_that_hangs_the_shared_child_times_out_and_the_rest_run_alone(tmp_path: Path) -> None:
    env, pids = _pid_paddle(tmp_path / "fake", tensor="hang")
    probes = [dataclasses.replace(p, timeout_s=2.0) if p.name == "tensor_op" else p for p in DEFAULT_PROBES]
    report = run_checks(
        probes=probes, context=ProbeContext(env=env, workspace=tmp_path), only=SHARED_RULES, timeout_s=60
    )
    hung = report.facts["tensor_op"]
    assert hung.timed_out and hung.timeout_s == 2.0 and "timed out after 2 s" in (hung.error or "")
    assert report.facts.data("paddle")["import_ok"]
    assert report.facts.data("run_check.static")["import_failed"]
    assert report.facts.data("run_check.dygraph")["import_failed"]
    assert len(set(_pids(pids))) == 3  # the shared child, then each stage alone


def test_cancel_kills_the_shared_child(tmp_path: Path) -> None:
    env, pids = _pid_paddle(tmp_path / "fake", tensor="hang")
    cancel = threading.Event()
    context = ProbeContext(env=env, workspace=tmp_path)
    worker = threading.Thread(target=lambda: run_checks(context=context, only=SHARED_RULES, cancel=cancel))
    worker.start()
    while not (pids.exists() and pids.read_text()):
        time.sleep(0.05)
    cancel.set()
    worker.join(30)
    assert not worker.is_alive()
    (pid,) = _pids(pids)
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


# --------------------------------------------------------------------------- broken environments, for real


@pytest.fixture
def fake_raising_paddle(tmp_path: Path) -> Path:
    (tmp_path / "paddle").mkdir()
    (tmp_path / "paddle" / "__init__.py").write_text("raise ImportError('fake paddle refuses to import')\n")
    return tmp_path


@pytest.fixture
def fake_cuda_paddle(tmp_path: Path) -> Path:
    package = tmp_path / "paddle"
    (package / "version").mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from paddle import version\n__version__ = '3.3.1'\n"
        "def is_compiled_with_cuda():\n    return True\n"
        "def is_compiled_with_rocm():\n    return False\n"
        "def is_compiled_with_xpu():\n    return False\n"
    )
    (package / "version" / "__init__.py").write_text(
        "full_version = '3.3.1'\ncommit = 'abc'\ncuda_version = '12.6'\ncudnn_version = '9.5.1'\n"
        "compiled_cuda_archs = [80, 90]\nwith_pip_cuda_libraries = 'ON'\n"
        "def cuda():\n    return cuda_version\n"
        "def cudnn():\n    return cudnn_version\n"
        "def cuda_archs():\n    return compiled_cuda_archs\n"
    )
    return tmp_path


def _dist_info(root: Path, name: str, version: str) -> Path:
    folder = root / f"{name.replace('-', '_')}-{version}.dist-info"
    folder.mkdir(parents=True)
    (folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    return root


def test_fake_paddle_that_raises_is_a_failed_import_with_a_fix(
    fake_raising_paddle: Path, tmp_path: Path
) -> None:
    context = ProbeContext(env=_env(PYTHONPATH=str(fake_raising_paddle)), workspace=tmp_path)
    report = run_checks(
        context=context, only=["paddle.import", "run_check.static", "tensor_op"], timeout_s=60
    )
    by_id = {f.id: f for f in report.findings}
    assert by_id["paddle.import"].status == "fail"
    assert "fake paddle refuses to import" in by_id["paddle.import"].summary
    assert str(fake_raising_paddle / "paddle") in by_id["paddle.import"].fix
    assert by_id["run_check.static"].status == "skip" and by_id["tensor_op"].status == "skip"


def test_fake_cuda_paddle_on_a_box_without_gpu_fails_with_the_cpu_wheel(
    fake_cuda_paddle: Path, tmp_path: Path
) -> None:
    context = ProbeContext(env=_env(PYTHONPATH=str(fake_cuda_paddle)), workspace=tmp_path)
    report = run_checks(
        probes=_probes(driver=_no_driver), context=context, only=["gpu.driver", "paddle.build"], timeout_s=60
    )
    by_id = {f.id: f for f in report.findings}
    assert by_id["gpu.driver"].status == "fail"
    assert "pip install paddlepaddle==3.3.1" in by_id["gpu.driver"].fix
    assert "uninstall -y paddlepaddle-gpu" in by_id["gpu.driver"].fix
    assert "CUDA 12.6" in by_id["paddle.build"].summary


def test_both_distributions_installed_is_a_failure(tmp_path: Path) -> None:
    fake = _dist_info(tmp_path / "site", "paddlepaddle-gpu", "3.3.1")
    context = ProbeContext(env=_env(PYTHONPATH=str(fake)), workspace=tmp_path)
    report = run_checks(
        probes=_probes(driver=_no_driver), context=context, only=["paddle.install"], timeout_s=60
    )
    finding = report.findings[0]
    if "paddlepaddle," not in finding.summary:
        pytest.skip("this interpreter has no CPU paddlepaddle distribution to clash with")
    assert finding.status == "fail"
    assert "uninstall -y paddlepaddle paddlepaddle-gpu" in finding.fix


def test_numpy_2_4_reported_is_a_failure(tmp_path: Path) -> None:
    fake = _dist_info(tmp_path / "site", "numpy", "2.4.0")
    context = ProbeContext(env=_env(PYTHONPATH=str(fake)), workspace=tmp_path)

    def no_paddle(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
        return {"import_ok": False, "error": "not imported in this test"}

    report = run_checks(probes=_probes(paddle=no_paddle), context=context, only=["numpy"], timeout_s=60)
    finding = report.findings[0]
    assert finding.status == "fail" and "2.4.0" in finding.summary
    assert '"numpy<2.4"' in finding.fix


def test_interpreter_probe_describes_this_python(tmp_path: Path) -> None:
    report = run_checks(context=ProbeContext(workspace=tmp_path), only=["python"], timeout_s=60)
    data = report.facts.data("interpreter")
    assert data["executable"] == sys.executable
    assert data["version"].startswith(f"{sys.version_info.major}.{sys.version_info.minor}")
    assert isinstance(data["paddle_distributions"], list)
    assert report.findings[0].status in ("pass", "warn")


# --------------------------------------------------------------------------- pure helpers


def test_system_probe_measures_the_nearest_existing_folder(tmp_path: Path) -> None:
    data = probe_system(ProbeContext(workspace=tmp_path / "not" / "yet"), Facts())
    assert data["workspace_disk"]["measured_at"] == str(tmp_path)
    assert data["cpu_logical"] >= 1 and data["memory_total_bytes"] > 0


def test_relevant_environment_picks_and_redacts() -> None:
    env = {
        "CUDA_VISIBLE_DEVICES": "0",
        "FLAGS_eager_delete_tensor_gb": "0",
        "NCCL_DEBUG": "INFO",
        "PADDLE_API_TOKEN": "s3cret",
        "HOME": "/root",
    }
    picked = relevant_environment(env)
    assert picked == {
        "CUDA_VISIBLE_DEVICES": "0",
        "FLAGS_eager_delete_tensor_gb": "0",
        "NCCL_DEBUG": "INFO",
        "PADDLE_API_TOKEN": REDACTED,
    }


def test_scan_library_path_finds_duplicates_and_stubs(tmp_path: Path) -> None:
    first, second, stubs = tmp_path / "a", tmp_path / "b", tmp_path / "cuda" / "stubs"
    for folder, names in (
        (first, ["libcudnn.so.8", "libfoo.so"]),
        (second, ["libcudnn.so.9"]),
        (stubs, ["libcuda.so"]),
    ):
        folder.mkdir(parents=True)
        for name in names:
            (folder / name).write_text("")
    scan = scan_library_path(os.pathsep.join([str(first), str(second), str(stubs), str(tmp_path / "gone")]))
    assert scan["duplicates"] == {"libcudnn.so": [str(first), str(second)]}
    assert scan["stubs"] == [str(stubs)]
    assert scan["missing_dirs"] == [str(tmp_path / "gone")]
    assert scan_library_path(None)["dirs"] == []


def test_parse_cpuinfo() -> None:
    model, flags = parse_cpuinfo(
        "processor : 0\nmodel name : Test CPU\nflags : fpu avx avx2 avx512f\n\nprocessor : 1\n"
    )
    assert model == "Test CPU" and {"avx", "avx512f"} <= flags


def test_nvidia_smi_parsers() -> None:
    rows = parse_query_csv(
        "0, NVIDIA A100-SXM4-80GB, 81920, 1024, 37, 570.86.15, 00000000:07:00.0, 8.0\n"
        "1, NVIDIA A100-SXM4-80GB, 81920, [N/A], [N/A], 570.86.15, 00000000:0F:00.0, 8.0\n"
    )
    assert rows[0]["memory_total_mib"] == 81920 and rows[0]["compute_capability"] == "8.0"
    assert rows[1]["memory_used_mib"] is None and rows[1]["utilization_pct"] is None
    assert (
        parse_cuda_version("| NVIDIA-SMI 570.86.15  Driver Version: 570.86.15  CUDA Version: 12.8 |")
        == "12.8"
    )
    assert parse_cuda_version("no banner") is None


def test_merge_driver_facts_prefers_nvml_then_smi_and_fills_from_libcuda() -> None:
    smi = {
        "found": True,
        "driver_version": "550.1",
        "cuda_driver_version": "12.4",
        "gpus": [{"index": 0, "name": "T4"}],
    }
    libcuda = {
        "cuda_driver_version": "12.4",
        "gpus": [{"index": 0, "name": "T4", "compute_capability": "7.5"}],
    }
    merged = merge_driver_facts({"available": False}, libcuda, smi, ["/dev/nvidia0"])
    assert merged["source"] == "nvidia-smi" and merged["gpus"][0]["compute_capability"] == "7.5"
    assert merged["driver_version"] == "550.1" and merged["device_nodes"] == ["/dev/nvidia0"]
    empty = merge_driver_facts(None, {"loaded": False}, {"found": False}, [])
    assert empty["source"] is None and empty["gpus"] == []
