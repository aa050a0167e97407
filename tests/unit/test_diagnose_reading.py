"""The structured reading of a log and the answer built on it when no signature matches: the final
exception (Python's and a C++ error block's), the innermost frame in the user's or kit's code, errnos,
libraries, versions and kit prefixes; signatures that match on it (exception type/message, version
facts); ``"kind"`` recognised / unrecognised / none through ``diagnose``, ``report`` and the JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.config.errors import ConfigError
from workbench.i18n import set_language
from workbench.troubleshoot import diagnose as dg
from workbench.troubleshoot.reading import Reading, frame_kind, read_log
from workbench.troubleshoot.signatures import SIGNATURES
from workbench.troubleshoot.signatures._family import load_family
from workbench.troubleshoot.versions import FACTS

PYTHON_TRACEBACK = """\
[2025/03/02 10:01:07] ppocr INFO: Architecture : Rec
Traceback (most recent call last):
  File "/home/USER/work/ocr_service.py", line 41, in <module>
    result = engine.ocr(image)
  File "/home/USER/work/ocr_service.py", line 17, in run
    return model.predict(batch)
  File "/opt/conda/lib/python3.10/site-packages/paddle/nn/layer/layers.py", line 1429, in __call__
    return self.forward(*inputs, **kwargs)
  File "/opt/conda/lib/python3.10/site-packages/paddle/nn/functional/conv.py", line 117, in _conv_nd
    pre_bias = _C_ops.conv2d(x, weight, stride, padding, padding_algorithm, dilation, groups, data_format)
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: (PreconditionNotMet) The weight of conv2d was freed by an earlier call.
  [Hint: Expected holder_ != nullptr, but received holder_:0 == nullptr:0.] (at /paddle/paddle/phi/core/dense_tensor_impl.cc:44)
"""
"""A Python traceback through Paddle's own frames into a C++ check; no signature knows this error."""

CPP_SUMMARY = """\
I0312 08:11:05.670004  1881 program_interpreter.cc:243] New Executor is Running.
W0312 08:11:05.912 1881 gpu_resources.cc:119] Please NOTE: device: 0, GPU Compute Capability: 8.6, Driver API Version: 12.2, Runtime API Version: 11.8
W0312 08:11:05.913 1881 gpu_resources.cc:164] device: 0, cuDNN Version: 8.9.


--------------------------------------
C++ Traceback (most recent call last):
--------------------------------------
0   paddle::framework::StandaloneExecutor::Run(std::vector<std::string, std::allocator<std::string> > const&)
1   paddle::framework::InterpreterCore::Run(std::vector<std::string, std::allocator<std::string> > const&, bool)

----------------------
Error Message Summary:
----------------------
InvalidArgumentError: The axis of the gather op must be within [-2, 2), but received axis 5.
  [Hint: Expected axis_index < input_rank, but received axis_index:5 >= input_rank:2.] (at /paddle/paddle/phi/kernels/funcs/gather.h:211)
  [operator < gather > error]
"""
"""A static-graph C++ error block with Paddle's device banner (CUDA runtime, driver API, cuDNN)."""

KIT_PREFIXED = """\
[2024/11/05 14:39:34] ppdet.engine INFO: Epoch: [0] [  20/1250] learning_rate: 0.000500 loss: 2.113
[2024/11/05 14:39:36] ppdet.engine ERROR: a batch failed, error happened with msg: Traceback (most recent call last):
  File "/home/USER/PaddleDetection/ppdet/data/reader.py", line 55, in __call__
    data = f(data)
  File "/home/USER/PaddleDetection/ppdet/data/transform/operators.py", line 612, in apply
    im = cv2.resize(im, None, None, fx=scale_x, fy=scale_y)
cv2.error: OpenCV(4.8.0) resize.cpp:4062: error: (-215:Assertion failed) !ssize.empty() in function 'resize'
KeyError: 'gt_poly'
"""
"""A kit's logger prefix around a traceback that ends in a plain ``KeyError`` inside the kit's code."""

CHINESE = """\
(paddle) D:\\项目\\识别>python 识别.py
Traceback (most recent call last):
  File "D:\\项目\\识别\\识别.py", line 8, in <module>
    结果 = 读取配置("配置.yml")
  File "D:\\项目\\识别\\工具.py", line 21, in 读取配置
    with open(路径, "w", encoding="utf-8") as 文件:
PermissionError: [WinError 5] 拒绝访问。: 'D:\\\\项目\\\\识别\\\\配置.yml'
"""
"""Chinese paths, names and message, a Windows error number and its Chinese wording."""

USERS_OWN_ERROR = """\
Traceback (most recent call last):
  File "/home/USER/work/ocr_service.py", line 41, in <module>
    main()
  File "/home/USER/work/ocr_service.py", line 17, in run
    billing.charge(user, pages)
  File "/opt/conda/lib/python3.10/site-packages/billing/api.py", line 88, in charge
    raise QuotaExceededError(f"the daily quota of {limit} pages is used up")
billing.QuotaExceededError: the daily quota of 500 pages is used up
"""
"""The user's own exception type: no signature can claim it, whatever the families hold."""

CLEAN = """\
[2024/06/10 10:12:01] ppocr INFO: epoch: [3/500], global_step: 120, lr: 0.001000, acc: 0.412, loss: 1.92
[2024/06/10 10:12:05] ppocr INFO: epoch: [3/500], global_step: 130, lr: 0.001000, acc: 0.420, loss: 1.88
[2024/06/10 10:12:09] ppocr INFO: cur metric, acc: 0.512, norm_edit_dis: 0.83, fps: 412.3
[2024/06/10 10:12:09] ppocr INFO: best metric, acc: 0.512, is_float16: False, best_epoch: 3
"""

NO_TRACEBACK = """\
step 100/500 loss 0.913
step 110/500 loss 0.902
the job stopped: the scheduler's time limit was reached (errors so far: 0)
"""


@pytest.fixture
def no_signature_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    """No signature matches anything: what the engine answers without one, whatever the families hold."""
    monkeypatch.setattr(dg, "_compiled", lambda: ())


def _only_this(text: str) -> dg.Diagnosis:
    diagnosis = dg.diagnose_text(text)
    assert diagnosis.matches == [], [m.id for m in diagnosis.matches]
    return diagnosis


# -- the reading --------------------------------------------------------------------------------------


def test_python_traceback_reads_the_exception_paddle_hint_and_the_users_innermost_frame() -> None:
    reading = read_log(PYTHON_TRACEBACK)
    final = reading.final
    assert final is not None and final.origin == "python"
    assert (final.type, final.category) == ("RuntimeError", "PreconditionNotMet")
    assert final.message == "The weight of conv2d was freed by an earlier call."
    assert final.hint.startswith("Expected holder_ != nullptr") and final.at.endswith(
        "dense_tensor_impl.cc:44"
    )
    assert [f.kind for f in reading.frames] == ["user", "user", "paddle", "paddle"]
    frame = reading.user_frame
    assert frame is not None and (frame.path, frame.line, frame.function) == (
        "/home/USER/work/ocr_service.py",
        17,
        "run",
    )
    assert frame.code == "return model.predict(batch)" and frame.log_line == 5
    assert final.log_line == 12 and reading.traceback
    assert reading.versions == {"python": "3.10"} and "paddleocr" in reading.kits


def test_cpp_error_message_summary_reads_type_hint_location_operator_and_the_banner_versions() -> None:
    reading = read_log(CPP_SUMMARY)
    assert reading.exception is None and reading.cpp is not None
    cpp = reading.cpp
    assert (cpp.type, cpp.origin, cpp.operator) == ("InvalidArgumentError", "cpp", "gather")
    assert cpp.message.startswith("The axis of the gather op") and cpp.hint.startswith("Expected axis_index")
    assert cpp.at == "/paddle/paddle/phi/kernels/funcs/gather.h:211"
    assert reading.final is cpp and reading.has_error and not reading.traceback
    assert reading.versions["cuda"] == "11.8" and reading.versions["cudnn"] == "8.9"


def test_kit_logger_prefixes_and_a_traceback_inside_a_kit_log_line() -> None:
    reading = read_log(KIT_PREFIXED)
    assert reading.final is not None and (reading.final.type, reading.final.message) == (
        "KeyError",
        "'gt_poly'",
    )
    frame = reading.user_frame
    assert frame is not None and frame.kind == "kit" and frame.path.endswith("operators.py")
    assert "paddledetection" in reading.kits


def test_chinese_paths_names_and_message_with_a_windows_error_number() -> None:
    reading = read_log(CHINESE)
    final = reading.final
    assert final is not None and final.type == "PermissionError" and "拒绝访问" in final.message
    frame = reading.user_frame
    assert frame is not None and frame.function == "读取配置" and frame.path.endswith("工具.py")
    assert reading.errnos == ("EACCES",)


@pytest.mark.parametrize(
    ("line", "errnos", "libraries"),
    [
        ("OSError: [Errno 28] No space left on device: '/root/.paddlex/temp'", ("ENOSPC",), ()),
        ("ConnectionRefusedError: [Errno 111] Connection refused", ("ECONNREFUSED",), ()),
        ("Failed to establish a new connection: [Errno -3] Temporary failure in name resolution", ("EAI_AGAIN",), ()),
        ("cp: cannot create regular file '/data/x': 设备上没有空间", ("ENOSPC",), ()),
        ("ImportError: libGL.so.1: cannot open shared object file: No such file or directory", (), ("libGL.so.1",)),
        ("OSError: sndfile library not found", (), ("libsndfile",)),
        ("FileNotFoundError: Could not find module 'C:\\Python39\\lib\\site-packages\\paddle\\libs\\mklml.dll' (or one of its dependencies)", (), ("mklml.dll",)),
        ("Could not load library cudnn_cnn_infer64_8.dll. Error code 126", (), ("cudnn_cnn_infer64_8.dll",)),
        ("error while loading shared libraries: libgthread-2.0.so.0: cannot open shared object file", (), ("libgthread-2.0.so.0",)),
    ],
)  # fmt: skip
def test_errno_names_and_library_names(
    line: str, errnos: tuple[str, ...], libraries: tuple[str, ...]
) -> None:
    reading = read_log(line)
    assert reading.errnos == errnos and reading.libraries == libraries


def test_versions_from_pip_list_wheel_names_paths_nvidia_smi_and_image_tags() -> None:
    text = "\n".join(
        [
            "paddlepaddle-gpu          2.6.1.post120",
            "paddleocr                 3.0.1",
            "paddlex                   3.0.0",
            "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |",
            "Processing ./paddledet-2.6.0-py3-none-any.whl",
            '  File "/usr/local/lib/python3.9/site-packages/paddle/base/core.py", line 1, in <module>',
            "docker pull paddlepaddle/paddle:3.0.0-gpu-cuda11.8-cudnn8.9-trt8.6",
        ]
    )
    versions = read_log(text).versions
    assert versions["paddlepaddle-gpu"] == "2.6.1.post120" and versions["paddleocr"] == "3.0.1"
    assert versions["paddlex"] == "3.0.0" and versions["paddledetection"] == "2.6.0"
    assert versions["driver"] == "535.104.05" and versions["cuda"] == "12.2" and versions["python"] == "3.9"
    assert versions["cudnn"] == "8.9"


def test_frame_kinds() -> None:
    assert frame_kind("/usr/lib/python3.10/site-packages/paddle/base/framework.py") == "paddle"
    assert frame_kind("C:\\Python38\\lib\\site-packages\\paddleocr\\paddleocr.py") == "kit"
    assert frame_kind("/home/USER/PaddleOCR/ppocr/data/simple_dataset.py") == "kit"
    assert frame_kind("/usr/lib/python3.10/site-packages/numpy/core/fromnumeric.py") == "library"
    assert frame_kind("/usr/lib/python3.10/multiprocessing/process.py") == "stdlib"
    assert frame_kind("<frozen importlib._bootstrap>") == "stdlib"
    assert frame_kind("train.py") == "user" and frame_kind("<stdin>") == "user"
    assert frame_kind("/home/USER/tools/paddlex_helper/paddlex.py") == "user"  # a file named like a kit
    for package in ("ppgan", "ppdiffusers", "parl", "paddle_serving_server", "paddlelite", "erniekit"):
        assert frame_kind(f"/usr/lib/python3.9/site-packages/{package}/__init__.py") == "kit", package


def test_clean_log_and_a_log_without_a_traceback_read_no_failure() -> None:
    for text in (CLEAN, NO_TRACEBACK):
        reading = read_log(text)
        assert not reading.has_error and reading.final is None and reading.frames == ()


def test_reading_a_hostile_megabyte_line_is_bounded_and_keeps_line_numbers() -> None:
    """The reading cuts lines and reads the text's ends: a 1 MB line of error words and a 40k-line log
    end to end (time itself is measured in benchmarks/diagnose.py, not asserted here)."""
    line = "ValueError: x " * 80_000
    reading = read_log(line + "\n" + "step\n" * 40_000 + "KeyError: 'boxes'\n")
    assert reading.final is not None and reading.final.type == "KeyError" and reading.final.log_line == 40_002


TOOL_FAILURES = [
    (
        "严重性\t代码\t说明\t项目\t文件\t行\t禁止显示状态\n"
        "错误\tLNK2038\t检测到“RuntimeLibrary”的不匹配项: 值“MT_StaticRelease”不匹配值“MTd_StaticDebug”"
        "(io.obj 中)\tpaddle_inference_shared\tD:\\build\\io.obj\t1\t\n",
        "LNK2038",
        "RuntimeLibrary",
    ),
    (
        "main.obj : error LNK2019: unresolved external symbol paddle_infer::CreatePredictor\n",
        "LNK2019",
        "unresolved external symbol",
    ),
    ("make[2]: *** No rule to make target '/paddle/lib/libpaddle_inference.so'.  Stop.\n", "make", "No rule"),
    ("CMake Error at CMakeLists.txt:45 (message):\n  please set PADDLE_LIB\n", "CMake Error", ""),
    (
        "src/main.cc:3:10: fatal error: paddle_inference_api.h: No such file or directory\n",
        "compiler error",
        "api.h",
    ),
    ("run.sh: line 46:  1881 Killed                  python tools/train.py -c x.yml\n", "Killed", "train.py"),
    (
        "[2024/06/10 10:12:01] ppocr INFO: epoch: [1/500]\nSegmentation fault (core dumped)\n",
        "Segmentation fault",
        "",
    ),
    (
        "ERROR: No matching distribution found for paddlepaddle-gpu==2.4.2\n",
        "ERROR",
        "No matching distribution",
    ),
    ("[2024-01-01 10:00:00,000] [   ERROR] - Failed to load the vocabulary file\n", "ERROR", "vocabulary"),
]


@pytest.mark.parametrize(("text", "kind", "words"), TOOL_FAILURES, ids=["msvc-zh", "msvc", "make", "cmake", "gcc", "killed", "segv", "pip", "logger"])  # fmt: skip
def test_a_tools_failing_line_is_read_when_no_exception_is_in_sight(text: str, kind: str, words: str) -> None:
    """A build, linker, shell, pip or logger failure has no exception; its last failing line is read out
    (type: the tool's word; line number kept) instead of the log reading as no failure at all."""
    reading = read_log(text)
    assert reading.has_error and reading.final is None and reading.logged is not None
    assert reading.logged.origin == "log" and reading.logged.type == kind and words in reading.logged.message
    assert reading.logged.log_line == text.rstrip("\n").count("\n") + 1 - (1 if kind == "CMake Error" else 0)


def test_a_failing_word_in_a_sentence_or_beside_an_exception_is_not_a_tools_failure() -> None:
    for text in (
        "the worker was Killed by the scheduler? no: it finished\nstep 10 loss 0.3\n",
        "step 1 loss 0.9 (ERRORS: none)\n",
        "[INFO] Killed 3 stale workers\n",
        "eval: MEAN_ERROR: 0.3, ERROR_RATE: 0.02\n",
        NO_TRACEBACK,
        CLEAN,
    ):
        assert read_log(text).logged is None, text
    reading = read_log("ERROR: the run failed\n" + PYTHON_TRACEBACK)
    assert reading.logged is None and reading.final is not None and reading.final.type == "RuntimeError"


def test_a_line_that_only_echoes_an_earlier_failure_gives_way_to_it() -> None:
    """Each level of a recursive make repeats ``Error 2`` and the linker driver ``ld returned 1``: the line
    that says what failed is the one read out."""
    make = "make[2]: *** No rule to make target 'lib/libpaddle_inference.so'.  Stop.\n"
    make += "make[1]: *** [CMakeFiles/ocr_system.dir/all] Error 2\nmake: *** [all] Error 2\n"
    ld = "main.cc:(.text+0x1f): undefined reference to `paddle_infer::CreatePredictor'\n"
    ld += "collect2: error: ld returned 1 exit status\n"
    for text, kind, words, line in (
        (make, "make", "No rule", 1),
        (ld, "undefined reference", "Predictor", 1),
    ):
        logged = read_log(text).logged
        assert (
            logged is not None and (logged.type, logged.log_line) == (kind, line) and words in logged.message
        )
    only_echo = read_log("make: *** [all] Error 2\n").logged
    assert only_echo is not None and only_echo.type == "make"


def test_many_failing_lines_are_read_in_bounded_work_and_the_last_one_kept() -> None:
    text = "ERROR x\n" * 100_000 + "make: *** No rule to make target 'all'.  Stop.\n"
    reading = read_log(text)
    assert reading.logged is not None and reading.logged.type == "make" and reading.logged.log_line == 100_001


def test_never_silent_on_a_tools_failure(no_signature_matches: None) -> None:
    text = TOOL_FAILURES[0][0]
    for lang, word in (("en", "failing line 2"), ("zh", "出错的行 2")):
        set_language(lang)
        try:
            doc = _only_this(text).to_dict()
            lines = dg.unrecognised_lines(doc)
        finally:
            set_language("en")
        assert doc["kind"] == "unrecognised" and doc["reading"]["logged_error"]["type"] == "LNK2038"
        assert any(word in line and "LNK2038" in line for line in lines), lines


# -- the answer -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [PYTHON_TRACEBACK, CPP_SUMMARY, KIT_PREFIXED, CHINESE], ids=["python", "cpp", "kit", "chinese"])  # fmt: skip
def test_never_silent_on_a_traceback_or_an_error_block(text: str, no_signature_matches: None) -> None:
    diagnosis = _only_this(text)
    assert diagnosis.kind == "unrecognised" and diagnosis.unrecognised is not None
    doc = diagnosis.to_dict()
    assert doc["kind"] == "unrecognised" and doc["reading"]["exception"]["type"]
    lines = dg.unrecognised_lines(doc)
    assert lines[0] and lines[0] != "diagnose.cli.unrecognised"
    assert any("paddle-workbench check" in line for line in lines)
    closest = doc["unrecognised"]["closest"]
    assert closest is None or closest["sure"] is False


def test_clean_and_no_traceback_logs_get_no_answer() -> None:
    for text in (CLEAN, NO_TRACEBACK):
        diagnosis = _only_this(text)
        assert diagnosis.kind == "none" and diagnosis.unrecognised is None
        assert (
            diagnosis.to_dict()["unrecognised"] is None and dg.unrecognised_lines(diagnosis.to_dict()) == []
        )


def test_a_recognised_answer_says_so_and_keeps_its_reading() -> None:
    diagnosis = dg.diagnose_text(
        "Traceback (most recent call last):\n  File \"a.py\", line 1\nModuleNotFoundError: No module named 'paddle'\n"
    )
    doc = diagnosis.to_dict()
    assert doc["kind"] == "recognised" and doc["matches"][0]["id"] == "imports.no_paddle"
    assert doc["unrecognised"] is None and doc["reading"]["exception"]["type"] == "ModuleNotFoundError"


def test_the_answer_in_chinese_names_the_frame_and_the_errno(no_signature_matches: None) -> None:
    set_language("zh")
    try:
        lines = dg.unrecognised_lines(_only_this(CHINESE).to_dict())
    finally:
        set_language("en")
    text = "\n".join(lines)
    assert lines[0].startswith("未找到已知原因") and "工具.py:21" in text and "EACCES" in text
    assert "可以尝试" in text


def test_the_answer_points_at_the_family_the_reading_shows(no_signature_matches: None) -> None:
    from workbench.troubleshoot.context import FAMILY_FLOWS

    diagnosis = _only_this(
        'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\n'
        "ImportError: cannot import name 'Widget' from 'widgets'\n"
    )
    answer = diagnosis.unrecognised
    assert answer is not None and answer.family == "imports" and answer.flow == FAMILY_FLOWS["imports"]
    assert answer.closest is None or answer.closest.startswith("imports.")
    answer = _only_this(
        "OSError: libfoo.so.3: cannot open shared object file: No such file or directory\n"
    ).unrecognised
    assert answer is not None and answer.family == "libraries"


def test_cli_json_kind_and_exit_codes_for_the_three_answers() -> None:
    def run(text: str, *json_flag: str) -> subprocess.CompletedProcess[bytes]:
        command = [sys.executable, "-m", "workbench", "diagnose", "--log", "-", *json_flag]
        return subprocess.run(command, input=text.encode(), capture_output=True, timeout=120)

    human = run(USERS_OWN_ERROR)
    assert human.returncode == 0, human.stderr
    assert b"billing.QuotaExceededError: the daily quota" in human.stdout
    assert b"ocr_service.py:17 in run" in human.stdout and b"paddle-workbench check" in human.stdout
    for text, code, kind in (
        (USERS_OWN_ERROR, 0, "unrecognised"),
        (CLEAN, 0, "none"),
        ("Out of memory error on GPU 0. Cannot allocate 2.0GB memory on GPU 0\n", 1, "recognised"),
    ):
        done = run(text, "--json")
        assert (done.returncode, json.loads(done.stdout)["kind"]) == (code, kind)


def test_report_markdown_shows_the_unrecognised_answer(no_signature_matches: None) -> None:
    from workbench.troubleshoot.bundle import to_markdown

    diagnosis = _only_this(CPP_SUMMARY).to_dict()
    doc = {
        "run_id": "r1", "status": "failed", "last_step": 3, "redacted": False, "diagnosis": diagnosis,
        "alerts": [], "environment": {"note": "", "checks": []}, "compare": [], "logs": {}, "config": {},
        "fingerprint": {},
    }  # fmt: skip
    markdown = to_markdown(doc)
    assert "InvalidArgumentError" in markdown and "gather.h:211" in markdown


# -- signatures that match on the reading -------------------------------------------------------------

TEXT = "    text: {en: {title: T, cause: C., fix: F.}, zh: {title: 标题, cause: 原因。, fix: 修复。}}\n"


def _family(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "sigs"
    folder.mkdir()
    (folder / "example.yaml").write_text("signatures:\n" + body, encoding="utf-8")
    return folder


def test_a_signature_matches_the_final_exception_type_and_message(tmp_path: Path) -> None:
    folder = _family(
        tmp_path,
        "  - id: example.freed_weight\n"
        "    exception: {types: [RuntimeError], message: ['freed by an earlier call']}\n"
        "    examples: ['RuntimeError: (PreconditionNotMet) The weight was freed by an earlier call.']\n"
        + TEXT,
    )
    with SIGNATURES.extra_folder(folder):
        (match,) = [m for m in dg.diagnose_text(PYTHON_TRACEBACK).matches if m.id == "example.freed_weight"]
        evidence = match.evidence[0]
        assert evidence.line == 12
        assert evidence.text.startswith("RuntimeError: (PreconditionNotMet) The weight")
        assert "example.freed_weight" not in _ids(
            "ValueError: freed by an earlier call"
        )  # the type holds too
        assert "example.freed_weight" not in _ids(CPP_SUMMARY)


def _ids(text: str) -> list[str]:
    return [m.id for m in dg.diagnose_text(text).matches]


def test_a_signature_matches_a_c_plus_plus_error_type_alone(tmp_path: Path) -> None:
    folder = _family(
        tmp_path,
        "  - id: example.bad_axis\n"
        "    exception: {types: [InvalidArgumentError], message: ['axis of the gather op']}\n"
        "    examples: ['InvalidArgumentError: The axis of the gather op must be within [-2, 2)']\n" + TEXT,
    )
    with SIGNATURES.extra_folder(folder):
        assert "example.bad_axis" in _ids(CPP_SUMMARY)
        assert "example.bad_axis" not in _ids(CPP_SUMMARY.replace("gather op", "scatter op"))


def test_a_signature_matches_a_broken_version_fact(tmp_path: Path) -> None:
    folder = _family(
        tmp_path,
        "  - id: example.kit_paddle\n"
        "    facts: [kit_needs_newer_paddle]\n"
        "    examples: ['paddleocr 3.0.1\\npaddlepaddle 2.6.2\\n']\n" + TEXT,
    )
    with SIGNATURES.extra_folder(folder):
        diagnosis = dg.diagnose_text("paddleocr==3.0.1\npaddlepaddle-gpu==2.6.2\nTypeError: x\n")
        (match,) = [m for m in diagnosis.matches if m.id == "example.kit_paddle"]
        assert (match.evidence[0].line, match.evidence[0].text) == (1, "paddleocr==3.0.1")
        ok = dg.diagnose_text("paddleocr==3.0.1\npaddlepaddle-gpu==3.0.0\n")
        assert "example.kit_paddle" not in [m.id for m in ok.matches]


def test_a_signature_matches_an_errno_or_a_library_name_the_reading_found(tmp_path: Path) -> None:
    folder = _family(
        tmp_path,
        "  - id: example.disk_full\n"
        "    errnos: [ENOSPC, EDQUOT]\n"
        "    examples: ['OSError: [Errno 28] No space left on device']\n" + TEXT + "  - id: example.opengl\n"
        "    libraries: ['^libGL\\.so']\n"
        "    examples: ['ImportError: libGL.so.1: cannot open shared object file']\n" + TEXT,
    )
    with SIGNATURES.extra_folder(folder):
        (match,) = [
            m
            for m in dg.diagnose_text("训练中\ncp: 写入 '/data/x' 出错: 设备上没有空间\n").matches
            if m.id == "example.disk_full"
        ]
        assert (match.evidence[0].line, match.evidence[0].text) == (
            2,
            "cp: 写入 '/data/x' 出错: 设备上没有空间",
        )
        assert "example.disk_full" not in _ids("OSError: [Errno 13] Permission denied: '/root/.paddlex'")
        assert "example.opengl" in _ids(CHINESE + "ImportError: libGL.so.1: cannot open shared object file\n")
        assert "example.opengl" not in _ids("ImportError: libGLU.so: cannot open shared object file\n")


def test_a_dotted_exception_type_names_the_module_too() -> None:
    error = read_log("requests.exceptions.ConnectionError: HTTPSConnectionPool(host='x', port=443)").final
    assert error is not None
    assert error.is_type(("ConnectionError",)) and error.is_type(("requests.exceptions.ConnectionError",))
    assert error.is_type(("exceptions.ConnectionError",)) and not error.is_type(("urllib3.ConnectionError",))
    builtin = read_log("ConnectionError: reset").final
    assert builtin is not None and not builtin.is_type(("requests.exceptions.ConnectionError",))


def test_version_facts() -> None:
    def check(name: str, versions: dict[str, str], models: tuple[str, ...] = ()) -> bool:
        return FACTS[name](Reading(versions=versions, model_files=models)) is not None

    assert check("kit_needs_newer_paddle", {"paddlex": "3.0.0", "paddlepaddle": "2.6.2"})
    assert not check("kit_needs_newer_paddle", {"paddleocr": "2.7.3", "paddlepaddle": "2.6.2"})
    assert not check("kit_needs_newer_paddle", {"paddleocr": "3.0.0"})  # no Paddle version: no claim
    assert check("paddleocr_needs_its_paddlex", {"paddleocr": "3.1.0", "paddlex": "3.0.3"})
    assert not check("paddleocr_needs_its_paddlex", {"paddleocr": "3.1.0", "paddlex": "3.1.2"})
    assert check("pir_model_needs_paddle3", {"paddle": "2.6.1"}, ("inference.json",))
    assert not check("pir_model_needs_paddle3", {"paddle": "3.0.0"}, ("inference.json",))
    assert not check("pir_model_needs_paddle3", {"paddle": "2.6.1"}, ("inference.pdmodel",))
    assert check("both_paddle_wheels", {"paddlepaddle": "2.2.1", "paddlepaddle-gpu": "2.2.1"})
    finding = FACTS["kit_needs_newer_paddle"](read_log("pip list\npaddlex   3.0.0\npaddlepaddle   2.6.2\n"))
    assert finding is not None and (finding.line, finding.quote) == (2, "paddlex   3.0.0")
    assert finding.detail == "paddlex 3.0.0 needs paddlepaddle >= 3.0; the log shows paddlepaddle 2.6.2"


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ("    keys: [x]\n    examples: [x]\n", "keys and patterns go together"),
        ("    examples: [x]\n", "give patterns"),
        ("    errnos: [enospc]\n    examples: [x]\n", "should match ^E"),
        ("    facts: [no_such_check]\n    examples: [x]\n", "no version-facts check"),
        ("    exception: {}\n    examples: [x]\n", "give the exception's types"),
        ("    exception: {message: ['(?=x)']}\n    examples: [x]\n", "look-around"),
    ],
)
def test_the_loader_refuses_a_structural_entry_that_cannot_match(
    tmp_path: Path, entry: str, says: str
) -> None:
    path = _family(tmp_path, "  - id: example.broken\n" + entry + TEXT) / "example.yaml"
    with pytest.raises(ConfigError) as info:
        load_family(path)
    assert any(says in issue.message for issue in info.value.issues), [i.message for i in info.value.issues]


def test_an_exception_type_without_an_error_word_is_read_after_the_last_frame() -> None:
    """Python prints the exception right after the last frame, whatever its class is called: a kit's
    ``ConfigMissing`` or the demo's ``DemoFailure`` is the final exception, not silence."""
    log = (
        "Traceback (most recent call last):\n"
        '  File "/work/main/workbench/demo.py", line 47, in demo_job\n'
        '    raise DemoFailure(f"injected failure at step {step}")\n'
        "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "workbench.demo.DemoFailure: injected failure at step 40 (the demo was asked to fail)\n"
    )
    reading = read_log(log)
    assert reading.final is not None
    assert (reading.final.type, reading.final.log_line) == ("workbench.demo.DemoFailure", 5)
    assert reading.final.message.startswith("injected failure at step 40")
    assert reading.user_frame is not None and reading.user_frame.line == 47
    # an unindented line that is not right after a frame is never taken for an exception
    assert read_log("epoch 3\nBest: 0.91\nDone\n").final is None


IPYTHON_8 = """\
---------------------------------------------------------------------------
AttributeError                            Traceback (most recent call last)
Cell In[3], line 2
      1 import paddle
----> 2 from paddleocr import PaddleOCR

File ~/miniconda3/envs/ocr/lib/python3.10/site-packages/paddleocr/__init__.py:14
     12 # limitations under the License.
---> 14 from .paddleocr import *

File ~/miniconda3/envs/ocr/lib/python3.10/site-packages/paddleocr/tools/infer/utility.py:201, in create_predictor(args)
    199     config.enable_use_gpu(args.gpu_mem, 0)
--> 201 config.set_optim_cache_dir(cache_dir)

AttributeError: 'paddle.base.libpaddle.AnalysisConfig' object has no attribute 'set_optim_cache_dir'
"""

IPYTHON_7_WINDOWS = """\
ModuleNotFoundError                       Traceback (most recent call last)
<ipython-input-5-0d3c2a1e> in <module>
----> 1 import paddle

C:\\Users\\USER\\anaconda3\\lib\\site-packages\\paddle\\__init__.py in <module>
     23 
---> 24 from .framework import monkey_patch_variable
     25 from .framework import monkey_patch_math_varbase

ModuleNotFoundError: No module named 'paddle.framework.core'
"""


@pytest.mark.parametrize(
    ("log", "expected"),
    [
        (
            IPYTHON_8,
            [
                ("Cell In[3]", 2, "", "from paddleocr import PaddleOCR", "user"),
                (
                    "~/miniconda3/envs/ocr/lib/python3.10/site-packages/paddleocr/__init__.py",
                    14,
                    "",
                    "from .paddleocr import *",
                    "kit",
                ),
                (
                    "~/miniconda3/envs/ocr/lib/python3.10/site-packages/paddleocr/tools/infer/utility.py",
                    201,
                    "create_predictor(args)",
                    "config.set_optim_cache_dir(cache_dir)",
                    "kit",
                ),
            ],
        ),
        (
            IPYTHON_7_WINDOWS,
            [
                ("<ipython-input-5-0d3c2a1e>", 1, "<module>", "import paddle", "user"),
                (
                    "C:\\Users\\USER\\anaconda3\\lib\\site-packages\\paddle\\__init__.py",
                    24,
                    "<module>",
                    "from .framework import monkey_patch_variable",
                    "paddle",
                ),
            ],
        ),
    ],
    ids=["ipython8", "ipython7-windows"],
)
def test_a_notebook_traceback_is_read_as_frames(
    log: str, expected: list[tuple[str, int, str, str, str]]
) -> None:
    """Jupyter prints frames without quotes (``File path:N, in f``, ``Cell In[3], line 2``, IPython 7's
    ``path in f``) and the current line on a ``---> N`` arrow: each is a frame with its kind, so a
    signature's ``raised_in`` gate and the unrecognised answer's innermost frame work on notebook pastes."""
    reading = read_log(log)
    assert [(f.path, f.line, f.function, f.code, f.kind) for f in reading.frames] == expected
    assert reading.final is not None and reading.final.type in ("AttributeError", "ModuleNotFoundError")
    assert reading.raising_frame is reading.frames[-1]
    # a path-like line outside a traceback is not a frame
    assert read_log("File /data/train.txt:12 has 3 columns\n/opt/models in use\n").frames == ()
