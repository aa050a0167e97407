"""Datasets: demo generators (no downloads) and readers for the PaddleX / PaddleClas / PaddleOCR layouts.

* :mod:`workbench.datasets.layouts` parses the list files (``label.txt``, ``train.txt``, ``dict.txt`` ...)
  and reports every malformed line as ``file:line: problem`` — pure Python, no Paddle.
* :mod:`workbench.datasets.demo` renders small deterministic datasets with Pillow's bundled font:
  digits for image classification, short strings for text recognition.
* :mod:`workbench.datasets.readers` builds ``paddle.io.Dataset`` objects over those layouts (Paddle is
  imported inside the functions that need it, never at module level).
"""

from workbench.datasets.demo import REC_CHARSET, generate_cls_demo, generate_rec_demo
from workbench.datasets.layouts import (
    ClsLayout,
    DatasetError,
    DatasetProblem,
    RecLayout,
    read_cls_layout,
    read_rec_layout,
)

__all__ = [
    "REC_CHARSET",
    "ClsLayout",
    "DatasetError",
    "DatasetProblem",
    "RecLayout",
    "generate_cls_demo",
    "generate_rec_demo",
    "read_cls_layout",
    "read_rec_layout",
]
