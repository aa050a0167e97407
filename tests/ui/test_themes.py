from __future__ import annotations

from workbench.themes import THEME_ALIASES, load_theme_specs, stylesheet_path

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


async def test_a_modes_first_screen_restyles_nothing_and_still_follows_the_theme(make_app) -> None:  # type: ignore[no-untyped-def]
    """The first switch to a mode styles its new screen as it mounts; the whole app's stylesheet is not
    re-parsed and re-applied for it (twice, per mode). A theme changed before a mode was first shown, and
    one changed after, both reach that mode's screen."""
    from tests.ui.waiting import wait_for
    from workbench.screens.env import EnvChecks

    app = make_app(theme_name="dark", env_checks=EnvChecks(autostart=False))  # styles only: no probes run
    refreshes: list[str] = []
    real_refresh = app.refresh_css

    def counted(animate: bool = True) -> None:
        refreshes.append(app.current_mode)
        real_refresh(animate=animate)

    app.refresh_css = counted  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.theme = "workbench-light"
        await wait_for(
            pilot, lambda: app.screen.styles.background == app.current_theme.to_color_system().background
        )
        refreshes.clear()
        await app.switch_mode("env")
        await pilot.pause()
        assert refreshes == []
        light = app.screen.styles.background
        assert light == app.current_theme.to_color_system().background
        await app.switch_mode("runs")
        app.theme = "workbench-dark"
        await pilot.pause()
        await app.switch_mode("env")
        await wait_for(pilot, lambda: app.screen.styles.background != light)
        assert app.screen.styles.background == app.current_theme.to_color_system().background


async def test_the_stylesheet_is_parsed_once_at_start_in_the_chosen_theme(make_app, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The theme is chosen in ``__init__``; the stylesheet refresh Textual queues for it would parse the
    whole stylesheet in a copy and drop the copy's cache, so the first screen parsed it a second time
    (the first frame paid both). Parsed once, with the theme's colours; a later switch still restyles."""
    import textual.css.stylesheet as stylesheet_module

    from tests.ui.waiting import wait_for

    parsed: list[str] = []
    real_parse = stylesheet_module.parse

    def counted(scope, css, read_from, *args, **kwargs):  # type: ignore[no-untyped-def]
        parsed.append(str(read_from[0]) if isinstance(read_from, tuple) else str(read_from))
        return real_parse(scope, css, read_from, *args, **kwargs)

    monkeypatch.setattr(stylesheet_module, "parse", counted)
    app = make_app(theme_name="light")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert [source for source in parsed if source.endswith("app.tcss")] == [str(stylesheet_path())]
        background = app.screen.styles.background
        assert app.theme == "workbench-light" and background.brightness > 0.5, background
        app.theme = "workbench-dark"
        await wait_for(pilot, lambda: app.screen.styles.background.brightness < 0.5)
