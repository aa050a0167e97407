"""Load YAML into pydantic models and map every error back to the file position that caused it.

The file is composed into a node tree first (``yaml.SafeLoader``: no arbitrary objects), so each
key and value keeps its line and column; pydantic's error locations are then looked up in that map.
Unknown keys get a "did you mean" from the model's own field names. ``-o key.path=value`` overrides
(PaddleX's convention) are applied to the data before validation and report errors as ``-o key``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from workbench.config.errors import ConfigError, ConfigIssue
from workbench.config.problems import problem_hint, problem_location, problem_text
from workbench.i18n import t

ModelT = TypeVar("ModelT", bound=BaseModel)
Loc = tuple[str | int, ...]


@dataclass
class PositionMap:
    """Where each key path sits in the source: the value's position and, for mapping entries, the key's."""

    values: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    overridden: dict[Loc, str] = field(default_factory=dict)


MAX_FILE_BYTES = 2 * 1024 * 1024
"""A workbench file is a few kilobytes; the size is checked before the file is parsed."""
MAX_NODES = 100_000
"""Values in the document once every alias is expanded (a config has a few hundred)."""
MAX_TEXT = 4 * 1024 * 1024
"""Characters of scalar text once every alias is expanded (what ``run.yaml`` would have to hold)."""
MAX_DEPTH = 64
"""Nesting levels (a config has four or five; Paddle, pydantic and ``run.yaml`` all stop far deeper)."""


class _TooLarge(Exception):
    pass


@dataclass
class _Size:
    """What a node stands for after alias expansion: values, scalar characters, levels below it."""

    nodes: int
    text: int
    height: int


def _problem(file: str, node: yaml.Node | None, key: str, hint_key: str, **fields: Any) -> ConfigError:
    line, col = (node.start_mark.line + 1, node.start_mark.column + 1) if node is not None else (0, 0)
    return ConfigError([ConfigIssue(file, line, col, t(key, **fields), t(hint_key, **fields))])


def check_expansion(root: yaml.Node, file: str, *, depth_offset: int = 0) -> None:
    """Refuse a document that is too big or too deep *after alias expansion*, before it is constructed.

    An alias is the same node object reached twice, so each node's expanded size is computed once
    (memoized by identity): a billion-laughs document costs as many steps as it has distinct nodes.
    Raises :class:`ConfigError` naming the limit that was hit (and where, for depth).
    """
    sizes: dict[int, _Size] = {}
    active: set[int] = set()
    distinct = 0

    def measure(node: yaml.Node, depth: int) -> _Size:
        nonlocal distinct
        if depth + depth_offset > MAX_DEPTH:
            raise _problem(file, node, "config.too_deep", "config.too_deep.hint", limit=MAX_DEPTH)
        key = id(node)
        if key in active:
            raise _problem(file, node, "config.alias_recursive", "config.too_large.hint")
        known = sizes.get(key)
        if known is not None and known.height + depth + depth_offset <= MAX_DEPTH:
            return known
        distinct += known is None
        active.add(key)
        if isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        else:
            children = []
        size = _Size(1, len(node.value) if isinstance(node, yaml.ScalarNode) else 0, 0)
        for child in children:
            sub = measure(child, depth + 1)
            size.nodes += sub.nodes
            size.text += sub.text
            size.height = max(size.height, sub.height + 1)
        active.discard(key)
        sizes[key] = size
        return size

    total = measure(root, 0)
    if distinct > MAX_NODES:
        raise _problem(file, None, "config.too_many_values", "config.too_many_values.hint", limit=MAX_NODES)
    if total.nodes > MAX_NODES:
        raise _problem(
            file, None, "config.alias_nodes", "config.too_large.hint", count=total.nodes, limit=MAX_NODES
        )
    if total.text > MAX_TEXT:
        raise _problem(
            file, None, "config.alias_text", "config.too_large.hint", count=total.text, limit=MAX_TEXT
        )


def _walk(
    node: yaml.Node,
    loc: Loc,
    positions: PositionMap,
    issues: list[ConfigIssue],
    file: str,
    walked: set[int] | None = None,
) -> None:
    """Record positions; each collection node is walked once (aliases point back at walked nodes)."""
    walked = set() if walked is None else walked
    if isinstance(node, yaml.CollectionNode):
        if id(node) in walked:
            return
        walked.add(id(node))
    positions.values[loc] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if len(positions.values) > MAX_NODES:
        raise _TooLarge()
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.value)
            line, col = key_node.start_mark.line + 1, key_node.start_mark.column + 1
            if key in seen:
                issues.append(
                    ConfigIssue(
                        file,
                        line,
                        col,
                        t("config.duplicate_key", key=key),
                        t("config.duplicate_key.hint", line=seen[key]),
                    )
                )
            seen[key] = line
            positions.keys[(*loc, key)] = (line, col)
            _walk(value_node, (*loc, key), positions, issues, file, walked)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*loc, index), positions, issues, file, walked)


def _read_bounded(path: str | Path, file: str) -> str:
    """The file's text; refused before parsing when it is over :data:`MAX_FILE_BYTES`."""
    too_big = ConfigError(
        [
            ConfigIssue(
                file,
                0,
                0,
                t("config.file_too_big", limit=f"{MAX_FILE_BYTES // (1024 * 1024)} MB"),
                t("config.file_too_big.hint"),
            )
        ]
    )
    try:
        if Path(path).stat().st_size > MAX_FILE_BYTES:
            raise too_big
        with open(path, "rb") as fh:  # st_size can be 0 for pipes and /proc files: read one byte over
            raw = fh.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            raise too_big
        return raw.decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(
            [ConfigIssue(file, 0, 0, t("config.not_found"), t("config.not_found.hint"))]
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError([ConfigIssue(file, 0, 0, t("config.unreadable", error=str(exc)))]) from None


def load_yaml(path: str | Path, text: str | None = None) -> tuple[Any, PositionMap]:
    """Read and parse ``path`` safely; raise :class:`ConfigError` for unreadable files or bad syntax.

    ``text``: parse this instead of the file's content (an editor's buffer), reported as ``path``.
    """
    file = str(path)
    if text is None:
        text = _read_bounded(path, file)
    elif len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        raise ConfigError(
            [ConfigIssue(file, 0, 0, t("config.file_too_big", limit=f"{MAX_FILE_BYTES // 1024 // 1024} MiB"))]
        )
    issues: list[ConfigIssue] = []
    positions = PositionMap()
    loader: yaml.SafeLoader | None = None
    try:
        loader = yaml.SafeLoader(text)  # inside the try: it rejects control characters (e.g. NUL) at once
        node = loader.get_single_node()
        if node is None:
            raise ConfigError([ConfigIssue(file, 1, 1, t("config.empty"), t("config.empty.hint"))])
        check_expansion(node, file)
        _walk(node, (), positions, issues, file)
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
        problem = (exc.problem or "invalid YAML").strip()
        context = f"{exc.context} " if exc.context else ""
        raise ConfigError(
            [
                ConfigIssue(
                    file,
                    line,
                    col,
                    t("config.syntax", problem=f"{context}{problem}"),
                    t("config.syntax.hint"),
                )
            ]
        ) from None
    except yaml.YAMLError as exc:
        raise ConfigError([ConfigIssue(file, 0, 0, t("config.syntax", problem=str(exc)))]) from None
    except RecursionError:  # nesting deep enough to exhaust the parser itself
        raise ConfigError(
            [ConfigIssue(file, 0, 0, t("config.too_deep", limit=MAX_DEPTH), t("config.too_deep.hint"))]
        ) from None
    except _TooLarge:
        raise ConfigError(
            [ConfigIssue(file, 0, 0, t("config.too_large"), t("config.too_large.hint"))]
        ) from None
    finally:
        if loader is not None:
            loader.dispose()
    if issues:
        raise ConfigError(issues)
    return data, positions


def _override_value(value_text: str, raw: str, depth: int) -> Any:
    """An override's value read as YAML, under the same expansion and depth limits as a file."""
    if not value_text.strip():
        return ""
    loader = yaml.SafeLoader(value_text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        check_expansion(node, f"-o {raw}", depth_offset=depth)
        return loader.construct_document(node)
    except (yaml.YAMLError, RecursionError):
        return value_text
    finally:
        loader.dispose()


def parse_overrides(overrides: Sequence[str]) -> tuple[list[tuple[list[str], Any, str]], list[ConfigIssue]]:
    """Parse ``key.path=value`` strings; the value is read as YAML (``5``, ``true``, ``[1, 2]``)."""
    parsed: list[tuple[list[str], Any, str]] = []
    issues: list[ConfigIssue] = []
    for raw in overrides:
        key, sep, value_text = raw.partition("=")
        key = key.strip()
        if not sep or not key or any(not part for part in key.split(".")):
            issues.append(ConfigIssue(f"-o {raw}", 0, 0, t("config.override.bad"), t("config.override.hint")))
            continue
        parts = key.split(".")
        if len(parts) > MAX_DEPTH:
            issues.append(
                ConfigIssue(
                    f"-o {raw}", 0, 0, t("config.too_deep", limit=MAX_DEPTH), t("config.too_deep.hint")
                )
            )
            continue
        try:
            value = _override_value(value_text, raw, len(parts))
        except ConfigError as exc:
            issues.extend(exc.issues)
            continue
        parsed.append((parts, value, raw))
    return parsed, issues


def apply_overrides(data: Any, overrides: Sequence[str], positions: PositionMap) -> list[ConfigIssue]:
    parsed, issues = parse_overrides(overrides)
    for parts, value, raw in parsed:
        target = data
        for part in parts[:-1]:
            if not isinstance(target, dict):
                break
            child = target.get(part)
            if not isinstance(child, dict):
                child = {}
                target[part] = child
            target = child
        if not isinstance(target, dict):
            issues.append(ConfigIssue(f"-o {raw}", 0, 0, t("config.override.not_mapping")))
            continue
        target[parts[-1]] = value
        path = tuple(parts)
        # An earlier override at or under this key is gone now: an error there belongs to this one.
        for earlier in [o for o in positions.overridden if o[: len(path)] == path]:
            del positions.overridden[earlier]
        positions.overridden[path] = raw
    return issues


def _override_for(loc: Loc, positions: PositionMap) -> str | None:
    """The ``-o`` that set the value at ``loc``: the one that set it or a key above it, else one below it."""
    above = [(len(o), raw) for o, raw in positions.overridden.items() if loc[: len(o)] == o]
    if above:
        return max(above)[1]  # the most specific one
    below = [raw for o, raw in positions.overridden.items() if loc and o[: len(loc)] == loc]
    return below[-1] if below else None


def _field_names(model: type[BaseModel], loc: Loc) -> list[str]:
    """Field names of the sub-model at ``loc`` (for "did you mean" suggestions)."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue  # a list entry: ``current`` is already the entries' model (from the list's args)
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return []
        info = current.model_fields.get(part)
        if info is None:
            return []
        current = info.annotation
        args = getattr(current, "__args__", ())
        for arg in args:
            if isinstance(arg, type) and issubclass(arg, BaseModel):
                current = arg
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _position(loc: Loc, positions: PositionMap, *, key: bool) -> tuple[int, int]:
    """Best position for ``loc``: exact when known, else the nearest ancestor that is."""
    table = positions.keys if key else positions.values
    probe = loc
    while probe:
        if probe in table:
            return table[probe]
        if probe in positions.values:
            return positions.values[probe]
        probe = probe[:-1]
    return positions.values.get((), (1, 1))


def _data_loc(raw_loc: Iterable[Any], data: Any) -> Loc:
    """Drop pydantic's synthetic location parts (union member names, validator tags)."""
    out: list[str | int] = []
    current = data
    for part in raw_loc:
        if (
            isinstance(current, dict)
            and part in current
            or isinstance(current, list)
            and isinstance(part, int)
            and 0 <= part < len(current)
        ):
            out.append(part)
            current = current[part]
        elif isinstance(current, dict) and isinstance(part, str) and "[" not in part and "-" not in part:
            out.append(part)  # a missing or unknown key under a mapping
            current = None
    return tuple(out)


def issues_from_validation(
    exc: ValidationError, model: type[BaseModel], data: Any, positions: PositionMap, file: str
) -> list[ConfigIssue]:
    """Translate pydantic errors into located issues, one per problem."""
    issues: list[ConfigIssue] = []
    for error in exc.errors(include_url=False):
        loc = _data_loc(error["loc"], data)
        loc = problem_location(error) or loc  # a model-level check that names its key
        dotted = ".".join(str(p) for p in loc) or t("config.top_level")
        kind = error["type"]
        hint = ""
        if kind == "extra_forbidden":
            name = str(loc[-1]) if loc else ""
            close = difflib.get_close_matches(name, _field_names(model, loc[:-1]), n=1, cutoff=0.6)
            message = t("config.unknown_key", key=dotted)
            allowed = ", ".join(_field_names(model, loc[:-1]))
            if close:
                hint = t("config.did_you_mean", name=close[0])
            elif allowed:
                hint = t("config.allowed_keys", keys=allowed)
            else:  # a place whose keys are not known here: never an empty list
                hint = t("config.remove_key", key=name)
            line, col = _position(loc, positions, key=True)
        elif kind == "missing":
            message = t("config.missing_key", key=dotted)
            hint = t("config.missing_key.hint", key=str(loc[-1]) if loc else dotted)
            line, col = _position(loc[:-1], positions, key=False)
        else:
            if problem_location(error):  # a model-level check: its text names the values involved
                message = t("config.problem", key=dotted, problem=problem_text(error))
            else:
                got = error.get("input")
                got_text = repr(got) if not isinstance(got, dict | list) else type(got).__name__
                message = t("config.bad_value", key=dotted, problem=problem_text(error), got=got_text)
            hint = problem_hint(error) or _closest_choice(error, error.get("input"))
            line, col = _position(loc, positions, key=False)
        override = _override_for(loc, positions)
        if override is not None:
            issues.append(ConfigIssue(f"-o {override}", 0, 0, message, hint))
        else:
            issues.append(ConfigIssue(file, line, col, message, hint))
    # In the order of the file (pydantic reports in model-field order): read top to bottom.
    return sorted(issues, key=lambda issue: (issue.line == 0, issue.line, issue.col))


def _closest_choice(error: Any, got: Any) -> str:
    """ "did you mean 'momentum'?" for a mistyped choice (a ``Literal`` / enum value)."""
    if error.get("type") not in ("literal_error", "enum") or not isinstance(got, str):
        return ""
    choices = re.findall(r"'([^']*)'", str((error.get("ctx") or {}).get("expected", "")))
    close = difflib.get_close_matches(got, choices, n=1, cutoff=0.5)
    return t("config.did_you_mean", name=close[0]) if close else ""


def load_model(path: str | Path, model: type[ModelT], overrides: Sequence[str] = ()) -> ModelT:
    """Load ``path`` as ``model`` with ``-o`` overrides; raise :class:`ConfigError` listing every problem."""
    data, positions = load_yaml(path)
    return validate_data(data, positions, model, str(path), overrides)


def validate_data(
    data: Any, positions: PositionMap, model: type[ModelT], file: str, overrides: Sequence[str] = ()
) -> ModelT:
    if not isinstance(data, dict):
        raise ConfigError([ConfigIssue(file, 1, 1, t("config.not_mapping"), t("config.empty.hint"))])
    issues = apply_overrides(data, overrides, positions)
    try:
        result = model.model_validate(data, context={"source": file})
    except RecursionError:  # a self-referencing alias (``a: &a [*a]``)
        raise ConfigError(
            [ConfigIssue(file, 0, 0, t("config.too_large"), t("config.too_large.hint"))]
        ) from None
    except ValidationError as exc:
        issues.extend(issues_from_validation(exc, model, data, positions, file))
        raise ConfigError(issues) from None
    if issues:
        raise ConfigError(issues)
    return result
