"""Decode images with Pillow, in worker processes when there are many: the linter's slow part.

A worker module of its own that imports only Pillow, so spawned workers start fast. Each path gives its
``(width, height)`` after a full decode, :class:`TooLarge` when its header names more than
:data:`MAX_PIXELS` (refused before decoding: a decompression bomb is a few KB of PNG that decodes to
gigabytes), or the decoder's complaint as a string.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

POOL_THRESHOLD = 2000
"""Fewer images than this are decoded in the calling process (starting workers would cost more)."""
CHUNK = 500
MAX_PIXELS = 89_478_485
"""Pixels an image may have to be decoded: Pillow's own ``MAX_IMAGE_PIXELS`` default (~0.25 GiB as
24-bit RGB), past which Pillow itself warns of a decompression bomb. Training images are resized to a
few hundred pixels a side; a 100-megapixel photo is shrunk first."""


@dataclass(frozen=True)
class TooLarge:
    """An image over :data:`MAX_PIXELS`, refused from its header; 0 x 0 when Pillow refused it itself
    (more than twice its own limit) before saying its size."""

    width: int
    height: int


ImageResult = tuple[int, int] | str | TooLarge


def decode_images(paths: Sequence[str]) -> list[ImageResult]:
    """Open and fully decode each image; JPEGs are decoded at reduced scale (every byte still read).

    The size is read from the header first (``Image.open`` decodes nothing) and an image over
    :data:`MAX_PIXELS` is never decoded. Pillow's own ``DecompressionBombWarning`` is silenced here:
    the refusal is the finding, reported with its file and line instead of a raw warning.
    """
    from PIL import Image

    results: list[ImageResult] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        for path in paths:
            try:
                with Image.open(path) as img:
                    width, height = (int(v) for v in img.size)
                    if width * height > MAX_PIXELS:
                        results.append(TooLarge(width, height))
                        continue
                    if img.format == "JPEG":
                        img.draft("RGB", (max(1, width // 8), max(1, height // 8)))
                    img.load()
                    results.append((width, height))
            except Image.DecompressionBombError:
                results.append(TooLarge(0, 0))
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
    pool = ProcessPoolExecutor(max_workers=count, mp_context=context)
    try:
        for part in pool.map(decode_images, chunks):
            results.extend(part)
            if progress is not None:
                progress(len(results), total)
    except BaseException:
        # Stopped (a stop signal, Ctrl-C) or failed: the chunks not started are dropped and nothing
        # waits for the ones under way — the workers end with the command (workbench.cli.main).
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return results
