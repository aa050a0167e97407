"""``diagnose`` is linear in its input: every signature pattern runs on RE2 (never Python's backtracking
``re``), and gives the same verdict as before on every known line; the signature loader refuses what RE2
cannot run, located to the pattern's line; long inputs are read from their end with exact line numbers
and a notice. Timing itself lives in ``benchmarks/diagnose.py`` (no timing assert here)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.config.errors import ConfigError
from workbench.events import AlertRaised
from workbench.runner.in_process import start_in_process
from workbench.runs import RunStore
from workbench.troubleshoot import diagnose as dg
from workbench.troubleshoot.bundle import build_bundle
from workbench.troubleshoot.signatures import SIGNATURES, Signature, SignatureText, Wording
from workbench.troubleshoot.signatures._family import load_family
from workbench.troubleshoot.signatures._linear import MAX_PROGRAM_SIZE, LinearPattern, compile_linear

DATA = Path(__file__).parent / "data" / "diagnose"
HOSTILE = "Connection reset by peer " + "gloo " * 200_000  # issue #18's line, 1 MB
"""Quadratic under the old ``re`` patterns (hours at 1 MB); one linear pass under RE2."""


def _known_lines() -> list[str]:
    """Every line the tests know a verdict for: signature examples and the real launch logs."""
    lines = [line for _, sig in SIGNATURES.items() for ex in sig.examples for line in ex.splitlines()]
    for path in sorted(DATA.iterdir()):
        lines += path.read_text(encoding="utf-8").splitlines()
    return lines + [f"训练开始 {line} 训练结束" for line in lines]


def test_every_compiled_pattern_is_an_re2_program() -> None:
    compiled = dg._compiled()
    assert len(compiled) == len(SIGNATURES.names())
    for entry in compiled:
        for pattern in entry.patterns:
            assert isinstance(pattern, LinearPattern), entry.id
            assert type(pattern._regexp).__module__ == "re2", entry.id
        for declared in entry.signature.patterns:
            assert compile_linear(declared).program_size <= MAX_PROGRAM_SIZE


def test_re2_and_python_re_agree_on_every_known_line() -> None:
    """Recall and precision are unchanged: each pattern says the same of each known line under both."""
    lines = _known_lines()
    for name, sig in SIGNATURES.items():
        for pattern in sig.patterns:
            python, linear = re.compile(pattern), compile_linear(pattern)
            for line in lines:
                assert (python.search(line) is not None) == linear.search(line.encode()), (
                    name,
                    pattern,
                    line,
                )
    for entry in dg._compiled():  # one alternation per signature says what its patterns say together
        pythons = [re.compile(pattern) for pattern in entry.signature.patterns]
        for line in lines:
            expected = any(p.search(line) for p in pythons)
            assert any(p.search(line.encode()) for p in entry.patterns) == expected, (entry.id, line)


def test_the_rewritten_look_ahead_means_what_it_meant() -> None:
    """``kernels.cpu_unimplemented`` had ``(?!all_to_all)`` (RE2 has none): the written-out cases agree
    with it on every prefix of ``all_to_all`` followed by every kind of character."""
    original = re.compile(r"Unimplemented cpu kernel for (?!all_to_all)\w+")
    (pattern,) = SIGNATURES.get("kernels.cpu_unimplemented").patterns
    linear = compile_linear(pattern)
    word = "all_to_all"
    tails = ["", "a", "l", "_", "t", "o", "x", "A", "1", " ", ".", "(", "ll", "_to"]
    for i in range(len(word) + 1):
        for tail in tails:
            line = f"NotImplementedError: Unimplemented cpu kernel for {word[:i]}{tail}"
            assert (original.search(line) is not None) == linear.search(line.encode()), line


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        (r"kernel for (?!all_to_all)\w+", "look-around"),
        (r"(?<=rank )\d+ failed", "look-around"),
        (r"(gloo)\1", "back-reference"),
        (r"x{1000}", "RE2 instructions"),
        (r"(unclosed", "not an RE2 regular expression"),
    ],
)
def test_the_loader_refuses_what_re2_cannot_run_at_its_line(tmp_path: Path, pattern: str, why: str) -> None:
    path = tmp_path / "family.yaml"
    path.write_text(
        "signatures:\n"
        "  - id: family.one\n"
        "    keys: [kernel]\n"
        "    patterns:\n"
        "      - 'kernel broke'\n"
        f"      - '{pattern}'\n"
        "    examples: ['kernel broke']\n"
        "    text: {en: {title: Kernel broke, cause: It broke., fix: Fix it.},"
        " zh: {title: 内核坏了, cause: 坏了。, fix: 修好它。}}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as info:
        load_family(path)
    (issue,) = info.value.issues
    assert issue.line == 6 and why in issue.message, (issue.line, issue.message)
    with pytest.raises(ValueError, match=why):
        Signature(patterns=(pattern,), text=SignatureText(Wording("t", "c", "f"), Wording("标", "因", "修")))


def test_nested_quantifiers_are_harmless_under_re2_and_accepted() -> None:
    """RE2 makes the classic catastrophic shapes linear, so the loader has no reason to refuse them."""
    for pattern in (r"(a+)+b", r"^(\w+\s?)*$", r"(gloo|nccl).*(timeout|reset).*(rank|peer)"):
        assert not compile_linear(pattern).search(b"a" * 100_000 + b"!")


def test_cli_reads_a_one_megabyte_hostile_line_to_the_end() -> None:
    """Issue #18 finding 11, through the command a user types: the old patterns took hours on this line
    (65 s at 40 KB); now the subprocess' generous hang guard is never near."""
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "diagnose", "--log", "-", "--json"],
        input=(HOSTILE + "\nRuntimeError: gloo Connection reset by peer [10.0.0.2]:6170\n").encode(),
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    doc = json.loads(result.stdout)
    assert [m["id"] for m in doc["matches"]] == ["distributed.connection_lost"]
    assert doc["matches"][0]["lines"][0]["line"] == 1
    assert doc["matches"][0]["occurrences"] == 2
    assert len(doc["matches"][0]["lines"][0]["text"]) <= dg.MAX_LINE_CHARS


def test_report_diagnoses_a_run_whose_log_holds_a_hostile_line(tmp_path: Path) -> None:
    """``report`` reaches the same entry point (run logs → ``diagnose_texts``) and so the same bounds."""
    store = RunStore(tmp_path / "ws")

    def job(ctx: object) -> None:
        from workbench.runner import JobContext

        assert isinstance(ctx, JobContext)
        ctx.emit(AlertRaised(kind="nonfinite", message="loss is nan", step=1, rank=0))
        raise RuntimeError("boom")

    start_in_process(store, "hostile", job, config={}).wait(60)
    run_dir = store.resolve("latest")
    assert run_dir is not None
    launch = (DATA / "launch_matmul.log").read_text(encoding="utf-8")
    (run_dir / "logs.txt").write_text(HOSTILE + "\n" + launch, encoding="utf-8")
    doc = build_bundle(run_dir, tmp_path / "ws", env="skip").doc
    ids = [m["id"] for m in doc["diagnosis"]["matches"]]
    assert ids[0] == "shapes.matmul" and "distributed.connection_lost" in ids


def test_a_long_file_is_read_from_its_end_with_the_files_line_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dg, "READ_CHARS", 2000)
    lines = [f"step {i} loss 0.5" for i in range(1000)]
    lines[5] = "ImportError: DLL load failed while importing libpaddle"  # in the skipped head
    lines[990] = "ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 1.9GB"
    data = ("\n".join(lines) + "\n").encode()
    path = tmp_path / "train.log"
    path.write_bytes(data)
    for text, notices in (dg.read_log_file(path), dg.read_log_stream(io.BytesIO(data), "-")):
        assert len(text) <= 2000
        diagnosis = dg.diagnose_texts([("log", text)], notices)
        assert [m.id for m in diagnosis.matches] == ["memory.gpu_oom"]
        assert diagnosis.matches[0].evidence[0].line == 991
        assert "is more than diagnose reads at once" in notices[0] and "from line" in notices[0]


def test_pasted_text_and_many_sources_are_bounded_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wizard's paste box and a run's sources come as text: the tail and total bounds apply there."""
    monkeypatch.setattr(dg, "READ_CHARS", 500)
    monkeypatch.setattr(dg, "TOTAL_CHARS", 800)
    head = "ImportError: DLL load failed while importing libpaddle\n"
    body = "".join(f"step {i}\n" for i in range(200))
    oom = "Out of memory error on GPU 0\n"
    diagnosis = dg.diagnose_texts([("paste", head + body + oom), ("second", body + oom), ("third", oom)])
    assert [m.id for m in diagnosis.matches] == ["memory.gpu_oom"]
    assert diagnosis.matches[0].evidence[0].line == 202  # the paste's own line number
    assert diagnosis.matches[0].count == 2  # the paste's and the second's tail; the third is not read
    assert len(diagnosis.notices) == 3 and "third: not read" in diagnosis.notices[2]
    assert "TOTAL_CHARS" not in diagnosis.notices[2]
