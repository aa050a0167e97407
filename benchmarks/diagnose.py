"""``diagnose`` on long logs: how long reading a 100k-line launched-job log takes (budget: well under 1 s).

Three logs of 100,000 lines each, built from realistic lines: a clean training log (no known error —
the common case, costs only the key scans), the same log with a rank's real error and the launcher's
tail at the end, and a log with ANSI colours and CRLF line ends. Median of 5 runs each, after one warm-up
(which compiles the signatures).

Run from the repository root: ``python benchmarks/diagnose.py``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workbench.troubleshoot.diagnose import decode_log, diagnose_text  # noqa: E402
from workbench.troubleshoot.signatures import SIGNATURES  # noqa: E402

LINES = 100_000
TRAIN = "[2026/06/10 10:12:01] ppocr INFO: epoch: [3/500], global_step: {i}, lr: 0.001000, acc: 0.412, loss: 1.{i}"
TAIL = (Path(__file__).resolve().parents[1] / "tests/unit/data/diagnose/launch_matmul.log").read_text()


def _median(text: str) -> tuple[float, list[str]]:
    diagnose_text(text)  # warm-up
    times, ids = [], []
    for _ in range(5):
        start = time.perf_counter()
        diagnosis = diagnose_text(text)
        times.append(time.perf_counter() - start)
        ids = [m.id for m in diagnosis.matches]
    return statistics.median(times), ids


def main() -> None:
    clean = "\n".join(TRAIN.format(i=i) for i in range(LINES))
    failing = clean + "\n" + TAIL
    coloured = "\r\n".join(f"\x1b[32m{TRAIN.format(i=i)}\x1b[0m" for i in range(LINES)) + "\r\n" + TAIL
    print(f"{len(SIGNATURES)} signatures")
    for name, text in (("clean", clean), ("failing", failing)):
        seconds, ids = _median(text)
        print(
            f"{name:9s} {text.count(chr(10)) + 1:>7} lines {len(text) / 1e6:5.1f} MB  {seconds * 1000:7.1f} ms  {ids[:3]}"
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


if __name__ == "__main__":
    main()
