"""``dataset check`` end to end, side by side with PaddleX 3.x's own dataset checker.

Builds a classification and a recognition set of N list lines (default 20,000; 80/20 train/val) of
small images in a temporary folder — 224x224 JPEGs in 10 classes, 320x48 PNG text lines with 6-16
character labels — then times each tool from process start to exit, alternating one run of each
(after one unmeasured run of each, which writes Python's bytecode cache — ``PYTHONDONTWRITEBYTECODE``
is dropped for both, as on a user's machine — and warms the page cache), and prints every run, the
medians of wall and CPU time (every process of the tool), ours / PaddleX and the machine's load
average before and after:

* ours: ``paddle-workbench dataset check DIR --format cls|rec`` — every image verified (its header and
  where its data ends; a sample decoded in full), the PaddleX result file written;
* PaddleX: ``main.py -c <its PP-LCNet_x1_0 / PP-OCRv4_mobile_rec config> -o Global.mode=check_dataset
  -o Global.dataset_dir=DIR`` (what PaddleX's ``main.py`` runs: ``paddlex.engine.Engine().run()``),
  which reads the lists, checks that each image exists and decodes 10 sample images per split.

PaddleX is found through ``PADDLEX_PYTHON``: a Python that imports ``paddlex`` (and Paddle; see
docs/architecture.md, "Budgets", for one way to install it in a venv under /tmp). Without it, or when
it cannot import ``paddlex``, ours is timed alone and a note says why. PaddleX fetches a font at its
first check; offline, ``PADDLE_PDX_LOCAL_FONT_FILE_PATH`` is set to Matplotlib's bundled DejaVu Sans.

Run from the repository root: ``python benchmarks/dataset_check.py [N] [--runs 3] [--kinds cls,rec]``.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"
CONFIGS = {
    "cls": "configs/modules/image_classification/PP-LCNet_x1_0.yaml",
    "rec": "configs/modules/text_recognition/PP-OCRv4_mobile_rec.yaml",
}
PADDLEX_MAIN = "from paddlex.engine import Engine\n\nif __name__ == '__main__':\n    Engine().run()\n"
FIND_PADDLEX = (
    "import os, paddlex, matplotlib; print(os.path.dirname(paddlex.__file__)); "
    "print(os.path.join(os.path.dirname(matplotlib.__file__), 'mpl-data', 'fonts', 'ttf', 'DejaVuSans.ttf'))"
)


def _texture(rng: random.Random, size: tuple[int, int], cells: tuple[int, int], low: int) -> Image.Image:
    """Smooth random colour blobs, as a photo's content compresses (a few cells of noise upscaled),
    every channel at ``low`` or above."""
    noise = Image.frombytes("RGB", cells, rng.randbytes(cells[0] * cells[1] * 3))
    if low:
        noise = noise.point(lambda value: low + value * (255 - low) // 255)
    return noise.resize(size, Image.Resampling.BICUBIC)


def build(root: Path, kind: str, n: int) -> None:
    """A ``cls`` or ``rec`` dataset of ``n`` lines, one small image per line: 224x224 JPEGs (~13 KB, as
    photos in a classification set) or 320x48 PNG text lines on a textured background (~23 KB)."""
    rng = random.Random(7)
    font = ImageFont.load_default()
    (root / "images").mkdir(parents=True)
    lines = []
    for i in range(n):
        if kind == "cls":
            image = _texture(rng, (224, 224), (28, 28), 0)
            box = sorted(rng.sample(range(224), 2))
            ImageDraw.Draw(image).ellipse((box[0], box[0], box[1], box[1]), fill=(rng.randrange(256), 90, 40))
            name = f"images/{i:06d}.jpg"
            image.save(root / name, "JPEG", quality=85)
            lines.append(f"{name} {i % 10}")
        else:
            text = "".join(rng.choice(CHARS) for _ in range(rng.randint(6, 16)))
            image = _texture(rng, (320, 48), (40, 6), 170)
            ImageDraw.Draw(image).text((6, 14), text, fill=(20, 20, 20), font=font)
            name = f"images/{i:06d}.png"
            image.save(root / name, "PNG", compress_level=1)  # quick to write; read as any PNG
            lines.append(f"{name}\t{text}")
    cut = n * 4 // 5
    if kind == "cls":
        (root / "label.txt").write_text("".join(f"{k} class{k}\n" for k in range(10)), encoding="utf-8")
    else:
        (root / "dict.txt").write_text("".join(f"{c}\n" for c in CHARS), encoding="utf-8")
    (root / "train.txt").write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    (root / "val.txt").write_text("\n".join(lines[cut:]) + "\n", encoding="utf-8")


def ours_command(data: Path, kind: str, work: Path) -> list[str]:
    script = Path(sys.executable).parent / "paddle-workbench"  # what a user types
    start = [str(script)] if script.is_file() else [sys.executable, "-m", "workbench"]
    return [*start, "--workspace", str(work / "ws"), "dataset", "check", str(data), "--format", kind,
            "--output", str(work / f"ours_{kind}")]  # fmt: skip


def paddlex_setup(python: str, work: Path) -> tuple[Path, Path, str] | str:
    """``(PaddleX package folder, main.py, font)`` or why PaddleX cannot be run."""
    try:
        found = subprocess.run([python, "-c", FIND_PADDLEX], capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"PADDLEX_PYTHON={python} did not run: {exc}"
    if found.returncode != 0:
        return f"PADDLEX_PYTHON={python} cannot import paddlex: {found.stderr.strip().splitlines()[-1:]}"
    package, font = found.stdout.split("\n")[:2]
    main = work / "paddlex_main.py"
    main.write_text(PADDLEX_MAIN, encoding="utf-8")
    return Path(package), main, font


def paddlex_command(python: str, package: Path, main: Path, data: Path, kind: str, work: Path) -> list[str]:
    return [python, str(main), "-c", str(package / CONFIGS[kind]), "-o", "Global.mode=check_dataset",
            "-o", f"Global.dataset_dir={data}", "-o", f"Global.output={work / f'paddlex_{kind}'}",
            "-o", "Global.device=cpu"]  # fmt: skip


def timed(command: list[str], env: dict[str, str], passed: str | None = None) -> tuple[float, float]:
    """``(seconds from start to exit, CPU seconds of the process and its children)``; raises if the
    command failed (or did not say ``passed``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1800)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    output = done.stdout + done.stderr
    if done.returncode != 0 or (passed is not None and passed not in output):
        raise RuntimeError(f"{command[0]} … exited {done.returncode}:\n{output[-3000:]}")
    return seconds, cpu


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("n", nargs="?", type=int, default=20_000, help="list lines (images) per dataset")
    parser.add_argument("--runs", type=int, default=3, help="measured runs of each tool (median)")
    parser.add_argument("--kinds", default="cls,rec", help="datasets: cls, rec or both")
    args = parser.parse_args()
    kinds = [kind for kind in args.kinds.split(",") if kind]
    base = dict(os.environ)
    base.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode cached, as on a user's machine from the 2nd run
    env = dict(base, PYTHONPATH=str(ROOT), PADDLE_WORKBENCH_LANG="en")
    with tempfile.TemporaryDirectory(prefix="dataset_check_bench_") as tmp:
        work = Path(tmp)
        python = os.environ.get("PADDLEX_PYTHON", "")
        paddlex = paddlex_setup(python, work) if python else "PADDLEX_PYTHON is not set"
        if isinstance(paddlex, str):
            print(f"PaddleX skipped: {paddlex}. Set PADDLEX_PYTHON to a Python with paddlex installed.")
        px_env = dict(base)
        if not isinstance(paddlex, str):
            px_env.setdefault("PADDLE_PDX_LOCAL_FONT_FILE_PATH", paddlex[2])
        print(f"{os.cpu_count()} CPUs; load average before: {load()}")
        for kind in kinds:
            data = work / kind
            started = time.perf_counter()
            build(data, kind, args.n)
            print(f"\n{kind}: {args.n} lines and images built in {time.perf_counter() - started:.1f} s")
            ours_cmd = ours_command(data, kind, work)
            tools: dict[str, tuple[list[str], dict[str, str], str | None]] = {"ours": (ours_cmd, env, None)}
            if not isinstance(paddlex, str):
                px_cmd = paddlex_command(python, paddlex[0], paddlex[1], data, kind, work)
                tools["PaddleX"] = (px_cmd, px_env, "Check dataset passed")
            for command, tool_env, passed in tools.values():  # unmeasured: caches warm
                timed(command, tool_env, passed)
            print("  $ " + " ".join(ours_cmd))
            if "PaddleX" in tools:
                print("  $ " + " ".join(tools["PaddleX"][0]))
            seconds: dict[str, list[float]] = {name: [] for name in tools}
            cpu: dict[str, list[float]] = {name: [] for name in tools}
            for _ in range(args.runs):
                for name, (command, tool_env, passed) in tools.items():
                    wall, used = timed(command, tool_env, passed)
                    seconds[name].append(wall)
                    cpu[name].append(used)
            for name, values in seconds.items():
                runs = " ".join(f"{value:.2f}" for value in values)
                print(
                    f"  {name:>7}: median {statistics.median(values):.2f} s  [{runs}]; "
                    f"CPU {statistics.median(cpu[name]):.2f} s (all its processes)"
                )
            if "PaddleX" in seconds:
                ratio = statistics.median(seconds["ours"]) / statistics.median(seconds["PaddleX"])
                used = statistics.median(cpu["ours"]) / statistics.median(cpu["PaddleX"])
                print(f"  ours / PaddleX = {ratio:.2f}x (target <= 0.80x); CPU {used:.2f}x")
        print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
