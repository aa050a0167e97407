"""What making outside text inert costs on the hot paths (docs/architecture.md, "Safety").

The monitor's log pane passes every chunk it reads through :func:`workbench.textsafe.inert` (via
``InertLog``), and every widget line passes the app's ``InertFilter`` once when first drawn. This
prints, for 1 MB of log text of each shape: the time of ``needs_inert`` (the fast path: one scan),
``inert`` (the whole sanitiser), ``strip_sequences`` (diagnose's normaliser) and, per 1,000 screen
lines of 140 cells in ~6 styled segments, the line filter. Best of ``REPEAT`` runs, in ms.
Run from the repository root: ``python benchmarks/textsafe.py``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.segment import Segment  # noqa: E402
from rich.style import Style  # noqa: E402

from workbench.screens.inert import INERT_FILTER  # noqa: E402
from workbench.textsafe import inert, needs_inert, strip_sequences  # noqa: E402

REPEAT = 7
MB = 1_000_000


def _best(fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(REPEAT):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def _fill(line: str) -> str:
    return (line * (MB // len(line) + 1))[:MB]


SHAPES = {
    "plain ASCII log": _fill(
        "[2024/05/21 09:00:04] ppcls INFO: [Train][Epoch 1/2][Iter: 0/10] loss: 2.22974\n"
    ),
    "CJK + emoji log": _fill("第 3 步 损失 0.5123 学习率 0.001 🙂 数据读取 12 ms\n"),
    "coloured log (SGR on every line)": _fill("\x1b[32m[2024/05/21 09:00:04] INFO\x1b[0m loss: 2.22974\n"),
    "hostile (OSC 52/2 on every line)": _fill("x \x1b]52;c;ZXZpbA==\x07 \x1b]2;t\x1b\\ \x9b2J\n"),
    "one 1 MB line of ESC [ 1": ("\x1b[1" * (MB // 3 + 1))[:MB],
}


def main() -> None:
    print(f"{'shape (1 MB)':<36} {'needs_inert':>12} {'inert':>9} {'strip_sequences':>16}")
    for name, text in SHAPES.items():
        scan = _best(lambda text=text: needs_inert(text))
        full = _best(lambda text=text: inert(text))
        strip = _best(lambda text=text: strip_sequences(text))
        print(f"{name:<36} {scan:>10.2f}ms {full:>7.2f}ms {strip:>14.2f}ms")
    styles = [Style(color="red"), Style(bold=True), None, Style(color="blue"), None, Style(dim=True)]
    clean = [Segment("x" * 23, style) for style in styles]
    dirty = [Segment("x" * 20 + "\x1b]2", style) for style in styles]
    for label, segments in (("clean", clean), ("with controls", dirty)):
        ms = _best(lambda segments=segments: [INERT_FILTER.apply(segments, None) for _ in range(1000)])  # type: ignore[arg-type]
        print(f"line filter, 1,000 lines {label:<14} {ms:>8.2f}ms")


if __name__ == "__main__":
    main()
