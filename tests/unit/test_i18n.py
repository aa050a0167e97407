from __future__ import annotations

import string

import pytest

from workbench.i18n import catalog, cell_width, detect_language, pad, set_language, t


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_has_both_languages_with_the_same_placeholders() -> None:
    for key, (en, zh) in catalog().items():
        assert en.strip() and zh.strip(), key
        assert _fields(en) == _fields(zh), key


def test_lookup_and_fallbacks() -> None:
    set_language("zh")
    assert t("status.failed") == "失败"
    assert t("status.failed", lang="en") == "failed"
    set_language("en")
    assert t("runs.none", workspace="w") == "no runs yet in w"
    assert t("no.such.key") == "no.such.key"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"PADDLE_WORKBENCH_LANG": "zh"}, "zh"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
    ],
)
def test_language_detection(env: dict[str, str], expected: str) -> None:
    assert detect_language(env) == expected


def test_cjk_width_is_measured_in_cells() -> None:
    assert cell_width("失败") == 4
    assert cell_width("fail") == 4
    assert cell_width(pad("失败", 8)) == cell_width(pad("failed", 8)) == 8
