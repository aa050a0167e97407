"""``plan parity RUN_A RUN_B``: does the parallel run learn like the baseline, step for step?

**Comparable first.** Two runs of different models, data or recipes are refused before any number is
computed (:mod:`workbench.parallel.comparable` says what differs; ``plan parity`` exits 2).

**The curves.** Both runs' loss curves are lined up on samples seen (step × global batch), so runs with
different batch sizes still meet where they consumed the same data. A run whose ranks log different
losses is read as the mean over its ranks (what the global batch's loss is when each rank logs its own
half). The result keeps the absolute and relative gap at every compared step (thinned to
:data:`MAX_POINTS`) beside the noise floor.

**The noise model.** A parallel run sums the same numbers in another order (an all-reduce, a split
matmul), so its loss differs from the baseline's by float32 rounding: at most a few units in the last
place of the loss to begin with, growing with the number of steps. The rounding floor at step ``s`` is

    floor(s) = K · eps32 · max(|loss_a|, |loss_b|) · sqrt(s)

(``eps32`` = 2⁻²³, ``K`` = :data:`FLOOR_K`). Training can then amplify such a difference — two
trajectories that differ in the last bit drift apart — but an amplified rounding difference grows out of
the floor (its first step beyond the floor is within :data:`ONSET_JUMP` × the floor) after the curves
tracked each other at the floor, and it stays a small fraction of the loss (:data:`ENVELOPE_REL`). A real
difference (another seed, learning rate or batch, gradients not synchronised) shows as a jump: a gap
orders of magnitude above the floor at the step where it starts. Measured on the bundled samples (tiny
MLP, CPU, 100 steps): dp and 2-D stayed within 1–2 ulp (2.4e-7) until step 42, tensor parallel too;
then tp and 2-D grew out of the floor (3× it at the first step beyond) to at most 2.1e-3 relative. The
planted errors jumped 10³–10⁵ × the floor at steps 1–3 (seed: 0.11 relative at step 1; lr doubled:
1.2e-2 at step 3; batch halved or doubled: 1e-2 at the first shared sample count).

Paddle's own distributed tests compare a few steps against a fixed ``delta`` (1e-5); torchtitan's
convergence guide accepts that different parallel layouts never reproduce bit for bit and compares
curves. Here the floor grows with the steps and the loss scale instead, and an explicit ``--tolerance``
(an absolute gap) replaces the noise model when a user wants a fixed number.

**The checks** then name the usual causes from what the runs recorded: the global batch, the learning
rate against it (linear scaling), the seeds, whether the gradients are kept in sync over data-parallel
ranks (ranks that start at the same loss and drift apart), whether ranks log an averaged loss, and
whether the batch splits evenly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from workbench.i18n import t
from workbench.parallel.comparable import Comparability, differences
from workbench.runs import EventTailer, RunStore, read_run_config, run_name

EPS32 = float(np.finfo(np.float32).eps)
FLOOR_K = 8.0
"""Units of float32 rounding allowed per ``sqrt(step)`` (the measured gap stayed within 2 units)."""
ONSET_JUMP = 100.0
"""A gap that first leaves the floor by more than this factor appeared at once: a real difference."""
ENVELOPE_REL = 1e-2
"""The largest relative gap amplified rounding may reach (measured: 2.1e-3 at most)."""
MAX_POINTS = 500
"""Curve points kept in a report (the largest gap of each stretch is kept)."""

MATCH, AMPLIFIED, DIVERGED, NO_OVERLAP, NOT_COMPARABLE = (
    "match",
    "match_amplified",
    "diverged",
    "no_overlap",
    "not_comparable",
)
PASSING = frozenset({MATCH, AMPLIFIED})


@dataclass
class Check:
    id: str
    status: str
    summary: str
    fix: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "summary": self.summary, "fix": self.fix}


@dataclass
class Curves:
    """The compared steps (of run B), both losses, the gaps and the floor, in step order."""

    steps: list[int] = field(default_factory=list)
    loss_a: list[float] = field(default_factory=list)
    loss_b: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)

    @property
    def abs_gap(self) -> list[float]:
        return [abs(a - b) for a, b in zip(self.loss_a, self.loss_b, strict=True)]

    @property
    def rel_gap(self) -> list[float]:
        return [abs(a - b) / max(abs(a), 1e-12) for a, b in zip(self.loss_a, self.loss_b, strict=True)]

    def to_dict(self) -> dict[str, list[Any]]:
        keep = _thin(self.abs_gap, MAX_POINTS)
        return {
            "steps": [self.steps[i] for i in keep],
            "abs": [self.abs_gap[i] for i in keep],
            "rel": [self.rel_gap[i] for i in keep],
            "floor": [self.floor[i] for i in keep],
        }


def _thin(values: list[float], limit: int) -> list[int]:
    """Indices of at most ``limit`` points: each stretch's largest value (first and last always kept)."""
    if len(values) <= limit:
        return list(range(len(values)))
    edges = np.linspace(0, len(values), limit - 1, dtype=int)
    keep = {0, len(values) - 1}
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        if hi > lo:
            keep.add(lo + int(np.argmax(values[lo:hi])))
    return sorted(keep)


@dataclass
class ParityResult:
    run_a: Path
    run_b: Path
    tolerance: float | None
    """An explicit absolute tolerance (``--tolerance``); ``None``: the noise model judges."""
    compared: int = 0
    max_abs_diff: float | None = None
    max_rel_diff: float | None = None
    first_divergence_step: int | None = None
    """Where a divergence starts (``None`` when the runs match)."""
    leaves_floor_step: int | None = None
    """The first step whose gap is beyond the rounding floor (also for amplified rounding)."""
    verdict: str = NO_OVERLAP
    comparability: Comparability | None = None
    curves: Curves = field(default_factory=Curves)
    checks: list[Check] = field(default_factory=list)

    @property
    def comparable(self) -> bool:
        return self.comparability is None or self.comparability.ok

    @property
    def ok(self) -> bool:
        return (
            self.comparable
            and self.compared > 0
            and self.verdict in PASSING
            and all(c.status != "fail" for c in self.checks)
        )

    @property
    def named_causes(self) -> list[str]:
        return [c.id for c in self.checks if c.status == "fail"]

    def verdict_text(self) -> str:
        """The verdict in words (the UI and the CLI print it first)."""
        if not self.comparable:
            assert self.comparability is not None
            listed = "; ".join(d.text() for d in self.comparability.differences)
            return t("parallel.parity.verdict.not_comparable", differences=listed)
        if self.compared == 0:
            return t("parallel.parity.verdict.no_overlap")
        gap = f"{self.max_abs_diff:.3g}"
        rel = f"{self.max_rel_diff:.3g}"
        if self.ok and self.tolerance is not None:
            return t(
                "parallel.parity.verdict.within_tolerance",
                steps=self.compared,
                abs=gap,
                tol=f"{self.tolerance:g}",
            )
        if self.ok and self.verdict == MATCH:
            return t("parallel.parity.verdict.match", steps=self.compared, abs=gap, rel=rel)
        if self.ok:
            return t(
                "parallel.parity.verdict.amplified",
                steps=self.compared,
                step=str(self.leaves_floor_step),
                rel=rel,
                envelope=f"{ENVELOPE_REL:g}",
            )
        causes = ", ".join(self.named_causes) or t("parallel.parity.verdict.no_cause")
        if self.verdict in PASSING:  # the curves agree, a recorded fact does not
            return t("parallel.parity.verdict.check_failed", causes=causes)
        step = self.first_divergence_step
        index = self.curves.steps.index(step) if step in self.curves.steps else None
        at_gap = self.curves.abs_gap[index] if index is not None else float("nan")
        at_floor = self.curves.floor[index] if index is not None else float("nan")
        if self.tolerance is not None:
            at_floor = self.tolerance
        return t(
            "parallel.parity.verdict.diverged"
            if self.tolerance is None
            else "parallel.parity.verdict.beyond_tolerance",
            step=str(step),
            gap=f"{at_gap:.3g}",
            floor=f"{at_floor:.2g}",
            rel=rel,
            causes=causes,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "verdict": self.verdict if self.comparable else NOT_COMPARABLE,
            "verdict_text": self.verdict_text(),
            "run_a": str(self.run_a),
            "run_b": str(self.run_b),
            "tolerance": self.tolerance,
            "noise": {"eps32": EPS32, "k": FLOOR_K, "onset_jump": ONSET_JUMP, "envelope_rel": ENVELOPE_REL},
            "compared_steps": self.compared,
            "max_abs_diff": self.max_abs_diff,
            "max_rel_diff": self.max_rel_diff,
            "first_divergence_step": self.first_divergence_step,
            "leaves_floor_step": self.leaves_floor_step,
            "named_causes": self.named_causes,
            "comparable": self.comparability.to_dict() if self.comparability is not None else None,
            "curves": self.curves.to_dict(),
            "checks": [c.to_dict() for c in self.checks],
        }


@dataclass
class _Run:
    path: Path
    config: dict[str, Any]
    losses: dict[int, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]
    """rank -> (steps, losses)"""

    @property
    def train(self) -> dict[str, Any]:
        train = self.config.get("train")
        return train if isinstance(train, dict) else {}

    @property
    def parallel(self) -> dict[str, Any]:
        section = self.config.get("parallel")
        return section if isinstance(section, dict) else {}

    @property
    def batch(self) -> int:
        return int(self.train.get("batch_size") or 1)

    def dp(self) -> int:
        mesh = self.parallel.get("mesh") or {}
        names, shape = mesh.get("dim_names") or [], mesh.get("shape") or []
        return int(shape[names.index("dp")]) if "dp" in names else 1

    def mean_curve(self) -> dict[int, float]:
        """step -> the loss averaged over the ranks that logged that step."""
        sums: dict[int, list[float]] = {}
        for steps, values in self.losses.values():
            for s, v in zip(steps, values, strict=True):
                sums.setdefault(int(s), []).append(float(v))
        return {s: float(np.mean(v)) for s, v in sorted(sums.items())}

    def rank_spread(self) -> dict[int, float]:
        """step -> the largest difference between two ranks' losses at that step."""
        rows: dict[int, list[float]] = {}
        for steps, values in self.losses.values():
            for s, v in zip(steps, values, strict=True):
                rows.setdefault(int(s), []).append(float(v))
        return {s: max(v) - min(v) for s, v in sorted(rows.items()) if len(v) > 1}


def _read(run_dir: Path) -> _Run:
    tailer = EventTailer(run_dir)
    tailer.poll()
    losses = {}
    for rank in tailer.metrics.ranks():
        series = tailer.metrics.series("loss", rank)
        if series is not None and len(series):
            steps, values = series.arrays()
            losses[rank] = (steps, values)
    return _Run(run_dir, read_run_config(run_dir), losses)


def rounding_floor(loss_a: float, loss_b: float, step: int) -> float:
    """The float32 rounding floor of the loss gap at ``step`` (see the module docstring)."""
    return FLOOR_K * EPS32 * max(abs(loss_a), abs(loss_b), 1e-12) * math.sqrt(max(step, 1))


def judge(curves: Curves, tolerance: float | None = None) -> tuple[str, int | None, int | None]:
    """``(verdict, first divergence step, first step beyond the floor)`` of lined-up curves."""
    if not curves.steps:
        return NO_OVERLAP, None, None
    gaps, rels = curves.abs_gap, curves.rel_gap
    if tolerance is not None:
        beyond = next((s for s, g in zip(curves.steps, gaps, strict=True) if not g <= tolerance), None)
        return (MATCH if beyond is None else DIVERGED), beyond, beyond
    left = next((i for i, (g, f) in enumerate(zip(gaps, curves.floor, strict=True)) if not g <= f), None)
    if left is None:
        return MATCH, None, None
    left_step = curves.steps[left]
    if not gaps[left] <= ONSET_JUMP * curves.floor[left]:
        return DIVERGED, left_step, left_step  # appeared at once: not grown out of rounding
    over = next((i for i in range(left, len(rels)) if not rels[i] <= ENVELOPE_REL), None)
    if over is not None:
        return DIVERGED, curves.steps[over], left_step
    return AMPLIFIED, None, left_step


def line_up(a: _Run, b: _Run) -> Curves:
    """Both runs' (rank-mean) losses at the steps where they had seen the same number of samples."""
    curves = Curves()
    seen_a = {step * a.batch: value for step, value in a.mean_curve().items()}
    for step, value in b.mean_curve().items():
        other = seen_a.get(step * b.batch)
        if other is None:
            continue
        curves.steps.append(step)
        curves.loss_a.append(other)
        curves.loss_b.append(value)
        curves.floor.append(rounding_floor(other, value, step))
    return curves


def compare_runs(
    run_a: Path, run_b: Path, tolerance: float | None = None, *, check_comparable: bool = True
) -> ParityResult:
    """Compare ``run_b`` (the parallel run) with ``run_a`` (the baseline); refused when not comparable."""
    result = ParityResult(run_a, run_b, tolerance)
    if check_comparable:
        result.comparability = differences(run_a, run_b)
        if not result.comparability.ok:
            result.verdict = NOT_COMPARABLE
            return result
    a, b = _read(run_a), _read(run_b)
    curves = result.curves = line_up(a, b)
    result.compared = len(curves.steps)
    if curves.steps:
        result.max_abs_diff = max(curves.abs_gap)
        result.max_rel_diff = max(curves.rel_gap)
    result.verdict, result.first_divergence_step, result.leaves_floor_step = judge(curves, tolerance)
    result.checks = _checks(a, b, result)
    return result


def _batch_checks(a: _Run, b: _Run) -> list[Check]:
    """``global_batch`` (the same samples per step) and ``learning_rate`` (scaled with the batch)."""
    lr_a, lr_b = a.train.get("lr"), b.train.get("lr")
    checks = [
        Check("global_batch", "pass", t("parallel.parity.batch_same", batch=a.batch))
        if a.batch == b.batch
        else Check(
            "global_batch",
            "fail",
            t("parallel.parity.batch_differs", a=a.batch, b=b.batch),
            t("parallel.parity.batch_differs.fix", batch=a.batch),
        )
    ]
    if not isinstance(lr_a, int | float) or not isinstance(lr_b, int | float) or lr_a == lr_b == 0:
        checks.append(Check("learning_rate", "pass", t("parallel.parity.lr_same", lr=str(lr_a))))
    elif a.batch == b.batch:
        checks.append(
            Check("learning_rate", "pass", t("parallel.parity.lr_same", lr=str(lr_a)))
            if math.isclose(lr_a, lr_b, rel_tol=1e-9)
            else Check(
                "learning_rate",
                "fail",
                t("parallel.parity.lr_differs", a=str(lr_a), b=str(lr_b)),
                t("parallel.parity.lr_differs.fix", lr=str(lr_a)),
            )
        )
    else:
        scaled = float(lr_a) * b.batch / a.batch
        checks.append(
            Check("learning_rate", "pass", t("parallel.parity.lr_scaled", a=str(lr_a), b=str(lr_b)))
            if math.isclose(lr_b, scaled, rel_tol=1e-6)
            else Check(
                "learning_rate",
                "fail",
                t("parallel.parity.lr_unscaled", a=a.batch, b=b.batch, lr_a=str(lr_a), lr_b=str(lr_b)),
                t("parallel.parity.lr_unscaled.fix", lr=f"{scaled:g}"),
            )
        )
    return checks


def _rank_checks(run: _Run, baseline: _Run) -> list[Check]:
    """``gradient_sync`` and ``metric_averaging`` for a run whose ranks log their own losses."""
    spread = run.rank_spread()
    if not spread:
        return []
    mean = run.mean_curve()
    base = {step * baseline.batch: v for step, v in baseline.mean_curve().items()}
    worst_step = max(spread, key=lambda s: spread[s] / rounding_floor(mean[s], mean[s], s))
    if spread[worst_step] <= rounding_floor(mean[worst_step], mean[worst_step], worst_step):
        return [
            Check(
                "metric_averaging",
                "pass",
                t(
                    "parallel.parity.ranks_agree",
                    run=run.path.name,
                    ranks=len(run.losses),
                    diff=f"{max(spread.values()):.3g}",
                ),
            )
        ]
    pairs = [(s, base[s * run.batch], v) for s, v in mean.items() if s * run.batch in base]
    curves = Curves(
        [s for s, _, _ in pairs],
        [x for _, x, _ in pairs],
        [y for _, _, y in pairs],
        [rounding_floor(x, y, s) for s, x, y in pairs],
    )
    verdict, first, _ = judge(curves)
    start_agrees = bool(curves.steps) and curves.abs_gap[0] <= curves.floor[0]
    if run.dp() > 1 and start_agrees and verdict not in PASSING:
        return [
            Check(
                "gradient_sync",
                "fail",
                t("parallel.parity.grad_sync", run=run.path.name, step=str(first), ranks=len(run.losses)),
                t("parallel.parity.grad_sync.fix"),
            )
        ]
    return [
        Check(
            "metric_averaging",
            "warn",
            t(
                "parallel.parity.ranks_differ",
                run=run.path.name,
                ranks=len(run.losses),
                diff=f"{max(spread.values()):.3g}",
            ),
            t("parallel.parity.ranks_differ.fix"),
        )
    ]


def _checks(a: _Run, b: _Run, result: ParityResult) -> list[Check]:
    checks: list[Check] = []
    if result.compared == 0:
        checks.append(
            Check("overlap", "fail", t("parallel.parity.no_overlap"), t("parallel.parity.no_overlap.fix"))
        )
    checks.extend(_batch_checks(a, b))
    seed_a, seed_b = a.train.get("seed"), b.train.get("seed")
    checks.append(
        Check("seeds", "pass", t("parallel.parity.seed_same", seed=str(seed_a)))
        if seed_a == seed_b
        else Check(
            "seeds",
            "fail",
            t("parallel.parity.seed_differs", a=str(seed_a), b=str(seed_b)),
            t("parallel.parity.seed_differs.fix"),
        )
    )
    for run in (a, b):
        dp = run.dp()
        if dp > 1 and run.batch % dp:
            checks.append(
                Check(
                    "uneven_split",
                    "warn",
                    t("parallel.parity.uneven", run=run.path.name, batch=run.batch, dp=dp),
                    t("parallel.parity.uneven.fix", dp=dp),
                )
            )
    if not any(c.id == "uneven_split" for c in checks):
        checks.append(Check("uneven_split", "pass", t("parallel.parity.even")))
    # Ranks that log different losses: either each logs its own slice's loss with the parameters in sync
    # (the rank-mean follows the baseline) or the parameters drifted apart (gradients not all-reduced).
    checks.extend(_rank_checks(b, a))
    checks.extend(_rank_checks(a, b))
    if not any(c.id in ("metric_averaging", "gradient_sync") for c in checks):
        checks.append(Check("metric_averaging", "pass", t("parallel.parity.single_rank")))
    if not any(c.id == "gradient_sync" for c in checks) and max(a.dp(), b.dp()) > 1:
        checks.append(Check("gradient_sync", "pass", t("parallel.parity.grad_sync_ok")))
    sharded = [run for run in (a, b) if run.dp() > 1]
    checks.append(
        Check(
            "data_sharding",
            "pass",
            t("parallel.parity.data_sharding", runs=", ".join(r.path.name for r in sharded)),
        )
        if sharded
        else Check("data_sharding", "pass", t("parallel.parity.no_dp"))
    )
    return checks


def next_command(doc: dict[str, Any], store: RunStore | None = None) -> str:
    """What to do after the comparison in ``doc`` (a :meth:`ParityResult.to_dict`), never the same
    comparison again: a comparable baseline when it was refused (the newest one in ``store``, else train
    one), the plan's run again once the named cause is fixed (for a script of the user's own, the named
    cause's fix), the next step of the path when it passed."""
    run_a, run_b = Path(str(doc.get("run_a"))), Path(str(doc.get("run_b")))
    parallel = read_run_config(run_b).get("parallel")
    parallel = parallel if isinstance(parallel, dict) else {}
    if doc.get("verdict") == NOT_COMPARABLE:
        baseline = comparable_baseline(store, run_b) if store is not None else None
        if baseline is not None:
            return f"paddle-workbench plan parity {baseline.name} {run_b.name}"
        return f"paddle-workbench train {parallel.get('train_file') or 'TRAIN.yaml'}"
    if doc.get("ok"):
        return f"paddle-workbench compare {run_a.name}"
    if parallel.get("plan_file"):
        return f"paddle-workbench plan run {parallel['plan_file']}"
    checks = doc.get("checks")
    checks = checks if isinstance(checks, list) else []
    fixes = [
        str(c.get("fix"))
        for c in checks
        if isinstance(c, dict) and c.get("status") == "fail" and c.get("fix")
    ]
    return fixes[0] if fixes else t("parallel.parity.next.rerun")


def _pinned_comparable(store: RunStore, parallel_run: Path) -> Path | None:
    """The baseline the user pinned for ``parallel_run``'s model (:mod:`workbench.baseline`), when it is
    comparable to it."""
    from workbench.baseline import choose_baseline, model_sha

    choice = choose_baseline(store, model_sha(parallel_run))
    pinned = choice.run_dir if choice.pinned else None
    if pinned is not None and pinned != parallel_run and differences(pinned, parallel_run).ok:
        return pinned
    return None


def comparable_baseline(store: RunStore, parallel_run: Path) -> Path | None:
    """The pinned baseline when it is comparable to ``parallel_run``, else the newest finished
    single-card run comparable to it (see :func:`differences`). The demo, an attached log and a
    ``track`` script are never taken without a pin; a run without ``model.json`` is compared by its
    config."""
    from workbench.baseline import NO_MODEL, implicit_refusal
    from workbench.runs import summarize

    pinned = _pinned_comparable(store, parallel_run)
    if pinned is not None:
        return pinned
    for run_dir in store.run_dirs():  # newest first
        if run_dir == parallel_run or "parallel" in read_run_config(run_dir):
            continue
        if implicit_refusal(summarize(run_dir)) not in (None, NO_MODEL):
            continue
        if differences(run_dir, parallel_run).ok:
            return run_dir
    return None


def latest_pair(store: RunStore, plan_file: Path) -> tuple[Path, Path] | None:
    """``(baseline, parallel)``: the newest finished run of ``plan_file`` and the pinned baseline of its
    model when comparable, else the newest finished single-card run comparable to it (same model, data
    and recipe; by run name first), or ``None``."""
    from workbench.runs import STATUS_FINISHED, summarize

    target = str(plan_file.resolve())
    parallel: Path | None = None
    train_name: str | None = None
    for run_dir in store.run_dirs():  # newest first
        if summarize(run_dir).status != STATUS_FINISHED:
            continue
        section = read_run_config(run_dir).get("parallel")
        if isinstance(section, dict) and section.get("plan_file") == target:
            parallel = run_dir
            train_name = str(section.get("train_name") or "")
            break
    if parallel is None:
        return None
    pinned = _pinned_comparable(store, parallel)
    if pinned is not None:
        return pinned, parallel
    for run_dir in store.run_dirs():
        config = read_run_config(run_dir)
        if "parallel" in config or summarize(run_dir).status != STATUS_FINISHED:
            continue
        if train_name and run_name(run_dir) == train_name and differences(run_dir, parallel).ok:
            return run_dir, parallel
    baseline = comparable_baseline(store, parallel)
    return (baseline, parallel) if baseline is not None else None
