"""``diagnose`` on long logs and hostile lines: time per input shape against its budget.

Two groups of inputs, median of a few runs each after one warm-up (which compiles the signatures):

- **Long logs** (budget: well under 1 s): 100,000 realistic lines — a clean training log (no known
  error, the common case: only the key scans), the same log with a rank's real error and the launcher's
  tail at the end, and a log with ANSI colours and CRLF line ends.
- **1 MB single lines and line floods** (budget: 1 s per MB — matching must be linear in the input):
  every signature's keys repeated on one line, ``'gloo ' * N``, ``'Connection reset by peer gloo …'``
  (issue #18's line), one character repeated, a base64 blob, a real traceback's words on one line,
  49,000 distinct words (the key filter's worst case), Chinese keys, unterminated escape sequences, and
  a few MB of short lines that each hold an error (or many signatures' keys).

- **The corpus** (``tests/data/diagnose_corpus``, real users' logs from public issues): recall of the right
  cause in the top 1 and top 3 per family, how often no known cause was found (silence) and how often the
  structured reading answered instead (unrecognised), claims on clean kit logs, and the time per MB over
  the corpus. ``--part test`` (the default) prints only aggregates; ``--part dev`` also lists each miss;
  ``--part all`` both parts' aggregates and the dev misses. The engine's similar public reports are
  made from ``dev/`` itself, so every log is scored with its own report left out (leave-one-out: the
  ``leave_out`` of ``diagnose_text``); without that a dev log would find itself and its figure be fake.

Run from the repository root: ``python benchmarks/diagnose.py`` (``--mb 0.04`` makes the hostile inputs
smaller, e.g. to time an engine that is not linear; ``--skip-long`` leaves out the 100k-line logs;
``--corpus-only`` / ``--no-corpus``; ``--engine DIR`` scores the workbench package of another tree, e.g.
an older commit unpacked with ``git archive``).
"""

from __future__ import annotations

import argparse
import base64
import functools
import inspect
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import diagnose_corpus  # noqa: E402

if TYPE_CHECKING:
    from workbench.troubleshoot.diagnose import Diagnosis

LINES = 100_000
TRAIN = "[2026/06/10 10:12:01] ppocr INFO: epoch: [3/500], global_step: {i}, lr: 0.001000, acc: 0.412, loss: 1.{i}"
DATA = ROOT / "tests/unit/data/diagnose"
CORPUS = ROOT / "tests/data/diagnose_corpus"
BUDGET_S_PER_MB = 1.0
"""The budget for the hostile inputs: 1 s per MB of input (issue #18: ≤ 1 s for a 1 MB single line)."""


def diagnose_text(text: str, leave_out: tuple[str, ...] = ()) -> Diagnosis:
    """The engine's ``diagnose_text`` (imported late: ``--engine`` chooses whose). ``leave_out``: report
    sources its similar public reports must not compare with (an engine without that layer ignores it)."""
    from workbench.troubleshoot.diagnose import diagnose_text as engine

    if leave_out and _takes_leave_out(engine):
        return engine(text, leave_out=leave_out)
    return engine(text)


@functools.cache
def _takes_leave_out(engine: Callable[..., Diagnosis]) -> bool:
    """Whether the engine has the similar-reports layer's ``leave_out`` (an older tree's has not): read
    once, not inside every timed call."""
    return "leave_out" in inspect.signature(engine).parameters


def _median(text: str, runs: int = 5) -> tuple[float, list[str]]:
    diagnose_text(text)  # warm-up
    times, ids = [], []
    for _ in range(runs):
        start = time.perf_counter()
        diagnosis = diagnose_text(text)
        times.append(time.perf_counter() - start)
        ids = [m.id for m in diagnosis.matches]
    return statistics.median(times), ids


def _fill(unit: str, size: int, sep: str = " ") -> str:
    """``unit`` repeated (joined by ``sep``) to ``size`` characters."""
    return ((unit + sep) * (size // (len(unit) + len(sep)) + 1))[:size]


def _word(i: int) -> str:
    """A distinct lower-case word per ``i`` (letters only, so each is one letter run)."""
    letters = ""
    while True:
        letters += chr(97 + i % 26)
        i //= 26
        if not i:
            return "q" + letters


def hostile_shapes(size: int) -> dict[str, Callable[[], str]]:
    """The hostile inputs, each about ``size`` characters (built lazily)."""
    from workbench.troubleshoot.signatures import SIGNATURES

    keys = " ".join(key for _, sig in SIGNATURES.items() for key in sig.keys)
    traceback_words = " ".join(
        " ".join((DATA / name).read_text(encoding="utf-8").split())
        for name in ("launch_matmul.workerlog.0", "launch_matmul.workerlog.1", "launch_matmul.log")
    )
    blob = base64.b64encode(random.Random(18).randbytes(size * 3 // 4)).decode("ascii")
    short = "\n".join(
        line
        for name in ("launch_matmul.workerlog.0", "launch_matmul.workerlog.1", "launch_matmul.log")
        for line in (DATA / name).read_text(encoding="utf-8").splitlines()
    )
    return {
        "every key, one line": lambda: _fill(keys, size),
        "'gloo ' * N": lambda: ("gloo " * (size // 5 + 1))[:size],
        "issue #18 line": lambda: "Connection reset by peer " + ("gloo " * (size // 5 + 1))[: size - 25],
        "'nccl error ' * N": lambda: ("nccl error " * (size // 11 + 1))[:size],
        "one char * N": lambda: "a" * size,
        "base64 blob": lambda: blob[:size],
        "traceback words": lambda: _fill(traceback_words, size),
        "49k distinct words": lambda: _fill(" ".join(_word(i) for i in range(49_000)), size),
        "chinese keys": lambda: _fill("端口 训练 显存不足 段错误 驱动 版本 标签", size),
        "open escapes": lambda: _fill("\x1b]8;;gloo \x1b[1;31;4 \x9dnccl \x1bP", size, ""),
        "short lines x4": lambda: _fill(short, 4 * size, "\n"),
        "short key lines x4": lambda: _fill(
            "NCCL error gloo store wait Connection reset by peer Killed MemoryError reshard spmd",
            4 * size,
            "\n",
        ),
    }


def corpus(folder: Path, part: str, runs: int) -> None:
    """Score the engine on the corpus: recall per family, silence, clean claims, time per MB."""
    from workbench.troubleshoot.signatures import SIGNATURES

    parts = {"test": ("test", "clean"), "dev": ("dev", "clean"), "all": ("dev", "test", "clean")}[part]
    logs, problems = diagnose_corpus.load(folder, parts)
    counts = {name: sum(1 for log in logs if log.part == name) for name in parts}
    print(f"corpus {folder}: " + ", ".join(f"{name} {n}" for name, n in counts.items()))
    for problem in problems:
        print(f"  format: {problem}")
    unknown = diagnose_corpus.unknown_ids(logs, set(SIGNATURES.names()))
    if unknown:
        print(
            f"  expected ids no signature has yet: {len(unknown)} ({', '.join(unknown[:12])}{' …' if len(unknown) > 12 else ''})"
        )
    if not logs:
        print("  empty corpus")
        return
    diagnose_text("warm-up")  # compiles the signatures outside the timed runs
    every, _ = diagnose_corpus.load(folder)
    # the time as users meet it: every report in (leaving one out rebuilds the index per log, a cost of
    # scoring, not of diagnosing); the recall figures below leave each log's own report out
    whole = diagnose_corpus.score(every, diagnose_text, runs)
    print(
        f"whole corpus ({len(every)} logs, {whole.megabytes:.3f} MB): {whole.seconds * 1000:.1f} ms, "
        f"{whole.ms_per_mb:.0f} ms per MB (median of {runs} runs per log)"
    )
    for scored in [p for p in parts if p != "clean"] if part == "all" else [part]:
        chosen = [log for log in logs if log.part in (scored, "clean")]
        result = diagnose_corpus.score(chosen, diagnose_text, runs, leave_out=True)
        title = f"{scored}/ ({result.total.n} error logs, {result.clean} clean): recall of the right cause"
        for line in diagnose_corpus.report(result, misses=scored == "dev", title=title):
            print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0, help="size of each hostile input in MB (default 1)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per hostile input (default 3)")
    parser.add_argument("--skip-long", action="store_true", help="leave out the 100k-line logs")
    parser.add_argument(
        "--corpus", type=Path, default=CORPUS, help="the corpus folder (default: the repository's)"
    )
    parser.add_argument("--part", choices=("dev", "test", "all"), default="test", help="which part to score")
    parser.add_argument("--corpus-only", action="store_true", help="score the corpus, skip the timing inputs")
    parser.add_argument("--no-corpus", action="store_true", help="leave the corpus out")
    parser.add_argument("--engine", type=Path, default=None, help="a tree whose workbench package to score")
    args = parser.parse_args()
    if args.engine is not None:
        sys.path.insert(0, str(args.engine.resolve()))
    import workbench
    from workbench.troubleshoot.signatures import SIGNATURES

    print(f"engine {Path(workbench.__file__).parent}: {len(SIGNATURES)} signatures")
    if not args.corpus_only:
        timing(args)
    if not args.no_corpus:
        corpus(args.corpus, args.part, runs=3)


def timing(args: argparse.Namespace) -> None:
    """The 100k-line logs and the hostile inputs against their budgets."""
    from workbench.troubleshoot.diagnose import decode_log

    tail = (DATA / "launch_matmul.log").read_text()
    if not args.skip_long:
        clean = "\n".join(TRAIN.format(i=i) for i in range(LINES))
        failing = clean + "\n" + tail
        coloured = "\r\n".join(f"\x1b[32m{TRAIN.format(i=i)}\x1b[0m" for i in range(LINES)) + "\r\n" + tail
        for name, text in (("clean", clean), ("failing", failing)):
            seconds, ids = _median(text)
            print(
                f"{name:9s} {text.count(chr(10)) + 1:>7} lines {len(text) / 1e6:5.1f} MB  "
                f"{seconds * 1000:7.1f} ms  {ids[:3]}"
            )
        data = coloured.encode()
        start = time.perf_counter()
        text, _ = decode_log(data)
        decode_s = time.perf_counter() - start
        seconds, ids = _median(text)
        print(
            f"coloured  {text.count(chr(10)) + 1:>7} lines {len(data) / 1e6:5.1f} MB  decode+normalise "
            f"{decode_s * 1000:.1f} ms, diagnose {seconds * 1000:.1f} ms  {ids[:3]}"
        )
    size = int(args.mb * 1024 * 1024)
    print(f"hostile inputs: budget {BUDGET_S_PER_MB:.1f} s per MB, median of {args.runs}")
    worst = 0.0
    for name, build in hostile_shapes(size).items():
        text = build()
        megabytes = len(text.encode("utf-8")) / 1024 / 1024
        seconds, ids = _median(text, args.runs)
        budget = BUDGET_S_PER_MB * megabytes
        worst = max(worst, seconds / budget)
        verdict = "ok" if seconds <= budget else "OVER BUDGET"
        print(
            f"  {name:22s} {text.count(chr(10)) + 1:>7} lines {megabytes:5.2f} MB  {seconds * 1000:8.1f} ms"
            f"  (budget {budget * 1000:.0f} ms) {verdict}  {len(ids)} matches"
        )
    print(f"worst: {worst * 100:.0f}% of budget")


if __name__ == "__main__":
    main()
