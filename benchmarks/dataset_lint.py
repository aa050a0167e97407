"""Dataset linter speed: N list lines with their images present (default 100,000), checked in one pass.

Builds a classification dataset in a temporary folder (N distinct 16x16 PNG files, 80/20 train/val,
10 classes), then times :func:`workbench.datasets.lint.lint_dataset` with every CPU decoding images and
with one process. Prints lines, images, seconds and lines per second.

Run from the repository root: ``python benchmarks/dataset_lint.py [N]``.
"""

from __future__ import annotations

import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from workbench.datasets.lint import lint_dataset  # noqa: E402


def build(root: Path, n: int) -> None:
    (root / "images").mkdir(parents=True)
    buffer = io.BytesIO()
    Image.new("RGB", (16, 16), (200, 30, 30)).save(buffer, "PNG")
    data = buffer.getvalue()
    lines = []
    for i in range(n):
        (root / "images" / f"{i:06d}.png").write_bytes(data)
        lines.append(f"images/{i:06d}.png {i % 10}")
    cut = n * 4 // 5
    (root / "label.txt").write_text("".join(f"{k} c{k}\n" for k in range(10)), encoding="utf-8")
    (root / "train.txt").write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    (root / "val.txt").write_text("\n".join(lines[cut:]) + "\n", encoding="utf-8")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "data"
        started = time.perf_counter()
        build(root, n)
        print(f"built {n} lines and images in {time.perf_counter() - started:.1f} s")
        for workers in (None, 1):
            started = time.perf_counter()
            report = lint_dataset(root, "cls", workers=workers)
            seconds = time.perf_counter() - started
            assert report.ok, report.errors[:3]
            label = "all CPUs" if workers is None else "1 process"
            print(
                f"lint ({label}): {n} lines, {report.stats['images_checked']} images verified "
                f"({report.stats['images_decoded']} decoded in full) in {seconds:.2f} s "
                f"({n / seconds:,.0f} lines/s)"
            )


if __name__ == "__main__":
    main()
