"""Datasets: demo generators (no downloads) and readers for the PaddleX / PaddleClas / PaddleOCR layouts.

* :mod:`workbench.datasets.layouts` parses the list files (``label.txt``, ``train.txt``, ``dict.txt`` ...)
  and reports every malformed line as ``file:line: problem`` — pure Python, no Paddle.
* :mod:`workbench.datasets.demo` renders small deterministic datasets with Pillow's bundled font:
  digits for image classification, short strings for text recognition.
* :mod:`workbench.datasets.readers` builds ``paddle.io.Dataset`` objects over those layouts (Paddle is
  imported inside the functions that need it, never at module level).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.datasets.demo import REC_CHARSET, generate_cls_demo, generate_rec_demo
    from workbench.datasets.layouts import (
        ClsLayout,
        DatasetError,
        DatasetProblem,
        RecLayout,
        read_cls_layout,
        read_rec_layout,
    )

# Imported on first use: the demo generators need NumPy (~0.2 s), and every process that imports a
# submodule imports this package first — ``dataset check`` and each of its spawned image checkers too.
_LAZY = {
    "REC_CHARSET": "workbench.datasets.demo",
    "generate_cls_demo": "workbench.datasets.demo",
    "generate_rec_demo": "workbench.datasets.demo",
    "ClsLayout": "workbench.datasets.layouts",
    "DatasetError": "workbench.datasets.layouts",
    "DatasetProblem": "workbench.datasets.layouts",
    "RecLayout": "workbench.datasets.layouts",
    "read_cls_layout": "workbench.datasets.layouts",
    "read_rec_layout": "workbench.datasets.layouts",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
