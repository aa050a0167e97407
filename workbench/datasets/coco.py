"""COCO object detection sets as PaddleX and PaddleDetection read them: every problem at its file, JSON
path and line.

Layout (PaddleX 3's ``COCODatasetChecker``; PaddleDetection's ``COCODataSet``)::

    DIR/annotations/instance_train.json
    DIR/annotations/instance_val.json
    DIR/images/<file_name of each image entry>

Each JSON file is an object with ``images`` (``id``, ``file_name``, ``width``, ``height``), ``annotations``
(``id``, ``image_id``, ``category_id``, ``bbox`` ``[x, y, width, height]``, ``area``, ``iscrowd``,
optional ``segmentation``) and ``categories`` (``id``, ``name``). PaddleDetection reads ``area`` and
``iscrowd`` of every box (a missing one is a ``KeyError`` while loading), drops boxes whose area or size
is not positive, and numbers the classes of each file by its own ``categories`` list, so val's must be
train's.

**Located.** The file is parsed element by element (:func:`parse_located`: the top-level object's keys
and each element of ``images`` / ``annotations`` / ``categories`` are decoded one at a time by the C
JSON decoder, their start offsets kept); a problem is recorded with its JSON path
(``annotations[12].bbox``), and only the problems kept for the report are located: the path is walked
down from its element's offset, and the offsets are turned into ``line:column`` in one pass over the raw
text (lines end at ``\\n`` only, as Python's ``json`` counts them). Malformed JSON is the decoder's own
complaint at its line and column.

**Bounded.** Each JSON file is read within the list cap (``--max-list-mb``, :func:`read_bounded`): a
larger one is a located ``file_too_large`` refusal, never read. Nesting past the decoder's recursion
limit is a located error, not a traceback. Problems keep the first
:data:`~workbench.datasets.layouts.KEEP_PER_CODE` of a code with their text and count the rest.

:func:`fix_coco` writes a copy with the safe fixes; :func:`sample_coco` a small sample that keeps every
class and only annotations that pass.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import stat
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from workbench.datasets.imagecheck import MAX_PIXELS, QUICK, STANDARD, ImageChecker, TooLarge
from workbench.datasets.layouts import (
    KEEP_PER_CODE,
    MAX_LIST_BYTES,
    SPLITS,
    Containment,
    DatasetError,
    DatasetProblem,
    ProblemList,
    excerpt,
    read_bounded,
)
from workbench.datasets.lint import IMBALANCE_RATIO, SAMPLE_PATHS, TINY_SPLIT, LintReport, Progress
from workbench.i18n import t

ANNOTATIONS = "annotations"
IMAGES = "images"
SPLIT_FILES = {"train": "instance_train.json", "val": "instance_val.json"}
"""The annotation file of each split, under ``annotations/`` (PaddleX reads exactly these names)."""
SECTIONS = ("images", "annotations", "categories")
OUTSIDE_TOLERANCE = 0.01
"""Pixels a box may reach past the image edge before it is "outside": converters that write
``x + w`` as a float leave a few thousandths of a pixel."""

JsonPath = tuple[str | int, ...]


def is_coco(root: Path) -> bool:
    """Whether ``root`` is laid out as a COCO detection set: either annotation file, or JSON files
    under ``annotations/`` beside an ``images/`` folder (misnamed ones, e.g. ``instances_train2017.json``,
    are then reported by name)."""
    if any((root / ANNOTATIONS / name).is_file() for name in SPLIT_FILES.values()):
        return True
    try:
        return (root / IMAGES).is_dir() and any((root / ANNOTATIONS).glob("*.json"))
    except OSError:
        return False


def json_path(path: JsonPath) -> str:
    """``("annotations", 12, "bbox")`` as ``annotations[12].bbox``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


@dataclass(frozen=True)
class CocoProblem(DatasetProblem):
    """A problem in a COCO JSON file: ``file:line:column: json.path: message — hint``."""

    json_path: str = ""
    column: int = 0

    def __str__(self) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}" + (f":{self.column}" if self.column else "")
        path = f" {self.json_path}:" if self.json_path else ""
        return f"{where}:{path} {self.message}" + (f" — {self.hint}" if self.hint else "")


@dataclass
class CocoReport(LintReport):
    """A :class:`LintReport` for a COCO set, with what :func:`sample_coco` needs: per split, the
    indices of the image and annotation entries that failed a check (not part of ``to_dict``)."""

    bad_images: dict[str, set[int]] = field(default_factory=dict)
    bad_annotations: dict[str, set[int]] = field(default_factory=dict)
    bad_categories: dict[str, set[int]] = field(default_factory=dict)


# -- located JSON ------------------------------------------------------------------------------------

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_NUMBER_TYPES = frozenset({int, float})


@dataclass
class Located:
    """A parsed COCO file: its text, top-level object, and each section element's start offset."""

    text: str
    top: Any
    starts: dict[str, list[int]] = field(default_factory=dict)
    keys: dict[str, int] = field(default_factory=dict)
    """Top-level key -> offset of its value."""

    def offset(self, path: JsonPath) -> int:
        """Where the value at ``path`` starts (its nearest present container when a key is missing)."""
        if not path:
            return _skip(self.text, 0)
        head = str(path[0])
        pos = self.keys.get(head, 0)
        rest = path[1:]
        if rest and isinstance(rest[0], int) and head in self.starts:
            starts = self.starts[head]
            if 0 <= rest[0] < len(starts):
                pos, rest = starts[rest[0]], rest[1:]
        for part in rest:
            found = _child(self.text, pos, part)
            if found is None:
                break
            pos = found
        return pos


def _skip(text: str, pos: int) -> int:
    match = _WS.match(text, pos)
    return match.end() if match else pos


def _decode(text: str, pos: int) -> tuple[Any, int]:
    """One JSON value at ``pos`` and where it ends, by the C scanner itself (``raw_decode`` without its
    Python wrapper: this runs once per element). Malformed or too deeply nested JSON is a
    :class:`json.JSONDecodeError` at its offset."""
    try:
        value, end = _SCAN(text, pos)
    except StopIteration as exc:
        raise json.JSONDecodeError("Expecting value", text, exc.value) from None
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply to read", text, pos) from None
    return value, end


def _walk_array(text: str, pos: int) -> tuple[list[Any], list[int], int]:
    """The array at ``pos`` (``[``): its elements, each element's offset, and the offset past it."""
    items: list[Any] = []
    starts: list[int] = []
    pos = _skip(text, pos + 1)
    if text.startswith("]", pos):
        return items, starts, pos + 1
    while True:
        starts.append(pos)
        value, pos = _decode(text, pos)
        items.append(value)
        pos = _skip(text, pos)
        if text.startswith(",", pos):
            pos = _skip(text, pos + 1)
        elif text.startswith("]", pos):
            return items, starts, pos + 1
        else:
            raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)


def _members(text: str, pos: int) -> Iterator[tuple[str, int]]:
    """``(key, value offset)`` of each member of the object at ``pos`` (``{``), in order."""
    pos = _skip(text, pos + 1)
    while text.startswith('"', pos):
        key, pos = _decode(text, pos)
        pos = _skip(text, pos)
        if not text.startswith(":", pos):
            return
        start = _skip(text, pos + 1)
        yield key, start
        pos = _skip(text, _decode(text, start)[1])
        if not text.startswith(",", pos):
            return
        pos = _skip(text, pos + 1)


def _child(text: str, pos: int, part: str | int) -> int | None:
    """Offset of member ``part`` (a key: its last occurrence, as ``json`` keeps the last) or element
    ``part`` (an index) of the container at ``pos``; ``None`` when absent."""
    try:
        if isinstance(part, str):
            if not text.startswith("{", pos):
                return None
            found = None
            for key, start in _members(text, pos):
                if key == part:
                    found = start
            return found
        if not text.startswith("[", pos):
            return None
        index, pos = 0, _skip(text, pos + 1)
        while not text.startswith("]", pos):
            if index == part:
                return pos
            pos = _skip(text, _decode(text, pos)[1])
            pos = _skip(text, pos + 1) if text.startswith(",", pos) else pos
            index += 1
    except (json.JSONDecodeError, IndexError):
        return None
    return None


def _walk_top(text: str, pos: int, located: Located) -> tuple[dict[str, Any], int]:
    """The top-level object at ``pos`` (``{``), each section array walked element by element (their
    offsets into ``located``); returns the object and the offset past it."""
    top: dict[str, Any] = {}
    pos = _skip(text, pos + 1)
    if text.startswith("}", pos):
        return top, pos + 1
    while True:
        if not text.startswith('"', pos):
            raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, pos)
        key, pos = _decode(text, pos)
        pos = _skip(text, pos)
        if not text.startswith(":", pos):
            raise json.JSONDecodeError("Expecting ':' delimiter", text, pos)
        pos = _skip(text, pos + 1)
        located.keys[key] = pos
        if key in SECTIONS and text.startswith("[", pos):
            top[key], located.starts[key], pos = _walk_array(text, pos)
        else:  # a repeated key: the last one counts, as json keeps it
            top[key], pos = _decode(text, pos)
            located.starts.pop(key, None)
        pos = _skip(text, pos)
        if text.startswith(",", pos):
            pos = _skip(text, pos + 1)
        elif text.startswith("}", pos):
            return top, pos + 1
        else:
            raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)


def parse_located(text: str) -> Located:
    """Parse a COCO file, keeping where each section element starts. Raises
    :class:`json.JSONDecodeError` (with ``lineno``/``colno``) for malformed JSON.

    A leading BOM is stepped over (offsets stay those of the text, so columns match an editor's)."""
    pos = _skip(text, 1 if text.startswith("\ufeff") else 0)
    located = Located(text=text, top=None)
    if not text.startswith("{", pos):
        located.top, end = _decode(text, pos)
    else:
        located.top, end = _walk_top(text, pos, located)
    end = _skip(text, end)
    if end != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return located


def line_columns(text: str, offsets: Iterable[int]) -> dict[int, tuple[int, int]]:
    """``offset -> (line, column)``, both from 1, lines ending at ``\\n`` only; one pass over ``text``
    for all offsets (a minified file is one line of many megabytes)."""
    found: dict[int, tuple[int, int]] = {}
    line, previous, newline = 1, 0, -1
    for offset in sorted(set(offsets)):
        count = text.count("\n", previous, offset)
        if count:
            line += count
            newline = text.rfind("\n", previous, offset)
        found[offset] = (line, offset - newline)
        previous = offset
    return found


# -- problems ------------------------------------------------------------------------------------------


def _message(code: str, values: dict[str, Any]) -> tuple[str, str]:
    return t(f"dataset.problem.{code}", **values), t(f"dataset.problem.{code}.hint")


def _file_problem(file: Path, code: str, **values: Any) -> DatasetProblem:
    message, hint = _message(code, values)
    return CocoProblem(str(file), 0, code, message, hint)


class _Sink:
    """The problems of one JSON file, recorded by JSON path and located when flushed: only the first
    :data:`KEEP_PER_CODE` of a code are kept (and located), the rest counted."""

    def __init__(self, file: Path, located: Located) -> None:
        self.file = file
        self.located = located
        self.pending: list[tuple[bool, str, JsonPath, dict[str, Any]]] = []
        self.seen: Counter[tuple[str, bool]] = Counter()
        self.errors = 0
        """Errors recorded so far (kept or not): a check compares it before and after an entry."""

    def add(self, code: str, at: JsonPath, /, *, warning: bool = False, **values: Any) -> None:
        """Record problem ``code`` at JSON path ``at`` (``values`` fill its message)."""
        self.seen[code, warning] += 1
        self.errors += not warning
        if self.seen[code, warning] <= KEEP_PER_CODE:
            self.pending.append((warning, code, at, values))

    def flush(self, errors: list[DatasetProblem], warnings: list[DatasetProblem]) -> None:
        offsets = [self.located.offset(path) for _, _, path, _ in self.pending]
        places = line_columns(self.located.text, offsets)
        for (warning, code, path, values), offset in zip(self.pending, offsets, strict=True):
            line, column = places[offset]
            message, hint = _message(code, values)
            problem = CocoProblem(str(self.file), line, code, message, hint, json_path(path), column)
            (warnings if warning else errors).append(problem)
        for (code, warning), count in self.seen.items():
            target = warnings if warning else errors
            if count > KEEP_PER_CODE and isinstance(target, ProblemList):
                target.counts[code] = target.counts.get(code, 0) + count - KEEP_PER_CODE
        self.pending = []


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int  # JSON gives exact types; a bool is not an id


def _is_number(value: object) -> TypeGuard[int | float]:
    kind = type(value)
    return kind is int or (kind is float and math.isfinite(value))  # type: ignore[arg-type]


def _numbers(values: list[Any]) -> bool:
    """Whether every item is a finite JSON number: by type set and sum, in C (a polygon has dozens)."""
    if not set(map(type, values)) <= _NUMBER_TYPES:
        return False
    return math.isfinite(sum(values)) or all(_is_number(v) for v in values)


def _shown(value: Any) -> str:
    return excerpt(json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value))


def _number(value: float) -> str:
    return f"{value:g}"


# -- the check -----------------------------------------------------------------------------------------


@dataclass
class _Image:
    index: int
    id: int
    file_name: str
    path: str | None
    """The image file when it exists as a regular, non-empty file (then it is decoded)."""
    size: tuple[float, float] | None
    """``(width, height)`` from the JSON when both are numbers > 0."""


@dataclass
class _Split:
    name: str
    file: Path
    located: Located | None = None
    sink: _Sink | None = None
    images: dict[int, _Image] = field(default_factory=dict)
    entries: int = 0
    categories: dict[int, str] = field(default_factory=dict)
    category_index: dict[int, int] = field(default_factory=dict)
    bad_categories: set[int] = field(default_factory=set)
    bad_images: set[int] = field(default_factory=set)
    bad_annotations: set[int] = field(default_factory=set)
    boxes: Counter[int] = field(default_factory=Counter)
    annotated: set[int] = field(default_factory=set)


def _read_split(root: Path, split: _Split, report: CocoReport, max_list_bytes: int) -> None:
    """Read and parse one annotation file; file-level problems go straight into the report."""
    errors = report.errors
    if not split.file.exists():
        folder = root / ANNOTATIONS
        names = sorted(p.name for p in folder.glob("*.json")) if folder.is_dir() else []
        errors.append(_file_problem(split.file, "coco_missing_file", found=excerpt(", ".join(names) or "-")))
        return
    data = read_bounded(split.file, errors, max_list_bytes)
    if data is None:
        return
    if data.startswith(b"\xef\xbb\xbf"):
        message, hint = _message("bom", {})
        errors.append(CocoProblem(str(split.file), 1, "bom", message, hint, "", 1))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        message, hint = _message("not_utf8", {"offset": exc.start - start + 1})
        errors.append(
            CocoProblem(str(split.file), line, "not_utf8", message, hint, "", exc.start - start + 1)
        )
        text = data.decode("utf-8", errors="replace")
    del data
    try:
        split.located = parse_located(text)
    except json.JSONDecodeError as exc:
        message, hint = _message("coco_json", {"error": exc.msg, "column": exc.colno})
        errors.append(CocoProblem(str(split.file), exc.lineno, "coco_json", message, hint, "", exc.colno))
        return
    split.sink = _Sink(split.file, split.located)
    top = split.located.top
    if not isinstance(top, dict):
        split.sink.add("coco_top", ())
        split.located = None
        return
    for key in SECTIONS:
        if not isinstance(top.get(key), list):
            split.sink.add("coco_section", (key,) if key in top else (), key=key)


def _check_categories(split: _Split) -> None:
    assert split.located is not None and split.sink is not None
    sink, first = split.sink, dict[int, str]()
    entries = split.located.top.get("categories")
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        where: JsonPath = ("categories", index)
        if not isinstance(entry, dict):
            sink.add("coco_not_object", where, kind="categories")
            split.bad_categories.add(index)
            continue
        ident, name = entry.get("id"), entry.get("name")
        if not _is_int(ident):
            sink.add("coco_field", (*where, "id"), field="id", expected="int", value=_shown(ident))
            split.bad_categories.add(index)
            continue
        if not isinstance(name, str) or not name.strip():
            sink.add("coco_field", (*where, "name"), field="name", expected="string", value=_shown(name))
            split.bad_categories.add(index)
        if ident in first:
            sink.add("coco_duplicate_id", (*where, "id"), kind="category", id=ident, first=first[ident])
            split.bad_categories.add(index)
            continue
        first[ident] = json_path(where)
        split.categories[ident] = name if isinstance(name, str) else str(ident)
        split.category_index[ident] = index
    if isinstance(entries, list) and not entries:
        sink.add("coco_empty", ("categories",), key="categories")


def _check_images(root: Path, split: _Split, containment: Containment, files: dict[str, str]) -> None:
    """The image entries: fields, duplicate ids, the file under ``images/`` (``files``: file name ->
    ``split json path`` of its first entry, across splits)."""
    assert split.located is not None and split.sink is not None
    sink, first = split.sink, dict[int, str]()
    entries = split.located.top.get("images")
    entries = entries if isinstance(entries, list) else []
    split.entries = len(entries)
    if not entries and "images" in split.located.top:
        sink.add("coco_empty", ("images",), key="images")
    for index, entry in enumerate(entries):
        where: JsonPath = ("images", index)
        if not isinstance(entry, dict):
            sink.add("coco_not_object", where, kind="images")
            split.bad_images.add(index)
            continue
        ident, name = entry.get("id"), entry.get("file_name")
        bad = False
        if not _is_int(ident):
            sink.add("coco_field", (*where, "id"), field="id", expected="int", value=_shown(ident))
            split.bad_images.add(index)
            continue
        if ident in first:
            sink.add("coco_duplicate_id", (*where, "id"), kind="image", id=ident, first=first[ident])
            split.bad_images.add(index)
            continue
        first[ident] = json_path(where)
        size: list[float] = []
        for key in ("width", "height"):
            value = entry.get(key)
            if _is_number(value) and value > 0:
                size.append(float(value))
            else:
                sink.add("coco_field", (*where, key), field=key, expected="number > 0", value=_shown(value))
                bad = True
        path = None
        if not isinstance(name, str) or not name.strip():
            sink.add(
                "coco_field", (*where, "file_name"), field="file_name", expected="string", value=_shown(name)
            )
            bad = True
        elif os.path.isabs(name) or name.startswith("/") or "\\" in name:
            sink.add("coco_file_name", (*where, "file_name"), path=excerpt(name))
            bad = True
        else:
            path, problem, real = _image_file(root, name, containment)
            if problem is not None:
                sink.add(problem, (*where, "file_name"), path=excerpt(name))
                bad = True
            elif not containment.inside(real):
                sink.add(
                    "outside_dataset",
                    (*where, "file_name"),
                    warning=True,
                    path=excerpt(name),
                    target=excerpt(real),
                )
            other = files.get(name)
            if other is not None and not other.startswith(f"{split.name}:"):
                sink.add(
                    "train_val_overlap",
                    (*where, "file_name"),
                    path=excerpt(name),
                    other=other.split(":", 1)[1],
                )
                bad = True
            files.setdefault(name, f"{split.name}:{split.file.name} {json_path(where)}")
        if bad:
            split.bad_images.add(index)
        split.images[ident] = _Image(
            index,
            ident,
            name if isinstance(name, str) else "",
            path,
            (size[0], size[1]) if len(size) == 2 else None,
        )


def _named_images(root: Path) -> list[str]:
    """Every entry named ``images`` under ``root`` (relative): PaddleX takes the dataset's root as the
    parent of the one ``glob("**/images")`` finds and asserts there is exactly one."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        found += [
            os.path.relpath(os.path.join(folder, IMAGES), root) for name in (*dirs, *files) if name == IMAGES
        ]
    return found


def _image_file(root: Path, name: str, containment: Containment) -> tuple[str | None, str | None, str]:
    """``(path, problem code, real path)`` for ``images/<name>``: the path when it is a regular,
    non-empty file, else the code saying why not; the real path (links and ``..`` resolved) to tell
    whether it stays inside the dataset."""
    path = os.path.join(root, IMAGES, name)
    try:
        info = os.lstat(path)
        link = stat.S_ISLNK(info.st_mode)
        real = containment.resolve(path, link)
        if link:
            info = os.stat(path)
    except (OSError, ValueError):
        return None, "coco_missing_image", path
    if not stat.S_ISREG(info.st_mode):
        return None, "coco_missing_image", real
    if info.st_size == 0:
        return None, "empty_image", real
    return path, None, real


def _check_decoded(split: _Split, decoded: dict[str, Any]) -> None:
    """Each image file's decode result: refused, undecodable, or a size that disagrees with the JSON."""
    assert split.sink is not None
    for image in split.images.values():
        if image.path is None or image.path not in decoded:
            continue
        where: JsonPath = ("images", image.index, "file_name")
        result = decoded[image.path]
        if isinstance(result, TooLarge):
            size = f"{result.width}x{result.height}" if result.width else f"> {2 * MAX_PIXELS}"
            split.sink.add(
                "image_too_large", where, path=excerpt(image.file_name), size=size, limit=MAX_PIXELS
            )
            split.bad_images.add(image.index)
        elif isinstance(result, str):
            split.sink.add("bad_image", where, path=excerpt(image.file_name), error=result)
            split.bad_images.add(image.index)
        elif image.size is not None and (float(result[0]), float(result[1])) != image.size:
            split.sink.add(
                "coco_image_size",
                ("images", image.index),
                warning=True,
                json=f"{_number(image.size[0])}x{_number(image.size[1])}",
                actual=f"{result[0]}x{result[1]}",
            )
        if image.size is None and not isinstance(result, str | TooLarge):
            image.size = (float(result[0]), float(result[1]))


def _check_annotations(split: _Split) -> None:
    assert split.located is not None and split.sink is not None
    sink, first = split.sink, dict[int, str]()
    entries = split.located.top.get("annotations")
    known = ", ".join(str(i) for i in sorted(split.categories)[:20]) or "-"
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        where: JsonPath = ("annotations", index)
        if not isinstance(entry, dict):
            sink.add("coco_not_object", where, kind="annotations")
            split.bad_annotations.add(index)
            continue
        before = sink.errors
        ident = entry.get("id")
        if not _is_int(ident):
            sink.add("coco_field", (*where, "id"), field="id", expected="int", value=_shown(ident))
        elif ident in first:
            sink.add("coco_duplicate_id", (*where, "id"), kind="annotation", id=ident, first=first[ident])
        else:
            first[ident] = json_path(where)
        image_id, category = entry.get("image_id"), entry.get("category_id")
        image = split.images.get(image_id) if _is_int(image_id) else None
        if not _is_int(image_id):
            sink.add(
                "coco_field", (*where, "image_id"), field="image_id", expected="int", value=_shown(image_id)
            )
        elif image is None:
            sink.add("coco_unknown_image", (*where, "image_id"), id=image_id)
        else:
            split.annotated.add(image_id)
        if not _is_int(category):
            sink.add(
                "coco_field",
                (*where, "category_id"),
                field="category_id",
                expected="int",
                value=_shown(category),
            )
        elif category not in split.categories:
            sink.add("coco_unknown_category", (*where, "category_id"), id=category, known=known)
        else:
            split.boxes[category] += 1
        _check_box(sink, where, entry, image.size if image is not None else None)
        _check_crowd(sink, where, entry, image.size if image is not None else None)
        if sink.errors > before:
            split.bad_annotations.add(index)


def _check_box(sink: _Sink, where: JsonPath, entry: dict[str, Any], size: tuple[float, float] | None) -> None:
    box = entry.get("bbox")
    if not (isinstance(box, list) and len(box) == 4 and _numbers(box)):
        sink.add("coco_bbox_shape", (*where, "bbox"), value=_shown(box))
    else:
        x, y, w, h = (float(v) for v in box)
        if w <= 0 or h <= 0:
            sink.add("coco_bbox_size", (*where, "bbox"), width=_number(w), height=_number(h))
        elif size is not None and _outside(x, y, w, h, size):
            sink.add(
                "coco_bbox_outside",
                (*where, "bbox"),
                box=f"[{', '.join(_number(v) for v in (x, y, w, h))}]",
                width=_number(size[0]),
                height=_number(size[1]),
            )
    area = entry.get("area")
    if not (_is_number(area) and area > 0):
        sink.add("coco_area", (*where, "area") if "area" in entry else where, value=_shown(area))


def _outside(x: float, y: float, w: float, h: float, size: tuple[float, float]) -> bool:
    tol = OUTSIDE_TOLERANCE
    return x < -tol or y < -tol or x + w > size[0] + tol or y + h > size[1] + tol


def _check_crowd(
    sink: _Sink, where: JsonPath, entry: dict[str, Any], size: tuple[float, float] | None
) -> None:
    """``iscrowd`` (0 or 1, read for every box) and the ``segmentation`` shape it implies: polygons for
    0, an RLE object ``{"counts", "size": [height, width]}`` for 1."""
    crowd = entry.get("iscrowd")
    if "iscrowd" not in entry:
        sink.add("coco_field", where, field="iscrowd", expected="0 | 1", value="-")
    elif not _is_int(crowd) or crowd not in (0, 1):
        sink.add("coco_iscrowd", (*where, "iscrowd"), value=_shown(crowd))
        return
    segmentation = entry.get("segmentation")
    if segmentation is None or segmentation == [] or segmentation == {}:
        return
    at: JsonPath = (*where, "segmentation")
    if isinstance(segmentation, dict):
        if crowd != 1:
            sink.add("coco_segmentation", at, shape="RLE", iscrowd=_shown(crowd))
            return
        counts, rle_size = segmentation.get("counts"), segmentation.get("size")
        shape_ok = isinstance(counts, str) or (isinstance(counts, list) and all(_is_int(c) for c in counts))
        if not shape_ok or not (
            isinstance(rle_size, list) and len(rle_size) == 2 and all(_is_int(v) for v in rle_size)
        ):
            sink.add("coco_rle", at)
        elif size is not None and [float(v) for v in rle_size] != [size[1], size[0]]:
            sink.add(
                "coco_rle_size",
                (*at, "size"),
                size=_shown(rle_size),
                expected=f"[{_number(size[1])}, {_number(size[0])}]",
            )
        elif isinstance(counts, list) and sum(counts) != rle_size[0] * rle_size[1]:
            sink.add("coco_rle", (*at, "counts"))
        return
    if not isinstance(segmentation, list):
        sink.add("coco_segmentation", at, shape=type(segmentation).__name__, iscrowd=_shown(crowd))
        return
    if crowd == 1:
        sink.add("coco_crowd_polygons", at, warning=True)
    for number, polygon in enumerate(segmentation):
        points = polygon if isinstance(polygon, list) else None
        if points is None or len(points) < 6 or len(points) % 2 or not _numbers(points):
            count = len(points) if points is not None else _shown(polygon)
            sink.add("coco_polygon", (*at, number), index=number, count=count)


def _compare_categories(train: _Split, val: _Split) -> None:
    """PaddleDetection numbers classes per file, in the order of its categories (``catid2clsid`` from
    ``getCatIds()``, which keeps the file's order), so val's categories must be train's, in the same
    order, else every val box is scored against the wrong class."""
    if train.located is None or val.located is None or val.sink is None or not train.categories:
        return
    if val.categories != train.categories:
        only_here = sorted(set(val.categories.items()) - set(train.categories.items()))
        only_train = sorted(set(train.categories.items()) - set(val.categories.items()))
        val.sink.add(
            "coco_categories_differ",
            ("categories",),
            here=excerpt(", ".join(f"{i} {n}" for i, n in only_here) or "-"),
            train=excerpt(", ".join(f"{i} {n}" for i, n in only_train) or "-"),
        )
    elif list(val.categories) != list(train.categories):  # same ones, numbered in file order
        val.sink.add(
            "coco_categories_order",
            ("categories",),
            here=excerpt(", ".join(str(i) for i in val.categories)),
            train=excerpt(", ".join(str(i) for i in train.categories)),
        )


def _names(categories: dict[int, str]) -> dict[int, str]:
    """Category id -> a display name, unique (a repeated name gets its id)."""
    counts = Counter(categories.values())
    return {i: (n if counts[n] == 1 else f"{n} ({i})") for i, n in categories.items()}


def _warnings(splits: dict[str, _Split], report: CocoReport) -> None:
    for split in splits.values():
        if split.located is None or split.sink is None:
            continue
        for image in split.images.values():
            if image.id not in split.annotated and image.index not in split.bad_images:
                split.sink.add(
                    "coco_no_annotations",
                    ("images", image.index),
                    warning=True,
                    path=excerpt(image.file_name),
                )
        good = len(split.images)
        if 0 < good < TINY_SPLIT:
            report.warnings.append(_file_problem(split.file, "tiny_split", count=good, minimum=TINY_SPLIT))
    train = splits["train"]
    if train.sink is None or not train.images:
        return
    names = _names(train.categories)
    for ident, name in names.items():
        if train.boxes.get(ident, 0) == 0:
            train.sink.add(
                "unused_class", ("categories", train.category_index[ident], "name"), warning=True, name=name
            )
    used = {i: n for i, n in train.boxes.items() if n > 0 and i in names}
    if len(used) > 1 and max(used.values()) / min(used.values()) > IMBALANCE_RATIO:
        most = max(used.items(), key=lambda kv: kv[1])
        fewest = min(used.items(), key=lambda kv: kv[1])
        report.warnings.append(
            _file_problem(
                train.file,
                "class_imbalance",
                most=f"{names[most[0]]} ({most[1]})",
                fewest=f"{names[fewest[0]]} ({fewest[1]})",
            )
        )


def lint_coco(
    root: Path,
    *,
    guessed: bool = False,
    workers: int | None = None,
    progress: Progress | None = None,
    max_list_bytes: int = MAX_LIST_BYTES,
    image_check: str = STANDARD,
) -> CocoReport:
    """Check the COCO detection set at ``root``: every problem at its file, JSON path and line.

    ``image_check``: how far each image is read (:data:`workbench.datasets.imagecheck.LEVELS`); the
    first :data:`SAMPLE_PATHS` images of each split are decoded in full at any level but ``quick``."""
    started = time.perf_counter()
    report = CocoReport(root=root, format="coco", guessed=guessed)
    if not root.is_dir():
        report.errors.append(
            DatasetProblem(
                str(root),
                0,
                "missing_dir",
                t("training.data.missing_dir"),
                t("training.data.missing_dir.hint"),
            )
        )
        return report
    splits = {name: _Split(name, root / ANNOTATIONS / SPLIT_FILES[name]) for name in SPLITS}
    if not (root / IMAGES).is_dir():
        report.errors.append(_file_problem(root / IMAGES, "coco_images_dir"))
    named = _named_images(root)
    if len(named) > 1:
        shown = excerpt(", ".join(named[:5]) + (", …" if len(named) > 5 else ""))
        report.errors.append(_file_problem(root, "coco_images_dirs", count=len(named), found=shown))
    containment, files = Containment(root), dict[str, str]()
    for split in splits.values():
        _read_split(root, split, report, max_list_bytes)
        if split.located is not None:
            _check_categories(split)
            _check_images(root, split, containment, files)
    if progress is not None:
        entries = sum(s.entries for s in splits.values())
        progress("lines", entries, entries)
    unique = sorted({img.path for s in splits.values() for img in s.images.values() if img.path is not None})
    with ImageChecker(image_check, workers) as checker:
        sample = (
            set()
            if image_check == QUICK
            else {
                img.path
                for s in splits.values()
                for img in list(s.images.values())[:SAMPLE_PATHS]
                if img.path
            }
        )
        step = None if progress is None else (lambda done, total: progress("images", done, total))
        decoded = dict(zip(unique, checker.run(unique, decode=sample, progress=step), strict=True))
    for split in splits.values():
        if split.located is not None:
            _check_decoded(split, decoded)
            _check_annotations(split)
    _compare_categories(splits["train"], splits["val"])
    _warnings(splits, report)
    for split in splits.values():
        if split.sink is not None:
            split.sink.flush(report.errors, report.warnings)
        split.located = None  # the text and the parsed file are not needed any more
        report.bad_images[split.name] = split.bad_images
        report.bad_annotations[split.name] = split.bad_annotations
        report.bad_categories[split.name] = split.bad_categories
        report.sample_paths[split.name] = [
            Path(img.path)
            for img in split.images.values()
            if img.path is not None and img.index not in split.bad_images
        ][:SAMPLE_PATHS]
    report.errors.sort(key=lambda p: (p.file, p.line, getattr(p, "column", 0)))
    report.warnings.sort(key=lambda p: (p.file, p.line, getattr(p, "column", 0)))
    _stats(splits, report, started)
    report.stats.update(
        {"images_checked": len(unique), "images_decoded": checker.decoded, "image_check": checker.level}
    )
    return report


def _stats(splits: dict[str, _Split], report: CocoReport, started: float) -> None:
    train = splits["train"]
    categories = train.categories or splits["val"].categories
    names = _names(categories)
    boxes = {
        name: {names[i]: split.boxes.get(i, 0) for i in names}
        | {f"? {i}": n for i, n in split.boxes.items() if i not in names}
        for name, split in splits.items()
    }
    report.stats.update(
        {
            "format": "coco",
            "num_classes": len(categories),
            "histogram": {names[i]: sum(split.boxes.get(i, 0) for split in splits.values()) for i in names},
            "boxes": boxes,
            "annotations": {name: sum(split.boxes.values()) for name, split in splits.items()},
            "samples": {name: len(split.images) for name, split in splits.items()},
            "seconds": round(time.perf_counter() - started, 3),
        }
    )


# -- --fix and --sample ----------------------------------------------------------------------------------


def _read_doc(file: Path, limit: int) -> tuple[bytes, Any]:
    """The file's bytes and its parsed JSON (``None`` when it is not valid JSON); :class:`DatasetError`
    when it cannot be read within ``limit``."""
    problems: list[DatasetProblem] = []
    data = read_bounded(file, problems, limit)
    if data is None:
        raise DatasetError(problems)
    try:
        return data, json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return data, None


def _dump(doc: Any, like: bytes) -> bytes:
    """``doc`` as JSON, indented when the source was (a minified file stays one line)."""
    indent = 2 if b"\n" in like.strip() else None
    return (json.dumps(doc, ensure_ascii=False, indent=indent) + "\n").encode("utf-8")


def _polygon_area(segmentation: Any) -> float:
    total = 0.0
    for polygon in segmentation if isinstance(segmentation, list) else []:
        if isinstance(polygon, list) and len(polygon) >= 6 and _numbers(polygon):
            xs, ys = polygon[0::2], polygon[1::2]
            total += abs(sum(xs[i] * ys[i - 1] - xs[i - 1] * ys[i] for i in range(len(xs)))) / 2
    return total


def _image_sizes(doc: dict[str, Any]) -> dict[int, tuple[float, float] | None]:
    """Image id -> ``(width, height)`` from the JSON (``None`` when not both numbers > 0); the first
    entry of a repeated id."""
    sizes: dict[int, tuple[float, float] | None] = {}
    images = doc.get("images")
    for image in images if isinstance(images, list) else []:
        if isinstance(image, dict) and _is_int(image.get("id")) and image["id"] not in sizes:
            w, h = image.get("width"), image.get("height")
            ok = _is_number(w) and _is_number(h) and w > 0 and h > 0
            sizes[image["id"]] = (float(w), float(h)) if ok else None  # type: ignore[arg-type]
    return sizes


def _fix_annotation(
    entry: dict[str, Any],
    sizes: dict[int, tuple[float, float] | None],
    categories: set[int] | None,
    counts: Counter[str],
) -> bool:
    """Apply the safe fixes to one annotation in place; ``False`` when it is to be dropped.
    ``categories``: the category ids, ``None`` when the file has no categories list to check against."""
    image_id, category = entry.get("image_id"), entry.get("category_id")
    if _is_int(image_id) and image_id not in sizes:
        counts["unknown_image"] += 1
        return False
    if _is_int(category) and categories is not None and category not in categories:
        counts["unknown_category"] += 1
        return False
    box = entry.get("bbox")
    if isinstance(box, list) and len(box) == 4 and _numbers(box):
        x, y, w, h = (float(v) for v in box)
        if w <= 0 or h <= 0:
            counts["empty_box"] += 1
            return False
        size = sizes.get(image_id) if _is_int(image_id) else None
        if size is not None and _outside(x, y, w, h, size):
            x1, y1 = max(0.0, x), max(0.0, y)
            x2, y2 = min(size[0], x + w), min(size[1], y + h)
            if x2 - x1 <= 0 or y2 - y1 <= 0:
                counts["empty_box"] += 1
                return False
            entry["bbox"] = [_round(x1), _round(y1), _round(x2 - x1), _round(y2 - y1)]
            counts["clipped_box"] += 1
        area = entry.get("area")
        if not (_is_number(area) and area > 0):
            polygons = _polygon_area(entry.get("segmentation"))
            entry["area"] = _round(polygons or entry["bbox"][2] * entry["bbox"][3])
            counts["area"] += 1
    if "iscrowd" not in entry:
        entry["iscrowd"] = 0
        counts["iscrowd"] += 1
    return True


def _fix_doc(doc: dict[str, Any], counts: Counter[str]) -> None:
    """The safe fixes on one parsed file, in place (see :func:`fix_coco`)."""
    entries = doc.get("annotations")
    if not isinstance(entries, list):
        return
    sizes = _image_sizes(doc)
    cats = doc.get("categories")
    categories = (
        {c["id"] for c in cats if isinstance(c, dict) and _is_int(c.get("id"))}
        if isinstance(cats, list)
        else None
    )
    used = {e["id"] for e in entries if isinstance(e, dict) and _is_int(e.get("id"))}
    next_id = max(used, default=0) + 1
    seen: set[int] = set()
    kept: list[Any] = []
    for entry in entries:
        if isinstance(entry, dict):
            if not _fix_annotation(entry, sizes, categories, counts):
                continue
            if _is_int(entry.get("id")) and entry["id"] in seen:  # nothing refers to annotation ids
                while next_id in used:
                    next_id += 1
                entry["id"] = next_id
                used.add(next_id)
                counts["duplicate_annotation_id"] += 1
            if _is_int(entry.get("id")):
                seen.add(entry["id"])
        kept.append(entry)
    doc["annotations"] = kept


def _round(value: float) -> float | int:
    rounded = round(value, 3)
    return int(rounded) if rounded == int(rounded) else rounded


def fix_coco(root: str | Path, out: str | Path, *, max_list_bytes: int = MAX_LIST_BYTES) -> dict[str, int]:
    """Write a fixed copy of the COCO set ``root`` to ``out``; return how many fixes of each kind.

    The safe fixes, each one PaddleDetection would make silently or refuse on: drop annotations whose
    ``image_id`` or ``category_id`` names nothing (``unknown_image``, ``unknown_category``) and boxes of
    zero or negative size (``empty_box``: it drops those while loading); clip boxes to the JSON's image
    size (``clipped_box``; a box left with no area is dropped); set a missing or non-positive ``area``
    from the polygons, else the box (``area``); add ``iscrowd: 0`` where missing (``iscrowd``); give
    a repeated annotation id a new one (``duplicate_annotation_id``: nothing refers to annotation ids);
    drop a BOM (``bom``). Image and category entries are never changed; a file that is not valid JSON is
    copied as it is. Images are hard-linked (else copied), as :func:`~workbench.datasets.fix.fix_dataset`
    does. Raises :class:`~workbench.datasets.fix.OutputExists` or :class:`DatasetError` (a file over the
    cap) before anything is written.
    """
    from workbench.datasets.fix import OutputExists, _link_or_copy, _prepare_output, output_problem

    base, target = Path(root), Path(out)
    reason = output_problem(base, target)
    if reason is not None:
        raise OutputExists(target, reason)
    docs = {}
    for name in SPLIT_FILES.values():
        file = base / ANNOTATIONS / name
        if file.is_file():
            docs[name] = _read_doc(file, max_list_bytes)
    _prepare_output(base, target)
    counts: Counter[str] = Counter()
    inside = Containment(target)
    for source in sorted(base.rglob("*")):
        rel = source.relative_to(base)
        if source.is_dir() or rel.parts[0] == "check_dataset":
            continue
        dest = target / rel
        if not inside.inside(inside.resolve(str(dest), dest.is_symlink())):
            continue
        if len(rel.parts) == 2 and rel.parts[0] == ANNOTATIONS and rel.parts[1] in docs:
            data, doc = docs[rel.parts[1]]
            if isinstance(doc, dict):
                counts["bom"] += data.startswith(b"\xef\xbb\xbf")
                _fix_doc(doc, counts)
                data = _dump(doc, data)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
        else:
            _link_or_copy(source, dest)
    return {code: n for code, n in sorted(counts.items()) if n}


def sample_coco(
    report: CocoReport, n: int, out: str | Path, *, seed: int = 0, max_list_bytes: int = MAX_LIST_BYTES
) -> dict[str, int]:
    """Write ``n`` training images (``max(1, n // 4)`` validation ones) to ``out``, keeping every class
    that has a passing annotation, with only the image, annotation and category entries that pass
    ``report``'s checks (class ids stay the original's). Returns the image counts per split."""
    from workbench.datasets.fix import _link_or_copy, _prepare_output

    base, target = report.root, Path(out)
    docs = {}
    for split, name in SPLIT_FILES.items():
        data, doc = _read_doc(base / ANNOTATIONS / name, max_list_bytes)
        if not isinstance(doc, dict) or not all(isinstance(doc.get(k), list) for k in SECTIONS):
            raise DatasetError([_file_problem(base / ANNOTATIONS / name, "coco_unreadable_sample")])
        docs[split] = (data, doc)
    _prepare_output(base, target)
    inside = Containment(target)
    rng = random.Random(seed)
    wanted = {"train": n, "val": max(1, n // 4)}
    written: dict[str, int] = {}
    for split, (data, doc) in docs.items():
        chosen, annotations = _choose(
            doc,
            report.bad_images.get(split, set()),
            report.bad_annotations.get(split, set()),
            wanted[split],
            rng,
            inside,
            target,
        )
        sampled = {key: value for key, value in doc.items() if key not in SECTIONS}
        sampled["images"] = chosen
        sampled["annotations"] = annotations
        bad = report.bad_categories.get(split, set())
        sampled["categories"] = [c for i, c in enumerate(doc["categories"]) if i not in bad]
        file = target / ANNOTATIONS / SPLIT_FILES[split]
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(_dump(sampled, data))
        for image in chosen:
            _link_or_copy(base / IMAGES / image["file_name"], target / IMAGES / image["file_name"])
        written[split] = len(chosen)
    return written


def _choose(
    doc: dict[str, Any],
    bad_images: set[int],
    bad_annotations: set[int],
    wanted: int,
    rng: random.Random,
    inside: Containment,
    target: Path,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The images to sample from one file (every class first, its rarest first, then at random) and
    their passing annotations."""
    images: dict[int, dict[str, Any]] = {}
    for index, image in enumerate(doc["images"]):
        if index in bad_images or not isinstance(image, dict):
            continue
        name = image.get("file_name")
        if isinstance(name, str) and inside.inside(inside.resolve(str(target / IMAGES / name), False)):
            images[image["id"]] = image
    per_image: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for index, entry in enumerate(doc["annotations"]):
        if index not in bad_annotations and isinstance(entry, dict) and entry.get("image_id") in images:
            per_image[entry["image_id"]].append(entry)
    by_class: dict[int, list[int]] = defaultdict(list)
    for image_id, entries in sorted(per_image.items()):
        for category in sorted({e["category_id"] for e in entries}):
            by_class[category].append(image_id)
    picked: list[int] = []
    covered: set[int] = set()
    for category, ids in sorted(by_class.items(), key=lambda kv: (len(kv[1]), kv[0])):
        if category in covered:
            continue
        choice = rng.choice(ids)
        picked.append(choice)
        covered.update(e["category_id"] for e in per_image[choice])
    rest = [i for i in sorted(per_image) if i not in set(picked)]
    picked += rng.sample(rest, min(len(rest), max(0, wanted - len(picked))))
    keep = set(picked)
    chosen = [image for image_id, image in images.items() if image_id in keep]
    annotations = [entry for image_id in images if image_id in keep for entry in per_image[image_id]]
    return chosen, annotations
