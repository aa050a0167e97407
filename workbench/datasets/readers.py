"""``paddle.io.Dataset`` readers for the classification and recognition layouts.

The classes are defined inside the factory functions so importing this module never imports Paddle.
Images are decoded once, up front, into one float32 array: the demo sets are a few MB, and a training
step then never waits on PNG decoding (``data_wait_ms`` stays honest about the loader, not Pillow).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from workbench.datasets.layouts import ClsLayout, RecLayout, read_cls_layout, read_rec_layout

MEAN, STD = 0.5, 0.5


def load_rgb(path: Path, size: tuple[int, int]) -> np.ndarray[Any, Any]:
    """An image as CHW float32 in [-1, 1], resized to ``size`` (w, h) when it differs."""
    from PIL import Image

    with Image.open(path) as img:
        rgb = img.convert("RGB")
        if rgb.size != size:
            rgb = rgb.resize(size, Image.Resampling.BILINEAR)
        arr = np.asarray(rgb, dtype=np.float32) / 255.0
    return ((arr - MEAN) / STD).transpose(2, 0, 1)


def load_grey(path: Path, size: tuple[int, int]) -> np.ndarray[Any, Any]:
    """An image as 1xHxW float32 in [-1, 1], resized to ``size`` (w, h) when it differs."""
    from PIL import Image

    with Image.open(path) as img:
        grey = img.convert("L")
        if grey.size != size:
            grey = grey.resize(size, Image.Resampling.BILINEAR)
        arr = np.asarray(grey, dtype=np.float32) / 255.0
    return ((arr - MEAN) / STD)[None, :, :]


def encode_text(text: str, index: dict[str, int], max_len: int) -> tuple[np.ndarray[Any, Any], int]:
    """Text as int32 label ids (``dict.txt`` position + 1; 0 is the CTC blank), padded to ``max_len``."""
    ids = np.zeros(max_len, dtype=np.int32)
    codes = [index[c] + 1 for c in text[:max_len]]
    ids[: len(codes)] = codes
    return ids, len(codes)


def cls_dataset(root: str | Path | ClsLayout, split: str, image_size: int = 32) -> Any:
    """A ``paddle.io.Dataset`` of ``(image CHW float32, label int64)`` for one split."""
    import paddle

    layout = root if isinstance(root, ClsLayout) else read_cls_layout(root)
    samples = layout.samples[split]

    class ClsDataset(paddle.io.Dataset[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]):
        """Images decoded up front; ``__getitem__`` is two array lookups."""

        def __init__(self) -> None:
            super().__init__()
            self.class_names = list(layout.class_names)
            self.images = np.stack([load_rgb(p, (image_size, image_size)) for p, _ in samples])
            self.labels = np.asarray([label for _, label in samples], dtype=np.int64)

        def __len__(self) -> int:
            return len(self.labels)

        def __getitem__(self, index: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
            return self.images[index], self.labels[index]

    return ClsDataset()


def rec_dataset(
    root: str | Path | RecLayout,
    split: str,
    *,
    charset: Sequence[str] | None = None,
    max_len: int | None = None,
    height: int = 32,
    width: int = 100,
) -> Any:
    """A ``paddle.io.Dataset`` of ``(image 1xHxW float32, label ids int32 [max_len], length int64)``."""
    import paddle

    layout = root if isinstance(root, RecLayout) else read_rec_layout(root)
    samples = layout.samples[split]
    chars = list(charset if charset is not None else layout.charset)
    index = {c: i for i, c in enumerate(chars)}
    limit = max_len if max_len is not None else max(layout.max_text_length, 1)

    class RecDataset(paddle.io.Dataset[tuple[np.ndarray[Any, Any], ...]]):
        """Grey images decoded up front; labels encoded for CTC (blank = 0)."""

        def __init__(self) -> None:
            super().__init__()
            self.charset = chars
            self.max_len = limit
            self.texts = [text for _, text in samples]
            self.images = np.stack([load_grey(p, (width, height)) for p, _ in samples])
            encoded = [encode_text(text, index, limit) for text in self.texts]
            self.labels = np.stack([ids for ids, _ in encoded])
            self.lengths = np.asarray([n for _, n in encoded], dtype=np.int64)

        def __len__(self) -> int:
            return len(self.texts)

        def __getitem__(
            self, i: int
        ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
            return self.images[i], self.labels[i], self.lengths[i]

    return RecDataset()
