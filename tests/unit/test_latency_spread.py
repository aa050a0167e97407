"""Latency as median and spread: the statistics of timed calls, and no ranking where spreads overlap."""

from __future__ import annotations

import pytest

from workbench.inference.metrics import latency_order, percentile_ms
from workbench.inference.report import latency_comparison


def test_timed_calls_give_median_quartiles_spread_and_count() -> None:
    stats = percentile_ms([0.001, 0.002, 0.003, 0.004, 0.100])  # one slow call among five
    assert stats["median"] == pytest.approx(3.0) and stats["samples"] == 5
    assert (stats["p25"], stats["p75"]) == (pytest.approx(2.0), pytest.approx(4.0))
    assert stats["iqr"] == pytest.approx(2.0)  # the slow call moves neither the median nor the spread
    assert stats["p90"] > stats["p75"]


def test_overlapping_spreads_claim_no_order_and_separated_ones_do() -> None:
    ir_on = percentile_ms([0.0064, 0.0153, 0.0075, 0.0070, 0.0102])
    ir_off = percentile_ms([0.0102, 0.0072, 0.0070, 0.0066, 0.0150])
    slow = percentile_ms([0.050, 0.051, 0.052, 0.053, 0.054])
    verdict = latency_order([("predictor_ir_on", ir_on), ("predictor_ir_off", ir_off), ("slow", slow)])
    assert not verdict["ranked"] and verdict["overlapping"] == [["predictor_ir_off", "predictor_ir_on"]]
    assert verdict["groups"] == [["predictor_ir_off", "predictor_ir_on"], ["slow"]]
    assert latency_order([("predictor_ir_on", ir_on), ("slow", slow)]) == {
        "order": ["predictor_ir_on", "slow"],
        "groups": [["predictor_ir_on"], ["slow"]],
        "overlapping": [],
        "ranked": True,
    }


def test_the_comparison_says_in_words_which_paths_it_cannot_tell_apart() -> None:
    fast = percentile_ms([0.001, 0.0011, 0.0012])
    same = percentile_ms([0.0011, 0.0012, 0.0013])
    slow = percentile_ms([0.010, 0.011, 0.012])
    doc = {
        "reference": {"name": "dygraph_eval", "latency": {"batch_1": slow, "batch_8": slow}},
        "paths": [
            {"name": "jit_load", "latency": {"batch_1": fast, "batch_8": fast}},
            {"name": "predictor_ir_on", "latency": {"batch_1": same, "batch_8": slow}},
            {"name": "predictor_gpu", "latency": None},  # skipped: not timed
        ],
    }
    out = latency_comparison(doc)
    assert out["batch_1"]["overlapping"] == [["jit_load", "predictor_ir_on"]]
    assert (
        "no ranking is claimed" in out["batch_1"]["note"]
        and "jit_load ≈ predictor_ir_on < dygraph_eval" in out["batch_1"]["note"]
    )
    assert out["batch_8"]["order"][0] == "jit_load" and "predictor_gpu" not in out["batch_8"]["order"]
