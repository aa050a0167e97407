"""A growing log file read in steps: each call returns the whole lines it gained since the last one.

The monitor shows a run's ``logs.txt`` (or a linked kit's own log) as it grows. Reading is file I/O, so
it runs on a worker thread (one read at a time per :class:`LogTail`); only whole lines are returned, so
a UTF-8 character split across two writes is decoded once it is complete. A file that grew by more than
``limit`` bytes since the last read is read from its last ``limit`` bytes (the lines skipped are not
shown: the view keeps up with the newest output).
"""

from __future__ import annotations

import os
from pathlib import Path

LOG_READ_LIMIT = 256_000


class LogTail:
    """Follows one file from its start; :meth:`read` is not thread-safe (one caller at a time)."""

    def __init__(self, path: str | os.PathLike[str], limit: int = LOG_READ_LIMIT) -> None:
        self.path = Path(path)
        self.limit = limit
        self._offset = 0
        self._partial = b""

    def read(self) -> str:
        """The whole lines added since the last call (``""`` when none, or the file cannot be read),
        each ending in a newline."""
        try:
            size = os.path.getsize(self.path)
        except OSError:
            return ""
        if size <= self._offset:
            return ""
        start = max(self._offset, size - self.limit)
        if start > self._offset:
            self._partial = b""  # skipped ahead: the kept tail no longer continues
        try:
            with open(self.path, "rb") as fh:
                fh.seek(start)
                chunk = self._partial + fh.read(size - start)
        except OSError:
            return ""
        self._offset = start + len(chunk) - len(self._partial)
        complete, _, self._partial = chunk.rpartition(b"\n")
        return complete.decode("utf-8", "replace") + "\n" if complete else ""
