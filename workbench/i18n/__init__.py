"""The message catalog: every user-facing string, in English and Simplified Chinese.

Strings are looked up by a stable key (``t("cli.validate.ok", path=...)``) so the CLI, the TUI and
reports speak the same words in either language. Each domain keeps its strings in its own module under
``workbench.i18n.messages`` (every module of that folder is a domain: adding one is one new file);
together they form one catalog, and a unit test checks that every key has both languages with the same
``{placeholders}``.

A count's noun takes its plural form through a format spec of two words: ``"{count} {count:run|runs}
removed"`` reads "1 run removed", "3 runs removed" (English has two forms, one for exactly 1 and one for
every other number; Chinese has none and writes ``{count}`` alone).

Widths are measured in terminal cells (CJK characters take two), never with ``len``: see
:func:`cell_width` and :func:`pad`.
"""

from __future__ import annotations

import importlib
import locale
import os
import string
from collections.abc import Mapping
from functools import cache
from typing import Literal

from rich.cells import cell_len

Language = Literal["en", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "zh")

_current: Language | None = None


def domains() -> list[str]:
    """The domain modules of ``workbench.i18n.messages`` (every module there, by name), whose
    ``MESSAGES`` make up the catalog."""
    import pkgutil

    from workbench.i18n import messages

    return sorted(
        info.name for info in pkgutil.iter_modules(messages.__path__) if not info.name.startswith("_")
    )


@cache
def catalog() -> Mapping[str, tuple[str, str]]:
    """Return the merged catalog ``key -> (english, chinese)``; a duplicate key is a programming error."""
    merged: dict[str, tuple[str, str]] = {}
    for domain in domains():
        module = importlib.import_module(f"workbench.i18n.messages.{domain}")
        messages: Mapping[str, tuple[str, str]] = module.MESSAGES
        for key, value in messages.items():
            if key in merged:
                raise RuntimeError(f"message key {key!r} defined twice (domain {domain})")
            merged[key] = value
    return merged


def detect_language(environ: Mapping[str, str] | None = None) -> Language:
    """Pick the language from the ``lang`` setting (``PADDLE_WORKBENCH_LANG``, then the user config
    file: see :mod:`workbench.settings_sources`), then the POSIX locale variables."""
    from workbench.settings_sources import language_code, raw_setting

    env = os.environ if environ is None else environ
    explicit = language_code(raw_setting("lang", environ=env))
    if explicit in LANGUAGES:
        return explicit
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    if environ is None:
        try:
            loc = locale.getlocale()[0] or ""
        except ValueError:
            loc = ""
        if loc.lower().startswith("zh"):
            return "zh"
    return "en"


def set_language(lang: Language | None) -> Language:
    """Set the process-wide language (``None`` re-detects it) and return the one in force."""
    global _current
    _current = lang if lang in LANGUAGES else detect_language()
    return _current


def current_language() -> Language:
    """The language in force, detected from the environment on first use."""
    return _current if _current is not None else set_language(None)


class _PluralFormatter(string.Formatter):
    """``str.format`` plus the plural spec: ``{n:one|other}`` is ``one`` when ``n`` is 1, else ``other``."""

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" not in format_spec:
            return str(super().format_field(value, format_spec))
        one, _, other = format_spec.partition("|")
        return one if is_one(value) else other


_PLURAL = _PluralFormatter()


def is_one(value: object) -> bool:
    """Whether ``value`` (a number, or a number written as text) is exactly 1: English's singular."""
    try:
        return float(str(value).replace(",", "")) == 1.0
    except ValueError:
        return False


def t(key: str, /, lang: Language | None = None, **values: object) -> str:
    """Translate ``key`` and fill its ``{placeholders}``; an unknown key shows itself (never raises)."""
    entry = catalog().get(key)
    if entry is None:
        return key
    text = entry[1] if (lang or current_language()) == "zh" else entry[0]
    if not values:
        return text
    try:
        return _PLURAL.vformat(text, (), values) if "|" in text else text.format(**values)
    except (KeyError, IndexError, ValueError):
        return text


def cell_width(text: str) -> int:
    """Width of ``text`` in terminal cells (a CJK character is two cells)."""
    return cell_len(text)


def pad(text: str, width: int) -> str:
    """Left-align ``text`` in ``width`` terminal cells."""
    return text + " " * max(0, width - cell_width(text))
