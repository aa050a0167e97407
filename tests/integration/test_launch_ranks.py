"""The launched-job path with the real distributed launcher: 2 CPU ranks, one event stream per rank."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

from workbench.events import RunFinished
from workbench.runner import start_launched
from workbench.runs import RunStore

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

RANK_SCRIPT = textwrap.dedent(
    """
    import sys
    import paddle
    import paddle.distributed as dist
    from workbench.runner.child import run_as_child

    def main(ctx):
        dist.init_parallel_env()
        value = paddle.to_tensor([float(dist.get_rank() + 1)])
        dist.all_reduce(value)
        for step in range(1, 6):
            ctx.log(step, loss=1.0 / step + ctx.rank, world=float(dist.get_world_size()), total=value.item())
        return {"total": value.item()}

    sys.exit(run_as_child(main))
    """
)


def test_two_cpu_ranks_through_paddle_distributed_launch(tmp_path: Path) -> None:
    script = tmp_path / "ranks.py"
    script.write_text(RANK_SCRIPT)
    store = RunStore(tmp_path / "ws")
    log_dir = tmp_path / "launch-logs"  # never ./log in the checkout
    argv = [
        sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", "2",
        "--log_dir", str(log_dir), str(script),
    ]  # fmt: skip
    job = start_launched(store, "two-ranks", argv, timeout_s=180, ranks=2)
    assert job.wait(200)
    assert isinstance(job.result, RunFinished), (job.result, (job.run_dir / "logs.txt").read_text()[-3000:])
    assert job.metrics.ranks() == [0, 1]
    for rank in (0, 1):
        assert job.metrics.last_step[rank] == 5
        assert job.metrics.latest(rank)["total"] == 3.0  # all_reduce of rank+1 over 2 ranks
        assert job.metrics.latest(rank)["world"] == 2.0
    assert (job.run_dir / "ranks" / "1" / "events.jsonl").exists()
    assert store.list()[0].status == "finished"
