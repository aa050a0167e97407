"""``python -m workbench.parallel.launch_main ARGS``: ``python -m paddle.distributed.launch ARGS`` whose
exit skips Python's last garbage collection.

The launcher imports all of Paddle; when its ranks have ended, the collection Python runs at exit walks
every one of those objects (about a second of CPU on a busy machine) while the command, the TUI or a
keeper waits for the launcher to end. Freezing them first leaves them to the process's exit.
"""

from __future__ import annotations

import gc


def main() -> None:
    """Run the launcher as ``python -m paddle.distributed.launch`` does (it ends with ``sys.exit``)."""
    from paddle.distributed.launch.main import launch

    try:
        launch()
    finally:
        gc.freeze()


if __name__ == "__main__":
    main()
