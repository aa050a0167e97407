"""Self-registering extension points: one registry per kind of extension, one module per entry.

The project keeps gaining the same kinds of things — training tasks, screens, environment rules,
``diagnose`` signatures, troubleshooting flows, kit-log parsers, compare paths. Each kind has one
:class:`Registry`, bound to a package folder. Every module in that folder registers its entries when it
is imported (and, for registries of data, every YAML file there is read and registers what it holds), so
adding one is one new file (plus its catalog strings and its test), never edits across the tree::

    # workbench/training/tasks/my_task.py
    from workbench.training.tasks import TASKS

    TASKS.register("my_task", MyTaskSpec(...))

:meth:`Registry.load` imports every module of the folder once (lazily, on first use, so start-up only
pays for what it uses). :meth:`Registry.silent_modules` names modules (and data files) that were read but
registered nothing — a test fails on them, so a file that forgot to register cannot go unnoticed. Modules whose
name starts with ``_`` are helpers and are not scanned.

Entries are listed in registration order unless they give an ``order`` (a number): ordered entries come
first, smallest first, so the order users see does not depend on file names. :meth:`Registry.extra_folder`
scans one more folder for the duration of a ``with`` block (a test drops an example entry there).

Registries hold plain values; what an entry *is* (a dataclass, a pydantic model, a factory) is up to
the kind. This module imports neither textual nor paddle.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import os
import pkgutil
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")


class RegistryError(KeyError):
    """An unknown name was asked for; the message lists the registered names."""

    def __str__(self) -> str:  # KeyError quotes its argument; this one is a sentence
        return str(self.args[0]) if self.args else ""


def _caller_module() -> str:
    """The module that called :meth:`Registry.register` (two frames up)."""
    frame = sys._getframe(2)
    return str(frame.f_globals.get("__name__", "?"))


@dataclass
class Registry(Generic[T]):
    """Named entries of one kind, filled by the modules (and data files) of ``package`` as they are read.

    ``kind`` is a short human name used in messages (``"task"``, ``"screen"``); ``package`` is the
    dotted name of the folder whose modules register entries (``None`` for a registry filled only by
    explicit calls). Entries keep their registration order, which is the order users see them in.

    ``data_loader`` (``"module:function"``, imported on the first scan) makes the folder's
    ``*<data_suffix>`` files entries too: the function is called as ``function(path, origin)`` for each
    file and registers what the file holds with ``module=origin`` (``<package>.<file stem>``), so a
    family of signatures or a flow is one YAML file, validated where it is read.
    """

    kind: str
    package: str | None = None
    data_loader: str | None = None
    data_suffix: str = ".yaml"
    _entries: dict[str, T] = field(default_factory=dict, init=False, repr=False)
    _origin: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    _order: dict[str, tuple[float, int]] = field(default_factory=dict, init=False, repr=False)
    _registrants: set[str] = field(default_factory=set, init=False, repr=False)
    _counter: int = field(default=0, init=False, repr=False)
    _loaded: bool = field(default=False, init=False, repr=False)
    _loading: bool = field(default=False, init=False, repr=False)
    _imported: list[str] = field(default_factory=list, init=False, repr=False)
    _lock: threading.RLock = field(default_factory=threading.RLock, init=False, repr=False)

    def register(
        self,
        name: str,
        entry: T,
        *,
        order: float | None = None,
        module: str | None = None,
        replace: bool = False,
    ) -> T:
        """Add ``entry`` under ``name`` and return it (usable as the last line of a module).

        ``order`` places the entry among the others (smaller first; entries without one follow, in
        registration order). Registering a name twice is a programming error unless ``replace`` is set
        (tests use it to swap an entry for a scripted one).
        """
        origin = module or _caller_module()
        with self._lock:
            self._registrants.add(origin)
            if not replace and name in self._entries:
                raise ValueError(
                    f"{self.kind} {name!r} is registered twice ({self._origin[name]} and {origin})"
                )
            self._entries[name] = entry
            self._origin[name] = origin
            self._counter += 1
            self._order[name] = (math.inf if order is None else float(order), self._counter)
        return entry

    def unregister(self, name: str) -> None:
        """Remove an entry (tests that add a temporary one clean up with this)."""
        with self._lock:
            self._entries.pop(name, None)
            self._origin.pop(name, None)
            self._order.pop(name, None)

    def _folder_items(self, folder: str) -> list[tuple[str, Path | None]]:
        """``(stem, data file or None for a module)`` of one folder, by name; ``_`` names are helpers."""
        found: list[tuple[str, Path | None]] = [(info.name, None) for info in pkgutil.iter_modules([folder])]
        if self.data_loader is not None:
            found += [
                (path.name[: -len(self.data_suffix)], path)
                for path in Path(folder).glob(f"*{self.data_suffix}")
            ]
        return sorted(item for item in found if not item[0].startswith("_"))

    def _data_function(self) -> Callable[[Path, str], object]:
        assert self.data_loader is not None
        module, _, function = self.data_loader.partition(":")
        loader: Callable[[Path, str], object] = getattr(importlib.import_module(module), function)
        return loader

    def load(self) -> Registry[T]:
        """Read every module (and data file) of :attr:`package` once, so each registers its entries."""
        if self._loaded or self.package is None:
            return self
        with self._lock:
            if self._loaded or self._loading:  # a module being scanned asked for the entries
                return self
            self._loading = True
            try:
                self._imported.clear()
                pkg = importlib.import_module(self.package)
                for folder in list(pkg.__path__):
                    for stem, data in self._folder_items(folder):
                        name = f"{self.package}.{stem}"
                        if data is None:
                            importlib.import_module(name)  # imported once: registers once
                        else:
                            self._read_data(data, name)
                        self._imported.append(name)
                self._loaded = True
            finally:
                self._loading = False
        return self

    def _read_data(self, path: Path, origin: str) -> None:
        """Read one data file; it is read on every scan, so what it registered before gives way to
        what it holds now (an entry still there keeps its place among entries without an ``order``)."""
        seen = {name: self._order[name][1] for name, source in self._origin.items() if source == origin}
        for name in seen:
            self.unregister(name)
        self._data_function()(path, origin)
        for name, counter in seen.items():
            if self._origin.get(name) == origin:
                self._order[name] = (self._order[name][0], counter)

    def reload(self) -> Registry[T]:
        """Forget the folder scan and scan again (a test dropped a new module into the folder)."""
        with self._lock:
            self._loaded = False
            self._imported.clear()
        importlib.invalidate_caches()
        return self.load()

    @contextlib.contextmanager
    def extra_folder(self, folder: str | os.PathLike[str]) -> Iterator[list[str]]:
        """Scan ``folder`` as part of this registry's package inside the block; yield the names it added.

        The folder joins the package's ``__path__`` (so its modules import as ``<package>.<name>``);
        on exit the folder, its modules and their entries are gone again. For tests that prove "one new
        file in the folder is enough", and for trying an entry out before moving it into the tree.
        """
        if self.package is None:
            raise ValueError(f"the {self.kind} registry has no folder to extend")
        path = os.fspath(folder)
        pkg = importlib.import_module(self.package)
        modules = [f"{self.package}.{stem}" for stem, _ in self._folder_items(path)]
        before = set(self.names())
        pkg.__path__.append(path)
        try:
            self.reload()
            yield [name for name in self.names() if name not in before]
        finally:
            pkg.__path__.remove(path)
            with self._lock:
                for name, origin in list(self._origin.items()):
                    if origin in modules:
                        self.unregister(name)
                for module in modules:
                    sys.modules.pop(module, None)
                    self._registrants.discard(module)
            self.reload()

    def get(self, name: str) -> T:
        self.load()
        try:
            return self._entries[name]
        except KeyError:
            raise RegistryError(f"unknown {self.kind} {name!r} (known: {', '.join(self.names())})") from None

    def names(self) -> list[str]:
        self.load()
        with self._lock:
            return sorted(self._entries, key=self._order.__getitem__)

    def values(self) -> list[T]:
        """The entries, in the order users see them."""
        return [self._entries[name] for name in self.names()]

    def items(self) -> list[tuple[str, T]]:
        return [(name, self._entries[name]) for name in self.names()]

    def origin(self, name: str) -> str:
        """The module (or ``<package>.<stem>`` of the data file) that registered ``name``."""
        self.load()
        return self._origin[name]

    def silent_modules(self) -> list[str]:
        """Modules (and data files) of the folder that were read but registered nothing."""
        self.load()
        return [name for name in self._imported if name not in self._registrants]

    def __contains__(self, name: object) -> bool:
        self.load()
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())
