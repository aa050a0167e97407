"""Process start → first frame of the TUI, measured the way a user sees it (docs/architecture.md, "Budgets").

Starts ``python -m workbench`` on a real pseudo-terminal, stops the clock when the header's title
arrives on the terminal, then presses q. Prints every run and the median. Also times ``--help``.
Run from the repository root: ``python benchmarks/startup.py [RUNS]``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.ui.pty_harness import run_in_pty  # noqa: E402

TITLE = b"Paddle Workbench"


def first_frame_seconds(workspace: Path) -> float:
    env = dict(os.environ, TERM="xterm-256color", PADDLE_WORKBENCH_LANG="en")
    started = time.perf_counter()
    seen: list[float] = []

    def on_output(output: bytes, send) -> None:  # type: ignore[no-untyped-def]
        if not seen and TITLE in output:
            seen.append(time.perf_counter() - started)
            send(b"q")

    code, _ = run_in_pty(
        [sys.executable, "-m", "workbench", "--workspace", str(workspace)],
        env=env,
        timeout=30,
        on_output=on_output,
    )
    if not seen or code != 0:
        raise SystemExit(f"the app did not draw its first frame (exit code {code})")
    return seen[0]


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp) / "ws"
        first_frame_seconds(workspace)  # warm the OS file cache once, as a second start would be
        samples = [first_frame_seconds(workspace) for _ in range(runs)]
    help_samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "workbench", "--help"], capture_output=True, check=True)
        help_samples.append(time.perf_counter() - t0)
    print("start → first frame (s):", " ".join(f"{s:.3f}" for s in samples))
    print(
        f"median first frame: {statistics.median(samples):.3f} s   (budget 1.0 s → ratio {statistics.median(samples) / 1.0:.2f})"
    )
    print(f"median `--help`:    {statistics.median(help_samples):.3f} s")


if __name__ == "__main__":
    main()
