"""``diagnose``: every signature finds its own realistic messages first; launched-job logs rank the first
rank's real error above the launcher tail and peers' time-outs; noise is not an error; bad input is a
sentence; the CLI's JSON and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.config.errors import ConfigError
from workbench.troubleshoot import diagnose as dg
from workbench.troubleshoot.signatures import SIGNATURES
from workbench.troubleshoot.signatures._family import load_family

DATA = Path(__file__).parent / "data" / "diagnose"

TEXT = (
    "    text: {en: {title: A widget broke, cause: It broke., fix: Replace it.},\n"
    "           zh: {title: 部件损坏, cause: 部件坏了。, fix: 更换部件。}}\n"
)
"""A family entry's wording in both languages (for the example families written by the tests)."""

EXAMPLES = [(name, i, ex) for name, sig in SIGNATURES.items() for i, ex in enumerate(sig.examples)]


def wb(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args], input=stdin, capture_output=True, timeout=120, cwd=cwd
    )


def test_at_least_forty_signatures_each_with_an_example_and_both_languages() -> None:
    names = SIGNATURES.names()
    assert len(names) >= 40
    for name, sig in SIGNATURES.items():
        assert sig.examples, name
        assert (
            sig.keys or sig.exception_conditions() or sig.facts or sig.errnos or sig.libraries or sig.log_ends
        ), name
        for english, chinese in sig.text.pairs():
            assert english and chinese and english != chinese, name
    assert SIGNATURES.silent_modules() == []


@pytest.mark.parametrize(("name", "index", "example"), EXAMPLES, ids=[f"{n}-{i}" for n, i, _ in EXAMPLES])
def test_every_example_ranks_its_own_signature_first(name: str, index: int, example: str) -> None:
    diagnosis = dg.diagnose_text(example)
    assert diagnosis.matches, f"{name} example {index} matched nothing"
    assert diagnosis.matches[0].id == name, [m.id for m in diagnosis.matches]
    assert diagnosis.matches[0].evidence, name


def test_examples_survive_chinese_wrapping_ansi_colours_and_crlf() -> None:
    # A signature that matches on how the log ends (a silent hang) rightly stops matching once more output
    # follows its example, so the wrapping below (text after the example) is not for those.
    wrappable = [(name, example) for name, _, example in EXAMPLES if not SIGNATURES.get(name).log_ends]
    for name, example in wrappable[::3]:
        text = "训练开始\r\n\x1b[31m" + example.replace("\n", "\r\n") + "\x1b[0m\r\n训练结束\r\n"
        diagnosis = dg.diagnose_text(text)
        assert diagnosis.matches and diagnosis.matches[0].id == name, name
        assert diagnosis.matches[0].evidence[0].line >= 2
        assert "\x1b" not in diagnosis.matches[0].evidence[0].text


def test_real_launch_logs_rank_the_first_ranks_error_above_launcher_and_peer_timeouts() -> None:
    """Logs of a real 2-rank ``paddle.distributed.launch`` job on CPU (rank 0 hit a matmul shape error, rank
    1 timed out in gloo, the launcher printed its tail); paths were rewritten, nothing else."""
    files = [
        DATA / "launch_matmul.log",
        DATA / "launch_matmul.workerlog.0",
        DATA / "launch_matmul.workerlog.1",
    ]
    diagnosis = dg.diagnose_files(files, names=["launch.log", "workerlog.0", "workerlog.1"])
    ids = [m.id for m in diagnosis.matches]
    assert ids[0] == "shapes.matmul"
    assert ids.index("distributed.gloo_timeout") > 0
    assert ids.index("distributed.container_failed") > ids.index("distributed.gloo_timeout")
    first = diagnosis.matches[0].evidence[0]
    lines = (DATA / "launch_matmul.log").read_text().splitlines()
    assert first.source == "launch.log" and "In operator matmul" in lines[first.line - 1]


def test_interleaved_ranks_in_one_log() -> None:
    rank0 = (DATA / "launch_matmul.workerlog.0").read_text().splitlines()
    rank1 = (DATA / "launch_matmul.workerlog.1").read_text().splitlines()
    mixed: list[str] = []
    for i in range(max(len(rank0), len(rank1))):
        # rank 1's timeout lines come first in the file: order in the file must not beat root-cause ranking
        if i < len(rank1):
            mixed.append(f"[rank1]: {rank1[i]}")
        if i < len(rank0):
            mixed.append(f"[rank0]: {rank0[i]}")
    launcher = (DATA / "launch_matmul.log").read_text().splitlines()
    mixed += launcher[next(i for i, line in enumerate(launcher) if "Pod failed" in line) :]
    diagnosis = dg.diagnose_text("\n".join(mixed))
    assert diagnosis.matches[0].id == "shapes.matmul"
    assert diagnosis.matches[0].evidence[0].text.startswith("[rank0]:")
    assert {m.id for m in diagnosis.matches[1:]} >= {
        "distributed.gloo_timeout",
        "distributed.container_failed",
    }


def test_noise_is_not_an_error() -> None:
    noise = "\n".join(
        [
            "/opt/venv/lib/python3.11/site-packages/paddle/utils/cpp_extension/extension_utils.py:712: UserWarning: "
            "No ccache found. Please be aware that recompiling all source files may be required. You can download "
            "and install ccache from: https://github.com/ccache/ccache/blob/master/doc/INSTALL.md",
            "  warnings.warn(warning_message)",
            "W0611 10:00:00.000 100 analysis_config.cc:1010] Cannot find TensorRT library; TensorRT is not used "
            "(use_trt=False)",
            "I0611 10:00:01.000 100 tcp_store.cc:336] create libuv server at port: 45463",
            "I0611 10:00:01.100 100 tcp_utils.cc:132] Successfully connected to 127.0.0.1:45463",
            "I1130 23:01:26.548506 29701 tcp_utils.cc:109] Retry to connect to 127.0.0.1:45463 while the server is "
            "not yet listening.",
            "======================= Modified FLAGS detected =======================",
            "[2026/06/10 10:12:01] ppocr INFO: epoch: [1/500], global_step: 10, lr: 0.001000, acc: 0.31, loss: 2.512,"
            " avg_reader_cost: 0.012 s",
            "[06/10 10:12:01] ppdet.engine INFO: Epoch: [0] [ 20/1000] learning_rate: 0.001 loss: 1.21 eta: 1:21:31",
            "2026-06-10 10:12:01 [INFO]\t[TRAIN] epoch: 1, iter: 20/80000, loss: 0.9811, lr: 0.009, batch_cost: 0.23",
            "step 100/300 loss 0.4412 lr 0.05 info: placed 2 ranks",
            "LAUNCH INFO 2026-11-30 23:01:31,831 Exit code 0",
        ]
    )
    assert dg.diagnose_text(noise * 50).matches == []


def test_a_hundred_thousand_lines_are_read_to_the_end_with_exact_line_numbers() -> None:
    body = [
        f"[2026/06/10 10:12:01] ppocr INFO: epoch: [1/500], global_step: {i}, loss: 0.5"
        for i in range(120_000)
    ]
    body[99_999] = (
        "ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 1.9GB memory on GPU 0"
    )
    diagnosis = dg.diagnose_text("\n".join(body))
    assert diagnosis.lines_read == 120_000
    assert [m.id for m in diagnosis.matches] == ["memory.gpu_oom"]
    assert diagnosis.matches[0].evidence[0].line == 100_000


def test_bad_input_is_a_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(dg.DiagnoseInputError, match="binary"):
        dg.decode_log(b"\x7fELF\x02\x01\x01\x00\x00\x00" + bytes(range(256)))
    with pytest.raises(dg.DiagnoseInputError, match="empty"):
        dg.decode_log(b"  \n\r\n")
    with pytest.raises(dg.DiagnoseInputError, match="no such file"):
        dg.read_log_file(tmp_path / "nope.log")
    with pytest.raises(dg.DiagnoseInputError, match="folder"):
        dg.read_log_file(tmp_path)
    big = tmp_path / "big.log"
    big.write_bytes(b"x" * 5000)
    monkeypatch.setattr(dg, "MAX_BYTES", 1000)
    with pytest.raises(dg.DiagnoseInputError, match="tail -c"):
        dg.read_log_file(big)


def test_chinese_windows_console_encoding_is_read() -> None:
    text, notices = dg.decode_log(
        "ImportError: DLL load failed while importing libpaddle: 找不到指定的模块。\r\n".encode("gbk")
    )
    assert "找不到指定的模块" in text and notices and "GB18030" in notices[0]
    assert dg.diagnose_text(text).matches[0].id == "imports.dll_load_failed"
    text, notices = dg.decode_log(b"loss: nan \xff\xfe\xfd broken")
    assert notices


def test_a_broken_family_file_fails_validation_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(
        "signatures:\n"
        "  - id: broken.one\n"
        "    keys: [x]\n"
        "    patterns: ['(unclosed']\n"
        "    examples: ['x']\n" + TEXT + "  - id: broken.two\n"
        "    keys: [y]\n"
        "    patterns: ['y']\n" + TEXT,
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as info:
        load_family(path)
    where = {
        (issue.line, "examples" in issue.message or "regular expression" in issue.message)
        for issue in info.value.issues
    }
    assert len(info.value.issues) == 2
    assert any(line == 4 for line, _ in where)


def test_one_new_yaml_file_adds_a_signature_family(tmp_path: Path) -> None:
    (tmp_path / "example_family.yaml").write_text(
        "signatures:\n  - id: example.widget\n    keys: [WIDGET]\n    patterns: ['WIDGET-\\d+ broke']\n"
        "    examples: ['WIDGET-7 broke']\n" + TEXT,
        encoding="utf-8",
    )
    with SIGNATURES.extra_folder(tmp_path) as added:
        assert added == ["example.widget"]
        assert dg.diagnose_text("x\nWIDGET-7 broke\n").matches[0].id == "example.widget"
    assert "example.widget" not in SIGNATURES
    assert dg.diagnose_text("WIDGET-7 broke").matches == []


# -- the command line ---------------------------------------------------------------------------------


def test_cli_json_document_and_exit_one_when_matched() -> None:
    result = wb("diagnose", "--log", str(DATA / "launch_matmul.log"), "--json")
    assert result.returncode == 1, result.stderr
    doc = json.loads(result.stdout)
    first = doc["matches"][0]
    assert set(first) >= {"id", "title", "cause", "fix", "evidence"}
    assert first["id"] == "shapes.matmul"
    assert first["evidence"][0].startswith(f"{DATA / 'launch_matmul.log'}:52:")


def test_cli_reads_standard_input_and_says_no_known_cause_for_unrelated_text() -> None:
    result = wb("diagnose", "--log", "-", stdin=b"all good here\nstep 10 loss 0.3\n")
    assert result.returncode == 0
    assert b"no known cause" in result.stdout
    result = wb(
        "--lang",
        "zh",
        "diagnose",
        "--log",
        "-",
        stdin=b"TypeError: only size-1 arrays can be converted to Python scalars\n",
    )
    assert result.returncode == 1
    assert "numpy 拒绝把数组转换为标量" in result.stdout.decode()


@pytest.mark.parametrize(
    ("payload", "word"),
    [(b"", b"empty"), (b"\x00\x01\x02binary\x00" * 100, b"binary")],
)
def test_cli_bad_input_exit_two_without_traceback(payload: bytes, word: bytes) -> None:
    result = wb("diagnose", "--log", "-", stdin=payload)
    assert result.returncode == 2
    assert word in result.stdout + result.stderr
    assert b"Traceback" not in result.stdout + result.stderr


def test_cli_missing_file_and_unknown_run(tmp_path: Path) -> None:
    result = wb("diagnose", "--log", str(tmp_path / "none.log"), "--json")
    assert result.returncode == 2 and b"Traceback" not in result.stderr
    assert json.loads(result.stdout)["ok"] is False
    result = wb("--workspace", str(tmp_path), "diagnose", "--run", "nope")
    assert result.returncode == 2 and b"Traceback" not in result.stderr
