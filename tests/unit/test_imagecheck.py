"""How far ``dataset check`` reads each image: ``quick`` (header), ``standard`` (header and where the
data ends, a full decode where that is not enough and of a sample), ``full`` (every image decoded).

Real image files of every format the end check knows (and one it does not), whole and cut short,
checked in the calling process and in a pool of spawned workers; the CLI's ``--quick`` / ``--full``;
the progress bar only on a terminal."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from rich.console import Console

from workbench.datasets import imagecheck
from workbench.datasets.imagecheck import (
    FULL,
    HEAD_BYTES,
    QUICK,
    STANDARD,
    ImageChecker,
    ImageInfo,
)


def _encoded(fmt: str, size: tuple[int, int] = (24, 16), mode: str = "RGB", noise: bool = False) -> bytes:
    image = Image.new(mode, size, 120 if mode == "L" else (200, 40, 40))
    if noise:  # incompressible: the header is a small part of the file
        rng = random.Random(3)
        image = Image.frombytes(mode, size, bytes(rng.getrandbits(8) for _ in range(size[0] * size[1] * 3)))
    buffer = io.BytesIO()
    image.save(buffer, fmt)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def images(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """name -> path: whole images of each format, the same cut short, and a few odd ones."""
    root = tmp_path_factory.mktemp("images")
    files: dict[str, bytes] = {}
    for fmt, ext in (("PNG", "png"), ("JPEG", "jpg"), ("GIF", "gif"), ("BMP", "bmp"), ("WEBP", "webp")):
        data = _encoded(fmt)
        files[f"ok.{ext}"] = data
        files[f"cut.{ext}"] = data[: len(data) * 2 // 3]
    files["gray.png"] = _encoded("PNG", mode="L")
    files["ok.tiff"] = _encoded("TIFF")  # no end check: decoded in full
    files["junk_after.jpg"] = files["ok.jpg"] + b"\x00" * 7 + b"trailing"  # decodes: no error
    photo = _encoded("JPEG", (64, 64), noise=True)
    files["photo_cut.jpg"] = photo[: len(photo) * 2 // 3]  # the header whole, the data cut short
    big = _encoded("PNG", (200, 200), noise=True)
    assert len(big) > HEAD_BYTES
    files["big.png"] = big
    files["big_cut.png"] = big[: len(big) - 1000]
    files["text.png"] = b"this is not an image\n"
    paths = {}
    for name, data in files.items():
        (root / name).write_bytes(data)
        paths[name] = str(root / name)
    return paths


CUT = ("cut.png", "cut.jpg", "cut.gif", "cut.bmp", "cut.webp", "photo_cut.jpg", "big_cut.png")
WHOLE = ("ok.png", "ok.jpg", "ok.gif", "ok.bmp", "ok.webp", "gray.png", "big.png")


def _one(path: str, level: str) -> tuple[object, int]:
    """One image's result and whether it was decoded in full."""
    with ImageChecker(level, workers=1) as checker:
        (result,) = checker.run([path])
    return result, checker.decoded


def test_standard_finds_every_file_cut_short_and_decodes_only_where_needed(images: dict[str, str]) -> None:
    results = {name: _one(path, STANDARD) for name, path in images.items()}
    for name in CUT:
        assert isinstance(results[name][0], str), (name, results[name])
    result, decoded = results["photo_cut.jpg"]  # the header whole: found by the end check, then decoded
    assert str(result).startswith("OSError: image file is truncated") and decoded == 1
    for name in WHOLE:  # the end where the format puts it: the header is enough
        result, decoded = results[name]
        assert isinstance(result, ImageInfo) and decoded == 0, (name, results[name])
    for name in ("ok.tiff", "junk_after.jpg"):  # no end check / data after the end: the decoder decides
        assert results[name] == ((24, 16, "RGB"), 1), (name, results[name])
    assert results["big.png"] == ((200, 200, "RGB"), 0)
    assert results["gray.png"] == (ImageInfo(24, 16, "L"), 0)  # the mode from the header
    assert results["text.png"] == (
        f"UnidentifiedImageError: cannot identify image file {images['text.png']!r}",
        0,
    )


def test_quick_reads_headers_only_and_full_decodes_everything(images: dict[str, str]) -> None:
    assert _one(images["photo_cut.jpg"], QUICK) == ((64, 64, "RGB"), 0)  # the price of --quick
    assert _one(images["big_cut.png"], QUICK) == ((200, 200, "RGB"), 0)
    assert isinstance(_one(images["text.png"], QUICK)[0], str)
    for name in WHOLE:
        assert _one(images[name], FULL)[1] == 1, name
    for name in CUT:
        assert isinstance(_one(images[name], FULL)[0], str), name


def test_the_sample_is_decoded_whatever_the_level(images: dict[str, str]) -> None:
    with ImageChecker(STANDARD, workers=1) as checker:
        checker.run([images["ok.png"], images["ok.jpg"]], decode={images["ok.jpg"]})
    assert checker.decoded == 1


def test_the_pool_gives_the_same_results_in_order(
    images: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Spawned workers, chunks in flight, results in the caller's order; the pool started early."""
    monkeypatch.setattr(imagecheck, "POOL_THRESHOLD", 1)
    monkeypatch.setattr(imagecheck, "CHUNK", 3)
    paths = [images[n] for n in sorted(images)] * 3
    with ImageChecker(STANDARD, workers=1) as alone:
        expected = alone.run(paths)
    seen: list[tuple[int, int]] = []
    with ImageChecker(STANDARD, workers=2) as checker:
        checker.warm(len(paths))
        assert checker._pool is not None
        results = checker.run(paths, progress=lambda done, total: seen.append((done, total)))
    assert checker._pool is None  # closed with the context
    assert results == expected and checker.decoded == alone.decoded > 0
    assert seen[-1] == (len(paths), len(paths)) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_stop_on_its_way_out_never_waits_for_the_workers(
    images: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop signal raised once the images are checked (the workers frozen, as in
    tests/integration/test_command_stops.py) leaves the checker at once instead of joining them."""
    import threading

    import psutil

    monkeypatch.setattr(imagecheck, "POOL_THRESHOLD", 1)
    frozen: list[psutil.Process] = []
    left: list[BaseException] = []

    def check() -> None:
        try:
            with ImageChecker(STANDARD, workers=2) as checker:
                checker.run([images[n] for n in sorted(images)])
                for child in psutil.Process().children():
                    if "spawn_main" in " ".join(child.cmdline()):
                        child.suspend()
                        frozen.append(child)
                raise KeyboardInterrupt  # what a stop signal raises (workbench.stop_signals.Stopped)
        except BaseException as exc:
            left.append(exc)

    thread = threading.Thread(target=check, daemon=True)
    thread.start()
    thread.join(30)
    hung = thread.is_alive()
    for child in frozen:  # leave nothing behind (and free a hung join)
        child.kill()
    thread.join(30)
    assert not hung and frozen and isinstance(left[0], KeyboardInterrupt)


def test_checking_images_does_not_import_numpy() -> None:
    """Each spawned worker imports this module: it must stay as cheap as Pillow."""
    code = "import sys, workbench.datasets.imagecheck; print(sorted({'numpy', 'paddle'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr


def _dataset(root: Path, images: dict[str, str]) -> Path:
    (root / "images").mkdir(parents=True)
    lines = []
    for index, name in enumerate(("ok.png", "ok.jpg", "photo_cut.jpg", "gray.png")):
        (root / "images" / name).write_bytes(Path(images[name]).read_bytes())
        lines.append(f"images/{name} {index % 2}")
    (root / "label.txt").write_text("0 a\n1 b\n", encoding="utf-8")
    (root / "train.txt").write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")
    (root / "val.txt").write_text(lines[3] + "\n", encoding="utf-8")
    return root


def test_cli_quick_and_full(tmp_path: Path, images: dict[str, str]) -> None:
    from workbench.cli.root import build_cli

    main = build_cli()
    data = _dataset(tmp_path / "ds", images)
    runner = CliRunner()
    base = ["--workspace", str(tmp_path / "ws"), "dataset", "check", str(data), "--workers", "1"]
    default = runner.invoke(main, base)
    assert default.exit_code == 1, default.output
    assert f"{data / 'train.txt'}:3: image 'images/photo_cut.jpg' cannot be decoded" in default.output
    assert "4 images verified, 4 decoded in full" in default.output  # all four are in the sample
    assert not default.output.startswith("\n")  # no progress bar (nor its blank line) when piped
    quick = runner.invoke(main, [*base, "--quick"])
    assert quick.exit_code == 0, quick.output
    assert "4 images verified (0 decoded in full)" in quick.output
    full = runner.invoke(main, [*base, "--full", "--json"])
    assert full.exit_code == 1, full.output
    stats = __import__("json").loads(full.stdout)["stats"]
    assert (stats["image_check"], stats["images_checked"], stats["images_decoded"]) == ("full", 4, 4)


def test_progress_bar_only_on_a_terminal() -> None:
    from workbench.cli.dataset import _progress_bar

    with _progress_bar(Console(file=io.StringIO()), plain=False) as progress:
        assert progress is None
    leader, follower = os.openpty()
    try:
        with os.fdopen(follower, "w", closefd=False) as tty:
            with _progress_bar(Console(file=tty), plain=False) as progress:
                assert progress is not None
                progress("images", 1, 2)
            with _progress_bar(Console(file=tty), plain=True) as progress:
                assert progress is None
    finally:
        os.close(leader)
        os.close(follower)
