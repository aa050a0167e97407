"""The identity of the user's code: what an export and a preprocessing record say made them.

Two questions need the code's identity. *Is this export stale?* — the model's code changed since it was
exported (a fixed ``forward``), so the program in ``model.json`` no longer is the model. *Did the
preprocessing change?* — for ``task: custom`` the normalisation lives in the user's own functions and
classes, not in a workbench function with a fixed name.

:func:`model_code` answers the first from a built model: the source files of every class of the model
and its sublayers that is the user's (or the workbench's) code, plus the files of the functions, classes
and modules those classes reference by name, each with its sha256. Files, because a server must
re-check them at start without importing or building anything.

:func:`code_closure` answers the second: starting from the user's ``build`` function it follows every
global name the code refers to — functions, classes (a dataset's ``__getitem__``), modules, and simple
constants such as ``MEAN = [0.5, 0.5, 0.5]`` — and hashes each piece's source (``inspect.getsource``,
else the module file's bytes) or value. Model classes (``paddle.nn.Layer`` subclasses) are left out, so
a fix to the model is not called a preprocessing change. Code from the standard library and from
installed packages (Paddle, NumPy) is left out too: the Paddle version is a part of the export key of
its own.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import sys
import sysconfig
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

MAX_PIECES = 400
"""The closure stops after this many pieces (a guard against following a whole library)."""

_INSTALLED_ROOTS = tuple(
    Path(p).resolve()
    for key in ("stdlib", "platstdlib", "purelib", "platlib")
    if (p := sysconfig.get_paths().get(key))
)


def short_hash(value: Any) -> str:
    """The first 16 hex digits of the sha256 of ``value`` as canonical JSON."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def file_hash(path: Path) -> str | None:
    """The first 16 hex digits of the sha256 of a file's bytes; ``None`` when it cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return None


def _module_file(obj: Any) -> Path | None:
    module = inspect.getmodule(obj) if not isinstance(obj, types.ModuleType) else obj
    file = getattr(module, "__file__", None)
    return Path(file).resolve() if file else None


def is_user_code(obj: Any) -> bool:
    """Whether ``obj`` is defined in the user's files or the workbench (not Python's, not a package's)."""
    module = obj if isinstance(obj, types.ModuleType) else inspect.getmodule(obj)
    if module is None:
        return False
    top = module.__name__.split(".", 1)[0]
    if top == "workbench":
        return True
    if top in sys.stdlib_module_names or top == "builtins":
        return False
    path = _module_file(module)
    if path is None or "site-packages" in path.parts or "dist-packages" in path.parts:
        return False
    return not any(path.is_relative_to(root) for root in _INSTALLED_ROOTS)


_WORKBENCH_CODE = ("workbench.training.tasks", "workbench.datasets")
"""The workbench's modules that hold models and preprocessing; the rest of it is plumbing (``TrainParts``)
whose changes change no number a model computes."""


def is_plumbing(obj: Any) -> bool:
    """Workbench code outside :data:`_WORKBENCH_CODE`: left out of every closure."""
    module = str(getattr(obj, "__module__", "") or "")
    return module.startswith("workbench.") and not module.startswith(_WORKBENCH_CODE)


def is_layer_class(obj: Any) -> bool:
    """A ``paddle.nn.Layer`` subclass (told by its bases' names: Paddle need not be imported here)."""
    return inspect.isclass(obj) and any(
        base.__name__ == "Layer" and base.__module__.startswith("paddle") for base in obj.__mro__
    )


def source_hash(obj: Any) -> str:
    """Hash of ``obj``'s source; else of its module file's bytes; else of its qualified name."""
    try:
        return hashlib.sha256(inspect.getsource(obj).encode("utf-8")).hexdigest()[:16]
    except (OSError, TypeError):
        pass
    path = _module_file(obj)
    digest = file_hash(path) if path is not None else None
    return digest or short_hash(f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', '?')}")


def _simple(value: Any) -> Any:
    """A canonical JSON-able form of a constant (numbers, strings, arrays and containers of them), or
    ``None`` when ``value`` is not one (an object's repr can hold its address, which changes every run)."""
    if value is None or isinstance(value, bool | int | float | str):
        return [type(value).__name__, value]
    if isinstance(value, bytes):
        return ["bytes", hashlib.sha256(value).hexdigest()]
    if isinstance(value, np.ndarray | np.generic):
        array = np.asarray(value)
        return ["ndarray", str(array.dtype), list(array.shape), hashlib.sha256(array.tobytes()).hexdigest()]
    if isinstance(value, list | tuple | set | frozenset):
        items = [_simple(v) for v in value]
        if any(i is None for i in items):
            return None
        return [type(value).__name__, sorted(items, key=str) if isinstance(value, set | frozenset) else items]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        entries = {k: _simple(v) for k, v in value.items()}
        return None if any(v is None for v in entries.values()) else ["dict", entries]
    return None


def _code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def _functions_of(obj: Any) -> Iterator[types.FunctionType]:
    if isinstance(obj, types.FunctionType):
        yield obj
    elif inspect.isclass(obj):
        for member in vars(obj).values():
            if isinstance(member, staticmethod | classmethod):
                member = member.__func__
            if isinstance(member, property):
                yield from (f for f in (member.fget, member.fset) if isinstance(f, types.FunctionType))
            elif isinstance(member, types.FunctionType):
                yield member


def _label(obj: Any) -> str:
    if isinstance(obj, types.ModuleType):
        return obj.__name__
    return f"{getattr(obj, '__module__', '?')}:{getattr(obj, '__qualname__', type(obj).__name__)}"


def _referenced(obj: Any) -> Iterator[tuple[str, Any, Mapping[str, Any]]]:
    """``(name, value, the globals it was found in)`` for each global name ``obj``'s code uses (and a
    class's base classes)."""
    if inspect.isclass(obj):
        for base in obj.__bases__:
            yield base.__name__, base, {}
    for fn in _functions_of(obj):
        for code in _code_objects(fn.__code__):
            for name in code.co_names:
                if name in fn.__globals__:
                    yield name, fn.__globals__[name], fn.__globals__


def code_closure(roots: Iterable[Any], *, skip: Callable[[Any], bool] = lambda obj: False) -> dict[str, Any]:
    """``label → {"hash", "file"}`` for ``roots`` and everything of the user's they reference by name.

    Functions and classes are hashed by source, user modules by their file, constants by value;
    ``skip(obj)`` leaves an object (and what only it references) out.
    """
    out: dict[str, Any] = {}
    seen: set[int] = set()
    stack: list[tuple[str | None, Any, Mapping[str, Any] | None]] = [(None, r, None) for r in roots]
    while stack and len(out) < MAX_PIECES:
        name, obj, scope = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, types.ModuleType):
            path = _module_file(obj)
            plumbing = obj.__name__.startswith("workbench") and not obj.__name__.startswith(_WORKBENCH_CODE)
            if is_user_code(obj) and not plumbing and path is not None:
                out[_label(obj)] = {"hash": file_hash(path), "file": str(path)}
            continue
        if inspect.isclass(obj) or isinstance(obj, types.FunctionType):
            if skip(obj) or is_plumbing(obj) or not is_user_code(obj):
                continue
            path = _module_file(obj)
            out[_label(obj)] = {"hash": source_hash(obj), "file": str(path) if path else None}
            stack.extend(_referenced(obj))
            continue
        if name is not None and scope is not None:  # a constant the code reads by name
            value = _simple(obj)
            module = scope.get("__name__", "?")
            if value is not None and is_user_code(sys.modules.get(str(module))):
                out[f"{module}:{name}"] = {"hash": short_hash(value), "file": None}
    return dict(sorted(out.items()))


_PACKAGE_ROOT = Path(__file__).resolve().parents[1]
_PACKAGE_MARK = "<workbench>/"
"""Files of the workbench itself are recorded relative to the package, so an export made on one
installation checks against another with the same code."""


def _portable(path: str) -> str:
    resolved = Path(path)
    if resolved.is_relative_to(_PACKAGE_ROOT):
        return _PACKAGE_MARK + resolved.relative_to(_PACKAGE_ROOT).as_posix()
    return path


def _local(path: str) -> Path:
    if path.startswith(_PACKAGE_MARK):
        return _PACKAGE_ROOT / path[len(_PACKAGE_MARK) :]
    return Path(path)


def model_code(model: Any, extra: Iterable[Any] = ()) -> dict[str, Any]:
    """``{"files": {path: sha256 prefix}, "hash"}`` of the code that defines ``model`` (the workbench's
    own files as ``<workbench>/training/tasks/cls.py``).

    The files of the user's (and the workbench's) classes among the model and its sublayers, of
    ``extra`` objects (a custom task's ``build``), and of what those reference by name.
    """
    classes: list[type] = []
    for layer in [model, *list(model.sublayers())]:
        classes.extend(cls for cls in type(layer).__mro__ if is_user_code(cls))
    pieces = code_closure([*dict.fromkeys(classes), *extra])
    files = {}
    for piece in pieces.values():
        if piece.get("file"):
            files[_portable(piece["file"])] = file_hash(Path(piece["file"]))
    return {"files": dict(sorted(files.items())), "hash": short_hash(sorted(files.items()))}


def changed_files(files: Mapping[str, Any]) -> list[str]:
    """The recorded files whose bytes differ today (or that are gone)."""
    return [path for path, digest in files.items() if file_hash(_local(path)) != digest]
