"""Reduced precision without a model: the CPU flags read from real ``/proc/cpuinfo`` excerpts, a GPU's
compute capability from fed driver facts, the notes said before any figure, the gate, the latency ratio,
and ``compare --precision``'s bad input (exit 2, before any slow work)."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from workbench.cli.compare import PRECISIONS as CLI_PRECISIONS
from workbench.cli.root import build_cli
from workbench.envcheck.facts import Facts
from workbench.envcheck.precision import (
    cpu_support,
    cpu_support_from_cpuinfo,
    gpu_support,
    gpus_from_facts,
    gpus_support,
)
from workbench.inference.quantize import (
    PRECISIONS,
    _fp16_path,
    _judge_path,
    hardware_notes,
    judge,
    latency_ratio,
    precision_problems,
)

# Real excerpts, as published. A Sapphire Rapids TDX guest (Xeon Platinum 8480+: AMX and AVX-512 VNNI;
# the hypervisor hides avx512_bf16 and avx_vnni), from a public test fixture.
SAPPHIRE_RAPIDS = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Platinum 8480+
flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss ht syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 movbe popcnt aes xsave avx f16c rdrand hypervisor lahf_lm abm 3dnowprefetch fsgsbase bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves tdx_guest arat avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid cldemote movdiri movdir64b fsrm md_clear serialize tsxldtrk amx_bf16 avx512_fp16 amx_tile amx_int8
"""
# An AWS R4 instance (Broadwell Xeon E5-2686 v4): AVX2 and FMA, no AVX-512, no VNNI, no bf16.
BROADWELL = """processor\t: 7
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 79
model name\t: Intel(R) Xeon(R) CPU E5-2686 v4 @ 2.30GHz
stepping\t: 1
microcode\t: 0xb00002a
cpu MHz\t\t: 1497.723
cache size\t: 46080 KB
flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology aperfmperf eagerfpu pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm abm 3dnowprefetch fsgsbase bmi1 hle avx2 smep bmi2 erms invpcid rtm rdseed adx xsaveopt
bugs\t\t:
bogomips\t: 4661.96
"""
# The AMD EPYC (a VM) the README figures were measured on: AVX-512 VNNI and AVX-512 bf16, no AMX.
EPYC = """processor\t: 0
vendor_id\t: AuthenticAMD
model name\t: AMD EPYC
flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid extd_apicid tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm cmp_legacy cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw topoext vmmcall fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves avx_vnni avx512_bf16 clzero xsaveerptr arat avx512vbmi umip avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid fsrm avx512_vp2intersect
"""
# An Arm server (Neoverse): a ``Features`` line and none of the x86 flags.
ARM = """processor\t: 0
BogoMIPS\t: 50.00
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics
CPU implementer\t: 0x41
CPU architecture: 8
"""


def test_sapphire_rapids_has_amx_int8_and_bf16() -> None:
    cpu = cpu_support_from_cpuinfo(SAPPHIRE_RAPIDS)
    assert cpu.name == "Intel(R) Xeon(R) Platinum 8480+"
    assert cpu.int8 and cpu.int8_via == "amx_int8"  # AMX first: the faster of the two it has
    assert cpu.bf16 and cpu.bf16_via == "amx_bf16"
    assert cpu.evidence == ["avx2", "avx512f", "avx512_vnni", "amx_bf16", "amx_int8", "amx_tile"]
    assert not cpu.fp16


def test_broadwell_has_neither_and_the_note_says_no_speed_up_and_why() -> None:
    cpu = cpu_support_from_cpuinfo(BROADWELL)
    assert cpu.name == "Intel(R) Xeon(R) CPU E5-2686 v4 @ 2.30GHz"
    assert not cpu.int8 and not cpu.bf16 and cpu.evidence == ["avx2"]
    notes = hardware_notes(cpu, [], ["int8"])
    assert "no int8 speed-up is expected" in notes[0] and "flags: avx2" in notes[0]
    assert "VNNI" in notes[0] and "9.3x slower" in notes[0]  # the why, and what was measured
    assert "no avx512_bf16 or amx_bf16" in notes[1]
    assert "no CUDA GPU here" in notes[2]


def test_epyc_has_vnni_and_bf16_but_no_amx() -> None:
    cpu = cpu_support_from_cpuinfo(EPYC)
    assert cpu.int8_via == "avx512_vnni" and cpu.bf16_via == "avx512_bf16"
    assert "amx_int8" not in cpu.evidence and "avx_vnni" in cpu.evidence
    note = hardware_notes(cpu, [], ["int8"])[0]
    assert "int8 dot-product instructions (avx512_vnni)" in note and "figures below decide" in note


def test_arm_and_unreadable_cpuinfo_claim_nothing() -> None:
    for cpu in (cpu_support_from_cpuinfo(ARM), cpu_support(())):
        assert not cpu.int8 and not cpu.bf16 and cpu.evidence == []


@pytest.mark.parametrize(
    ("capability", "fp16", "bf16", "int8_via", "fp8"),
    [
        ("9.0", True, True, "tensor cores", True),  # H100/H200
        ("8.9", True, True, "tensor cores", True),  # L4, RTX 4090
        ("8.0", True, True, "tensor cores", False),  # A100
        ("7.5", True, False, "tensor cores", False),  # T4
        ("7.0", True, False, "dp4a", False),  # V100: fp16 tensor cores, int8 only through DP4A
        ("6.1", False, False, "dp4a", False),  # P4/P40
        ("5.2", False, False, None, False),  # M40
    ],
)
def test_gpu_compute_capability_from_fed_driver_facts(
    capability: str, fp16: bool, bf16: bool, int8_via: str | None, fp8: bool
) -> None:
    facts = Facts.from_data(
        {"driver": {"gpus": [{"index": 0, "name": "GPU", "compute_capability": capability}]}}
    )
    [gpu] = gpus_support(gpus_from_facts(facts))
    assert (gpu.fp16, gpu.bf16, gpu.int8_via, gpu.fp8) == (fp16, bf16, int8_via, fp8)
    assert gpu.device == "gpu:0" and gpu.evidence == [f"compute capability {capability}"]


def test_gpu_facts_fall_back_to_paddle_and_unknown_capability_claims_nothing() -> None:
    facts = Facts.from_data({"paddle": {"gpus": [{"index": 1, "name": "A100", "capability": [8, 0]}]}})
    assert [g.device for g in gpus_support(gpus_from_facts(facts))] == ["gpu:1"]
    assert gpu_support({"index": 0, "name": "?", "compute_capability": None}) is None
    assert gpus_from_facts(Facts.from_data({})) == []


def test_fp16_is_offered_only_on_a_gpu_with_fp16_tensor_cores() -> None:
    h200 = gpus_support([{"index": 0, "name": "NVIDIA H200", "compute_capability": "9.0"}])
    p4 = gpus_support([{"index": 0, "name": "Tesla P4", "compute_capability": "6.1"}])
    cpu = cpu_support(())
    assert _fp16_path(h200).unavailable is not None and _fp16_path(h200).unavailable(None) is None
    reason = _fp16_path(p4).unavailable(None)  # type: ignore[misc]
    assert reason is not None and "no fp16 tensor cores" in reason
    none = _fp16_path([]).unavailable(None)  # type: ignore[misc]
    assert none is not None and "no CUDA GPU here" in none
    note = hardware_notes(cpu, h200, ["fp16"])[-1]
    assert "NVIDIA H200" in note and "fp16, bf16, int8, fp8" in note and "is offered" in note
    assert "not offered" in hardware_notes(cpu, p4, ["fp16"])[-1]
    assert not any("int8 dot-product" in n for n in hardware_notes(cpu, h200, ["fp16"]))


def test_gate_top1_for_classes_cosine_otherwise_and_unmeasured_never_passes() -> None:
    assert judge(1.0, 0.5).passed and judge(0.99, None).passed
    assert not judge(0.98, 1.0).passed  # top-1 decides where there are classes
    assert judge(0.98, 1.0).measure == "top1_agreement"
    assert judge(None, 0.995).passed and judge(None, 0.995).measure == "cosine"
    assert not judge(None, 0.9).passed and not judge(None, None).passed
    assert judge(0.95, None, min_top1=0.9).passed


def _stats(median: float, p25: float, p75: float) -> dict[str, float]:
    return {"median": median, "p25": p25, "p75": p75, "iqr": p75 - p25, "samples": 20}


def test_latency_ratio_per_batch_with_overlap() -> None:
    int8 = {
        "name": "onnxruntime_int8",
        "latency": {"batch_1": _stats(2.0, 1.9, 2.1), "batch_8": _stats(9, 8, 10)},
    }
    fp32 = {
        "name": "onnxruntime",
        "latency": {"batch_1": _stats(1.0, 0.9, 1.1), "batch_8": _stats(8.5, 8, 9)},
    }
    ratio = latency_ratio(int8, fp32)
    assert ratio is not None
    assert ratio["batch_1"] == {"ratio": 2.0, "overlap": False, "baseline": "onnxruntime"}
    assert ratio["batch_8"]["overlap"] and ratio["batch_8"]["ratio"] == pytest.approx(9 / 8.5)
    assert latency_ratio(int8, None) is None


def _doc(top1: float | None, status: str = "ok") -> dict[str, Any]:
    return {
        "name": "onnxruntime_int8",
        "status": status,
        "tolerance": 1e-5,
        "top1_agreement": top1,
        "cosine": 0.9999,
        "max_abs_diff": 0.02,
        "within_tolerance": False,
        "latency": {"batch_8": _stats(3.0, 2.9, 3.1)},
        "calibration_samples": 32,
        "error": "InvalidGraph: boom" if status == "error" else None,
    }


def test_judging_replaces_the_float32_tolerance_by_the_gate() -> None:
    baseline = {"name": "onnxruntime", "latency": {"batch_8": _stats(2.0, 1.9, 2.1)}}
    cpu = cpu_support_from_cpuinfo(BROADWELL)
    passed = _doc(1.0)
    finding = _judge_path("int8", passed, baseline, cpu)
    assert passed["status"] == "ok" and passed["within_tolerance"] and passed["tolerance"] is None
    assert passed["speedup_expected"] is False
    assert finding.severity == "info" and "1.50x of onnxruntime" in finding.summary
    assert "top-1 agreement 100.00% (gate: at least 99%): pass" in finding.summary
    assert "calibration_samples: 32" in finding.evidence
    failed = _doc(0.875)
    finding = _judge_path("int8", failed, baseline, cpu)
    assert failed["status"] == "exceeds" and failed["gate"]["passed"] is False
    assert (
        finding.severity == "fail"
        and "87.50%" in finding.summary
        and "changes the predictions" in finding.summary
    )
    assert finding.fix
    broken = _doc(None, status="error")
    finding = _judge_path("int8", broken, baseline, cpu)
    assert broken["status"] == "error" and finding.severity == "fail" and "InvalidGraph" in finding.summary


def test_bad_input_is_every_reason_at_once() -> None:
    def missing(name: str) -> object | None:
        return None if name == "ml_dtypes" else object()

    problems = precision_problems(["int8"], False, missing)
    assert len(problems) == 2
    assert "drop --no-onnx" in problems[0]
    assert "ml_dtypes" in problems[1] and "paddle-workbench[onnx]" in problems[1]
    assert precision_problems(["fp16"], False, missing) == []
    assert precision_problems(["int8"], None, lambda name: object()) == []


def test_cli_precision_values_match_the_engine_and_bad_values_exit_2(tmp_path: Any) -> None:
    assert CLI_PRECISIONS == PRECISIONS
    cli = build_cli()
    res = CliRunner().invoke(
        cli, ["--workspace", str(tmp_path / "ws"), "compare", "nope", "--precision", "int4"]
    )
    assert res.exit_code == 2 and "int4" in res.output and "Traceback" not in res.output
