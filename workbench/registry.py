"""Self-registering extension points: one registry per kind of extension, one module per entry.

The project keeps gaining the same kinds of things — training tasks, screens, environment rules,
``diagnose`` signatures, troubleshooting flows, kit-log parsers, compare paths. Each kind has one
:class:`Registry`, bound to a package folder. Every module in that folder registers its entries when it
is imported, so adding one is one new file (plus its catalog strings and its test), never edits across
the tree::

    # workbench/training/tasks/my_task.py
    from workbench.training.tasks import TASKS

    TASKS.register("my_task", MyTaskSpec(...))

:meth:`Registry.load` imports every module of the folder once (lazily, on first use, so start-up only
pays for what it uses). :meth:`Registry.silent_modules` names modules that were imported but registered
nothing — a test fails on them, so a file that forgot to register cannot go unnoticed. Modules whose
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
from collections.abc import Iterator
from dataclasses import dataclass, field
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
    """Named entries of one kind, filled by the modules of ``package`` as they are imported.

    ``kind`` is a short human name used in messages (``"task"``, ``"screen"``); ``package`` is the
    dotted name of the folder whose modules register entries (``None`` for a registry filled only by
    explicit calls). Entries keep their registration order, which is the order users see them in.
    """

    kind: str
    package: str | None = None
    _entries: dict[str, T] = field(default_factory=dict, init=False, repr=False)
    _origin: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    _order: dict[str, tuple[float, int]] = field(default_factory=dict, init=False, repr=False)
    _placeholders: set[str] = field(default_factory=set, init=False, repr=False)
    _shadowed: dict[str, tuple[T, str, float]] = field(default_factory=dict, init=False, repr=False)
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
        placeholder: bool = False,
    ) -> T:
        """Add ``entry`` under ``name`` and return it (usable as the last line of a module).

        ``order`` places the entry among the others (smaller first; entries without one follow, in
        registration order). Registering a name twice is a programming error unless ``replace`` is set
        (tests use it to swap an entry for a scripted one). A ``placeholder`` stands in for a feature
        that has not landed yet: a real entry of the same name replaces it whichever module is
        imported first, and the placeholder comes back if the real entry is unregistered.
        """
        origin = module or _caller_module()
        with self._lock:
            self._registrants.add(origin)
            slot = (entry, origin, math.inf if order is None else float(order))
            real_here = name in self._entries and name not in self._placeholders
            placeholder_here = name in self._placeholders or name in self._shadowed
            if not replace and (placeholder_here if placeholder else real_here):
                first = (
                    self._shadowed[name][1] if placeholder and name in self._shadowed else self._origin[name]
                )
                raise ValueError(f"{self.kind} {name!r} is registered twice ({first} and {origin})")
            if placeholder and real_here:
                self._shadowed[name] = slot  # the real entry is already here: keep this one behind it
                return entry
            if placeholder:
                self._placeholders.add(name)
            elif name in self._placeholders:  # the real entry arrives: the placeholder steps behind it
                self._shadowed[name] = (self._entries[name], self._origin[name], self._order[name][0])
                self._placeholders.discard(name)
            self._put(name, *slot)
        return entry

    def _put(self, name: str, entry: T, origin: str, order: float) -> None:
        self._entries[name] = entry
        self._origin[name] = origin
        self._counter += 1
        self._order[name] = (order, self._counter)

    def unregister(self, name: str) -> None:
        """Remove an entry (tests that add a temporary one clean up with this); a placeholder it
        replaced comes back."""
        with self._lock:
            self._entries.pop(name, None)
            self._origin.pop(name, None)
            self._order.pop(name, None)
            was_placeholder = name in self._placeholders
            self._placeholders.discard(name)
            shadowed = self._shadowed.pop(name, None)
            if shadowed is not None and not was_placeholder:
                self._put(name, *shadowed)
                self._placeholders.add(name)

    def is_placeholder(self, name: str) -> bool:
        """Whether ``name`` is only a placeholder (the feature behind it has not landed)."""
        self.load()
        return name in self._placeholders

    def load(self) -> Registry[T]:
        """Import every module of :attr:`package` once, so each registers its entries."""
        if self._loaded or self.package is None:
            return self
        with self._lock:
            if self._loaded or self._loading:  # a module being scanned asked for the entries
                return self
            self._loading = True
            try:
                self._imported.clear()
                pkg = importlib.import_module(self.package)
                for info in pkgutil.iter_modules(pkg.__path__, prefix=f"{self.package}."):
                    if info.name.rsplit(".", 1)[-1].startswith("_"):
                        continue  # private helpers (``_base.py``) hold no entries
                    importlib.import_module(info.name)
                    self._imported.append(info.name)
                self._loaded = True
            finally:
                self._loading = False
        return self

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
        modules = [info.name for info in pkgutil.iter_modules([path], prefix=f"{self.package}.")]
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
        """The module that registered ``name``."""
        self.load()
        return self._origin[name]

    def silent_modules(self) -> list[str]:
        """Modules of the folder that were imported but registered nothing."""
        self.load()
        return [name for name in self._imported if name not in self._registrants]

    def __contains__(self, name: object) -> bool:
        self.load()
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())
