"""The dataset side of a built-in task that reads a kit layout (``cls``, ``rec``): the check run before
Paddle is imported, and the demo dataset generator.

The dataset code is imported when a function is called: validating a config scans the task modules and
stays light. A task passes its format with :func:`functools.partial`.
"""

from __future__ import annotations

from pathlib import Path


def check_layout(data_format: str, data_dir: Path) -> object:
    """The dataset linter first (every problem, images decoded), then the layout the build reads."""
    from workbench.datasets.layouts import read_cls_layout, read_rec_layout
    from workbench.datasets.lint import lint_dataset

    lint_dataset(data_dir, data_format).raise_for_errors()
    readers = {"cls": read_cls_layout, "rec": read_rec_layout}
    return readers[data_format](data_dir)


def make_layout_demo(data_format: str, folder: Path, train: int, val: int, seed: int) -> object:
    """The demo dataset of ``data_format`` in ``folder`` (``train`` and ``val`` samples, from ``seed``)."""
    from workbench.datasets.demo import generate_cls_demo, generate_rec_demo

    generators = {"cls": generate_cls_demo, "rec": generate_rec_demo}
    return generators[data_format](folder, train, val, seed)
