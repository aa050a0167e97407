"""Plural forms in the catalog: English picks one of two words by the count, Chinese has none."""

from __future__ import annotations

import re
import string

from workbench.i18n import catalog, is_one, t

NOT_PLURALS = {"envcheck.label.import_seconds", "loadtest.input.bad_url", "runner.rank_consequences"}
"""Keys whose ``(s)`` is no plural: a unit (seconds), ``http(s)``, a list of ranks rather than a count."""


def test_a_count_of_one_reads_singular_and_others_plural() -> None:
    assert t("ui.overlay.cleared", "en", count=1).startswith("1 overlaid run removed")
    assert t("ui.overlay.cleared", "en", count=3).startswith("3 overlaid runs removed")
    assert t("parallel.cli.comm", "en", bytes="1 MiB", count=1).endswith("in 1 collective")
    assert t("serve.cli.cancelled", "en", seconds=5, count=1).startswith(
        "Stop timeout (5 s) reached: 1 request still running was cancelled"
    )
    assert "2 requests still running were cancelled" in t("serve.cli.cancelled", "en", seconds=5, count=2)
    assert t("cli.validate.summary", "en", count="1") == "1 problem found."  # a count given as text
    assert t("cli.validate.summary", "en", count=0) == "0 problems found."
    assert t("ui.overlay.cleared", "zh", count=1).startswith("已移除 1 个")


def test_is_one() -> None:
    assert is_one(1) and is_one(1.0) and is_one("1") and not is_one(0) and not is_one("1, 2")
    assert not is_one(2) and not is_one("abc")


def test_no_message_works_around_a_plural_and_every_plural_has_two_forms() -> None:
    for key, (en, zh) in catalog().items():
        if key not in NOT_PLURALS:
            assert not re.search(r"\w\((s|es)\)", en), (key, en)
        for _, name, spec, _ in string.Formatter().parse(en):
            if spec and "|" in spec:
                assert name and spec.count("|") == 1 and all(spec.split("|")), (key, spec)
        assert not any(spec and "|" in spec for _, _, spec, _ in string.Formatter().parse(zh)), key
