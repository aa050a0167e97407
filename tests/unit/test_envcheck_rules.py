"""Rules over hand-made facts: every GPU branch is tested here, on machines without a GPU."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from workbench.envcheck import RULES, Facts, Finding, ProbeResult, Rule, Verdict, default_rules
from workbench.envcheck.rules.gpu import cleaned_library_path
from workbench.envcheck.wheels import (
    capability_covered,
    newest_variant_for_driver,
    oldest_variant_at_least,
    parse_archs,
    parse_capability,
    parse_version,
)
from workbench.i18n import catalog, set_language

INDEX = "https://www.paddlepaddle.org.cn/packages/stable"


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    set_language("en")
    yield
    set_language(None)


def cpu_box() -> dict[str, dict[str, Any]]:
    """Facts of a healthy CPU-only machine with the CPU wheel (like the one these tests run on)."""
    site = "/venv/lib/python3.11/site-packages"
    return {
        "interpreter": {
            "executable": "/venv/bin/python",
            "version": "3.11.7",
            "prefix": "/venv",
            "base_prefix": "/usr",
            "venv_active": True,
            "virtual_env": "/venv",
            "is_conda": False,
            "paddle_distributions": [
                {"name": "paddlepaddle", "version": "3.3.1", "location": site, "installer": "pip"}
            ],
            "nvidia_packages": [],
            "numpy_version": "2.3.5",
            "paddle_origin": f"{site}/paddle/__init__.py",
            "workbench_origin": "/src/workbench/__init__.py",
            "paddle_static_version": {
                "full_version": "3.3.1",
                "cuda_version": "False",
                "compiled_cuda_archs": [],
            },
            "workbench_script": "/venv/bin/paddle-workbench",
            "workbench_script_python": "/venv/bin/python",
            "nearby_venvs": [],
        },
        "paddle": {
            "import_ok": True,
            "import_seconds": 2.0,
            "file": f"{site}/paddle/__init__.py",
            "version": "3.3.1",
            "cuda": "False",
            "cudnn": "False",
            "nccl": "0",
            "cuda_archs": [],
            "mkl": "ON",
            "commit": "7688495538f4d6c1893f084dd238a402e8f68ab6",
            "with_pip_cuda_libraries": "ON",
            "compiled_with": {"cuda": False, "rocm": False, "xpu": False, "mkldnn": True, "avx": True},
            "cpu_avx_supported": True,
            "cpu_avx512f_supported": False,
            "device": "cpu",
            "gpu_count": 0,
            "gpus": [],
            "numpy_version": "2.3.5",
        },
        "tensor_op": {"ok": True, "result": [5, 7, 9], "place": "Place(cpu)"},
        "run_check.static": {"ok": True, "device": "CPU", "device_count": 1, "seconds": 0.1},
        "run_check.dygraph": {"ok": True, "device": "CPU", "device_count": 1, "seconds": 0.1},
        "run_check.parallel": {"skipped": True, "reason": "cpu", "device": "CPU", "device_count": 1},
        "driver": {
            "source": None,
            "driver_version": None,
            "cuda_driver_version": None,
            "gpus": [],
            "device_nodes": [],
        },
        "libraries": {
            "libraries": {"cudnn": {"loaded": False, "error": "not found"}},
            "ld_library_path": {"dirs": [], "duplicates": {}, "stubs": []},
        },
        "environment": {"variables": {}},
        "system": {
            "machine": "x86_64",
            "cpu_model": "Test CPU",
            "cpu_logical": 8,
            "cpu_usable": 8,
            "cpu_flags": ["avx", "avx2", "fma"],
            "memory_total_bytes": 32 * 2**30,
            "memory_available_bytes": 24 * 2**30,
            "shm": {"total_bytes": 16 * 2**30, "free_bytes": 16 * 2**30},
            "workspace_disk": {
                "path": "ws",
                "measured_at": "/",
                "total_bytes": 500 * 2**30,
                "free_bytes": 100 * 2**30,
            },
        },
    }


def gpu_box() -> dict[str, dict[str, Any]]:
    """Facts of a healthy machine with two A100s, driver CUDA 12.8 and the cu126 GPU wheel."""
    facts = cpu_box()
    site = "/venv/lib/python3.11/site-packages"
    facts["interpreter"]["paddle_distributions"] = [
        {"name": "paddlepaddle-gpu", "version": "3.3.1", "location": site, "installer": "pip"}
    ]
    facts["interpreter"]["paddle_static_version"] = {"full_version": "3.3.1", "cuda_version": "12.6"}
    facts["paddle"].update(
        cuda="12.6",
        cudnn="9.5.1",
        nccl="2.21.5",
        cuda_archs=[61, 70, 75, 80, 86, 89, 90],
        compiled_with={"cuda": True, "rocm": False, "xpu": False, "mkldnn": True, "avx": True},
        device="gpu:0",
        gpu_count=2,
    )
    a100 = {"name": "NVIDIA A100-SXM4-80GB", "memory_total_mib": 81920, "compute_capability": "8.0"}
    facts["driver"] = {
        "source": "nvidia-smi",
        "driver_version": "570.86.15",
        "cuda_driver_version": "12.8",
        "gpus": [{"index": 0, **a100}, {"index": 1, **a100}],
        "device_nodes": ["/dev/nvidia0", "/dev/nvidia1"],
    }
    lib = f"{site}/nvidia"
    facts["libraries"]["libraries"] = {
        "cudart": {
            "loaded": True,
            "name": "libcudart.so.12",
            "path": f"{lib}/cuda_runtime/lib/libcudart.so.12",
        },
        "cublas": {"loaded": True, "name": "libcublas.so.12", "path": f"{lib}/cublas/lib/libcublas.so.12"},
        "cudnn": {"loaded": True, "name": "libcudnn.so.9", "path": f"{lib}/cudnn/lib/libcudnn.so.9"},
        "nccl": {"loaded": True, "name": "libnccl.so.2", "path": f"{lib}/nccl/lib/libnccl.so.2"},
    }
    facts["run_check.parallel"] = {"ok": True, "device": "GPU", "device_count": 2, "seconds": 3.0}
    return facts


def check(rule_id: str, data: dict[str, dict[str, Any]]) -> Finding:
    return RULES.get(rule_id).check(Facts.from_data(data))


GPU_RULES = ("gpu.driver", "gpu.cuda_version", "gpu.compute_capability", "gpu.visible", "gpu.libraries")


# --------------------------------------------------------------------------- whole boxes


def test_healthy_cpu_box_passes_and_gpu_items_skip_with_a_reason() -> None:
    facts = cpu_box()
    for rule in default_rules():
        finding = rule.check(Facts.from_data(facts))
        assert finding.id == rule.id
        if rule.id in (*GPU_RULES, "run_check.parallel"):
            assert finding.status == "skip", (rule.id, finding)
            assert finding.summary
        else:
            assert finding.status == "pass", (rule.id, finding)
        assert finding.facts == rule.needs


def test_healthy_gpu_box_passes_everything() -> None:
    facts = gpu_box()
    for rule in default_rules():
        finding = rule.check(Facts.from_data(facts))
        assert finding.status == "pass", (rule.id, finding)


def test_every_rule_has_a_title_in_both_languages_and_a_unique_id() -> None:
    ids = [rule.id for rule in default_rules()]
    assert len(ids) == len(set(ids))
    for rule_id in ids:
        assert f"envcheck.title.{rule_id}" in catalog()


def test_findings_translate_to_chinese() -> None:
    set_language("zh")
    finding = check("gpu.driver", {**gpu_box(), "driver": {"gpus": [], "device_nodes": []}})
    assert finding.status == "fail"
    assert "GPU 版 Paddle" in finding.summary
    assert "pip install paddlepaddle==3.3.1" in finding.fix


# --------------------------------------------------------------------------- GPU branches


def test_driver_older_than_wheel_cuda_fails_with_the_matching_wheel() -> None:
    facts = gpu_box()
    facts["driver"]["cuda_driver_version"] = "11.8"
    finding = check("gpu.cuda_version", facts)
    assert finding.status == "fail"
    assert "11.8" in finding.summary and "12.6" in finding.summary
    assert f"pip install paddlepaddle-gpu==3.3.1 -i {INDEX}/cu118/" in finding.fix
    assert "pip uninstall -y paddlepaddle-gpu" in finding.fix


def test_driver_minor_older_than_wheel_is_a_warning() -> None:
    facts = gpu_box()
    facts["driver"]["cuda_driver_version"] = "12.4"
    finding = check("gpu.cuda_version", facts)
    assert finding.status == "warn"
    assert f"{INDEX}/cu118/" in finding.fix


def test_driver_older_than_every_wheel_asks_for_a_driver_upgrade() -> None:
    facts = gpu_box()
    facts["driver"]["cuda_driver_version"] = "10.2"
    finding = check("gpu.cuda_version", facts)
    assert finding.status == "fail"
    assert "pip install" not in finding.fix and "12.6" in finding.fix


def test_gpu_wheel_on_a_box_without_gpu_fails_with_the_cpu_wheel() -> None:
    facts = gpu_box()
    facts["driver"] = {"gpus": [], "device_nodes": []}
    finding = check("gpu.driver", facts)
    assert finding.status == "fail"
    assert "python -m pip uninstall -y paddlepaddle-gpu" in finding.fix
    assert f"pip install paddlepaddle==3.3.1 -i {INDEX}/cpu/" in finding.fix


def test_gpu_wheel_detected_from_static_version_when_import_fails() -> None:
    facts = gpu_box()
    facts["paddle"] = {"import_ok": False, "error": "ImportError: boom", "error_type": "ImportError"}
    facts["driver"] = {"gpus": [], "device_nodes": []}
    assert check("gpu.driver", facts).status == "fail"


def test_driver_loaded_but_no_gpu_and_unresponsive_driver() -> None:
    facts = gpu_box()
    facts["driver"] = {
        "driver_version": "570.86",
        "cuda_driver_version": "12.8",
        "gpus": [],
        "device_nodes": [],
    }
    finding = check("gpu.driver", facts)
    assert finding.status == "fail" and "--gpus all" in finding.fix
    facts["driver"] = {"gpus": [], "device_nodes": ["/dev/nvidia0"]}
    finding = check("gpu.driver", facts)
    assert finding.status == "fail" and "dmesg" in finding.fix


def test_cpu_wheel_on_a_gpu_box_warns_with_the_gpu_wheel_for_the_driver() -> None:
    facts = cpu_box()
    facts["driver"] = copy.deepcopy(gpu_box()["driver"])
    finding = check("gpu.driver", facts)
    assert finding.status == "warn"
    assert "pip uninstall -y paddlepaddle" in finding.fix
    assert f"pip install paddlepaddle-gpu==3.3.1 -i {INDEX}/cu126/" in finding.fix


@pytest.mark.parametrize(
    ("capability", "archs", "status", "variant"),
    [
        ("8.0", [70, 80, 90], "pass", None),
        ("8.9", [80, 86], "pass", None),  # sm_80/86 binaries run on 8.9 (same major)
        ("9.0", [80, 86], "fail", "cu118"),
        ("12.0", [61, 70, 75, 80, 86, 89, 90], "fail", "cu129"),
        ("6.0", [75, 80, 86], "fail", "cu118"),
    ],
)
def test_compute_capability_against_cuda_archs(
    capability: str, archs: list[int], status: str, variant: str | None
) -> None:
    facts = gpu_box()
    facts["paddle"]["cuda_archs"] = archs
    for gpu in facts["driver"]["gpus"]:
        gpu["compute_capability"] = capability
    finding = check("gpu.compute_capability", facts)
    assert finding.status == status, finding
    if variant:
        assert f"{INDEX}/{variant}/" in finding.fix
        assert capability in finding.summary


def test_compute_capability_skips_without_archs() -> None:
    facts = gpu_box()
    facts["paddle"]["cuda_archs"] = []
    assert check("gpu.compute_capability", facts).status == "skip"


def test_cudnn_library_missing_fails_with_a_reinstall_of_the_same_variant() -> None:
    facts = gpu_box()
    facts["libraries"]["libraries"]["cudnn"] = {
        "loaded": False,
        "error": "libcudnn.so.9: cannot open shared object",
    }
    finding = check("gpu.libraries", facts)
    assert finding.status == "fail"
    assert "cudnn 9" in finding.summary
    assert f"pip install --force-reinstall paddlepaddle-gpu==3.3.1 -i {INDEX}/cu126/" in finding.fix


def test_cudnn_of_the_wrong_major_version_fails() -> None:
    facts = gpu_box()
    facts["paddle"]["cudnn"] = "8.9.7"
    assert check("gpu.libraries", facts).status == "fail"


def test_system_cuda_libraries_fix_names_ld_library_path() -> None:
    facts = gpu_box()
    facts["paddle"]["with_pip_cuda_libraries"] = "OFF"
    facts["libraries"]["libraries"]["cublas"] = {"loaded": False}
    finding = check("gpu.libraries", facts)
    assert finding.status == "fail" and "LD_LIBRARY_PATH" in finding.fix


def test_missing_nccl_is_a_warning() -> None:
    facts = gpu_box()
    facts["libraries"]["libraries"]["nccl"] = {"loaded": False}
    assert check("gpu.libraries", facts).status == "warn"


@pytest.mark.parametrize("value", ["", "-1", "NoDevFiles"])
def test_cuda_visible_devices_hiding_every_gpu_fails(value: str) -> None:
    facts = gpu_box()
    facts["environment"]["variables"] = {"CUDA_VISIBLE_DEVICES": value}
    finding = check("gpu.visible", facts)
    assert finding.status == "fail" and "unset CUDA_VISIBLE_DEVICES" in finding.fix


def test_cuda_visible_devices_out_of_range_warns() -> None:
    facts = gpu_box()
    facts["environment"]["variables"] = {"CUDA_VISIBLE_DEVICES": "0,3"}
    finding = check("gpu.visible", facts)
    assert finding.status == "warn" and "export CUDA_VISIBLE_DEVICES=0,1" in finding.fix


def test_paddle_seeing_no_gpu_fails_and_mixed_models_want_pci_order() -> None:
    facts = gpu_box()
    facts["paddle"]["gpu_count"] = 0
    assert check("gpu.visible", facts).status == "fail"
    facts = gpu_box()
    facts["driver"]["gpus"][1]["name"] = "NVIDIA RTX A4000"
    finding = check("gpu.visible", facts)
    assert finding.status == "warn" and "export CUDA_DEVICE_ORDER=PCI_BUS_ID" in finding.fix
    facts["environment"]["variables"] = {"CUDA_DEVICE_ORDER": "PCI_BUS_ID"}
    assert check("gpu.visible", facts).status == "pass"


def test_ld_library_path_duplicates_and_stubs() -> None:
    facts = cpu_box()
    facts["libraries"]["ld_library_path"] = {
        "dirs": ["/opt/cudnn8/lib", "/usr/local/cuda/lib64", "/usr/local/cuda/lib64/stubs"],
        "duplicates": {"libcudnn.so": ["/opt/cudnn8/lib", "/usr/local/cuda/lib64"]},
        "stubs": [],
    }
    finding = check("ld_library_path", facts)
    assert finding.status == "warn"
    assert "libcudnn.so" in finding.summary
    assert finding.fix == "export LD_LIBRARY_PATH=/opt/cudnn8/lib:/usr/local/cuda/lib64/stubs"
    facts["libraries"]["ld_library_path"]["stubs"] = ["/usr/local/cuda/lib64/stubs"]
    finding = check("ld_library_path", facts)
    assert finding.status == "warn" and "stubs" in finding.summary
    assert cleaned_library_path(["/a", "/b/stubs"], {}, ["/b/stubs"]) == "/a"


# --------------------------------------------------------------------------- install / import / numpy


def test_both_wheels_installed_fails_and_removes_both() -> None:
    facts = cpu_box()
    site = "/venv/lib/python3.11/site-packages"
    facts["interpreter"]["paddle_distributions"].append(
        {"name": "paddlepaddle-gpu", "version": "3.3.1", "location": site, "installer": "pip"}
    )
    finding = check("paddle.install", facts)
    assert finding.status == "fail"
    assert "python -m pip uninstall -y paddlepaddle paddlepaddle-gpu" in finding.fix
    assert f"pip install paddlepaddle==3.3.1 -i {INDEX}/cpu/" in finding.fix


def test_same_wheel_twice_warns() -> None:
    facts = cpu_box()
    facts["interpreter"]["paddle_distributions"].append(
        {
            "name": "paddlepaddle",
            "version": "3.2.0",
            "location": "/home/u/.local/lib/python3.11/site-packages",
        }
    )
    assert check("paddle.install", facts).status == "warn"


def test_no_paddle_installed_fails_with_the_install_line_for_this_box() -> None:
    facts = cpu_box()
    facts["interpreter"].update(paddle_distributions=[], paddle_origin=None)
    finding = check("paddle.install", facts)
    assert finding.status == "fail" and f"{INDEX}/cpu/" in finding.fix
    facts["driver"] = copy.deepcopy(gpu_box()["driver"])
    assert f"paddlepaddle-gpu==3.3.1 -i {INDEX}/cu126/" in check("paddle.install", facts).fix


def test_import_failure_from_a_shadowing_package_names_the_folder() -> None:
    facts = cpu_box()
    facts["interpreter"]["paddle_origin"] = "/tmp/x/paddle/__init__.py"
    facts["paddle"] = {"import_ok": False, "error": "ImportError: boom", "error_type": "ImportError"}
    finding = check("paddle.import", facts)
    assert finding.status == "fail"
    assert "/tmp/x/paddle" in finding.summary and "/tmp/x/paddle" in finding.fix


def test_import_missing_points_at_the_venv_that_has_paddle() -> None:
    facts = cpu_box()
    facts["interpreter"].update(paddle_distributions=[], paddle_origin=None)
    facts["interpreter"]["nearby_venvs"] = [{"path": "/proj/.venv", "has_paddle": True, "is_current": False}]
    facts["paddle"] = {
        "import_ok": False,
        "error": "ModuleNotFoundError: No module named 'paddle'",
        "error_type": "ModuleNotFoundError",
    }
    finding = check("paddle.import", facts)
    assert finding.status == "fail" and "source /proj/.venv/bin/activate" in finding.fix


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        ("OSError: libcudnn.so.9: cannot open shared object file", "--force-reinstall"),
        ("ImportError: numpy.core.multiarray failed to import", '"numpy<2.4"'),
        ("RuntimeError: something else", "--force-reinstall paddlepaddle==3.3.1"),
    ],
)
def test_import_failure_fixes(error: str, expected: str) -> None:
    facts = cpu_box()
    facts["paddle"] = {"import_ok": False, "error": error, "error_type": error.split(":")[0]}
    finding = check("paddle.import", facts)
    assert finding.status == "fail" and expected in finding.fix


def test_import_version_mismatch_warns() -> None:
    facts = cpu_box()
    facts["paddle"]["version"] = "3.2.0"
    assert check("paddle.import", facts).status == "warn"


def test_build_without_avx_on_the_cpu_fails() -> None:
    facts = cpu_box()
    facts["paddle"]["cpu_avx_supported"] = False
    assert check("paddle.build", facts).status == "fail"
    facts["system"]["cpu_flags"] = ["sse4_2"]
    assert check("system.resources", facts).status == "fail"


def test_build_reports_cuda_and_falls_back_to_static_facts() -> None:
    finding = check("paddle.build", gpu_box())
    assert finding.status == "pass" and "CUDA 12.6" in finding.summary
    facts = gpu_box()
    facts["paddle"] = {"import_ok": False, "error": "x"}
    assert check("paddle.build", facts).status == "skip"


@pytest.mark.parametrize(
    ("numpy", "paddle", "status"),
    [
        ("2.3.5", "3.3.1", "pass"),
        ("2.4.0", "3.3.1", "fail"),
        ("2.4.1", "3.4.0", "pass"),
        (None, "3.3.1", "fail"),
    ],
)
def test_numpy_versions(numpy: str | None, paddle: str, status: str) -> None:
    facts = cpu_box()
    facts["interpreter"]["numpy_version"] = numpy
    facts["paddle"].update(numpy_version=numpy, version=paddle)
    finding = check("numpy", facts)
    assert finding.status == status
    if status == "fail":
        assert 'python -m pip install "numpy<2.4"' in finding.fix


# --------------------------------------------------------------------------- interpreter / venv


def test_venv_not_active_while_paddle_is_only_in_the_venv_fails() -> None:
    facts = cpu_box()
    facts["interpreter"].update(
        executable="/usr/bin/python3",
        prefix="/usr",
        venv_active=False,
        virtual_env=None,
        paddle_distributions=[],
        paddle_origin=None,
        nearby_venvs=[{"path": "/proj/.venv", "has_paddle": True, "is_current": False}],
    )
    finding = check("python.venv", facts)
    assert finding.status == "fail"
    assert finding.fix.startswith("Activate it") and "source /proj/.venv/bin/activate" in finding.fix


def test_virtual_env_mismatch_and_foreign_script_warn() -> None:
    facts = cpu_box()
    facts["interpreter"]["virtual_env"] = "/other/.venv"
    finding = check("python.venv", facts)
    assert (
        finding.status == "warn" and "/other/.venv/bin/python -m pip install paddle-workbench" in finding.fix
    )
    facts = cpu_box()
    facts["interpreter"]["workbench_script_python"] = "/opt/tools/bin/python3"
    finding = check("python.venv", facts)
    assert finding.status == "warn" and "/venv/bin/python -m workbench" in finding.fix


def test_unsupported_python_warns() -> None:
    facts = cpu_box()
    facts["interpreter"]["version"] = "3.14.0"
    assert check("python", facts).status == "warn"


# --------------------------------------------------------------------------- smoke tests and host


def test_run_check_stages_skip_when_import_fails_and_fail_with_the_error() -> None:
    facts = cpu_box()
    facts["paddle"] = {"import_ok": False, "error": "ImportError: boom"}
    facts["run_check.static"] = {"ok": False, "import_failed": True, "error": "ImportError: boom"}
    assert check("run_check.static", facts).status == "skip"
    assert check("tensor_op", facts).status == "skip"
    facts = cpu_box()
    facts["run_check.dygraph"] = {
        "ok": False,
        "error": "RuntimeError: (PreconditionNotMet) cuDNN error",
        "traceback": "tb",
    }
    finding = check("run_check.dygraph", facts)
    assert finding.status == "fail" and "cuDNN error" in finding.summary and finding.details == "tb"


def test_tensor_op_with_a_wrong_result_fails() -> None:
    facts = cpu_box()
    facts["tensor_op"] = {"ok": False, "result": [5, 7, 8], "place": "Place(cpu)"}
    finding = check("tensor_op", facts)
    assert finding.status == "fail" and "[5, 7, 8]" in finding.summary


def test_parallel_stage_skip_has_a_reason() -> None:
    finding = check("run_check.parallel", cpu_box())
    assert finding.status == "skip" and "one device" in finding.summary


def test_environment_rules() -> None:
    facts = cpu_box()
    facts["environment"]["variables"] = {"OMP_NUM_THREADS": "64", "FLAGS_use_cuda_managed_memory": "1"}
    finding = check("environment", facts)
    assert finding.status == "warn" and finding.fix == "export OMP_NUM_THREADS=8"
    assert "FLAGS_use_cuda_managed_memory=1" in finding.details
    facts["environment"]["variables"] = {"OMP_NUM_THREADS": "lots"}
    assert check("environment", facts).status == "warn"
    facts["environment"]["variables"] = {}
    assert "OMP_NUM_THREADS" in check("environment", facts).details  # the CPU-training note


def test_host_rules() -> None:
    facts = cpu_box()
    facts["system"]["shm"] = {"total_bytes": 64 * 2**20, "free_bytes": 60 * 2**20}
    finding = check("system.shm", facts)
    assert finding.status == "warn" and "--shm-size" in finding.fix
    facts["system"]["workspace_disk"]["free_bytes"] = 1 * 2**30
    assert check("system.disk", facts).status == "warn"
    facts["system"]["workspace_disk"]["free_bytes"] = 10 * 2**20
    assert check("system.disk", facts).status == "fail"
    facts["system"]["memory_available_bytes"] = 2**29
    assert check("system.resources", facts).status == "warn"
    facts["system"]["shm"] = None
    assert check("system.shm", facts).status == "skip"


# --------------------------------------------------------------------------- Rule.check itself


def test_main_probe_timeout_is_a_failure_that_says_how_long() -> None:
    rule = RULES.get("paddle.import")
    facts = Facts.from_data(cpu_box()).with_result(
        ProbeResult("paddle", error="timed out after 3 s", timed_out=True, timeout_s=3.0)
    )
    finding = rule.check(facts)
    assert finding.status == "fail"
    assert "timed out after 3 s" in finding.summary
    assert "paddle.utils.run_check()" in finding.fix


def test_main_probe_crash_is_a_failure_with_the_reason() -> None:
    facts = Facts.from_data(cpu_box()).with_result(
        ProbeResult("paddle", error="killed by signal SIGSEGV\nSegmentation fault")
    )
    finding = RULES.get("paddle.import").check(facts)
    assert finding.status == "fail" and "SIGSEGV" in finding.summary and "Segmentation" in finding.details


def test_a_rule_that_raises_becomes_a_failed_finding() -> None:
    def broken(facts: Facts) -> Verdict:
        raise KeyError("oops")

    finding = Rule("broken", ("system",), broken).check(Facts.from_data(cpu_box()))
    assert finding.status == "fail" and "broken" in finding.summary and "KeyError" in finding.summary


def test_finding_json_has_the_stable_keys() -> None:
    document = check("python", cpu_box()).to_dict()
    assert {"id", "status", "summary", "details", "fix"} <= document.keys()


# --------------------------------------------------------------------------- wheels


def test_wheel_helpers() -> None:
    assert parse_version("12.6") == (12, 6)
    assert parse_version("False") is None and parse_version("0") is None and parse_version(None) is None
    assert parse_version("3.3.0rc1") == (3, 3, 0)
    assert newest_variant_for_driver((12, 4)) == (11, 8)
    assert newest_variant_for_driver((13, 0)) == (12, 9)
    assert newest_variant_for_driver((11, 4)) is None
    assert oldest_variant_at_least((12, 8)) == (12, 9)
    assert parse_archs("sm_80;sm_90") == [80, 90]
    assert parse_archs(["86", 80]) == [80, 86]
    assert parse_capability([8, 9]) == (8, 9) and parse_capability("12.0") == (12, 0)
    assert capability_covered((8, 6), [80]) and not capability_covered((7, 5), [80])
    assert capability_covered((12, 0), [120])


@pytest.mark.parametrize(
    ("reported", "major"), [(9, 9), (10, 10), (7605, 7), (8907, 8), (90501, 9), (100100, 10)]
)
def test_cudnn_major_reads_dotted_versions_and_both_integer_codes(reported: int, major: int) -> None:
    """cuDNN 10 reported as "100100" used to read as 1 (the first digit)."""
    from workbench.envcheck.rules.gpu import cudnn_major

    assert cudnn_major(reported) == major
