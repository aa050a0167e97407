"""Automatic probes a troubleshooting flow runs: each looks at this machine or a run and names an outcome.

A probe is a function ``(ProbeContext, args) -> ProbeOutcome``; ``outcome`` is one of the names it
declares (a flow branches on it, and validation checks a flow covers them), ``evidence`` the lines a user
sees. Probes never raise for an ordinary "not there" — that is an outcome (``no_run``, ``no_export``) —
and they bound every wait. They run on a worker thread in the wizard and plainly in tests.

Registered in :data:`PROBES` by name (explicit registrations in this module, no folder scan); a flow
naming a probe that is not here fails validation.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.i18n import t
from workbench.registry import Registry


@dataclass
class ProbeContext:
    """What the probes may look at: a run (optional), the workspace, hosts and a port to try."""

    run_dir: Path | None = None
    workspace: Path | None = None
    hosts: list[str] = field(default_factory=list)
    port: int | None = None
    plan: Path | None = None
    timeout_s: float = 60.0


@dataclass
class ProbeOutcome:
    outcome: str
    evidence: list[str]


@dataclass(frozen=True)
class Probe:
    """A named check: the outcomes it can name (a flow must branch on each) and the function."""

    outcomes: tuple[str, ...]
    run: Callable[[ProbeContext, Mapping[str, Any]], ProbeOutcome]


PROBES: Registry[Probe] = Registry("probe")
"""Every probe a flow may name."""


def _probe(
    name: str, *outcomes: str
) -> Callable[[Callable[[ProbeContext, Mapping[str, Any]], ProbeOutcome]], Any]:
    def register(fn: Callable[[ProbeContext, Mapping[str, Any]], ProbeOutcome]) -> Any:
        PROBES.register(name, Probe(tuple(outcomes), fn), module=__name__)
        return fn

    return register


def _run_config(ctx: ProbeContext) -> dict[str, Any] | None:
    if ctx.run_dir is None:
        return None
    from workbench.runs import read_run_config

    config = read_run_config(ctx.run_dir)
    return config or None


@_probe("interpreter", "paddle_found", "paddle_missing")
def _interpreter(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    import importlib.util

    spec = importlib.util.find_spec("paddle")
    evidence = [t("probe.interpreter.python", path=sys.executable, version=sys.version.split()[0])]
    if spec is None or spec.origin is None:
        return ProbeOutcome("paddle_missing", evidence + [t("probe.interpreter.missing")])
    return ProbeOutcome(
        "paddle_found", evidence + [t("probe.interpreter.found", path=str(Path(spec.origin).parent))]
    )


@_probe("env_check", "pass", "warn", "fail", "skip")
def _env_check(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    from workbench.envcheck.engine import run_checks

    only = list(args.get("only") or []) or None
    report = run_checks(only=only, timeout_s=ctx.timeout_s)
    evidence = [f"{f.id}: {f.status} — {f.summary}" for f in report.findings]
    evidence += [f"  → {f.fix}" for f in report.findings if f.status in ("warn", "fail") and f.fix]
    return ProbeOutcome(report.worst, evidence)


@_probe("devices", "cpu_only", "gpus")
def _devices(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    evidence = [t("probe.devices.cpus", count=os.cpu_count() or 1)]
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        evidence.append(f"CUDA_VISIBLE_DEVICES={visible}")
    gpus = 0
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=10).stdout
            gpus = sum(1 for line in out.splitlines() if line.startswith("GPU "))
        except (OSError, subprocess.SubprocessError):
            gpus = 0
    evidence.append(t("probe.devices.gpus", count=gpus))
    config = _run_config(ctx) or {}
    nproc = (
        (config.get("launch") or {}).get("nproc_per_node") if isinstance(config.get("launch"), dict) else None
    )
    if nproc:
        evidence.append(t("probe.devices.nproc", count=nproc))
    return ProbeOutcome("gpus" if gpus else "cpu_only", evidence)


@_probe("ports", "free", "in_use", "unreachable")
def _ports(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    chosen = args.get("port", ctx.port)
    port = int(chosen) if chosen is not None else 6170
    evidence: list[str] = []
    outcome = "free"
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("0.0.0.0", port))
            evidence.append(t("probe.ports.free", port=port))
        except OSError as exc:
            outcome = "in_use"
            evidence.append(t("probe.ports.in_use", port=port, error=exc.strerror or str(exc)))
    for host in ctx.hosts:
        try:
            with socket.create_connection((host, port), timeout=2.0):
                evidence.append(t("probe.ports.reachable", host=host, port=port))
        except OSError as exc:
            evidence.append(
                t("probe.ports.unreachable", host=host, port=port, error=exc.strerror or str(exc))
            )
            outcome = "unreachable" if outcome == "free" else outcome
    return ProbeOutcome(outcome, evidence)


@_probe("seeds", "fixed", "not_fixed", "no_run")
def _seeds(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    config = _run_config(ctx)
    if config is None:
        return ProbeOutcome("no_run", [t("probe.no_run")])
    seed = (config.get("train") or {}).get("seed")
    if seed is None:
        return ProbeOutcome("not_fixed", [t("probe.seeds.none")])
    return ProbeOutcome("fixed", [t("probe.seeds.fixed", seed=seed)])


@_probe("lr_batch", "ok", "high", "no_run")
def _lr_batch(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    config = _run_config(ctx)
    if config is None:
        return ProbeOutcome("no_run", [t("probe.no_run")])
    train = config.get("train") or {}
    lr, batch = float(train.get("lr") or 0.0), int(train.get("batch_size") or 1)
    ranks = int(args.get("ranks") or (config.get("launch") or {}).get("nproc_per_node") or 1)
    global_batch = batch * ranks
    per_256 = lr * 256 / global_batch
    limit = 0.4 if str(train.get("optimizer", "momentum")) in ("sgd", "momentum") else 0.004
    evidence = [
        t("probe.lr.values", lr=lr, batch=batch, ranks=ranks, global_batch=global_batch, per=f"{per_256:.3g}")
    ]
    return ProbeOutcome("high" if per_256 > limit else "ok", evidence)


@_probe("plan", "valid", "invalid", "no_plan", "not_available")
def _plan(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    if ctx.plan is None:
        return ProbeOutcome("no_plan", [t("probe.plan.none")])
    try:
        from workbench.parallel.validate import check_plan
    except ImportError:
        return ProbeOutcome("not_available", [t("probe.plan.not_available")])
    report = check_plan(ctx.plan)
    errors = [str(getattr(e, "message", e)) for e in report.errors]
    if errors:
        return ProbeOutcome("invalid", errors[:8])
    return ProbeOutcome("valid", [t("probe.plan.valid", path=str(ctx.plan))])


@_probe("compare_report", "train_mode", "preprocess", "differs", "ok", "no_report")
def _compare_report(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    reports = sorted((ctx.run_dir / "reports").glob("compare-*.json")) if ctx.run_dir else []
    if not reports:
        return ProbeOutcome("no_report", [t("probe.compare.none")])
    try:
        doc = json.loads(reports[-1].read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ProbeOutcome("no_report", [t("probe.compare.none")])
    findings = [f for f in doc.get("findings") or [] if isinstance(f, dict)]
    evidence = [
        f"{reports[-1].name}: {f.get('id')} ({f.get('severity')}) {f.get('summary')}" for f in findings
    ]
    ids = {str(f.get("id")) for f in findings if f.get("severity") in ("warn", "fail")}
    if "train_mode" in ids:
        return ProbeOutcome("train_mode", evidence)
    if any("preprocess" in i for i in ids):
        return ProbeOutcome("preprocess", evidence)
    if not doc.get("ok", True):
        return ProbeOutcome("differs", evidence or [reports[-1].name])
    return ProbeOutcome("ok", evidence or [t("probe.compare.ok", file=reports[-1].name)])


@_probe("kernels", "missing", "available", "no_export")
def _kernels(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    exports = sorted(ctx.run_dir.glob("export/**/model.json")) if ctx.run_dir else []
    if not exports:
        return ProbeOutcome("no_export", [t("probe.kernels.no_export")])
    from workbench.inference.ops import available_device_types, kernel_backends, program_ops
    from workbench.training.runtime import import_paddle

    paddle = import_paddle()
    ops = program_ops(exports[-1])
    backends = kernel_backends(paddle)
    target = str(args.get("target") or "cpu").upper()
    missing = sorted(op for op in ops if op in backends and target not in {b.upper() for b in backends[op]})
    evidence = [
        t(
            "probe.kernels.summary",
            count=len(ops),
            target=target,
            devices=", ".join(available_device_types(paddle)),
        )
    ]
    if missing:
        return ProbeOutcome("missing", evidence + [t("probe.kernels.missing", ops=", ".join(missing[:20]))])
    return ProbeOutcome("available", evidence)


@_probe("dataset_lint", "ok", "problems", "no_dataset")
def _dataset_lint(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    config = _run_config(ctx) or {}
    data = config.get("data") or {}
    root = args.get("dir") or data.get("dir")
    if not root:
        return ProbeOutcome("no_dataset", [t("probe.dataset.none")])
    from workbench.datasets import layouts

    readers = {"cls": layouts.read_cls_layout, "rec": layouts.read_rec_layout, "det": layouts.read_det_layout}
    fmt = str(args.get("format") or data.get("format") or "cls")
    reader = readers.get(fmt, layouts.read_cls_layout)
    try:
        reader(Path(str(root)))
    except layouts.DatasetError as exc:
        problems = [str(p) for p in exc.problems][:10]
        return ProbeOutcome("problems", problems or [str(exc)])
    except OSError as exc:
        return ProbeOutcome("problems", [f"{root}: {exc.strerror}"])
    return ProbeOutcome("ok", [t("probe.dataset.ok", path=str(root), format=fmt)])


_GRAD_SNIPPET = (
    "import paddle\n"
    "x = paddle.to_tensor([2.0], stop_gradient=False)\n"
    "y = x ** 3\n"
    "(g,) = paddle.grad(y, x, create_graph=True)\n"
    "(g2,) = paddle.grad(g, x)\n"
    "print('HOG', float(g.item()), float(g2.item()))\n"
)


@_probe("higher_order_grad", "works", "fails")
def _higher_order_grad(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    env = dict(os.environ, GLOG_minloglevel="2")
    try:
        done = subprocess.run(
            [sys.executable, "-c", _GRAD_SNIPPET],
            capture_output=True,
            text=True,
            timeout=ctx.timeout_s,
            env=env,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return ProbeOutcome("fails", [str(exc)])
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("HOG ")), "")
    if done.returncode == 0 and line:
        _, first, second = line.split()
        return ProbeOutcome("works", [t("probe.grad.works", first=first, second=second)])
    tail = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
    return ProbeOutcome("fails", [tail])


@_probe("data_wait", "data_bound", "compute_bound", "no_run")
def _data_wait(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    if ctx.run_dir is None:
        return ProbeOutcome("no_run", [t("probe.no_run")])
    from workbench.runs import read_run

    latest = read_run(ctx.run_dir).metrics.latest()
    data, compute = latest.get("data_wait_ms"), latest.get("compute_ms")
    if data is None or compute is None:
        return ProbeOutcome("no_run", [t("probe.data.no_metrics")])
    evidence = [t("probe.data.values", data=f"{data:.1f}", compute=f"{compute:.1f}")]
    return ProbeOutcome("data_bound" if data > 0.2 * compute else "compute_bound", evidence)


@_probe("threads", "single_thread", "ok")
def _threads(ctx: ProbeContext, args: Mapping[str, Any]) -> ProbeOutcome:
    value = os.environ.get("OMP_NUM_THREADS")
    cpus = os.cpu_count() or 1
    evidence = [t("probe.threads.values", value=value if value is not None else "-", cpus=cpus)]
    if (value is None or value.strip() == "1") and cpus > 1:
        return ProbeOutcome("single_thread", evidence)
    return ProbeOutcome("ok", evidence)


def run_probe(name: str, ctx: ProbeContext, args: Mapping[str, Any] | None = None) -> ProbeOutcome:
    """Run probe ``name``; an unexpected exception is evidence of its own (outcome ``error``)."""
    probe = PROBES.get(name)
    try:
        return probe.run(ctx, args or {})
    except Exception as exc:  # a probe failing is a finding for the user, not a crash
        return ProbeOutcome("error", [t("probe.error", name=name, error=f"{type(exc).__name__}: {exc}")])


__all__ = ["PROBES", "Probe", "ProbeContext", "ProbeOutcome", "run_probe"]
