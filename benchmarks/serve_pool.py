"""Pool of predictors vs one predictor behind a lock: which guard serves concurrent requests faster.

Trains the tiny demo classifier (few steps, temporary workspace), opens the export with both guards of
:mod:`workbench.serve.predictor` and calls it from ``C`` threads (batch 1, the real input shape), for
``N`` calls per configuration after a warm-up. Prints calls per second and p50/p99 per call. No HTTP:
this measures the guard, not the server. Run from the repository root:

    python benchmarks/serve_pool.py [--calls 400] [--concurrency 1 4 16] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
from _serve_demo import demo_export


def measure(predictor: object, batch: np.ndarray, concurrency: int, calls: int) -> tuple[float, float, float]:
    call = predictor.call  # type: ignore[attr-defined]
    for _ in range(10):
        call(batch)
    lock = threading.Lock()
    left = [calls]
    samples: list[float] = []

    def worker() -> None:
        while True:
            with lock:
                if left[0] <= 0:
                    return
                left[0] -= 1
            t0 = time.perf_counter()
            call(batch)
            took = time.perf_counter() - t0
            with lock:
                samples.append(took)

    start = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return calls / elapsed, statistics.median(ordered) * 1000, p99 * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["HOME"] = str(root / "home")
        os.environ.setdefault("GLOG_minloglevel", "2")
        _, run_dir = demo_export(root)
        from workbench.serve.predictor import GuardedPredictor
        from workbench.training.runtime import import_paddle

        paddle = import_paddle()
        prefix = run_dir / "export" / "model"
        batch = np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype("float32")
        print(
            f"cpu cores: {os.cpu_count()}, calls per row: {args.calls}, batch 1, paddle {paddle.__version__}"
        )
        print(f"{'guard':<10}{'concurrency':>12}{'calls/s':>10}{'p50 ms':>9}{'p99 ms':>9}")
        for guard, workers in (("lock", 1), ("pool", args.workers)):
            predictor = GuardedPredictor.open(paddle, prefix, "x", guard, workers)  # type: ignore[arg-type]
            for concurrency in args.concurrency:
                rate, p50, p99 = measure(predictor, batch, concurrency, args.calls)
                label = f"{guard}x{predictor.size}"
                print(f"{label:<10}{concurrency:>12}{rate:>10.1f}{p50:>9.2f}{p99:>9.2f}", flush=True)
            predictor.close()


if __name__ == "__main__":
    main()
