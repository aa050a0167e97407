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


DATA_PKG = """\
from pathlib import Path

from workbench.registry import Registry


def read(path: Path, origin: str) -> None:
    for line in path.read_text().splitlines():
        if line:
            name, _, order = line.partition("=")
            REG.register(name, path.name, order=float(order) if order else None, module=origin)


REG = Registry("thing", __name__, data_loader=f"{__name__}:read", data_suffix=".txt")
"""


def test_data_files_of_the_folder_are_entries_without_a_module(plugin_pkg: Path, tmp_path: Path) -> None:
    """A registry with a ``data_loader`` reads each data file of its folder (no Python beside it); data
    files and modules are read together in name order, ``_`` files are helpers, a file that registers
    nothing is silent, and an extra folder's files come and go with the block."""
    (plugin_pkg / "__init__.py").write_text(DATA_PKG)
    (plugin_pkg / "b_pair.txt").write_text("beta\ngamma=5\n")
    (plugin_pkg / "c_module.py").write_text("from wb_test_plugins import REG\nREG.register('alpha', 'py')\n")
    (plugin_pkg / "d_empty.txt").write_text("\n")
    (plugin_pkg / "_notes.txt").write_text("hidden\n")
    import wb_test_plugins

    reg: Registry[str] = wb_test_plugins.REG
    assert reg.names() == ["gamma", "beta", "alpha"]
    assert reg.get("beta") == "b_pair.txt" and reg.origin("beta") == "wb_test_plugins.b_pair"
    assert reg.silent_modules() == ["wb_test_plugins.d_empty"]
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "e_more.txt").write_text("delta=1\n")
    with reg.extra_folder(extra) as added:
        assert added == ["delta"] and reg.names()[0] == "delta"
    assert "delta" not in reg and reg.names() == ["gamma", "beta", "alpha"]  # re-read, same places
