"""Pitfall detectors: each looks at what a comparison collected and returns findings with evidence.

A finding is ``{"id", "severity": "fail|warn|info", "summary", "fix", "evidence": [...]}``; every
sentence comes from the catalog. ``fail`` findings make ``compare`` exit 1 (the check ran and found a
real problem); ``warn`` and ``info`` are shown, not counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from workbench.i18n import t
from workbench.inference.preprocess import changed_parts, identity_differences
from workbench.inference.source import LoadReport

_TRAIN_SENSITIVE = ("Dropout", "BatchNorm", "AlphaDropout", "SyncBatchNorm", "InstanceNorm")


@dataclass
class Finding:
    id: str
    severity: str
    summary: str
    fix: str
    evidence: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "severity": self.severity,
            "summary": self.summary,
            "fix": self.fix,
            "evidence": self.evidence,
        }


def train_sensitive_layers(model: Any) -> list[tuple[str, str]]:
    """``(name, layer type)`` of sublayers whose output depends on train/eval mode."""
    found = []
    for name, layer in model.named_sublayers():
        kind = type(layer).__name__
        if any(key in kind for key in _TRAIN_SENSITIVE):
            found.append((name, kind))
        elif kind in ("LSTM", "GRU", "SimpleRNN") and float(getattr(layer, "dropout", 0.0) or 0.0) > 0:
            found.append((name, f"{kind}(dropout)"))
    return found


def detect_program_train_ops(
    ops: Mapping[str, Any],
    layers: Sequence[tuple[str, str]],
    reference: Mapping[str, Any],
    paths: Sequence[Mapping[str, Any]],
) -> list[Finding]:
    """What the exported program's operators say about train-mode behaviour left in ``forward``.

    ``ops`` is the operator inventory (its ``train_form`` list). A functional dropout or BatchNorm in
    training form is a ``fail`` when it shows — the eval-mode reference is not repeatable or a path is
    out of tolerance — and ``info`` otherwise (``F.dropout(x, p, training=self.training)`` is traced the
    same way and is correct). Random ops are a ``warn``: every call draws new numbers.
    """
    entries = [e for e in ops.get("train_form") or [] if isinstance(e, Mapping)]
    if not entries:
        return []
    repeat = reference.get("repeat_max_abs_diff")
    worst = max(
        (
            float(p["max_abs_diff"])
            for p in paths
            if not p.get("deliberate") and p.get("max_abs_diff") is not None
        ),
        default=None,
    )
    shows = reference.get("repeatable") is False or any(
        p.get("status") == "exceeds" and not p.get("deliberate") for p in paths
    )
    diff = f"{worst:.3g}" if worst is not None else "-"
    out = []
    for kind in ("functional_dropout", "batch_norm_train", "random"):
        found = [e for e in entries if e.get("kind") == kind]
        if not found:
            continue
        where = sorted(
            {str(e.get("where")) if e.get("where") != "/" else t("inference.where.top") for e in found}
        )
        evidence = [f"{e.get('op')} @ {e.get('where')}" for e in found]
        if repeat is not None:
            evidence.append(t("inference.evidence.not_repeatable", diff=f"{float(repeat):.3g}"))
        severity = "warn" if kind == "random" else ("fail" if shows else "info")
        key = f"inference.finding.program_{kind}"
        summary = t(
            key + ("_ok" if severity == "info" else ""), count=len(found), where=", ".join(where), diff=diff
        )
        if kind == "functional_dropout" and severity == "fail" and not any("Dropout" in k for _, k in layers):
            summary += t("inference.finding.program_no_dropout_layer")
        out.append(Finding(f"program_{kind}", severity, summary, t(f"{key}.fix"), evidence))
    return out


def detect_train_mode(
    layers: Sequence[tuple[str, str]],
    train_diff: float | None,
    was_training: bool,
    *,
    program_explained: bool = False,
) -> Finding:
    """The train-mode pitfall, with the layers that cause it and the difference it made here.

    ``program_explained``: the exported program showed train-form operators outside layers (functional
    dropout, …), so "no such layer" must not be read as "train mode changes nothing"."""
    diff = "-" if train_diff is None else f"{train_diff:.3g}"
    names = [f"{name} ({kind})" for name, kind in layers]
    by_kind: dict[str, list[str]] = {}
    for name, kind in layers:
        by_kind.setdefault(kind, []).append(name)
    grouped = "; ".join(
        f"{kind} x{len(found)}: {', '.join(found[:3])}{', …' if len(found) > 3 else ''}"
        for kind, found in by_kind.items()
    )
    state = t("inference.finding.train_mode.was_training") if was_training else ""
    if layers:
        return Finding(
            "train_mode",
            "warn",
            t("inference.finding.train_mode", count=len(layers), diff=diff, layers=grouped) + state,
            t("inference.finding.train_mode.fix"),
            names,
        )
    key = (
        "inference.finding.train_mode_functional"
        if program_explained
        else "inference.finding.train_mode_none"
    )
    return Finding("train_mode", "info", t(key, diff=diff) + state, t("inference.finding.train_mode.fix"))


def detect_bn_moved(moved: Mapping[str, float]) -> Finding | None:
    if not moved:
        return None
    ranked = sorted(moved.items(), key=lambda kv: -kv[1])
    evidence = [f"{name}: max change {delta:.3g}" for name, delta in ranked]
    return Finding(
        "bn_stats_moved",
        "warn",
        t("inference.finding.bn_moved", count=len(moved), top=ranked[0][0], delta=f"{ranked[0][1]:.3g}"),
        t("inference.finding.bn_moved.fix"),
        evidence,
    )


def detect_not_loaded(report: LoadReport) -> Finding | None:
    if report.clean:
        return None
    evidence = [t("inference.evidence.missing", name=n) for n in report.missing_in_checkpoint]
    evidence += [t("inference.evidence.unexpected", name=n) for n in report.unexpected_in_checkpoint]
    evidence += [
        t("inference.evidence.shape", name=n, saved=str(saved), model=str(own))
        for n, saved, own in report.shape_mismatch
    ]
    names = (
        report.missing_in_checkpoint
        + report.unexpected_in_checkpoint
        + [n for n, _, _ in report.shape_mismatch]
    )
    return Finding(
        "weights_not_loaded",
        "fail",
        t(
            "inference.finding.not_loaded",
            missing=len(report.missing_in_checkpoint),
            unexpected=len(report.unexpected_in_checkpoint),
            reshaped=len(report.shape_mismatch),
            names=", ".join(names[:6]),
        ),
        t("inference.finding.not_loaded.fix"),
        evidence,
    )


def detect_preprocess(trained: Mapping[str, Any] | None, exported: Mapping[str, Any]) -> Finding:
    if not trained:
        return Finding(
            "preprocess_unrecorded",
            "info",
            t("inference.finding.preprocess_unrecorded", name=str(exported.get("name"))),
            t("inference.finding.preprocess_unrecorded.fix"),
        )
    differs = identity_differences(trained, exported)
    if not differs:
        return Finding(
            "preprocess_same",
            "info",
            t(
                "inference.finding.preprocess_same",
                name=str(exported.get("name")),
                hash=str(exported.get("config_hash")),
            ),
            "",
        )
    evidence = [f"{key}: {trained.get(key)} -> {exported.get(key)}" for key in differs]
    evidence += [
        t("inference.evidence.code_piece", piece=piece) for piece in changed_parts(trained, exported)
    ]
    if trained.get("config") != exported.get("config"):
        evidence.append(f"config: {trained.get('config')} -> {exported.get('config')}")
    return Finding(
        "preprocess_drift",
        "fail",
        t("inference.finding.preprocess_drift", parts=", ".join(differs), name=str(exported.get("name"))),
        t("inference.finding.preprocess_drift.fix"),
        evidence,
    )


def detect_input_spec(spec: Sequence[Mapping[str, Any]], batch: np.ndarray[Any, Any]) -> Finding | None:
    if not spec:
        return None
    first = spec[0]
    evidence = []
    dtype = str(first.get("dtype"))
    if dtype != str(batch.dtype):
        evidence.append(t("inference.evidence.dtype", spec=dtype, data=str(batch.dtype)))
    shape = list(first.get("shape") or [])
    if len(shape) != batch.ndim:
        evidence.append(t("inference.evidence.rank", spec=str(shape), data=str(list(batch.shape))))
    else:
        for axis, (want, got) in enumerate(zip(shape, batch.shape, strict=True)):
            if want is not None and int(want) != int(got):
                evidence.append(t("inference.evidence.dim", axis=axis, spec=want, data=got))
    if not evidence:
        return None
    return Finding(
        "input_spec_mismatch",
        "fail",
        t("inference.finding.input_spec", name=str(first.get("name")), spec=str(shape), dtype=dtype),
        t("inference.finding.input_spec.fix"),
        evidence,
    )


def detect_first_divergence(
    paths: Sequence[Mapping[str, Any]], explained: Finding | None = None
) -> Finding | None:
    """The first non-deliberate path (in the guide's order) that left its tolerance, and its switch.

    ``explained``: a finding that already accounts for the difference (a functional dropout in the
    program); its fix replaces the per-path guess."""
    for path in paths:
        if path.get("deliberate") or path.get("status") != "exceeds":
            continue
        if explained is not None:
            fix = t("inference.fix.explained", finding=explained.id, fix=explained.fix)
        elif f"inference.fix.{path['name']}" in _fix_keys():
            fix = t(f"inference.fix.{path['name']}")
        else:
            fix = t("inference.fix.generic")
        return Finding(
            "first_divergence",
            "fail",
            t("inference.finding.divergence", path=path["name"], diff=f"{path['max_abs_diff']:.3g}"),
            fix,
            [f"{p['name']}: {p.get('max_abs_diff')}" for p in paths if p.get("status") in ("ok", "exceeds")],
        )
    return None


def _fix_keys() -> set[str]:
    from workbench.i18n import catalog

    return {k for k in catalog() if k.startswith("inference.fix.")}


def detect_ops(inventory: Mapping[str, Any], onnx_converted: bool = False) -> list[Finding]:
    """Missing kernels per device type; ops paddle2onnx's table lacks (unless the conversion just worked:
    its table uses legacy names and is a hint, the conversion is the proof)."""
    out = []
    for device, ops in (inventory.get("missing_kernels") or {}).items():
        out.append(
            Finding(
                "missing_kernels",
                "warn",
                t("inference.finding.missing_kernels", device=device, ops=", ".join(ops)),
                t("inference.finding.missing_kernels.fix", device=device),
                list(ops),
            )
        )
    unsupported = inventory.get("onnx_unsupported") or []
    if unsupported and not onnx_converted:
        out.append(
            Finding(
                "onnx_unconvertible",
                "warn",
                t("inference.finding.onnx_unconvertible", ops=", ".join(unsupported)),
                t("inference.finding.onnx_unconvertible.fix"),
                list(unsupported),
            )
        )
    return out
