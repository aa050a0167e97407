"""Serving parts that need no model: token, rate limit, metrics, request decoding, load-test targets."""

from __future__ import annotations

import base64
import io
import json
import os
import stat
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from workbench.inference.preprocess import _code_hash
from workbench.serve import missing_modules
from workbench.serve.auth import TOKEN_ENV, TokenProblem, load_token, token_path
from workbench.serve.loadtest import LoadtestResult, check_target, matrix_row
from workbench.serve.preprocess import PreprocessMismatch, Preprocessor, RequestInvalid
from workbench.serve.ratelimit import RateLimiter, retry_after_header
from workbench.serve.telemetry import Telemetry

RGB = {
    "name": "workbench.datasets.readers.load_rgb",
    "config": {"size": [32, 32], "mode": "RGB"},
}
SPEC = [{"name": "x", "shape": [None, 3, 32, 32], "dtype": "float32"}]


def _png(size: tuple[int, int] = (40, 30)) -> str:
    buf = io.BytesIO()
    Image.new("RGB", size, (255, 0, 0)).save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode()


def _rgb_identity() -> dict[str, object]:
    from workbench.datasets import readers

    return {**RGB, "code_hash": _code_hash(readers.load_rgb)}


def test_token_is_made_once_with_0600_and_never_shown(tmp_path: Path) -> None:
    token, created = load_token(tmp_path, environ={})
    path = token_path(tmp_path)
    assert created and stat.S_IMODE(path.stat().st_mode) == 0o600
    again, created_again = load_token(tmp_path, environ={})
    assert not created_again and again.value == token.value and len(token.value) >= 32
    assert token.value not in repr(token) and token.value not in str(token)
    assert token.matches(f"Bearer {token.value}") and token.matches(f"bearer {token.value}")
    for header in (None, "", token.value, f"Basic {token.value}", f"Bearer {token.value}x", "Bearer "):
        assert not token.matches(header)


def test_token_from_env_wins_and_unsafe_or_short_tokens_are_refused(tmp_path: Path) -> None:
    token, created = load_token(tmp_path, environ={TOKEN_ENV: "e" * 20})
    assert token.source == "env" and token.value == "e" * 20 and not created
    assert not token_path(tmp_path).exists()
    with pytest.raises(TokenProblem, match=TOKEN_ENV):
        load_token(tmp_path, environ={TOKEN_ENV: "short"})
    load_token(tmp_path, environ={})
    os.chmod(token_path(tmp_path), 0o644)
    with pytest.raises(TokenProblem, match="chmod 600"):
        load_token(tmp_path, environ={})


def test_token_bucket_allows_a_burst_then_says_how_long_to_wait() -> None:
    now = [100.0]
    limiter = RateLimiter(rate=2.0, burst=3, clock=lambda: now[0])
    assert [limiter.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    wait = limiter.take("a")
    assert wait == pytest.approx(0.5) and retry_after_header(wait) == "1"
    assert limiter.take("b") == 0.0  # per client
    now[0] += 0.5
    assert limiter.take("a") == 0.0
    assert retry_after_header(2.01) == "3"


def test_metrics_are_prometheus_text() -> None:
    telemetry = Telemetry()
    telemetry.observe("/predict", 200, 0.003)
    telemetry.observe("/predict", 401, 0.0001)
    telemetry.observe("/predict", 200, 20.0)
    text = telemetry.render()
    assert 'pwb_requests_total{route="/predict",status="200"} 2' in text
    assert 'pwb_requests_total{route="/predict",status="401"} 1' in text
    assert 'pwb_request_duration_seconds_bucket{le="0.005"} 2' in text
    assert 'pwb_request_duration_seconds_bucket{le="+Inf"} 3' in text
    assert "pwb_request_duration_seconds_count 3" in text and text.endswith("\n")
    assert "# TYPE pwb_request_duration_seconds histogram" in text


def test_images_go_through_the_training_function_and_bad_input_is_named() -> None:
    pre = Preprocessor.for_export(_rgb_identity(), SPEC, max_batch=2)
    batch = pre.batch({"images": [_png(), _png((32, 32))]})
    assert batch.shape == (2, 3, 32, 32) and batch.dtype == np.float32
    assert float(batch[0, 0].mean()) == pytest.approx(1.0)  # red, normalised to [-1, 1]
    arrays = pre.batch({"arrays": [np.zeros((3, 32, 32)).tolist()]})
    assert arrays.shape == (1, 3, 32, 32)
    bad = [
        ([1], "JSON object"),
        ({}, "exactly one"),
        ({"images": [], "arrays": []}, "exactly one"),
        ({"images": []}, "non-empty"),
        ({"images": [_png()] * 3}, "at most 2"),
        ({"images": ["***"]}, "base64"),
        ({"images": [base64.b64encode(b"not an image").decode()]}, "Pillow"),
        ({"images": [7]}, "base64 string"),
        ({"arrays": [np.zeros((3, 8, 8)).tolist()]}, "3×32×32"),
        ({"arrays": [[[1, 2], [3]]]}, "rectangular"),
        ({"arrays": [json.loads("[NaN]")]}, "NaN"),
        ({"images": [_png()], "extra": 1}, "extra"),
    ]
    for body, fragment in bad:
        with pytest.raises(RequestInvalid, match=fragment):
            pre.batch(body)


def test_a_changed_preprocessing_function_is_refused_at_start() -> None:
    with pytest.raises(PreprocessMismatch, match="load_rgb"):
        Preprocessor.for_export({**RGB, "code_hash": "0" * 16}, SPEC, max_batch=2)
    custom = Preprocessor.for_export({"name": "custom:mine:build", "code_hash": None}, SPEC, max_batch=2)
    with pytest.raises(RequestInvalid, match="arrays"):
        custom.batch({"images": [_png()]})


def test_loadtest_targets_are_loopback_unless_allowed() -> None:
    assert check_target("http://127.0.0.1:8866", False) == []
    assert check_target("http://localhost:8866", False) == []
    assert check_target("http://[::1]:8866", False) == []
    assert "--allow-remote" in check_target("http://192.0.2.1:8866", False)[0]
    assert check_target("http://192.0.2.1:8866", True) == []
    assert "http(s)" in check_target("ftp://127.0.0.1/", False)[0]


def test_loadtest_figures_and_matrix_row() -> None:
    result = LoadtestResult("http://127.0.0.1:1", 4, 10, 5.0, sent=10, ok=10, elapsed_s=2.0)
    result.latencies_ms = [float(v) for v in range(1, 11)]
    result.model = {"name": "m", "guard": "pool", "workers": 2, "paddle_version": "3.3.1", "run_id": "r"}
    doc = result.to_dict()
    assert doc["throughput_rps"] == 5.0 and doc["latency_ms"]["p50"] in (5.0, 6.0)
    assert doc["latency_ms"]["p99"] == 10.0
    row = matrix_row(result, "cpu: test")
    assert row["path"] == "serve:poolx2:c4" and row["status"] == "ok" and row["p99_ms"] == 10.0


def test_missing_extra_is_detected() -> None:
    assert missing_modules(("json",)) == []
    assert missing_modules(("no_such_module_here",)) == ["no_such_module_here"]
