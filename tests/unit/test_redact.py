"""The redaction rules one by one (the corpus through the real CLI is in
tests/integration/test_report_redaction.py): what goes, what stays, and the counts by kind."""

from __future__ import annotations

import pytest

from workbench.troubleshoot.redact import EnvironmentFilter, Redactor, secret_name


@pytest.mark.parametrize(
    "name", ["DB_PASSWORD", "MYSQL_PWD", "AWS_SECRET_ACCESS_KEY", "apiToken", "X-Api-Key", "client_secret"]
)
def test_secret_names(name: str) -> None:
    assert secret_name(name)


@pytest.mark.parametrize("name", ["tokenizer", "max_tokens", "keypoints", "num_keys", "author", "lr"])
def test_ordinary_names(name: str) -> None:
    assert not secret_name(name)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "K7MDENG"),
        ("x DB_PASSWORD=p@ss/w0rd!x y", "w0rd"),
        ("MYSQL_PWD=a/b/c/d", "a/b/c/d"),
        ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA"),
        ("see https://user:pa/ss@host.example.com/x", "pa/ss"),
        ("options: {password: hunter2pw, api_token: tok-abc-123}", "hunter2pw"),
        ("options: {password: hunter2pw, api_token: tok-abc-123}", "tok-abc-123"),
        ("at gpu-node-17.cluster.internal:6170", "cluster.internal"),
    ],
)
def test_each_finding_7_shape_goes(text: str, secret: str) -> None:
    assert secret not in Redactor(user="nobody_here").text(text)


def test_private_key_block_goes_whole_even_when_a_tail_cut_its_header() -> None:
    body = "NhAAAAAwEAAQAAAYEAx/9+abcDEFghiJKLmnoPQRstuVWXyz0123456789+/abcdEFGHIJ"
    lines = ["-----BEGIN OPENSSH PRIVATE KEY-----", body, "-----END OPENSSH PRIVATE KEY-----", "step 3"]
    redactor = Redactor(user="nobody_here")
    assert redactor.value(lines) == ["<redacted-private-key>", "step 3"]
    assert redactor.value([body, "-----END OPENSSH PRIVATE KEY-----"]) == [
        "<redacted-key-material>",
        "<redacted-private-key>",
    ]
    assert redactor.counts["private_key"] == 3


def test_secret_named_config_keys_lose_their_whole_value() -> None:
    redactor = Redactor(user="nobody_here")
    config = {"options": {"password": 12345, "db": {"dsn": "x"}, "lr": 0.1}, "tokenizer": "bert"}
    assert redactor.value(config) == {
        "options": {"password": "<redacted>", "db": {"dsn": "<redacted>"}, "lr": 0.1},
        "tokenizer": "bert",
    }
    assert redactor.counts["secret_value"] == 2


def test_environment_dumps_go_and_only_paddle_variables_are_kept() -> None:
    text = "environ({'CUDA_VISIBLE_DEVICES': '0', 'DB_PASSWORD': 'x', 'PADDLE_WORKBENCH_SERVE_TOKEN': 'y'})"
    listing = "HOME=/root\nFLAGS_x=1\nSECRET_THING=zz\nstep 1"
    env = EnvironmentFilter()
    assert env.text(text) == "environ(<3 environment variables not shown>)"
    assert env.text(listing) == "FLAGS_x=1\n<2 environment variables not shown>\nstep 1"
    assert env.variables == {"CUDA_VISIBLE_DEVICES": "0", "FLAGS_x": "1"} and env.dropped == 5
