"""Keep a job's code from ending the whole process with ``os._exit``.

``os._exit`` skips every ``finally``, ``atexit`` hook and flush: called by a custom ``build`` on the
job thread of an in-process run, it would end ``train`` with the code the user's code chose (``0``
included) and no terminal event, no result line, ``state.json`` left ``running``. While a job runs,
:func:`guard_exit` replaces ``os._exit`` with a function that, *on the guarded thread only*, raises
:class:`ExitAttempted` instead (a ``BaseException``, so a broad ``except Exception`` in user code does
not swallow it); the runner records it as a failed run. Any other thread gets the real ``os._exit``.

A C extension calling ``exit()`` cannot be intercepted in-process; such a run stays ``running`` in
``state.json`` with a dead pid, which every reader shows as ``interrupted``.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from typing import NoReturn

_real_exit = os._exit
_guarded: set[tuple[int, int]] = set()
"""(pid, thread ident) pairs: a process forked from a guarded thread (a DataLoader worker) keeps the
thread's ident, and its ``os._exit`` at the end must stay real."""
_lock = threading.Lock()


class ExitAttempted(BaseException):  # noqa: N818 - what happened, not a generic "error"
    """The job's code called ``os._exit(code)``; the runner turns it into ``RunFailed``."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _guarded_exit(status: int) -> NoReturn:
    if (os.getpid(), threading.get_ident()) in _guarded:
        raise ExitAttempted(status)
    _real_exit(status)


@contextlib.contextmanager
def guard_exit() -> Iterator[None]:
    """While inside, ``os._exit`` on the calling thread raises :class:`ExitAttempted`."""
    ident = (os.getpid(), threading.get_ident())
    with _lock:
        _guarded.add(ident)
        os._exit = _guarded_exit
    try:
        yield
    finally:
        with _lock:
            _guarded.discard(ident)
            if not _guarded:
                os._exit = _real_exit
