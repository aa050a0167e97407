"""The user's environment as it was when this process started, before the workbench changed it.

The workbench sets variables in its own process (``GLOG_minloglevel`` to quiet glog before Paddle is
imported; ``import paddle`` itself sets ``OMP_NUM_THREADS``). Facts about "your environment" must not
report those: the environment checks read this snapshot, taken when the ``workbench`` package is first
imported (``workbench/__init__.py`` imports this module first), so ``check`` and the Environment screen
describe the same thing — what the user's shell exported.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from types import MappingProxyType

_SNAPSHOT: Mapping[str, str] = MappingProxyType(dict(os.environ))


def startup_environment() -> dict[str, str]:
    """A copy of the environment at process start (the user's, not what the workbench set since)."""
    return dict(_SNAPSHOT)
