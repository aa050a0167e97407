"""Check images with Pillow, in worker processes when there are many: the linter's slow part.

A worker module of its own that imports only Pillow, so spawned workers start fast. Three levels
(:data:`LEVELS`), each reading every image:

* ``quick`` — the header only: ``Image.open`` reads the format, size and mode and decodes nothing.
* ``standard`` (the default) — the header, then where the data ends: a JPEG ends with its EOI marker, a
  PNG with its ``IEND`` chunk, a GIF with its trailer, a WebP or BMP file is as long as its header says.
  A file cut short (the usual damage: an interrupted copy or download) ends elsewhere. An image whose
  end is not where its format puts it, one of a format with no such check (TIFF, PPM …) and each one
  the caller names (a sample) is decoded in full; the decoder's verdict is the finding, so data after
  a good end is no error.
* ``full`` — every image decoded in full (JPEGs at reduced scale: every byte is still read).

Each path gives :class:`ImageInfo` (size and mode from the header), :class:`TooLarge` when its header
names more than :data:`MAX_PIXELS` (refused before decoding: a decompression bomb is a few KB of PNG
that decodes to gigabytes), or the decoder's complaint as a string.

Many images are shared between the calling process and a pool of spawned workers
(:class:`ImageChecker`) in chunks, a few chunks in flight at a time, so memory for them stays bounded
by the chunk size, not the dataset's.
"""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

POOL_THRESHOLD = 2000
"""Fewer images than this are checked in the calling process (starting workers would cost more)."""
CHUNK = 128
"""Images per task sent to a worker (a few ms of work): small, so that little is left to wait for when
this process has done its share."""
IN_FLIGHT = 2
"""Chunks handed to each worker at a time: one to work on, one queued; memory stays bounded."""
HEAD_BYTES = 64 * 1024
"""Bytes read at once from each image: a small image whole (one read), a large one's header."""
MAX_PIXELS = 89_478_485
"""Pixels an image may have to be decoded: Pillow's own ``MAX_IMAGE_PIXELS`` default (~0.25 GiB as
24-bit RGB), past which Pillow itself warns of a decompression bomb. Training images are resized to a
few hundred pixels a side; a 100-megapixel photo is shrunk first."""

PARENT_POLL_S = 0.5
"""How often a pool worker checks that the process that started it is still there."""


def _end_with_parent(parent: int) -> None:
    """A pool worker's initializer: exit as soon as ``parent`` (the checking command) is gone.

    A worker waits on its task queue for ever; a command killed with SIGKILL (or by Paddle's C-level
    handler) ends no worker, so each would stay behind, adopted by init, with the resource tracker it
    holds open. A daemon thread polls the parent pid (decoding releases the GIL) and ends the worker."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


QUICK, STANDARD, FULL = "quick", "standard", "full"
LEVELS = (QUICK, STANDARD, FULL)

_PNG_END = b"\x00\x00\x00\x00IEND\xaeB`\x82"
_TAIL = 16


class ImageInfo(NamedTuple):
    """What the header says: ``(width, height, mode)``; ``mode`` is Pillow's as in the file (``RGB``,
    ``L``, ``P`` …), before any conversion."""

    width: int
    height: int
    mode: str


@dataclass(frozen=True)
class TooLarge:
    """An image over :data:`MAX_PIXELS`, refused from its header; 0 x 0 when Pillow refused it itself
    (more than twice its own limit) before saying its size."""

    width: int
    height: int


ImageResult = ImageInfo | str | TooLarge


def ends_right(fmt: str | None, head: bytes, tail: bytes, size: int) -> bool:
    """Whether an image's data ends where its format says (``head``: its first bytes, ``tail``: its
    last :data:`_TAIL` bytes, ``size``: the file's size). ``False`` for a format with no such check."""
    if fmt == "JPEG":
        return tail.endswith(b"\xff\xd9")
    if fmt == "PNG":
        return tail.endswith(_PNG_END)
    if fmt == "GIF":
        return tail.endswith(b";")
    if fmt == "WEBP" and len(head) >= 8:
        riff = int.from_bytes(head[4:8], "little")
        return size in (riff + 8, riff + 9)  # a chunk of odd size is padded by one byte
    if fmt == "BMP" and len(head) >= 6:
        return int.from_bytes(head[2:6], "little") == size
    return False


def check_images(
    paths: Sequence[str], level: str = STANDARD, decode: Collection[str] = ()
) -> list[ImageResult]:
    """Check each path at ``level`` (:data:`LEVELS`); those in ``decode`` are decoded in full whatever
    the level. Runs in a worker process (or the caller's when there are few).

    Pillow's own ``DecompressionBombWarning`` is silenced here: the refusal is the finding, reported
    with its file and line instead of a raw warning.
    """
    return _check_chunk(paths, level, decode)[0]


def _check_chunk(paths: Sequence[str], level: str, decode: Collection[str]) -> tuple[list[ImageResult], int]:
    """:func:`check_images` and how many of the images it decoded in full."""
    from PIL import Image

    results: list[ImageResult] = []
    decoded = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        for path in paths:
            result, loaded = _check_one(Image, path, level, level == FULL or path in decode)
            results.append(result)
            decoded += loaded
    return results, decoded


def _check_one(image_module: Any, path: str, level: str, full: bool) -> tuple[ImageResult, bool]:
    """One image: ``(result, whether it was decoded in full)``. A small file is read whole in one call
    and parsed from memory; a larger one is opened by Pillow and its tail read separately."""
    decoding = False
    try:
        with open(path, "rb", buffering=0) as raw:
            head = raw.read(HEAD_BYTES)
            size = os.fstat(raw.fileno()).st_size
            whole = len(head) >= size
            if whole:
                tail = head[-_TAIL:]
            else:
                raw.seek(max(0, size - _TAIL))
                tail = raw.read(_TAIL)
        with image_module.open(io.BytesIO(head) if whole else path) as img:
            width, height = (int(v) for v in img.size)
            info = ImageInfo(width, height, str(img.mode))  # the mode before draft(), which may change it
            if width * height > MAX_PIXELS:
                return TooLarge(width, height), False
            if not full and (level == QUICK or ends_right(img.format, head, tail, size)):
                return info, False
            decoding = True
            if img.format == "JPEG":
                img.draft("RGB", (max(1, width // 8), max(1, height // 8)))
            img.load()
        return info, True
    except image_module.DecompressionBombError:
        return TooLarge(0, 0), False
    except image_module.UnidentifiedImageError:  # said of the file, not of the bytes read into memory
        return f"UnidentifiedImageError: cannot identify image file {path!r}", False
    except Exception as exc:  # any complaint, from the header or the decoder, is the finding
        return f"{type(exc).__name__}: {exc}"[:200], decoding


@dataclass
class ImageChecker:
    """Checks images at one level, in a pool of spawned worker processes when there are many.

    ``workers``: processes started besides the calling one, which checks images too; ``None``: one
    fewer than the CPUs (none on one CPU), so that every CPU checks images. Use it as a context
    manager (or call :meth:`close`): the pool ends with it, and an exception on its way out (a stop
    signal) abandons the pool instead of waiting for its workers. Spawned, never forked: the caller
    may hold threads (a progress bar's, the TUI's). :attr:`decoded` counts the images decoded in full.
    """

    level: str = STANDARD
    workers: int | None = None
    decoded: int = field(default=0, init=False)
    _pool: ProcessPoolExecutor | None = field(default=None, init=False, repr=False)
    _abandoned: bool = field(default=False, init=False, repr=False)

    def __enter__(self) -> ImageChecker:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if kind is None:
            self.close()
        else:  # a stop signal or a failure is on its way out: nothing may wait for the workers now
            self.abandon()

    @property
    def _count(self) -> int:
        return self.workers if self.workers is not None else (os.cpu_count() or 1) - 1

    def warm(self, expected: int) -> None:
        """Start the pool now if ``expected`` images will go to it, so that its workers boot (a Python
        start and a Pillow import each) while the caller does other work."""
        if self._pool is None and expected >= POOL_THRESHOLD and self._count >= 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self._count,
                mp_context=context,
                initializer=_end_with_parent,
                initargs=(os.getpid(),),
            )
            for _ in range(self._count):  # one no-op each: a process per worker, started now
                self._pool.submit(check_images, [])

    def run(
        self,
        paths: Sequence[str],
        *,
        decode: Collection[str] = (),
        progress: Callable[[int, int], None] | None = None,
    ) -> list[ImageResult]:
        """Check every path (results in the same order); ``decode``: paths to decode in full whatever
        the level. ``progress(done, total)`` is called after each chunk.

        With a pool, the workers take chunks from the front and this process takes them from the back
        whenever no chunk sent is back yet: it works while the workers boot instead of waiting for
        them, and the two ends meet without a chunk done twice.
        """
        total = len(paths)
        bounds = [(start, min(start + CHUNK, total)) for start in range(0, total, CHUNK)]
        wanted = set(decode)
        parts: list[list[ImageResult]] = [[] for _ in bounds]
        done = 0

        def take(index: int, part: list[ImageResult], decoded: int) -> None:
            nonlocal done
            parts[index] = part
            self.decoded += decoded
            done += len(part)
            if progress is not None:
                progress(done, total)

        def here(index: int) -> None:
            start, stop = bounds[index]
            take(index, *_check_chunk(paths[start:stop], self.level, wanted))

        self.warm(total)
        pool = self._pool
        if pool is None or total < POOL_THRESHOLD:
            for index in range(len(bounds)):
                here(index)
            return [result for part in parts for result in part]
        front, back = 0, len(bounds)
        pending: dict[int, Future[tuple[list[ImageResult], int]]] = {}
        try:
            while front < back or pending:
                while front < back and len(pending) < IN_FLIGHT * self._count:
                    start, stop = bounds[front]
                    chunk = paths[start:stop]
                    pending[front] = pool.submit(_check_chunk, chunk, self.level, wanted.intersection(chunk))
                    front += 1
                finished = [index for index, future in pending.items() if future.done()]
                for index in finished:
                    take(index, *pending.pop(index).result())
                if finished:
                    continue
                if front < back:
                    back -= 1
                    here(back)
                    continue
                for index in sorted(pending, reverse=True):  # none left to hand out: take back what no
                    if pending[index].cancel():  # worker has started (they may still be booting)
                        del pending[index]
                        here(index)
                if pending:
                    wait(pending.values(), return_when=FIRST_COMPLETED)
        except BaseException:
            self.abandon()
            raise
        return [result for part in parts for result in part]

    def close(self) -> None:
        """End the pool's workers (they are idle once :meth:`run` has returned). After
        :meth:`abandon` there is nothing to wait for."""
        if self._pool is not None and not self._abandoned:
            pool, self._pool = self._pool, None
            pool.shutdown(wait=True, cancel_futures=True)

    def abandon(self) -> None:
        """Stopped (a stop signal, Ctrl-C) or failed: the chunks not started are dropped and nothing
        waits for the ones under way, nor for the workers, which may be stopped or gone — they end
        with the command (:func:`workbench.cli.main` ends what it started). The pool object is kept
        until this checker goes."""
        if self._pool is not None and not self._abandoned:
            self._abandoned = True
            self._pool.shutdown(wait=False, cancel_futures=True)


def check_all(
    paths: Sequence[str],
    *,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    level: str = STANDARD,
    decode: Collection[str] = (),
) -> list[ImageResult]:
    """Check every path at ``level`` (same order), in a pool when there are many: :class:`ImageChecker`
    for one call."""
    with ImageChecker(level, workers) as checker:
        return checker.run(paths, decode=decode, progress=progress)
