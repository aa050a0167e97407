"""Process start → first frame of the TUI, measured the way a user sees it (docs/architecture.md, "Budgets").

Starts ``python -m workbench`` on a real pseudo-terminal, stops the clock when the header's title
arrives on the terminal (the first frame) and again when the footer's quit key does (the home screen
whole: Textual's footer, the bare app's too, may draw its keys in a later frame), then presses q. A bare
Textual app (a header, a table and a footer) is started the same way, alternating with the workbench, one
of each per pair: the budget is the workbench's median at most 1.3× the bare app's (docs/architecture.md,
"Budgets"). Prints every start, the medians, the ratio of the medians and the median of the per-pair
ratios (steadier on a shared machine), both for the first frame and the footer keys, the load average
before and after, and the time of ``--help``.

Python's bytecode cache is on, as on a user's machine from the second start on (the first, unmeasured
start writes it, even where the shell sets ``PYTHONDONTWRITEBYTECODE``). ``--against REV`` measures a git revision side by side, alternating one start of
each, so a loaded machine slows both alike::

    python benchmarks/startup.py 7 --against 1ecaa97
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.ui.pty_harness import run_in_pty  # noqa: E402

TITLE = b"Paddle Workbench"
KEYS = b"Quit"
"""The quit key's label in the footer (English): the last thing the home screen draws."""

BARE_APP = """
from textual.app import App
from textual.widgets import DataTable, Footer, Header


class Bare(App[None]):
    TITLE = "Paddle Workbench"
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self):
        yield Header()
        yield DataTable(cursor_type="row")
        yield Footer()

    def on_mount(self):
        self.query_one(DataTable).add_columns("Run", "Status", "Last step", "Started")


Bare().run()
"""
"""The budget's yardstick: a bare Textual app with a header, a table (the home screen's four columns,
no rows: the benchmark's workspace is empty) and a footer, started the same way."""


def start_seconds(tree: Path, workspace: Path | None, env: dict[str, str]) -> tuple[float, float]:
    """Seconds to the title on the terminal (the first frame) and to the footer's quit key (the home
    screen whole); ``workspace=None`` starts the bare app instead."""
    argv = (
        [sys.executable, "-c", BARE_APP]
        if workspace is None
        else [sys.executable, "-m", "workbench", "--workspace", str(workspace)]
    )
    started = time.perf_counter()
    seen: list[float] = []

    def on_output(output: bytes, send) -> None:  # type: ignore[no-untyped-def]
        if not seen and TITLE in output:
            seen.append(time.perf_counter() - started)
        if len(seen) == 1 and KEYS in output:
            seen.append(time.perf_counter() - started)
            send(b"q")

    code, _ = run_in_pty(
        argv,
        env=env,
        cwd=str(tree),
        timeout=30,
        on_output=on_output,
    )
    if len(seen) < 2 or code != 0:
        raise SystemExit(f"{tree}: the app did not draw its first frame and keys (exit code {code})")
    return seen[0], seen[1]


def _load() -> str:
    """The 1-minute load average (others share the machine: read the figures against it)."""
    return f"{os.getloadavg()[0]:.2f}"


def help_seconds(tree: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "workbench", "--help"], cwd=tree, env=env, capture_output=True, check=True
    )
    return time.perf_counter() - started


@contextlib.contextmanager
def checkout(revision: str) -> Iterator[Path]:
    """A detached worktree of ``revision`` that imports its own code with this venv's packages."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "-q", "--detach", str(tree), revision], cwd=ROOT, check=True
        )
        try:
            # The editable install maps workbench.screens/.themes to this checkout's folders; the
            # worktree's own copies must win, so they are linked where Python looks first.
            for name in ("screens", "themes"):
                if (tree / name).is_dir() and not (tree / "workbench" / name).exists():
                    (tree / "workbench" / name).symlink_to(Path("..") / name)
            yield tree
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="?", type=int, default=7)
    parser.add_argument("--against", metavar="REV", help="also measure this git revision, alternating")
    parser.add_argument(
        "--tree",
        metavar="DIR",
        type=Path,
        help="also measure the checkout in DIR (e.g. from `git archive REV | tar -x -C DIR`), alternating",
    )
    args = parser.parse_args()
    env = dict(os.environ, TERM="xterm-256color", PADDLE_WORKBENCH_LANG="en")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with contextlib.ExitStack() as stack:
        trees = {"this tree": ROOT}
        if args.against:
            trees = {args.against: stack.enter_context(checkout(args.against)), **trees}
        elif args.tree:
            for name in ("screens", "themes"):  # as checkout() does
                if (args.tree / name).is_dir() and not (args.tree / "workbench" / name).exists():
                    (args.tree / "workbench" / name).symlink_to(Path("..") / name)
            trees = {str(args.tree): args.tree.resolve(), **trees}
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        frames: dict[str, list[float]] = {name: [] for name in trees}
        wholes: dict[str, list[float]] = {name: [] for name in trees}
        helps: dict[str, list[float]] = {name: [] for name in trees}
        bare: list[float] = []
        bare_whole: list[float] = []
        load_before = _load()
        start_seconds(ROOT, None, env)
        for name, tree in trees.items():  # warm the OS file cache (and the bytecode cache) once
            start_seconds(tree, tmp / name.replace(" ", "_"), env)
        for _ in range(args.runs):
            frame, whole = start_seconds(ROOT, None, env)
            bare.append(frame)
            bare_whole.append(whole)
            for name, tree in trees.items():
                frame, whole = start_seconds(tree, tmp / name.replace(" ", "_"), env)
                frames[name].append(frame)
                wholes[name].append(whole)
                helps[name].append(help_seconds(tree, env))
    print(f"bytecode cache on; {args.runs} starts each, alternating; load average {load_before} → {_load()}")
    bare_median = statistics.median(bare)
    print(f"{'bare Textual':>12}: start → first frame", " ".join(f"{s:.3f}" for s in bare))
    whole_median = statistics.median(bare_whole)
    print(f"{'':>12}  median first frame {bare_median:.3f} s, footer keys {whole_median:.3f} s")
    for name in trees:
        frame, help_ = statistics.median(frames[name]), statistics.median(helps[name])
        pairs = statistics.median(ours / theirs for ours, theirs in zip(frames[name], bare, strict=True))
        print(f"{name:>12}: start → first frame", " ".join(f"{s:.3f}" for s in frames[name]))
        whole = statistics.median(wholes[name])
        print(
            f"{'':>12}  median first frame {frame:.3f} s = {frame / bare_median:.2f}× bare "
            f"(per-pair median {pairs:.2f}×; budget 1.30×), median --help {help_:.3f} s"
        )
        print(f"{'':>12}  median footer keys {whole:.3f} s = {whole / whole_median:.2f}× bare's")
    if len(trees) == 2:
        before, after = (statistics.median(frames[n]) for n in trees)
        hb, ha = (statistics.median(helps[n]) for n in trees)
        other = next(iter(trees))
        print(f"this tree / {other}: first frame {after / before:.2f}, --help {ha / hb:.2f}")


if __name__ == "__main__":
    main()
