"""``diagnose`` offers sibling causes together where the log cannot tell them apart.

Some messages have two or three usual causes and nothing in the line says which: a collective that timed
out (the collective itself, a hang that ended there, a rank that never arrived), a rank that could not
reach the store (the master's address, or nodes that never joined), a Paddle-Lite kernel missing at run
time (the target, the opt version, the Lite release). The answer ranks those siblings within its first
three, each with what tells it apart, instead of one confident guess. Where the log holds the evidence
(a specific message), that reading still ranks first.
"""

from __future__ import annotations

import pytest

from workbench.troubleshoot import diagnose as dg


def _top3(text: str) -> list[str]:
    return [m.id for m in dg.diagnose_text(text).matches][:3]


NCCL_SHM = "OSError: (External) Nccl error, unhandled system error, detail: No space left on device\nPlease try one of the following solutions:\n1. export NCCL_SHM_DISABLE=1;\n3. Increase shared memory by setting the -shm-size option when starting docker container, e.g., setting  -shm-size=2g."

SIBLINGS = [
    pytest.param(
        "E0611 10:00:41.812 3321 process_group_nccl.cc:150] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800089 milliseconds before timing out.",
        {"distributed.nccl_timeout", "distributed.hang"},
        id="nccl-watchdog-timeout",
    ),
    pytest.param(
        "W0611 11:00:41.812 3321 comm_task_manager.cc:180] Find timeout start but not finish task: op:allreduce,gid:0,seq:118,started:1,completed:0,global_ranks:0;1;2;3,group_ranks:0;1;2;3",
        {"distributed.comm_watchdog", "distributed.hang", "distributed.nccl_timeout"},
        id="comm-task-timeout",
    ),
    pytest.param(
        "RuntimeError: (Fatal) _timeout:900 elapsed:901 (elapsed > _timeout)=1 (at /paddle/paddle/phi/core/distributed/store/tcp_store.cc:279)",
        {"distributed.hang", "distributed.rendezvous_wait", "distributed.tcpstore_wait"},
        id="tcpstore-master-timeout",
    ),
    pytest.param(
        "InvalidArgumentError: TCPStore timeouted and not all workers got ready.",
        {"distributed.tcpstore_wait", "distributed.rendezvous_wait"},
        id="tcpstore-workers-not-ready",
    ),
    pytest.param(
        "I0611 10:12:01.000 901 tcp_utils.cc:107] Retry to connect to 10.0.0.1:8090 while the server is not yet listening.\nRuntimeError: (InvalidArgument) Network 10.0.0.1:8090 cannot be connected. (at /paddle/paddle/phi/core/distributed/store/tcp_utils.cc:109)",
        {"distributed.connection_refused", "distributed.rendezvous_wait"},
        id="store-master-unreachable",
    ),
    pytest.param(
        "F0201 10:02:53.561918 68304 program.cc:532] Check failed: kernels.size() > 0 (0 vs. 0)\nError: This model is not supported, because kernel for 'slice' is not supported by Paddle-Lite.",
        {"deploy.lite_opt_version_mismatch", "deploy.lite_unsupported_ops", "deploy.lite_valid_targets"},
        id="lite-kernel-missing",
    ),
    pytest.param(
        'RuntimeError: `OCR` requires additional dependencies. To install them, run `pip install "paddlex[ocr]==<PADDLEX_VERSION>"` if you\'re installing `paddlex` from an index.',
        {"imports.kit_dependency_missing", "deploy.frozen_bundle"},
        id="paddlex-extra-check",
    ),
    pytest.param(
        "OSError: (External) CUDA error(3), initialization error.\n  [Hint: 'cudaErrorInitializationError'. The API call failed because the CUDA driver and runtime could not be initialized.] (at /paddle/paddle/phi/backends/gpu/cuda/cuda_info.cc:67)",
        {"libraries.driver_too_old", "device.no_gpu"},
        id="cuda-initialization-error",
    ),
    pytest.param(
        "E0611 10:01:01.100 301 analysis_config.cc:617] To use TensorRT engine, please compile inference lib with GPU first.",
        {"device.cpu_build", "deploy.no_trt_build"},
        id="trt-on-cpu-library",
    ),
    pytest.param(
        "ExternalError: CUDNN error(8), CUDNN_STATUS_EXECUTION_FAILED.\n  [Hint: 'CUDNN_STATUS_EXECUTION_FAILED'. "
        "The GPU program failed to execute.] (at /paddle/paddle/phi/kernels/gpudnn/conv_kernel.cu:291)",
        {"libraries.cudnn_version", "device.no_kernel_image"},
        id="cudnn-execution-failed",
    ),
    pytest.param(
        "ExternalError: CUDNN error(4), CUDNN_STATUS_INTERNAL_ERROR.\n  [Hint: 'CUDNN_STATUS_INTERNAL_ERROR'. "
        "An internal cuDNN operation failed.] (at /paddle/paddle/phi/kernels/gpudnn/conv_kernel.cu:291)",
        {"libraries.cudnn_version", "memory.gpu_oom"},
        id="cudnn-internal-error",
    ),
    pytest.param(
        "PaddlePaddle works well on 1 GPU.\n"
        "WARNING:root:PaddlePaddle meets some problem with 4 GPUs. This may be caused by:\n"
        " 3. NVIDIA-NCCL2 is not installed correctly on your system.\n"
        "PaddlePaddle is installed successfully ONLY for single GPU! Let's start deep learning with PaddlePaddle now.",
        {"distributed.nccl_cuda_mismatch", "distributed.nccl_system_error", "libraries.nccl"},
        id="run-check-multi-gpu",
    ),
    pytest.param(
        NCCL_SHM,
        {"distributed.nccl_system_error", "memory.shared_memory"},
        id="nccl-shm-enospc",
    ),
]


@pytest.mark.parametrize(("log", "siblings"), SIBLINGS)
def test_an_ambiguous_message_offers_its_sibling_causes_together(log: str, siblings: set[str]) -> None:
    top3 = _top3(log)
    assert siblings <= set(top3), top3


def test_the_log_that_names_the_cause_still_ranks_it_first() -> None:
    assert _top3(NCCL_SHM)[0] == "distributed.nccl_system_error"
    top3 = _top3("OSError: (External) CUDA error(710), device-side assert triggered.")
    assert "device.illegal_memory_access" in top3, top3
    top = _top3(
        'Traceback (most recent call last):\n  File "/usr/local/lib/python3.8/site-packages/paddle/io/dataloader/worker.py", line 372, in _worker_loop\n    batch = fetcher.fetch(indices)\nMemoryError: Unable to allocate 3.81 GiB for an array with shape (1024, 1000000) and data type float32\nERROR:root:DataLoader reader thread raised an exception!\nSystemError: (Fatal) Blocking queue is killed because the data reader raises an exception.'
    )
    assert top[0] == "memory.cpu_oom" and "memory.dataloader_workers" in top, top


def test_the_timeout_settings_printed_at_start_up_are_not_a_timeout() -> None:
    # ProcessGroupNCCL prints its settings when the group starts; a job that then trains is no hang.
    log = (
        "I0611 09:40:12.101 4410 process_group_nccl.cc:128] ProcessGroupNCCL pg_timeout_ 1800000\n"
        "I0611 09:40:12.102 4410 process_group_nccl.cc:129] ProcessGroupNCCL nccl_comm_init_option_ 0\n"
        "FLAGS_nccl_timeout=1800\n"
        "[2026/06/11 09:41:02] ppocr INFO: epoch: [1/500], global_step: 10, lr: 0.001000, loss: 2.1032\n"
    )
    assert _top3(log) == []


def test_nccl_reporting_its_optional_plugins_absent_is_not_a_missing_library() -> None:
    # NCCL_DEBUG=INFO on a healthy run; the job then stopped there: a hang, not a system library.
    log = (
        "I0611 09:40:12.101 4410 nccl_context.cc:83] init nccl context nranks: 2 local rank: 0 gpu id: 0 ring id: 0\n"
        "node1:3183:3183 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
        "node1:3183:3183 [0] NCCL INFO NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: "
        "cannot open shared object file: No such file or directory\n"
        "node1:3183:3183 [0] NCCL INFO NET/Plugin : No plugin found, using internal implementation\n"
        "NCCL version 2.18.1+cuda12.1\n"
    )
    assert _top3(log) == ["distributed.hang"]


TRT_HINT = (
    "W0611 09:40:10.000 4410 tensorrt.cc:56] You are using Paddle compiled with TensorRT, but TensorRT dynamic "
    "library is not found. Ignore this if TensorRT is not needed."
)
"""Printed at start-up by every TensorRT-enabled build that finds no libnvinfer, whether or not it is needed."""


def test_the_tensorrt_start_up_hint_is_offered_beside_what_the_job_did_next() -> None:
    # A Windows C++ demo without the TensorRT DLLs exits (0xc0000142) right after the hint.
    assert _top3("WARNING: Logging before InitGoogleLogging() is written to STDERR\n" + TRT_HINT) == [
        "libraries.tensorrt"
    ]
    # dynload's own failure names the missing symbol.
    assert _top3(TRT_HINT + "\nE0829 19:15:43.725265  3556 port.h:53] Load symbol getPluginRegistry failed.")[
        0
    ] == ("libraries.tensorrt")
    # A job that stopped at the communicator after it: the hang is offered with the hint.
    hang = (
        TRT_HINT + "\n"
        "I0611 09:40:12.101 4410 nccl_context.cc:83] init nccl context nranks: 2 local rank: 0 gpu id: 0 ring id: 0\n"
        "W0611 09:40:13.517 4410 gpu_resources.cc:119] Please NOTE: device: 0, GPU Compute Capability: 8.0, "
        "Driver API Version: 11.4, Runtime API Version: 11.2\n"
    )
    assert {"libraries.tensorrt", "distributed.hang"} <= set(_top3(hang))
