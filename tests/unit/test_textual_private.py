"""Pins every private Textual name the workbench touches (``screens/textual_private.py``).

On a Textual upgrade that renames or removes one, these fail with the name and the class, instead of the
app silently losing the footer's once-per-frame rebuild, the type-ahead's binding check, Paddle's
``print`` capture or the driver's saved terminal.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

pytest.importorskip("textual")

import workbench.screens  # noqa: E402
from tests.unit.test_textual_attribute_clash import _textual_owned  # noqa: E402
from workbench.screens.textual_private import OVERRIDDEN_HOOKS, PRIVATE_NAMES  # noqa: E402


@pytest.mark.parametrize(("cls", "name"), PRIVATE_NAMES, ids=[f"{c.__name__}.{n}" for c, n in PRIVATE_NAMES])
def test_each_private_attribute_still_exists_in_textual(cls: type, name: str) -> None:
    owners = [
        base
        for base in cls.__mro__
        if base.__module__.startswith("textual.") and name in _textual_owned(base)
    ]
    assert owners, (
        f"Textual's {cls.__module__}.{cls.__qualname__} no longer has {name}: update screens/textual_private.py"
    )


@pytest.mark.parametrize(
    ("module", "cls_name", "name"), OVERRIDDEN_HOOKS, ids=[f"{c}.{n}" for _, c, n in OVERRIDDEN_HOOKS]
)
def test_each_overridden_hook_still_exists_in_textual(module: str, cls_name: str, name: str) -> None:
    cls = getattr(importlib.import_module(module), cls_name)
    assert callable(getattr(cls, name, None)), (
        f"Textual's {cls_name} no longer has {name}(): our override is dead code"
    )


def test_no_other_module_touches_those_private_names() -> None:
    """The names are reached only through the compatibility module (overrides excepted: they are listed)."""
    names = {name for _, name in PRIVATE_NAMES} - {
        "_file"
    }  # `_file` is a common name; the clash test covers it
    package = Path(workbench.screens.__file__).parent
    offenders = []
    for path in sorted(package.rglob("*.py")):
        if path.name == "textual_private.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in names:
                offenders.append(f"{path.relative_to(package)}:{node.lineno} .{node.attr}")
            if isinstance(node, ast.Constant) and node.value in names:
                offenders.append(f"{path.relative_to(package)}:{node.lineno} {node.value!r}")
    assert not offenders, offenders
