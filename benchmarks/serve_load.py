"""The served demo model under load: throughput and p50/p99 at concurrency 1, 4, 16, and RSS over time.

Trains the tiny demo classifier (temporary workspace), starts ``paddle-workbench serve`` on a free
loopback port, runs ``loadtest``'s engine at each concurrency (``--requests`` each), then a
``--duration`` s run at concurrency 4 while sampling the server's RSS every second: flat RSS means no
leak per request. The server's rate limit is lifted (its default, 200 requests/s per client, would answer
429 from this one client). Stops the server with SIGTERM and prints its exit code. Run from the repository root:

    python benchmarks/serve_load.py [--requests 400] [--duration 30] [--guard lock] [--workers 1]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
from _serve_demo import demo_export


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--guard", default="lock")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["HOME"] = str(root / "home")
        os.environ.setdefault("GLOG_minloglevel", "2")
        workspace, run_dir = demo_export(root)
        from workbench.serve.auth import token_path
        from workbench.serve.loadtest import run_loadtest

        proc = subprocess.Popen(
            [sys.executable, "-m", "workbench", "--workspace", str(workspace), "serve", run_dir.name,
             "--port", "0", "--guard", args.guard, "--workers", str(args.workers),
             "--rate", "1000000", "--burst", "10000000"],  # measure the server, not its rate limit
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        assert proc.stdout is not None
        url = ""
        for line in proc.stdout:
            if "Serving on http://" in line:
                url = line.split("Serving on ", 1)[1].split()[0]
                break
        if not url:
            raise SystemExit("server did not start")
        threading.Thread(target=proc.stdout.read, daemon=True).start()
        token = token_path(workspace).read_text(encoding="utf-8").strip()
        print(
            f"cpu cores: {os.cpu_count()}, guard {args.guard} x {args.workers}, {args.requests} requests per row"
        )
        print(f"{'concurrency':>11}{'req/s':>9}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'errors':>8}")
        for concurrency in (1, 4, 16):
            r = run_loadtest(
                url, token=token, concurrency=concurrency, requests=args.requests, duration_s=120
            )
            p50, p90, p99 = (r.percentile(q) or 0.0 for q in (50, 90, 99))
            errors = sum(r.errors.values())
            print(
                f"{concurrency:>11}{r.throughput_rps:>9.1f}{p50:>9.2f}{p90:>9.2f}{p99:>9.2f}{errors:>8}",
                flush=True,
            )

        server = psutil.Process(proc.pid)
        samples: list[int] = []
        done = threading.Event()

        def sample() -> None:
            while not done.wait(1.0):
                samples.append(server.memory_info().rss)

        sampler = threading.Thread(target=sample, daemon=True)
        start_rss = server.memory_info().rss
        sampler.start()
        r = run_loadtest(url, token=token, concurrency=4, requests=10**7, duration_s=args.duration)
        done.set()
        sampler.join()
        end_rss = server.memory_info().rss
        mib = [s / 2**20 for s in samples]
        print(
            f"{args.duration:.0f} s at concurrency 4: {r.ok} requests, {r.throughput_rps:.1f} req/s, "
            f"errors {r.errors or 0}; server RSS start {start_rss / 2**20:.1f} MiB, "
            f"min {min(mib):.1f}, max {max(mib):.1f}, end {end_rss / 2**20:.1f} MiB"
        )
        third = max(1, len(mib) // 3)
        print(
            f"RSS mean first third {sum(mib[:third]) / third:.1f} MiB, last third {sum(mib[-third:]) / third:.1f} MiB"
        )
        proc.send_signal(signal.SIGTERM)
        t0 = time.perf_counter()
        code = proc.wait(timeout=60)
        print(f"SIGTERM → exit {code} after {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
