from __future__ import annotations

from workbench.themes import THEME_ALIASES, load_theme_specs

REQUIRED_VARIABLES = {"loss-train", "loss-val", "rank-0", "shard", "replicate", "partial", "status-fail"}


def test_every_bundled_theme_is_valid_and_complete() -> None:
    specs, problems = load_theme_specs()
    assert problems == []
    assert {s.name for s in specs} >= set(THEME_ALIASES.values())
    for spec in specs:
        assert set(spec.variables) >= REQUIRED_VARIABLES, spec.name


async def test_theme_option_and_unknown_theme_fallback(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app(theme_name="light")
    async with app.run_test(size=(120, 40)):
        assert app.theme == "workbench-light"
        assert app.theme_variable("loss-train") == "#1f5fbf"
    app = make_app(theme_name="no-such-theme")
    async with app.run_test(size=(120, 40)):
        assert app.theme == "workbench-dark"
        assert any("no-such-theme" in p for p in app.theme_problems)
