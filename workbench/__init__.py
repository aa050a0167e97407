"""THE ENGINE of Paddle Workbench: plain Python, no Textual, Paddle only inside functions.

Importing ``workbench`` is cheap; submodules are imported where they are used. Public helpers load on
first access (PEP 562 ``__getattr__``), e.g. ``from workbench import track`` for
``track.log(step, loss=...)`` — still without importing Paddle or Textual.
"""

from __future__ import annotations

import importlib
from typing import Any

# First, before anything in the workbench sets a variable: the user's environment, for the checks.
from workbench import startenv as _startenv  # noqa: F401

_LAZY = {"track": "workbench.training.track"}

__all__ = ["track"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = importlib.import_module(module)
    globals()[name] = value
    return value
