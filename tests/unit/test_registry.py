"""The registry mechanism: folder scan, registration order, silent modules, clear unknown-name errors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from workbench.registry import Registry, RegistryError


@pytest.fixture
def plugin_pkg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pkg = tmp_path / "wb_test_plugins"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from workbench.registry import Registry\nREG = Registry('thing', __name__)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield pkg
    for name in [m for m in sys.modules if m.startswith("wb_test_plugins")]:
        del sys.modules[name]


def test_modules_in_the_folder_register_themselves(plugin_pkg: Path) -> None:
    (plugin_pkg / "alpha.py").write_text("from wb_test_plugins import REG\nREG.register('alpha', 1)\n")
    (plugin_pkg / "_helpers.py").write_text("X = 1\n")
    import wb_test_plugins

    reg: Registry[int] = wb_test_plugins.REG
    assert reg.names() == ["alpha"]
    assert reg.origin("alpha") == "wb_test_plugins.alpha"
    assert reg.silent_modules() == []

    (plugin_pkg / "beta.py").write_text("from wb_test_plugins import REG\nREG.register('beta', 2)\n")
    (plugin_pkg / "forgot.py").write_text("VALUE = 3  # never registers\n")
    reg.reload()
    assert reg.names() == ["alpha", "beta"]
    assert reg.get("beta") == 2
    assert reg.silent_modules() == ["wb_test_plugins.forgot"]


def test_unknown_and_duplicate_names_are_clear() -> None:
    reg: Registry[str] = Registry("task")
    reg.register("a", "x")
    with pytest.raises(RegistryError, match=r"unknown task 'b' \(known: a\)"):
        reg.get("b")
    with pytest.raises(ValueError, match="registered twice"):
        reg.register("a", "y")
    reg.register("a", "z", replace=True)
    assert reg.get("a") == "z"
    reg.unregister("a")
    assert "a" not in reg


def test_order_places_entries_whatever_the_file_names(plugin_pkg: Path) -> None:
    (plugin_pkg / "a_last.py").write_text(
        "from wb_test_plugins import REG\nREG.register('last', 3, order=30)\n"
    )
    (plugin_pkg / "b_first.py").write_text(
        "from wb_test_plugins import REG\nREG.register('first', 1, order=10)\nREG.register('second', 2, order=10)\n"
    )
    (plugin_pkg / "c_free.py").write_text("from wb_test_plugins import REG\nREG.register('unordered', 0)\n")
    import wb_test_plugins

    reg: Registry[int] = wb_test_plugins.REG
    assert reg.names() == ["first", "second", "last", "unordered"]
    assert reg.values() == [1, 2, 3, 0]


def test_extra_folder_adds_entries_for_the_block_only(plugin_pkg: Path, tmp_path: Path) -> None:
    (plugin_pkg / "alpha.py").write_text("from wb_test_plugins import REG\nREG.register('alpha', 1)\n")
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "gamma.py").write_text("from wb_test_plugins import REG\nREG.register('gamma', 3, order=1)\n")
    import wb_test_plugins

    reg: Registry[int] = wb_test_plugins.REG
    with reg.extra_folder(extra) as added:
        assert added == ["gamma"]
        assert reg.names() == ["gamma", "alpha"]
        assert reg.origin("gamma") == "wb_test_plugins.gamma"
    assert reg.names() == ["alpha"]
    assert "wb_test_plugins.gamma" not in sys.modules
    assert reg.silent_modules() == []


def test_a_placeholder_gives_way_to_the_real_entry_in_any_order() -> None:
    early: Registry[str] = Registry("command")
    early.register("compare", "placeholder", order=60, placeholder=True, module="planned")
    early.register("compare", "real", order=60, module="compare")
    late: Registry[str] = Registry("command")
    late.register("compare", "real", order=60, module="compare")
    late.register("compare", "placeholder", order=60, placeholder=True, module="planned")
    for reg in (early, late):
        assert reg.get("compare") == "real" and not reg.is_placeholder("compare")
        reg.unregister("compare")  # the feature goes away again: its placeholder is back
        assert reg.get("compare") == "placeholder" and reg.is_placeholder("compare")
    with pytest.raises(ValueError, match="registered twice"):
        early.register("compare", "placeholder again", placeholder=True)  # ignored: already a placeholder
