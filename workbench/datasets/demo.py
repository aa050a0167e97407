"""Deterministic demo datasets rendered with Pillow's bundled font — no downloads, a few seconds each.

* :func:`generate_cls_demo`: 32x32 RGB digits 0-9 (random size, offset, rotation, colours, noise) in the
  PaddleX / PaddleClas classification layout.
* :func:`generate_rec_demo`: 32x100 (h x w) grey-ish images of 3-6 character strings in the PaddleOCR
  recognition layout.

The same ``seed`` gives the same files byte for byte with the same Pillow version: every random choice
comes from one ``numpy.random.Generator`` seeded here (never the global RNG, so generating data does not
disturb a training run's seeds). A dataset is written into ``<dir>.tmp-<pid>`` and renamed into place
at the end, so an interrupted generation never leaves a half dataset that looks complete; the work folder
of a killed generation is removed by the next one (:func:`workbench.leftovers.clean_siblings`).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

CLS_NAMES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
REC_CHARSET = "0123456789abcdef"
"""Characters of the recognition demo, in ``dict.txt`` order. Hex digits: with 16 classes the small CRNN
gets past CTC's all-blank plateau within ~150 steps on a CPU; the full 36 characters need ~3x longer."""
CLS_SIZE = 32
REC_HEIGHT, REC_WIDTH = 32, 100
GENERATOR_VERSION = 1
INFO_FILE = "demo_info.json"


def _fonts() -> Callable[[int], Any]:
    """A cached ``size -> FreeTypeFont`` for Pillow's bundled default font (Pillow >= 10.1)."""
    from PIL import ImageFont

    cache: dict[int, Any] = {}

    def font(size: int) -> Any:
        if size not in cache:
            cache[size] = ImageFont.load_default(size=size)
        return cache[size]

    return font


def _write_atomically(target: Path, build: Callable[[Path], None]) -> Path:
    """Run ``build(tmp_dir)`` then rename ``tmp_dir`` to ``target`` (replacing nothing that exists)."""
    target = Path(target)
    if target.exists():
        raise FileExistsError(f"{target} already exists; remove it to generate the demo again")
    target.parent.mkdir(parents=True, exist_ok=True)
    from workbench.leftovers import clean_siblings

    clean_siblings(target)  # what a killed generation left (its pid is gone)
    tmp = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        (tmp / "images").mkdir(parents=True)
        build(tmp)
        os.replace(tmp, target)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        if target.is_dir():
            return target  # another process generated it at the same time: theirs is identical
        raise
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target


def _noisy_rgb(
    mask: np.ndarray[Any, Any],
    bg: np.ndarray[Any, Any],
    fg: np.ndarray[Any, Any],
    noise: float,
    rng: np.random.Generator,
) -> np.ndarray[Any, Any]:
    """Blend a 0..1 glyph mask between two colours and add Gaussian noise; uint8 HxWx3."""
    alpha = mask[..., None]
    img = bg[None, None, :] * (1.0 - alpha) + fg[None, None, :] * alpha
    img = img + rng.normal(0.0, noise, size=img.shape)
    out: np.ndarray[Any, Any] = np.clip(img, 0, 255).astype(np.uint8)
    return out


def _contrasting_colours(
    rng: np.random.Generator, grey: bool
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Background and ink colours at least ~90 levels apart in brightness."""
    dark = rng.uniform(10, 90)
    light = rng.uniform(170, 250)
    spread = 12.0 if grey else 60.0
    bg_level, fg_level = (dark, light) if rng.random() < 0.5 else (light, dark)
    bg = np.clip(bg_level + rng.uniform(-spread, spread, 3), 0, 255)
    fg = np.clip(fg_level + rng.uniform(-spread, spread, 3), 0, 255)
    return bg, fg


def _render_digit(digit: int, rng: np.random.Generator, font: Callable[[int], Any]) -> Any:
    from PIL import Image, ImageDraw

    size = int(rng.integers(18, 27))
    canvas = Image.new("L", (CLS_SIZE, CLS_SIZE), 0)
    draw = ImageDraw.Draw(canvas)
    text = str(digit)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font(size))
    x = (CLS_SIZE - (right - left)) / 2 - left + rng.uniform(-4, 4)
    y = (CLS_SIZE - (bottom - top)) / 2 - top + rng.uniform(-3, 3)
    draw.text((x, y), text, fill=255, font=font(size))
    canvas = canvas.rotate(float(rng.uniform(-15, 15)), resample=Image.Resampling.BILINEAR)
    mask = np.asarray(canvas, dtype=np.float64) / 255.0
    bg, fg = _contrasting_colours(rng, grey=False)
    return Image.fromarray(_noisy_rgb(mask, bg, fg, float(rng.uniform(2, 14)), rng), "RGB")


def _render_text(text: str, rng: np.random.Generator, font: Callable[[int], Any]) -> Any:
    from PIL import Image, ImageDraw

    size = int(rng.integers(18, 25))
    canvas = Image.new("L", (REC_WIDTH, REC_HEIGHT), 0)
    draw = ImageDraw.Draw(canvas)
    while True:
        left, top, right, bottom = draw.textbbox((0, 0), text, font=font(size))
        if right - left <= REC_WIDTH - 6 or size <= 12:
            break
        size -= 1
    slack = max(0.0, REC_WIDTH - 4 - (right - left))
    x = 2 - left + rng.uniform(0, slack)
    y = (REC_HEIGHT - (bottom - top)) / 2 - top + rng.uniform(-2.5, 2.5)
    draw.text((x, y), text, fill=255, font=font(size))
    canvas = canvas.rotate(float(rng.uniform(-2.5, 2.5)), resample=Image.Resampling.BILINEAR)
    mask = np.asarray(canvas, dtype=np.float64) / 255.0
    bg, fg = _contrasting_colours(rng, grey=True)
    return Image.fromarray(_noisy_rgb(mask, bg, fg, float(rng.uniform(2, 10)), rng), "RGB")


def _info(kind: str, seed: int, n_train: int, n_val: int) -> str:
    return json.dumps(
        {"generator": "workbench.datasets.demo", "version": GENERATOR_VERSION, "kind": kind, "seed": seed,
         "train_samples": n_train, "val_samples": n_val},
        indent=2,
    )  # fmt: skip


def generate_cls_demo(directory: str | Path, n_train: int = 2000, n_val: int = 500, seed: int = 0) -> Path:
    """Write a 10-class digit dataset (PaddleX / PaddleClas layout) to ``directory``; return it.

    ``label.txt`` (``<id> <name>``), ``train.txt`` / ``val.txt`` (``images/<file>.png <label>``) and
    ``images/``. Classes are balanced; the folder must not exist yet.
    """
    if n_train <= 0 or n_val <= 0:
        raise ValueError("n_train and n_val must be positive")

    def build(tmp: Path) -> None:
        rng = np.random.default_rng(seed)
        font = _fonts()
        total = n_train + n_val
        labels = rng.permutation(np.arange(total) % len(CLS_NAMES))
        lines: list[str] = []
        for index, label in enumerate(labels):
            rel = f"images/{index:05d}.png"
            _render_digit(int(label), rng, font).save(tmp / rel, optimize=False)
            lines.append(f"{rel} {int(label)}\n")
        (tmp / "label.txt").write_text(
            "".join(f"{i} {name}\n" for i, name in enumerate(CLS_NAMES)), encoding="utf-8"
        )
        (tmp / "train.txt").write_text("".join(lines[:n_train]), encoding="utf-8")
        (tmp / "val.txt").write_text("".join(lines[n_train:]), encoding="utf-8")
        (tmp / INFO_FILE).write_text(_info("cls", seed, n_train, n_val), encoding="utf-8")

    return _write_atomically(Path(directory), build)


def generate_rec_demo(
    directory: str | Path,
    n_train: int = 2000,
    n_val: int = 300,
    seed: int = 0,
    *,
    charset: str = REC_CHARSET,
    min_len: int = 3,
    max_len: int = 6,
) -> Path:
    """Write a text-recognition dataset (PaddleOCR layout) of short strings over ``charset``; return it.

    ``dict.txt`` (one character per line), ``train.txt`` / ``val.txt`` (``images/<file>.png<TAB>text``)
    and ``images/``; images are 32 high and 100 wide. The folder must not exist yet.
    """
    if n_train <= 0 or n_val <= 0:
        raise ValueError("n_train and n_val must be positive")
    if not 1 <= min_len <= max_len:
        raise ValueError("need 1 <= min_len <= max_len")
    chars = list(dict.fromkeys(charset))

    def build(tmp: Path) -> None:
        rng = np.random.default_rng(seed)
        font = _fonts()
        lines: list[str] = []
        for index in range(n_train + n_val):
            length = int(rng.integers(min_len, max_len + 1))
            text = "".join(chars[int(i)] for i in rng.integers(0, len(chars), size=length))
            rel = f"images/{index:05d}.png"
            _render_text(text, rng, font).save(tmp / rel, optimize=False)
            lines.append(f"{rel}\t{text}\n")
        (tmp / "dict.txt").write_text("".join(f"{c}\n" for c in chars), encoding="utf-8")
        (tmp / "train.txt").write_text("".join(lines[:n_train]), encoding="utf-8")
        (tmp / "val.txt").write_text("".join(lines[n_train:]), encoding="utf-8")
        (tmp / INFO_FILE).write_text(_info("rec", seed, n_train, n_val), encoding="utf-8")

    return _write_atomically(Path(directory), build)
