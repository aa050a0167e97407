"""Validation problems whose words live in the catalog, so they read the same in English and Chinese.

Pydantic's own messages are English. :func:`problem_text` looks every error up by its ``type`` under
``config.error.<type>`` (filled from the error's ``ctx``), so a Chinese user never sees an English
sentence inside Chinese output; types the catalog does not know fall back to pydantic's text.

Our validators raise :func:`problem` instead of ``ValueError``: a pydantic error of type ``<code>`` whose
English template is the catalog's, whose ``ctx`` carries the values, and which may name the key it is
about (``at="model.name"``) so the loader can point at that key's line even from a model-level check.
An optional ``config.error.<code>.hint`` entry becomes the issue's fix; a ``suggestion`` value in
``ctx`` becomes "did you mean '…'?".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic_core import PydanticCustomError

from workbench.i18n import catalog, t

PREFIX = "config.error."


def problem(code: str, *, at: str | None = None, **values: str | int | float) -> PydanticCustomError:
    """A validation error with the catalog text ``config.error.<code>`` (raise it from a validator)."""
    english = catalog().get(PREFIX + code, (code, code))[0]
    ctx: dict[str, Any] = dict(values)
    if at is not None:
        ctx["at"] = at
    return PydanticCustomError(code, english, ctx)


def _ctx_values(ctx: Mapping[str, Any]) -> dict[str, Any]:
    values = {key: str(value) for key, value in ctx.items()}
    if "expected" in values:  # pydantic's "'a', 'b' or 'c'": an English "or" inside Chinese text
        values["expected"] = values["expected"].replace(" or ", ", ")
    return values


def problem_text(error: Mapping[str, Any]) -> str:
    """The error's sentence in the current language (pydantic's English when the type is unknown)."""
    key = PREFIX + str(error["type"])
    if key not in catalog():
        return str(error["msg"])
    return t(key, **_ctx_values(error.get("ctx") or {}))


def problem_hint(error: Mapping[str, Any]) -> str:
    """The fix for the error, when its catalog entry has one (plus "did you mean" for a suggestion)."""
    ctx = error.get("ctx") or {}
    parts: list[str] = []
    if ctx.get("suggestion"):
        parts.append(t("config.did_you_mean", name=str(ctx["suggestion"])))
    key = f"{PREFIX}{error['type']}.hint"
    if key in catalog():
        parts.append(t(key, **_ctx_values(ctx)))
    return " ".join(parts)


def problem_location(error: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The key path a model-level problem is about (``at=`` of :func:`problem`), if it named one."""
    at = (error.get("ctx") or {}).get("at")
    return tuple(str(at).split(".")) if at else None
