"""``diagnose``'s similar public reports: the causes of the corpus's real ``dev/`` reports a log resembles,
listed after the signatures' matches (never above them, never an id already matched, three causes in
all), only when the log shows a failure, marked ``"via": "similar"`` and shown under their own header;
the shipped exemplars are exactly ``dev/`` (regenerated here and compared), and a corpus log is scored
with its own report left out."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console

from benchmarks import build_similar
from benchmarks import diagnose_corpus as corpus
from workbench.cli.diagnose import print_diagnosis
from workbench.i18n import current_language, set_language
from workbench.troubleshoot import similar
from workbench.troubleshoot.diagnose import diagnose_text, similar_lines
from workbench.troubleshoot.reading import read_log
from workbench.troubleshoot.signatures import SIGNATURES

CORPUS = Path(__file__).resolve().parents[1] / "data" / "diagnose_corpus"
DEV = CORPUS / "dev"


def _log(name: str) -> corpus.CorpusLog:
    log, problems = corpus.parse(DEV / name, "dev")
    assert log is not None and not problems
    return log


def _without(body: str, fragment: str) -> str:
    """``body`` without its lines holding ``fragment`` (the decisive line a signature keys on)."""
    kept = [line for line in body.split("\n") if fragment not in line]
    assert len(kept) < len(body.split("\n"))
    return "\n".join(kept)


# The same paddle2onnx failure as PaddleDetection#5225 without its "ops are not supported" line (as an
# older converter prints it): no signature knows it; Paddle2ONNX#558, another thread, does.
P2O = _log("PaddleDetection-5225.log")
P2O_TEXT = _without(P2O.body, "are not supported yet")


def test_a_failure_no_signature_knows_gets_the_cause_a_similar_report_established() -> None:
    diagnosis = diagnose_text(P2O_TEXT, leave_out=(P2O.headers["source"],))
    assert diagnosis.matches == [] and diagnosis.kind == "unrecognised"  # the reading stays, kind too
    first = diagnosis.similar[0]
    assert first.id == "kernels.onnx_unsupported" and first.id in P2O.expected
    assert first.source == "https://github.com/PaddlePaddle/Paddle2ONNX/issues/558"
    assert first.where == "Paddle2ONNX#558" and 0.5 < first.similarity <= 1.0
    doc = diagnosis.to_dict()
    assert doc["kind"] == "unrecognised" and doc["unrecognised"] is not None
    assert doc["similar"][0] == {
        "id": "kernels.onnx_unsupported",
        "title": SIGNATURES.get("kernels.onnx_unsupported").text.of().title,
        "via": "similar",
        "report": "Paddle2ONNX#558",
        "source": "https://github.com/PaddlePaddle/Paddle2ONNX/issues/558",
        "similarity": first.similarity,
        "score": first.score,
    }


def test_similar_reports_fill_the_slots_after_the_signatures_never_above() -> None:
    log = _log("PaddleSeg-2828.log")  # one signature matches; the rest of the three slots are free
    diagnosis = diagnose_text(log.body, leave_out=(log.headers["source"],))
    matched = [m.id for m in diagnosis.matches]
    assert matched[0] == "config.component_not_found" and diagnosis.kind == "recognised"
    assert diagnosis.similar, "a failing log resembling other reports gets them"
    assert len(matched) + len(diagnosis.similar) <= similar.MAX_SHOWN
    assert not {s.id for s in diagnosis.similar} & set(matched)
    assert log.headers["source"] not in {s.source for s in diagnosis.similar}  # left out: never itself
    doc = diagnosis.to_dict()
    assert [m["via"] for m in doc["matches"]] == ["signature"] * len(matched)
    assert doc["matches"][0]["id"] == matched[0]  # the signatures' answer is unchanged, and first
    outcome = corpus.outcome_of(log, diagnosis, 0.0)  # scored in that order: signatures, then similar
    assert outcome.ids == matched + [s.id for s in diagnosis.similar] and outcome.similar == len(
        diagnosis.similar
    )


def test_no_similar_report_when_the_signatures_fill_the_three_slots() -> None:
    log = _log("ERNIE-534.log")
    diagnosis = diagnose_text(log.body, leave_out=(log.headers["source"],))
    assert len(diagnosis.matches) >= similar.MAX_SHOWN and diagnosis.similar == []


def test_only_a_log_that_shows_a_failure_gets_similar_reports() -> None:
    clean, problems = corpus.load(CORPUS, ("clean",))
    assert len(clean) >= 30 and not problems
    given = {log.name: [s.id for s in diagnose_text(log.body).similar] for log in clean}
    assert {name: ids for name, ids in given.items() if ids} == {}
    # the words of a failure without a traceback, an error block or a match: no resemblance is offered
    quiet = "step 10 loss 0.31 error rate 0.02 (NotImplementedError count: 0) ops not supported: none\n"
    diagnosis = diagnose_text(quiet)
    assert diagnosis.kind == "none" and diagnosis.similar == []


def test_the_lines_shown_say_what_a_similar_report_is_in_both_languages() -> None:
    doc = diagnose_text(P2O_TEXT, leave_out=(P2O.headers["source"],)).to_dict()
    lines = similar_lines(doc)
    assert lines[0].startswith("similar public reports (a resemblance, not a recognised cause")
    assert lines[1].startswith(
        "- looks like Paddle2ONNX#558 (https://github.com/PaddlePaddle/Paddle2ONNX/issues/558)"
    )
    assert "whose thread established:" in lines[1] and "[kernels.onnx_unsupported]" in lines[1]
    before = current_language()
    set_language("zh")
    try:
        zh = similar_lines(doc)
    finally:
        set_language(before)
    assert zh[0].startswith("相似的公开问题报告") and "该讨论确定的原因" in zh[1]
    assert similar_lines({"kind": "none", "matches": []}) == []  # a document without any: nothing shown
    out = io.StringIO()
    print_diagnosis(Console(file=out, width=300), diagnose_text(P2O_TEXT, leave_out=(P2O.headers["source"],)))
    printed = out.getvalue()
    assert printed.index("no known cause") < printed.index("similar public reports")


def test_cli_lists_similar_reports_in_json_and_keeps_exit_zero(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from workbench.cli.root import build_cli

    path = tmp_path / "paste.log"
    path.write_text(P2O_TEXT, encoding="utf-8")
    result = CliRunner().invoke(
        build_cli(), ["--workspace", str(tmp_path), "diagnose", "--log", str(path), "--json"]
    )
    assert result.exit_code == 0, result.output  # a resemblance is not a known cause
    doc = json.loads(result.stdout)
    assert doc["kind"] == "unrecognised" and doc["matches"] == []
    assert doc["similar"][0]["via"] == "similar" and doc["similar"][0]["id"] == "kernels.onnx_unsupported"
    assert "change nothing" in CliRunner().invoke(build_cli(), ["diagnose", "--help"]).output


def test_the_shipped_reports_are_the_dev_part_and_nothing_else() -> None:
    """Regenerated from ``dev/`` in memory, the data file is the same (else: ``python -m
    benchmarks.build_similar``); its sources are exactly ``dev/``'s (the corpus's sources are unique
    across parts, so no test/ or clean/ log is in it), and every cause it names is a signature."""
    assert build_similar.build(CORPUS) == similar.DATA.read_text(encoding="utf-8")
    dev, _ = corpus.load(CORPUS, ("dev",))
    reports = similar.load_reports()
    assert sorted(r.source for r in reports) == sorted(log.headers["source"] for log in dev)
    assert all(r.expected and set(r.expected) <= set(SIGNATURES.names()) for r in reports)


def test_the_corpus_scores_a_log_with_its_own_report_left_out() -> None:
    from benchmarks.diagnose import diagnose_text as bench_engine

    source = P2O.headers["source"]
    assert source in {r.source for r in similar.load_reports()}
    assert source not in {r.source for r in similar._index(frozenset({source})).reports}
    log = corpus.CorpusLog(P2O.path, "dev", P2O.headers, P2O_TEXT)
    seen: list[tuple[str, ...]] = []

    def engine(text: str, leave_out: tuple[str, ...] = ()) -> object:
        seen.append(leave_out)
        return bench_engine(text, leave_out=leave_out)  # the benchmark's wrapper passes it on

    result = corpus.score([log], engine, runs=1, leave_out=True)
    assert seen == [(source,)]
    assert result.outcomes[0].ids[0] == "kernels.onnx_unsupported" and result.total.similar == 1
    assert bench_engine(P2O_TEXT, leave_out=(source,)).similar[0].where == "Paddle2ONNX#558"


def test_a_query_reads_a_bounded_window_whatever_the_input() -> None:
    line = "Traceback (most recent call last): " + "gloo error " * 100_000  # one 1 MB line
    lines = similar.report_lines(line)
    assert len(lines) <= similar.TAIL_LINES + similar.MAX_ERROR_LINES
    assert sum(len(x) for x in lines) <= 2 * similar.LINE_CHARS
    many = "\n".join(f"RuntimeError: error number {i}" for i in range(200_000))
    assert len(similar.report_lines(many)) <= similar.TAIL_LINES + similar.MAX_ERROR_LINES


def test_the_wizards_export_shows_similar_reports_after_the_reading(tmp_path: Path) -> None:
    from workbench.troubleshoot.bundle import write_findings

    doc = diagnose_text(P2O_TEXT, leave_out=(P2O.headers["source"],)).to_dict()
    text = write_findings(tmp_path, "paste", None, doc, redact=True).read_text(encoding="utf-8")
    assert text.index("no known cause") < text.index("similar public reports")
    assert "looks like Paddle2ONNX#558 (https://github.com/PaddlePaddle/Paddle2ONNX/issues/558)" in text


def test_words_leave_out_what_differs_between_two_users_copies_of_one_failure() -> None:
    """Install paths, addresses and version digits say where and which build, not what failed."""
    linux = "ImportError: /home/USER/anaconda3/lib/python3.9/site-packages/paddle/fluid/core_avx.so: undefined symbol at 0x7f3a2c"
    windows = r"ImportError: C:\Users\USER\miniconda3\Lib\site-packages\paddle\fluid\core_avx.so: undefined symbol at 0x55d0"
    assert (
        similar.words(linux) == similar.words(windows) == ["importerror", "core_avx", "undefined", "symbol"]
    )
    assert similar.words("cublas64_112.dll needs GLIBCXX_3.4.29") == ["cublas", "dll", "needs", "glibcxx"]
    assert {similar.library_stem(n) for n in ("libcudnn.so.8", "cudnn64_8.dll", "libcudnn.so")} == {"cudnn"}
    assert similar.library_stem("libGL.so.1") == "gl" and similar.library_stem("cublas64_112.dll") == "cublas"


def test_a_windows_loader_error_resembles_the_reports_of_the_same_library() -> None:
    """Paddle#38663: Windows cannot load ``cublas64_112.dll``. The reports of ``libcublas.so`` on Linux
    (a stem, ``lib:cublas``, counted more than the loader's wording that every library shares) are the
    closest cause, not those of other libraries with the same wording."""
    log = _log("Paddle-38663.log")
    assert log.expected == ("libraries.cublas",)
    found = similar.similar_reports(log.body, read_log(log.body), leave_out=(log.headers["source"],))
    assert found[0].id == "libraries.cublas"


def test_every_cause_a_similar_report_established_gets_its_vote() -> None:
    """A thread may establish two causes (a version mismatch that shows as a missing attribute): both
    are offered, each with that report."""
    line = "AttributeError: 'ParallelEnv' object has no attribute '_device_id'"
    reports = [
        similar.Report(
            "https://github.com/o/r/issues/1",
            ("versions.kit_paddle_mismatch", "device.cpu_build"),
            (line,),
            (),
        ),
        similar.Report(
            "https://github.com/o/r/issues/2", ("data.label_out_of_range",), ("KeyError: 'label'",), ()
        ),
    ]
    found = similar.rank(similar.ReportIndex(reports), similar.tokens_of([line], []))
    assert [s.id for s in found] == ["versions.kit_paddle_mismatch", "device.cpu_build"]
    assert {s.where for s in found} == {"r#1"} and found[0].similarity == found[1].similarity
    skipped = similar.rank(
        similar.ReportIndex(reports), similar.tokens_of([line], []), skip={"versions.kit_paddle_mismatch"}
    )
    assert [s.id for s in skipped] == ["device.cpu_build"]
