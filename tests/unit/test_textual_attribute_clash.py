"""No screen or widget of ours assigns a private attribute that a Textual base class already owns.

Textual keeps its own state in private attributes (``MessagePump._running``, ``Widget._size``, …). A
subclass that assigns one of those names silently replaces Textual's state: an ``EnvScreen`` that set
``self._running = False`` after a check made Textual treat the mounted screen as stopped (it skipped it
at shutdown and stopped idle handling). Public attributes (``title``, ``can_focus``, ``border_title``) are
Textual's documented API and assigning them is intended, so only names starting with ``_`` are checked.

The test reads every class defined under ``screens/`` and ``themes/`` that derives from Textual's
``MessagePump``, collects the ``self._x = …`` targets of its own methods, and compares them with the
names each Textual base class in its MRO defines: class attributes and the ``self._x`` targets of the base
class's own source.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap
from functools import cache

import pytest

textual = pytest.importorskip("textual")
from textual.message_pump import MessagePump  # noqa: E402

import workbench.screens  # noqa: E402


def _self_assignments(cls: type) -> set[str]:
    """The ``self.<name>`` targets assigned (plain, annotated or augmented) in ``cls``'s own source."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return set()
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for target in targets:
            for leaf in ast.walk(target):
                if (
                    isinstance(leaf, ast.Attribute)
                    and isinstance(leaf.value, ast.Name)
                    and leaf.value.id == "self"
                ):
                    names.add(leaf.attr)
    return names


@cache
def _textual_owned(cls: type) -> frozenset[str]:
    """Private names a Textual class defines: its class attributes and what its own methods assign."""
    return frozenset(name for name in set(vars(cls)) | _self_assignments(cls) if name.startswith("_"))


def _our_classes() -> list[type]:
    """Every MessagePump subclass defined in the installed ``workbench.screens`` package."""
    found: dict[str, type] = {}
    for module_info in pkgutil.walk_packages(workbench.screens.__path__, "workbench.screens."):
        module = importlib.import_module(module_info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, MessagePump) and obj.__module__ == module.__name__:
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return list(found.values())


def test_the_walk_finds_our_screens_and_widgets() -> None:
    names = {cls.__name__ for cls in _our_classes()}
    assert {"EnvScreen", "WorkbenchApp"} <= names, names


def test_no_screen_or_widget_assigns_a_private_attribute_textual_owns() -> None:
    clashes: list[str] = []
    for cls in _our_classes():
        ours = {name for name in _self_assignments(cls) if name.startswith("_") and not name.startswith("__")}
        for base in cls.__mro__[1:]:
            if not base.__module__.startswith("textual."):
                continue
            for name in sorted(ours & _textual_owned(base)):
                clashes.append(
                    f"{cls.__module__}.{cls.__qualname__} assigns self.{name}, owned by {base.__module__}.{base.__qualname__}"
                )
    assert not clashes, "\n".join(clashes)


def test_the_check_sees_a_clash_when_one_is_planted() -> None:
    class Planted(MessagePump):
        def stop(self) -> None:
            self._running = False

    ours = {name for name in _self_assignments(Planted) if name.startswith("_")}
    assert "_running" in ours & _textual_owned(MessagePump)
