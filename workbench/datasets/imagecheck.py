"""Decode images with Pillow, in worker processes when there are many: the linter's slow part.

A worker module of its own that imports only Pillow, so spawned workers start fast. Each path gives its
``(width, height)`` after a full decode, or the decoder's complaint as a string.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

POOL_THRESHOLD = 2000
"""Fewer images than this are decoded in the calling process (starting workers would cost more)."""
CHUNK = 500

ImageResult = tuple[int, int] | str


def decode_images(paths: Sequence[str]) -> list[ImageResult]:
    """Open and fully decode each image; JPEGs are decoded at reduced scale (every byte still read)."""
    from PIL import Image

    results: list[ImageResult] = []
    for path in paths:
        try:
            with Image.open(path) as img:
                size = img.size
                if img.format == "JPEG":
                    img.draft("RGB", (max(1, size[0] // 8), max(1, size[1] // 8)))
                img.load()
                results.append((int(size[0]), int(size[1])))
        except Exception as exc:  # any decoder complaint is the finding
            results.append(f"{type(exc).__name__}: {exc}"[:200])
    return results


def decode_all(
    paths: Sequence[str],
    *,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[ImageResult]:
    """Decode every path (same order), in a pool of spawned processes when there are many.

    ``workers`` 1 forces the calling process; ``None`` uses every CPU. ``progress(done, total)`` is
    called after each chunk.
    """
    total = len(paths)
    chunks = [list(paths[i : i + CHUNK]) for i in range(0, total, CHUNK)]
    count = workers if workers is not None else (os.cpu_count() or 1)
    results: list[ImageResult] = []
    if total < POOL_THRESHOLD or count <= 1:
        for chunk in chunks:
            results.extend(decode_images(chunk))
            if progress is not None:
                progress(len(results), total)
        return results
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")  # never fork a process that may hold threads
    with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
        for part in pool.map(decode_images, chunks):
            results.extend(part)
            if progress is not None:
                progress(len(results), total)
    return results
