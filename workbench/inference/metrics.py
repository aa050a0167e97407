"""Numbers that say how far one output is from the reference: differences, cosine, agreement, latency
(median and interquartile range of repeated calls, and an order only where those ranges part).

Pure numpy. ``max_rel_diff`` is ``max |a - b| / (|b| + 1e-6)`` over elements whose reference magnitude
is at least 1e-3 of the largest one (tiny reference values would make any relative figure explode).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


def diff_stats(output: Array, reference: Array) -> dict[str, float]:
    """``max_abs_diff``, ``max_rel_diff`` and ``cosine`` of ``output`` against ``reference``."""
    a = np.asarray(output, dtype=np.float64).reshape(-1)
    b = np.asarray(reference, dtype=np.float64).reshape(-1)
    if a.shape != b.shape:
        return {"max_abs_diff": float("inf"), "max_rel_diff": float("inf"), "cosine": 0.0}
    delta = np.abs(a - b)
    scale = float(np.abs(b).max()) if b.size else 0.0
    mask = np.abs(b) >= max(scale * 1e-3, 1e-12)
    rel = float((delta[mask] / (np.abs(b[mask]) + 1e-6)).max()) if mask.any() else 0.0
    denom = float(np.linalg.norm(a) * np.linalg.norm(b))
    cosine = min(1.0, float(a @ b / denom)) if denom > 0 else (1.0 if not delta.any() else 0.0)
    return {"max_abs_diff": float(delta.max()) if delta.size else 0.0, "max_rel_diff": rel, "cosine": cosine}


def top1_agreement(output: Array, reference: Array) -> float:
    """Share of rows whose arg-max over the last axis matches (every position for sequence outputs)."""
    if output.shape != reference.shape or output.ndim < 2:
        return 0.0
    return float((output.argmax(axis=-1) == reference.argmax(axis=-1)).mean())


def ctc_greedy_decode(scores: Array, charset: Sequence[str]) -> list[str]:
    """Best-path CTC decoding of ``[B, T, classes]`` scores with the training task's own decoder."""
    from workbench.training.tasks.rec import greedy_decode

    return greedy_decode(np.asarray(scores).argmax(axis=-1), list(charset))


def string_agreement(output: Array, reference: Array, charset: Sequence[str]) -> tuple[float, list[str]]:
    """Share of decoded strings equal to the reference's, and the decoded strings of ``output``."""
    got = ctc_greedy_decode(output, charset)
    want = ctc_greedy_decode(reference, charset)
    same = sum(g == w for g, w in zip(got, want, strict=False))
    return same / max(len(want), 1), got


def percentile_ms(samples_s: Sequence[float]) -> dict[str, float]:
    """Call times (seconds, taken after the warm-up calls) → milliseconds: ``median``, the quartiles
    ``p25``/``p75`` and their spread ``iqr``, ``p90``, and ``samples`` (how many calls were timed).

    The median and the interquartile range are what a comparison may rank on: one slow call (a page
    fault, another process) moves neither."""
    arr = np.asarray(samples_s, dtype=np.float64) * 1000.0
    p25, median, p75, p90 = (float(v) for v in np.percentile(arr, [25, 50, 75, 90]))
    return {"median": median, "p25": p25, "p75": p75, "iqr": p75 - p25, "p90": p90, "samples": len(arr)}


def latency_order(entries: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, Any]:
    """Rank paths by median latency only where their spreads say so.

    ``entries`` are ``(path name, stats)`` with :func:`percentile_ms`'s keys. Two paths whose
    interquartile ranges ``[p25, p75]`` overlap cannot be told apart by this measurement: the pair is
    listed in ``overlapping`` and no order between them is claimed (``ranked`` is false). ``order`` is
    by median, fastest first; ``groups`` cuts it where a path overlaps none of the group before it, so
    only the order between groups is a claim."""
    timed = sorted(
        (
            (
                name,
                float(stats["median"]),
                float(stats.get("p25", stats["median"])),
                float(stats.get("p75", stats["median"])),
            )
            for name, stats in entries
            if stats and stats.get("median") is not None
        ),
        key=lambda row: row[1],
    )

    def meet(a: tuple[str, float, float, float], b: tuple[str, float, float, float]) -> bool:
        return a[2] <= b[3] and b[2] <= a[3]

    overlapping = [[a[0], b[0]] for i, a in enumerate(timed) for b in timed[i + 1 :] if meet(a, b)]
    groups: list[list[tuple[str, float, float, float]]] = []
    for row in timed:
        if groups and any(meet(row, other) for other in groups[-1]):
            groups[-1].append(row)
        else:
            groups.append([row])
    return {
        "order": [row[0] for row in timed],
        "groups": [[row[0] for row in group] for group in groups],
        "overlapping": overlapping,
        "ranked": not overlapping,
    }


def histogram(output: Array, reference: Array, bins: int = 20) -> dict[str, list[float]]:
    """Per-element absolute differences binned on a log10 scale (for the compare screen)."""
    delta = np.abs(np.asarray(output, np.float64) - np.asarray(reference, np.float64)).reshape(-1)
    logs = np.log10(np.maximum(delta, 1e-12))
    counts, edges = np.histogram(logs, bins=bins, range=(-12.0, 2.0))
    return {"log10_edges": [float(e) for e in edges], "counts": [int(c) for c in counts]}
