"""Untrusted text is inert: the sanitiser itself, then the CLI commands that print outside text.

Every command is driven as a user types it (the real command tree, in this process for speed; the
terminal is the captured stdout/stderr) on real files holding OSC 52/8/0/2, ``ESC[2J``, C1 controls and
a bidi override, and must print no ESC, BEL, C1 or bidi character — while still showing them visibly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from tests.hostile_text import BIDI, CLEAR, HOSTILE, HOSTILE_NAME, OSC2, OSC8, OSC52, assert_inert
from workbench.textsafe import drop_controls, inert, needs_inert, strip_sequences

# -- the sanitiser ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b]52;c;ZXZpbA==\x07", "␛]52;c;ZXZpbA==␇"),  # clipboard write, BEL-terminated
        ("\x1b]52;c;ZXZpbA==\x1b\\", "␛]52;c;ZXZpbA==␛\\"),  # ... ST-terminated
        ("\x1b]8;;https://evil/\x1b\\docs\x1b]8;;\x1b\\", "␛]8;;https://evil/␛\\docs␛]8;;␛\\"),  # link spoof
        ("\x1b]8;;https://evil/\x07docs\x1b]8;;\x07", "␛]8;;https://evil/␇docs␛]8;;␇"),
        ("\x1b]0;t\x07", "␛]0;t␇"),  # window title
        ("\x1b]2;t\x1b\\", "␛]2;t␛\\"),
        ("\x1b[2J", "␛[2J"),  # clear screen (not SGR: shown)
        ("\x1bP1$r\x1b\\", "␛P1$r␛\\"),  # DCS
        ("\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\", "␛_apc␛\\␛^pm␛\\␛Xsos␛\\"),
        ("\x9b2J", "\\x9b2J"),  # 8-bit CSI
        ("\x9d2;t\x9c", "\\x9d2;t\\x9c"),  # 8-bit OSC and ST
        ("\x85\x90\x98\x9e\x9f\x80", "\\x85\\x90\\x98\\x9e\\x9f\\x80"),
        ("a\u202eb\u202ac\u202bd\u202ce\u202df", "a\\u202eb\\u202ac\\u202bd\\u202ce\\u202df"),
        ("\u2066x\u2067y\u2068z\u2069", "\\u2066x\\u2067y\\u2068z\\u2069"),
        ("\x00\x01\x08\x0b\x0c\x7f", "␀␁␈␋␌␡"),
        (
            "name\udc9b2J\udcff\ud800",
            "name\\x9b2J\\xff\\ud800",
        ),  # undecodable file-name bytes, lone surrogate
        ("a\rb", "a␍b"),  # a lone CR would overwrite the line
        ("a\r\nb\n\tc", "a\nb\n\tc"),  # line ends and tabs stay
        ("\x1b[32mINFO\x1b[0m done \x1b[1;31mERR\x1b[m", "INFO done ERR"),  # colour only: dropped
    ],
)
def test_controls_are_shown_visibly(raw: str, shown: str) -> None:
    assert inert(raw) == shown
    assert_inert(inert(raw))
    assert inert(inert(raw)) == inert(raw)  # idempotent: a second pass (nested renderers) changes nothing


def test_ordinary_text_is_untouched_and_the_same_object() -> None:
    for text in (
        "",
        "loss 0.123 lr 1e-3",
        "训练 第 3 步 损失 0.5",
        "🙂 👨‍👩‍👧 é ñ ア",
        "tab\there\nnext line\n",
    ):
        assert not needs_inert(text)
        assert inert(text) is text and drop_controls(text) is text and strip_sequences(text) is text


def test_a_sequence_split_across_reads_is_inert_in_both_halves() -> None:
    whole = f"before {OSC52} {OSC8} {OSC2} {CLEAR} after\n"
    for cut in range(len(whole) + 1):
        head, tail = inert(whole[:cut]), inert(whole[cut:])
        assert_inert(head)
        assert_inert(tail)
    # The C1 CSI split from its parameters: both halves still visible text.
    assert inert("x\x9b") + inert("2Jy") == "x\\x9b2Jy"


def test_drop_controls_removes_only_zero_width_controls() -> None:
    assert (
        drop_controls(f"a{HOSTILE}b")
        == "a]52;c;ZWNobyBwd25lZA==]8;;https://evil.example/\\https://docs.example]8;;\\]0;title-zero]2;title-two\\[2J2J2;c1-titleevilb"
    )
    from rich.cells import cell_len

    assert cell_len(f"a{HOSTILE}b") == cell_len(drop_controls(f"a{HOSTILE}b"))  # layout unchanged


def test_strip_sequences_removes_whole_sequences_for_matching() -> None:
    assert (
        strip_sequences(f"a{OSC52}b{OSC8}c{OSC2}d{CLEAR}e\x9b31mf\x9d0;t\x9cg")
        == "abhttps://docs.examplecdefg"
    )
    assert strip_sequences("\x1b[1;32mOK\x1b[0m") == "OK"
    assert strip_sequences("unterminated \x1b]2;title") == "unterminated 2;title"  # the ESC ] pair goes
    # An unterminated title never swallows the lines after it (diagnose must still see the error).
    assert strip_sequences("a \x1b]2;t\nRuntimeError: x\x07\n") == "a 2;t\nRuntimeError: x\x07\n"


def test_the_sanitiser_is_linear_on_hostile_shapes() -> None:
    """Shapes that make a backtracking matcher quadratic; each is 1-2 MB and must simply finish (the
    time itself is measured in benchmarks/, not asserted here)."""
    for text in (
        "\x1b[" + "1;" * 500_000,
        "\x1b]" + "\x9d" * 500_000,
        "\x1b[1" * 300_000,
        ("\x1b]2;" + "x" * 10) * 100_000,
        "\u202e" * 1_000_000,
    ):
        assert_inert(inert(text))
        assert "\x1b" not in strip_sequences(text) or "\x1b" in text


# -- the CLI --------------------------------------------------------------------------------------


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from workbench.cli.root import build_cli

    try:
        code = build_cli().main(args=args, prog_name="paddle-workbench", standalone_mode=False)
    except SystemExit as exc:  # ctx.exit inside a command
        code = exc.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err


def _hostile_dataset(root: Path) -> Path:
    (root / "images").mkdir(parents=True)
    Image.new("RGB", (16, 16)).save(root / "images" / "a.png")
    (root / "label.txt").write_text(f"0 cat{HOSTILE}\n1 dog\n", encoding="utf-8")
    lines = ["images/a.png 0", f"images/b{HOSTILE}.png 1", f"images/a.png {HOSTILE}", f"images/{HOSTILE}"]
    (root / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "val.txt").write_text(f"images/a.png 1{HOSTILE}\n", encoding="utf-8")
    return root


def test_dataset_check_shows_hostile_list_lines_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _hostile_dataset(tmp_path / "ds")
    code, out, err = _cli(["--workspace", str(tmp_path / "ws"), "dataset", "check", str(data)], capsys)
    assert code in (1, 2), out + err
    assert_inert(out + err)
    assert "␛]52;c;" in out and "␛]2;title-two" in out  # shown, not swallowed
    code, out, err = _cli(
        ["--workspace", str(tmp_path / "ws"), "dataset", "check", str(data), "--json"], capsys
    )
    assert_inert(err)
    assert OSC52 in out or "\\u001b]52" in out or json.loads(out)  # JSON keeps the data (escaped by json)


def test_validate_and_train_echo_hostile_config_values_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bad.yaml"
    body = 'task: image_classification\nname: tiny\nmodel: {name: "small_cnn\\e]2;pwned\\a\\e[2J\\x9b31m\\u202e"}\n'
    config.write_text(body, encoding="utf-8")
    for command in (["validate"], ["train"]):
        code, out, err = _cli(["--workspace", str(tmp_path / "ws"), *command, str(config)], capsys)
        assert code == 2, out + err
        assert "small_cnn␛]2;pwned" in out + err
        assert_inert(out + err)


def test_diagnose_shows_a_hostile_log_and_its_name_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / f"train{HOSTILE_NAME}.log"
    log.write_text(
        "Traceback (most recent call last):\n"
        f'  File "train{HOSTILE}.py", line 3\n'
        f"RuntimeError: {OSC2}(ResourceExhausted) Out of memory error on GPU 0. {OSC52}{BIDI} Cannot allocate"
        f" 1.0GiB memory on GPU 0 {CLEAR}\x9b2J\n",
        encoding="utf-8",
    )
    code, out, err = _cli(["diagnose", "--log", str(log)], capsys)
    assert "memory.gpu_oom" in out, out + err
    assert "trainx␛[2J␛]0;title-zero" in out  # the file's name, shown
    assert_inert(out + err)


def test_attach_shows_a_hostile_kit_log_path_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = Path(__file__).resolve().parent.parent / "fixtures" / "kit_logs" / "paddleclas_train.log"
    folder = tmp_path / f"kit{HOSTILE_NAME}"
    folder.mkdir()
    log = folder / "train.log"
    lines = fixture.read_text(encoding="utf-8").splitlines()
    log.write_text("\n".join([lines[0], f"ppcls INFO: {HOSTILE}", *lines[1:]]) + "\n", encoding="utf-8")
    code, out, err = _cli(["--workspace", str(tmp_path / "ws"), "--plain", "attach", str(log)], capsys)
    assert code == 0, out + err
    assert "kitx␛[2J" in out
    assert_inert(out + err)
    missing = folder / f"gone{HOSTILE_NAME}.log"
    code, out, err = _cli(["--workspace", str(tmp_path / "ws"), "--plain", "attach", str(missing)], capsys)
    assert code == 2 and "gonex␛[2J" in out + err
    assert_inert(out + err)


def test_runs_lists_a_hostile_run_inert(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.runs import RunStore

    store = RunStore(tmp_path / "ws")
    handle = store.create("hostile", {"name": "hostile"}, kind=f"custom{HOSTILE}")
    handle.close()
    code, out, err = _cli(["--workspace", str(tmp_path / "ws"), "runs"], capsys)
    assert code == 0 and "custom␛]52" in out, out + err
    assert_inert(out + err)


def test_a_file_name_holding_raw_c1_and_esc_bytes_is_shown_not_written_raw(tmp_path: Path) -> None:
    """A name Python cannot decode keeps its bytes as lone surrogates; printed, they would be the raw
    8-bit CSI byte again. The command's real stdout (a subprocess) shows them as ``\\x9b`` instead."""
    import os
    import subprocess
    import sys

    name = os.fsencode(tmp_path) + b"/log\x9b2J\x1b]2;t\x07.txt"
    with open(name, "wb") as fh:
        fh.write(b"RuntimeError: (ResourceExhausted) Out of memory error on GPU 0.\n")
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "diagnose", "--log", name], capture_output=True, timeout=120
    )
    shown = result.stdout.decode("utf-8", "surrogateescape") + result.stderr.decode(
        "utf-8", "surrogateescape"
    )
    assert "memory.gpu_oom" in shown, shown
    assert "log\\x9b2J␛]2;t.txt" in shown  # (Rich itself drops the BEL)
    assert "\udc9b" not in shown  # no raw 0x9b byte (a UTF-8 "␛" holds 0x9b only as its last byte)
    assert_inert(shown.replace("\udc9b", ""))
