"""Importing Paddle quietly and choosing the device: the only place the engine first touches Paddle.

``import paddle`` costs 2-3 s and ~270 MB and prints a ``No ccache found`` warning plus glog lines on
fd 2 (docs/paddle-notes.md, "Install and import"). :func:`import_paddle` sets ``GLOG_minloglevel=2`` unless
the user chose a level,
silences that one warning, and returns the module; callers run it off the UI thread.
"""

from __future__ import annotations

import gc
import os
import re
import sys
import warnings
from typing import Any

from workbench.i18n import t


def import_paddle() -> Any:
    """``import paddle`` quietly, in dynamic-graph mode for the calling thread.

    * glog's info/warning lines off (``GLOG_minloglevel=2`` unless the user chose a level);
    * the ccache warning filtered with a targeted, permanent filter — ``warnings.catch_warnings`` is
      process-global and not thread-safe, so using it here would swallow a running job's warnings;
    * Paddle keeps its graph mode per thread: when the first ``import paddle`` happened on another
      thread (the TUI imports it on a worker), this thread starts in static-graph mode and
      ``loss.backward()`` fails with "'pir.Value' object has no attribute 'backward'" (measured,
      Paddle 3.3.1). ``disable_static()`` puts this thread in dygraph mode; it is a no-op otherwise;
    * the import installs glog's C-level SIGTERM handler (a stack dump, then death) under Python's:
      on the main thread the stop signals are held back during the import and the Python handlers in
      charge are put back on top before any is delivered (:mod:`workbench.stop_signals`), so every
      command's own stop (exit ``128 + signal``, children ended) keeps working once Paddle is loaded.
    """
    os.environ.setdefault("GLOG_minloglevel", "2")
    warnings.filterwarnings("ignore", message=".*ccache.*")
    if "paddle" in sys.modules:
        import paddle
    else:
        from workbench.stop_signals import held, reassert_handlers

        with held():
            try:
                import paddle
            finally:
                reassert_handlers()  # even after a failed import: a partial one may have installed glog's
        spare_collections()

    if not paddle.in_dynamic_mode():
        paddle.disable_static()
    return paddle


def spare_collections() -> None:
    """Put every object alive now, Paddle's modules first, out of the garbage collector's reach.

    Python's full collection walks every tracked object. Paddle's import leaves ~130,000 of them, and with
    the TUI's own a full collection takes ~75-190 ms of CPU (measured, Paddle 3.3.1), on whichever thread
    allocates when one falls due: in the TUI that is often the UI thread, in the middle of a key (the
    Monitor's ``g`` read 209-229 ms when one landed in it, 28-42 ms otherwise). Frozen objects are never
    examined; they are the modules and long-lived state of this process, freed at exit anyway. Objects
    made afterwards are collected as usual.
    """
    gc.freeze()


def cuda_available(paddle: Any) -> bool:
    """A CUDA build with at least one visible GPU."""
    try:
        return bool(paddle.is_compiled_with_cuda()) and int(paddle.device.cuda.device_count()) > 0
    except Exception:  # noqa: BLE001 - a broken driver means "no GPU" here; envcheck explains why
        return False


def resolve_device(requested: str, paddle: Any) -> str:
    """``auto``/``cpu``/``gpu``/``gpu:N`` → the device string Paddle accepts (``cpu`` or ``gpu:N``).

    ``gpu`` on a machine without one raises ``RuntimeError`` (asked for explicitly, so no silent CPU).
    """
    if requested == "cpu":
        return "cpu"
    if requested == "auto":
        return "gpu:0" if cuda_available(paddle) else "cpu"
    match = re.fullmatch(r"gpu(?::(\d+))?", requested)
    if match is None:
        raise ValueError(t("training.device.unknown", device=requested))
    if not cuda_available(paddle):
        raise RuntimeError(t("training.device.no_gpu", device=requested))
    return f"gpu:{match.group(1) or 0}"


def set_device(device: str, paddle: Any) -> str:
    """Make ``device`` Paddle's current device (process-wide) and return what Paddle reports."""
    paddle.set_device(device)
    return str(paddle.device.get_device())
