"""``diagnose``'s ranking and gating conditions, on realistic logs: where the final exception was raised
(``raised_in``, a frame's ``code``), a pattern's own priority, and how a log ends (``log_ends``, a silent
hang). Each is written as a signature author writes it — a YAML family in a folder — and the shipped
families' uses of them are checked on logs shaped like users' pastes."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.config.errors import ConfigError
from workbench.troubleshoot import diagnose as dg
from workbench.troubleshoot.reading import LINE_CHARS, read_log
from workbench.troubleshoot.signatures import SIGNATURES
from workbench.troubleshoot.signatures._family import load_family

TEXT = (
    "    text: {en: {title: A cause, cause: It broke., fix: Fix it.},\n"
    "           zh: {title: 一个原因, cause: 坏了。, fix: 修好它。}}\n"
)

KIT_RAISES = """\
Traceback (most recent call last):
  File "tools/infer/predict_system.py", line 262, in <module>
    main(args)
  File "/home/USER/PaddleOCR/tools/infer/utility.py", line 308, in get_infer_gpuid
    if not paddle.fluid.core.is_compiled_with_rocm():
AttributeError: module 'paddle' has no attribute 'fluid'. Did you mean: 'flip'?
"""
"""PaddleOCR 2.x's own code calls ``paddle.fluid`` under Paddle 3: raised in a kit's frame."""

USER_RAISES = """\
Traceback (most recent call last):
  File "/home/USER/work/train_lenet.py", line 12, in <module>
    place = paddle.fluid.CUDAPlace(0)
AttributeError: module 'paddle' has no attribute 'fluid'
"""

PADDLEX_IMPORT = """\
Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/paddlex/inference/utils/pp_option.py", line 18, in <module>
    from paddle.inference import PrecisionType
  File "<frozen importlib._bootstrap>", line 1027, in _find_and_load
  File "<frozen importlib._bootstrap>", line 1004, in _find_and_load_unlocked
ModuleNotFoundError: No module named 'paddle.inference'
"""
"""An import fails inside ``importlib``'s frozen frames on behalf of PaddleX's code."""

NCCL_INIT = [
    "LAUNCH INFO 2026-06-11 09:40:10,001 Run Pod: zgtxhc, replicas 8, status ready",
    "I0611 09:40:12.101 4410 nccl_context.cc:83] init nccl context nranks: 8 local rank: 0 gpu id: 0 ring id: 0",
    "W0611 09:40:13.517 4410 device_context.cc:447] Please NOTE: device: 0, GPU Compute Capability: 8.0, "
    "Driver API Version: 11.4, Runtime API Version: 11.2",
    "W0611 09:40:13.520 4410 device_context.cc:465] device: 0, cuDNN Version: 8.1.",
]
"""A workerlog that stopped after the communicator started (a multi-node job on the wrong interface)."""


def _family(folder: Path, body: str) -> Path:
    path = folder / "probe.yaml"
    path.write_text("signatures:\n" + body, encoding="utf-8")
    return path


def _ids(text: str) -> list[str]:
    return [m.id for m in dg.diagnose_text(text).matches]


# -- where the exception was raised --------------------------------------------------------------------


def test_the_raising_frame_is_the_innermost_outside_the_standard_library() -> None:
    kit, user, frozen = read_log(KIT_RAISES), read_log(USER_RAISES), read_log(PADDLEX_IMPORT)
    assert kit.raising_frame is not None and kit.raising_frame.line == 308
    assert kit.raised_in(("kit",)) and kit.raised_in(("paddleocr",)) and not kit.raised_in(("user",))
    assert user.raised_in(("user",)) and not user.raised_in(("kit",))
    assert frozen.raising_frame is not None and frozen.raising_frame.path.endswith("pp_option.py")
    assert frozen.raised_in(("paddlex",)) and not frozen.raised_in(("paddleocr", "stdlib"))
    bare = read_log("AttributeError: module 'paddle' has no attribute 'fluid'\n")
    assert bare.raising_frame is None and not bare.raised_in(("user", "kit", "paddle"))


def test_raised_in_tells_a_kit_calling_a_removed_api_from_a_users_script(tmp_path: Path) -> None:
    _family(
        tmp_path,
        "  - id: probe.kit_old\n"
        "    exception:\n"
        "      types: [AttributeError]\n"
        "      message: [\"^module 'paddle' has no attribute\"]\n"
        "      raised_in: [kit]\n"
        "    examples: ['x']\n" + TEXT + "  - id: probe.user_old\n"
        "    raised_in: [user]\n"
        "    keys: ['has no attribute']\n"
        "    patterns: [\"module 'paddle' has no attribute\"]\n"
        "    examples: ['x']\n" + TEXT,
    )
    with SIGNATURES.extra_folder(tmp_path):
        assert "probe.kit_old" in _ids(KIT_RAISES) and "probe.user_old" not in _ids(KIT_RAISES)
        assert "probe.user_old" in _ids(USER_RAISES) and "probe.kit_old" not in _ids(USER_RAISES)
        one_line = "AttributeError: module 'paddle' has no attribute 'fluid'"  # no frames: no gate passes
        assert not {"probe.kit_old", "probe.user_old"} & set(_ids(one_line))


def test_a_kit_name_and_a_frames_source_line_narrow_the_condition(tmp_path: Path) -> None:
    _family(
        tmp_path,
        "  - id: probe.paddlex_import\n"
        "    exception:\n"
        "      - {types: [ModuleNotFoundError], raised_in: [paddlex], priority: 30}\n"
        "      - {types: [AttributeError], code: ['^import \\w+(\\.\\w+)+ as \\w+$']}\n"
        "    examples: ['x']\n" + TEXT,
    )
    circular = (
        '  File "/home/USER/PaddleDetection/ppdet/data/source/coco.py", line 20, in <module>\n'
        "    import ppdet.data.transform as transform\n"
        "AttributeError: module 'ppdet' has no attribute 'data'\n"
    )
    with SIGNATURES.extra_folder(tmp_path):
        first = dg.diagnose_text(PADDLEX_IMPORT).matches[0]
        assert first.id == "probe.paddlex_import" and first.priority == 30
        assert first.evidence[0].line == 6  # the exception line is the evidence
        assert "probe.paddlex_import" not in _ids(PADDLEX_IMPORT.replace("paddlex/", "paddleocr/"))
        assert "probe.paddlex_import" in _ids(circular)
        assert "probe.paddlex_import" not in _ids(circular.replace(" as transform", ""))


# -- a pattern's own priority ----------------------------------------------------------------------------


def test_a_precise_pattern_outranks_a_generic_signature_and_a_vague_one_ranks_below(tmp_path: Path) -> None:
    _family(
        tmp_path,
        "  - id: probe.generic\n"
        "    priority: 10\n"
        "    keys: ['Nccl error', 'NCCL error']\n"
        "    patterns: ['(?i)nccl error']\n"
        "    examples: ['x']\n" + TEXT + "  - id: probe.specific\n"
        "    priority: 8\n"
        "    keys: ['unhandled cuda error', 'NCCL WARN']\n"
        "    patterns:\n"
        "      - {pattern: '(?i)unhandled cuda error', priority: 20}\n"
        "      - {pattern: 'NCCL WARN', priority: 1}\n"
        "    examples: ['x']\n" + TEXT,
    )
    precise = "OSError: (External)  Nccl error, unhandled cuda error  (at /paddle/paddle/fluid/platform/collective_helper.cc:100)"
    vague = "node1:81:81 [1] init.cc:756 NCCL WARN Cuda failure 'invalid device ordinal'\nExternalError: Nccl error(1)"
    with SIGNATURES.extra_folder(tmp_path):
        ranked = [m for m in dg.diagnose_text(precise).matches if m.id.startswith("probe.")]
        assert [(m.id, m.priority) for m in ranked] == [("probe.specific", 20), ("probe.generic", 10)]
        ranked = [m for m in dg.diagnose_text(vague).matches if m.id.startswith("probe.")]
        assert [(m.id, m.priority) for m in ranked] == [("probe.generic", 10), ("probe.specific", 1)]
        both = vague + "\n" + precise  # the highest priority of the patterns that matched counts
        assert dg.diagnose_text(both).matches[0].id == "probe.specific"


def test_a_gated_pattern_counts_only_where_its_frame_is(tmp_path: Path) -> None:
    _family(
        tmp_path,
        "  - id: probe.gated\n"
        "    keys: ['has no attribute']\n"
        "    patterns:\n"
        "      - {pattern: \"has no attribute 'fluid'\", raised_in: [kit], priority: 15}\n"
        "      - \"has no attribute 'fluid'\"\n"
        "    examples: ['x']\n" + TEXT,
    )
    with SIGNATURES.extra_folder(tmp_path):
        by_kit = {m.id: m.priority for m in dg.diagnose_text(KIT_RAISES).matches}
        by_user = {m.id: m.priority for m in dg.diagnose_text(USER_RAISES).matches}
    assert by_kit["probe.gated"] == 15 and by_user["probe.gated"] == 0


# -- how a log ends ----------------------------------------------------------------------------------------


def _hang_family(folder: Path) -> None:
    _family(
        folder,
        "  - id: probe.hang\n"
        "    consequence: true\n"
        "    log_ends:\n"
        "      patterns: ['nccl_context\\.cc:\\d+\\] init nccl context', 'NCCL INFO']\n"
        "      after: ['Please NOTE: device: \\d+', 'cuDNN Version']\n"
        "      lines: 5\n"
        "      priority: 3\n"
        "    examples: ['x']\n" + TEXT,
    )


def test_a_log_that_stops_at_nccl_start_up_is_a_hang(tmp_path: Path) -> None:
    _hang_family(tmp_path)
    with SIGNATURES.extra_folder(tmp_path):
        for ending in ("\n", "\n\n  \n", ""):  # blank lines after it do not count
            (match,) = [
                m for m in dg.diagnose_text("\n".join(NCCL_INIT) + ending).matches if m.id == "probe.hang"
            ]
            assert match.evidence[0].line == 2 and "init nccl context" in match.evidence[0].text
            assert match.priority == 3
        only = dg.diagnose_text(NCCL_INIT[1])
        (match,) = [m for m in only.matches if m.id == "probe.hang"]
        assert match.evidence[0].line == 1


GOES_ON = [
    "[2026/06/11 09:41:02] ppocr INFO: epoch: [1/500], global_step: 10, loss: 2.512",  # training went on
    "LAUNCH INFO 2026-06-11 09:52:00,100 Exit code 0",
    'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n    main()\n'
    "RuntimeError: (PreconditionNotMet) The third-party dynamic library (libnccl.so) is not found",
]
"""What may follow the start-up lines of a job that did not hang: progress, a clean exit, a failure."""


def test_a_log_that_goes_on_or_fails_after_start_up_is_not_a_hang(tmp_path: Path) -> None:
    _hang_family(tmp_path)
    with SIGNATURES.extra_folder(tmp_path):
        for after in GOES_ON:
            assert "probe.hang" not in _ids("\n".join(NCCL_INIT) + "\n" + after + "\n"), after


def test_the_shipped_hang_and_rendezvous_signatures_read_the_end_of_a_log() -> None:
    banner = "\n".join(NCCL_INIT)
    assert _ids(banner) == ["distributed.hang"]
    nccl_debug = (
        "node2:2231:2231 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n"
        "node2:2231:2231 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0> [1]docker0:172.17.0.1<0>\n"
        "node2:2231:2231 [0] NCCL INFO Using network Socket\n"
    )
    assert _ids(nccl_debug) == ["distributed.hang"]
    retry = "I0611 10:12:0{} 901 tcp_utils.cc:107] Retry to connect to 10.0.0.1:8090 while the server is not yet listening."
    # A log that stops while still retrying the rendezvous: the cause first, the hang it makes after it.
    assert _ids("\n".join(retry.format(i) for i in range(3))) == [
        "distributed.rendezvous_wait",
        "distributed.hang",
    ]
    assert (
        _ids(
            retry.format(1)
            + "\nI0611 10:12:09.000 901 tcp_utils.cc:130] Successfully connected to 10.0.0.1:8090\n"
            "[2026/06/11 10:13:02] ppdet.engine INFO: Epoch: [0] [ 20/1000] loss: 1.21"
        )
        == []
    )
    clean_launch = "LAUNCH INFO 2026-01-18 10:26:36,955 run_mode: collective\nLAUNCH INFO 2026-01-18 10:26:36,956 trainers:\n"
    assert _ids(clean_launch) == []


def test_a_megabyte_line_at_the_end_is_read_cut(tmp_path: Path) -> None:
    _hang_family(tmp_path)
    line = "node1:71:71 [0] NCCL INFO " + "x" * (1024 * 1024)
    assert len(dg._last_lines(line, 3)[0][2]) <= LINE_CHARS + 3
    with SIGNATURES.extra_folder(tmp_path):
        (match,) = [m for m in dg.diagnose_text("step 1\n" + line).matches if m.id == "probe.hang"]
    assert match.evidence[0].line == 2 and len(match.evidence[0].text) <= dg.MAX_LINE_CHARS


# -- the schema ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "line", "words"),
    [
        ("    raised_in: [kits]\n    keys: [x]\n    patterns: [x]\n", 3, "raised_in 'kits'"),
        ("    keys: [x]\n    patterns:\n      - {pattern: '(unclosed', priority: 3}\n", 5, "RE2"),
        ("    log_ends: {patterns: ['NCCL INFO'], lines: 99}\n", 3, "at most 20"),
        ("    exception: {types: [TypeError], raised_in: [paddel]}\n", 3, "raised_in 'paddel'"),
    ],
)
def test_a_wrong_condition_is_located_to_its_line(tmp_path: Path, entry: str, line: int, words: str) -> None:
    path = _family(tmp_path, "  - id: probe.bad\n" + entry + "    examples: ['x']\n" + TEXT)
    with pytest.raises(ConfigError) as info:
        load_family(path)
    (issue,) = info.value.issues
    assert issue.line == line and words in issue.message, (issue.line, issue.message)
