"""click's own errors ("No such option", "Invalid value for ...", "Try ... for help.") in the user's language.

click words its errors in English through gettext, and we ship no gettext files: every user-facing
string lives in the catalog. So the root command (:class:`workbench.cli.root.RootGroup`) runs its
parsing and its commands inside :func:`catalog_errors`, which turns each click error into a
:class:`CatalogUsageError` (or :class:`CatalogClickError`) that says the same thing with the catalog's
words (``cli.click.*``): the option or parameter, the offending value, the choices and click's "did you
mean" matches are kept, the framing is translated, the exit code stays click's (2 for bad input).
Both ways out show it: click's own ``main`` (``CliRunner``) and :func:`workbench.cli.main` (which also
writes it as a JSON document under ``--json``).

click's detail sentences ("'abc' is not a valid integer.") carry no structure, only text: each is
matched against click's English template (:data:`_CLICK_SENTENCES`, copied from click's source) and
said again through the catalog with the same values. A sentence that matches none — a command's own
``click.BadParameter``, already worded through the catalog — is kept as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import IO, Any

import click
from click.exceptions import NoArgsIsHelpError

from workbench.i18n import t

# click's English sentences (click/parser.py, core.py, types.py, exceptions.py) and the catalog key that
# says the same with the same placeholders. The more specific first: "{value!r} is not {choice}." would
# also match "'x' is not a valid integer.".
_CLICK_SENTENCES: tuple[tuple[str, str], ...] = (
    ("No such option {name!r}.", "cli.click.no_such_option"),
    ("No such command {name!r}.", "cli.click.no_such_command"),
    ("Missing command.", "cli.click.missing_command"),
    ("Option {name!r} requires an argument.", "cli.click.option_needs_value"),
    ("Option {name!r} requires {nargs} arguments.", "cli.click.option_needs_values"),
    ("Option {name!r} does not take a value.", "cli.click.option_takes_no_value"),
    ("Argument {name!r} takes {nargs} values.", "cli.click.argument_takes_values"),
    ("Got unexpected extra argument ({args})", "cli.click.extra_argument"),
    ("Got unexpected extra arguments ({args})", "cli.click.extra_arguments"),
    ("{value!r} is not a valid {number_type}.", "cli.click.not_a_number"),
    ("{value} is not in the range {range}.", "cli.click.out_of_range"),
    ("{value!r} is not one of {choices}.", "cli.click.not_one_of"),
    ("{value!r} is not {choice}.", "cli.click.not_the_choice"),
    ("Choose from:\n\t{choices}", "cli.click.choose_from"),
    ("{name} {filename!r} does not exist.", "cli.click.path_missing"),
    ("{name} {filename!r} is a file.", "cli.click.path_is_file"),
    ("{name} {filename!r} is a directory.", "cli.click.path_is_dir"),
    ("{name} {filename!r} is not readable.", "cli.click.path_not_readable"),
    ("{name} {filename!r} is not writable.", "cli.click.path_not_writable"),
    ("{name} {filename!r} is not executable.", "cli.click.path_not_executable"),
)

# Words click puts into those sentences (a number type's name, a path's kind): ``cli.click.word.<word>``.
_CLICK_WORDS = frozenset(
    {"integer", "integer range", "float", "float range", "boolean", "file", "directory", "path"}
)

_PLACEHOLDER = re.compile(r"\{(\w+)(?:![rs])?\}")


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each template of :data:`_CLICK_SENTENCES` as a pattern whose groups are its placeholders."""
    compiled = []
    for template, key in _CLICK_SENTENCES:
        parts = _PLACEHOLDER.split(template)  # literal, name, literal, name, ..., literal
        pattern = "".join(
            re.escape(part) if index % 2 == 0 else f"(?P<{part}>.+?)" for index, part in enumerate(parts)
        )
        compiled.append((re.compile(pattern, re.DOTALL), key))
    return tuple(compiled)


def say_again(sentence: str) -> str:
    """One of click's English sentences in the catalog's words; any other sentence unchanged."""
    for pattern, key in _patterns():
        match = pattern.fullmatch(sentence)
        if match is not None:
            values: dict[str, Any] = {name: _word(value) for name, value in match.groupdict().items()}
            return t(key, **values)
    return sentence


def _word(value: str) -> str:
    word = value.lower()
    return t("cli.click.word." + word.replace(" ", "_")) if word in _CLICK_WORDS else value


def message_of(exc: click.ClickException) -> str:
    """What ``exc.format_message()`` says, in the catalog's language."""
    if isinstance(exc, click.MissingParameter):
        return _missing(exc)
    if isinstance(exc, click.BadParameter):
        hint = _param_hint(exc)
        message = say_again(exc.message)
        if hint is None:
            return t("cli.click.invalid_value", message=message)
        return t("cli.click.invalid_value_for", param=hint, message=message)
    if not isinstance(exc, click.UsageError):  # FileError and others word their own message
        return say_again(exc.format_message())
    message = say_again(exc.message)
    possibilities: Sequence[str] | None = getattr(exc, "possibilities", None)  # NoSuchOption/Command
    if possibilities:
        quoted = ", ".join(repr(p) for p in sorted(possibilities))
        key = "cli.click.did_you_mean" if len(possibilities) == 1 else "cli.click.did_you_mean_one_of"
        message = t("cli.click.then", first=message, then=t(key, possibilities=quoted))
    return message


def _param_hint(exc: click.BadParameter) -> str | None:
    """Which parameter was wrong, as click names it (``'--limit'``, ``'CONFIG'``)."""
    if exc.param_hint is not None:
        hint: Sequence[str] | str = exc.param_hint
    elif exc.param is not None:
        hint = exc.param.get_error_hint(exc.ctx)
    else:
        return None
    return hint if isinstance(hint, str) else " / ".join(repr(x) for x in hint)


def _missing(exc: click.MissingParameter) -> str:
    hint = _param_hint(exc)
    kind = exc.param_type or (exc.param.param_type_name if exc.param is not None else None)
    missing = t(
        f"cli.click.missing_{kind if kind in ('argument', 'option') else 'parameter'}",
        param=f" {hint}" if hint else "",
    )
    details = [say_again(exc.message)] if exc.message else []
    if exc.param is not None:
        extra = exc.param.type.get_missing_message(param=exc.param, ctx=exc.ctx)
        if extra:
            details.append(say_again(extra))
    for detail in details:
        missing = t("cli.click.then", first=missing, then=detail)
    return missing


class CatalogUsageError(click.UsageError):
    """A click usage error said in the catalog's language; shown as click shows one (usage, hint, error)."""

    def __init__(self, original: click.UsageError) -> None:
        super().__init__(message_of(original), original.ctx)
        self.original = original

    def show(self, file: IO[Any] | None = None) -> None:
        ctx = self.ctx
        color = ctx.color if ctx is not None else None
        if ctx is not None:
            hint = ""
            if ctx.command.get_help_option(ctx) is not None:
                option = max(ctx.command.get_help_option_names(ctx), key=len)
                hint = t("cli.click.try_help", command=ctx.command_path, option=option) + "\n"
            click.echo(f"{ctx.get_usage()}\n{hint}", file=file, err=file is None, color=color)
        click.echo(
            t("cli.click.error", message=self.format_message()), file=file, err=file is None, color=color
        )


class CatalogClickError(click.ClickException):
    """Any other click error (exit 1, no usage line) said in the catalog's language."""

    def __init__(self, original: click.ClickException) -> None:
        super().__init__(message_of(original))
        self.original = original
        self.exit_code = original.exit_code  # type: ignore[misc]  # click's is per class; keep the original's

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(
            t("cli.click.error", message=self.format_message()),
            file=file,
            err=file is None,
            color=self.show_color,
        )


@contextmanager
def catalog_errors() -> Iterator[None]:
    """Re-raise click's errors from inside the block in the catalog's language."""
    try:
        yield
    except (CatalogUsageError, CatalogClickError, NoArgsIsHelpError):  # said already / the help itself
        raise
    except click.UsageError as exc:
        raise CatalogUsageError(exc) from exc
    except click.ClickException as exc:
        raise CatalogClickError(exc) from exc
