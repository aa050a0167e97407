"""Parse the list files of the classification and recognition layouts, reporting every bad line.

Layouts (as PaddleX 3.7's own checkers read them; docs/paddle-notes.md, "Dataset layouts"):

* image classification (PaddleX / PaddleClas): ``label.txt`` lines ``<int id> <name>`` with ids from 0;
  ``train.txt`` / ``val.txt`` lines ``<relative/path> <int label>`` — exactly one space, two fields.
* text recognition (PaddleOCR): ``dict.txt`` one character per line; ``train.txt`` / ``val.txt`` lines
  ``<relative/path>\\t<text>``. PaddleX does not check the text against ``dict.txt``; training must, so
  we do.

A reader never stops at the first problem: :class:`DatasetError` carries all of them, each with the
file, the 1-based line, a stable ``code``, a message and a fix (docs/architecture.md, "Errors and faults").
Pure Python: no Paddle.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from workbench.i18n import t

SPLITS = ("train", "val")


@dataclass(frozen=True)
class DatasetProblem:
    """One problem in a dataset file: ``file:line: message (hint)``; ``line`` 0 means the whole file."""

    file: str
    line: int
    code: str
    message: str
    hint: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}" + (f" — {self.hint}" if self.hint else "")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class DatasetError(Exception):
    """Every problem found while reading a dataset, reported together."""

    def __init__(self, problems: list[DatasetProblem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


@dataclass(frozen=True)
class ClsLayout:
    """A classification dataset: class names by id and ``(image path, label)`` pairs per split."""

    root: Path
    class_names: list[str]
    samples: dict[str, list[tuple[Path, int]]]

    @property
    def num_classes(self) -> int:
        return len(self.class_names)


@dataclass(frozen=True)
class RecLayout:
    """A recognition dataset: its character set (``dict.txt`` order) and ``(image path, text)`` pairs."""

    root: Path
    charset: list[str]
    samples: dict[str, list[tuple[Path, str]]]

    @property
    def max_text_length(self) -> int:
        return max((len(text) for split in self.samples.values() for _, text in split), default=0)


def _read_lines(path: Path, problems: list[DatasetProblem], data: bytes | None = None) -> list[str] | None:
    """The file's lines without line endings, or ``None`` (and a problem) if it cannot be read.

    ``data``: the file's bytes when the caller has read them already (the linter reads each list once).
    """
    if data is not None:
        try:
            return data.decode("utf-8").splitlines()  # as read_text: splitlines takes \r\n and \r too
        except UnicodeDecodeError:
            return _lines_with_bad_bytes(path, problems, data)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.append(
            DatasetProblem(
                str(path),
                0,
                "missing_file",
                t("training.data.missing_file"),
                t("training.data.missing_file.hint"),
            )
        )
        return None
    except UnicodeDecodeError:
        return _lines_with_bad_bytes(path, problems)
    except OSError as exc:
        problems.append(
            DatasetProblem(str(path), 0, "unreadable", t("training.data.unreadable", error=str(exc)))
        )
        return None
    return text.splitlines()


def _lines_with_bad_bytes(path: Path, problems: list[DatasetProblem], data: bytes | None = None) -> list[str]:
    """A file that is not all UTF-8: a ``not_utf8`` problem on each line that is not, and every line
    read (bad bytes replaced) so the rest of the file is still checked."""
    lines: list[str] = []
    for number, raw in enumerate((path.read_bytes() if data is None else data).split(b"\n"), start=1):
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            problems.append(
                DatasetProblem(
                    str(path),
                    number,
                    "not_utf8",
                    t("dataset.problem.not_utf8", offset=exc.start + 1),
                    t("dataset.problem.not_utf8.hint"),
                )
            )
            lines.append(raw.decode("utf-8", errors="replace"))
    text = "\n".join(lines)
    return text[1:].splitlines() if text.startswith("\ufeff") else text.splitlines()


def _check_image(root: Path, rel: str, file: Path, line: int, problems: list[DatasetProblem]) -> Path | None:
    path = root / rel
    if Path(rel).is_absolute() or not path.is_file():
        problems.append(
            DatasetProblem(
                str(file),
                line,
                "missing_image",
                t("training.data.missing_image", path=rel),
                t("training.data.missing_image.hint"),
            )
        )
        return None
    return path


def read_cls_labels(root: Path, problems: list[DatasetProblem]) -> list[str]:
    """``label.txt``: ids must be 0..N-1, each once."""
    file = root / "label.txt"
    lines = _read_lines(file, problems)
    if lines is None:
        return []
    names: dict[int, str] = {}
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        fields = raw.split(" ", 1)
        if len(fields) != 2 or not fields[0].isdigit() or not fields[1].strip():
            problems.append(
                DatasetProblem(
                    str(file),
                    number,
                    "bad_fields",
                    t("training.data.bad_label_line", text=raw[:60]),
                    t("training.data.bad_label_line.hint"),
                )
            )
            continue
        class_id = int(fields[0])
        if class_id in names:
            problems.append(
                DatasetProblem(
                    str(file), number, "duplicate_id", t("training.data.duplicate_id", id=class_id)
                )
            )
            continue
        names[class_id] = fields[1].strip()
    if names and sorted(names) != list(range(len(names))):
        problems.append(
            DatasetProblem(
                str(file),
                0,
                "id_gap",
                t("training.data.id_gap", count=len(names)),
                t("training.data.id_gap.hint"),
            )
        )
    if not names and lines is not None:
        problems.append(DatasetProblem(str(file), 0, "empty", t("training.data.empty")))
    return [names[i] for i in sorted(names)]


@dataclass
class ListLines:
    """What a list reader tells the linter besides its samples (:func:`read_cls_list` and the others).

    ``data`` goes in: the list file's bytes when the caller has read them already, so the file is read
    once. ``accepted`` and ``rejected`` come out: ``(line number, path as written)`` for each sample
    returned, and ``(line number, the line)`` for each non-blank line that gave no sample (a bad label,
    a wrong separator, a missing image): the linter checks those lines' paths without reading the file
    again.
    """

    data: bytes | None = None
    accepted: list[tuple[int, str]] = field(default_factory=list)
    rejected: list[tuple[int, str]] = field(default_factory=list)


def _two_field_lines(
    file: Path, separator: str, bad_key: str, problems: list[DatasetProblem], seen: ListLines | None
) -> Iterator[tuple[int, str, str, str]]:
    """``(line number, first, second, line)`` for each well-formed non-blank line of a list file.

    A line that is not exactly two non-empty fields split by ``separator`` becomes a ``bad_fields``
    problem (message ``bad_key``, hint ``bad_key + ".hint"``) and is skipped (into ``seen.rejected``);
    a missing or unreadable file is reported by :func:`_read_lines` and yields nothing.
    """
    lines = _read_lines(file, problems, seen.data if seen is not None else None)
    for number, raw in enumerate(lines or [], start=1):
        if not raw.strip():
            continue
        fields = raw.split(separator)
        if len(fields) != 2 or not fields[0] or not fields[1]:
            _reject(seen, number, raw)
            code = line_shape_code(raw, separator)
            if code == "bad_fields":
                message, hint = t(bad_key, text=raw[:60]), t(f"{bad_key}.hint")
            else:
                shown = raw[:60].replace("\t", "\\t")  # a tab is the point: show it
                message, hint = t(f"dataset.problem.{code}", text=shown), t(f"dataset.problem.{code}.hint")
            problems.append(DatasetProblem(str(file), number, code, message, hint))
            continue
        yield number, fields[0], fields[1], raw


def _reject(seen: ListLines | None, number: int, raw: str) -> None:
    if seen is not None:
        seen.rejected.append((number, raw))


def _record(seen: ListLines | None, number: int, rel: str, raw: str, path: Path | None) -> None:
    """A line that passed the reader's checks: a sample if its image is there, else rejected."""
    if seen is not None:
        if path is not None:
            seen.accepted.append((number, rel))
        else:
            seen.rejected.append((number, raw))


def line_shape_code(raw: str, separator: str) -> str:
    """Why a list line does not split into two fields by ``separator`` — the most specific reason.

    ``trailing_whitespace`` (a space or tab after the last field), ``separator`` (a tab where one space
    belongs, several spaces, or spaces where a tab belongs), ``path_space`` (a classification path with
    a space in it), ``empty_label`` (a recognition line with no text) or plain ``bad_fields``.
    """
    if raw != raw.rstrip(" \t") and len(raw.rstrip(" \t").split(separator)) == 2:
        return "trailing_whitespace"
    if separator == " ":
        if "\t" in raw or "  " in raw:
            return "separator"
        fields = raw.split(" ")
        if len(fields) > 2 and fields[-1].lstrip("-").isdigit():
            return "path_space"
        return "bad_fields"
    fields = raw.split(separator)
    if len(fields) == 1 and " " in raw.strip():
        return "separator"
    if len(fields) == 2 and fields[0] and not fields[1].strip():
        return "empty_label"
    return "bad_fields"


def read_cls_list(
    root: Path,
    split: str,
    num_classes: int,
    problems: list[DatasetProblem],
    *,
    check_files: bool = True,
    seen: ListLines | None = None,
) -> list[tuple[Path, int]]:
    """``<split>.txt``: ``<relative/path> <int label>``, exactly one space, label in range.

    ``seen`` (the linter's): the file's bytes in, the line of each sample and each rejected line out, so
    the linter can point at the line of a sample it finds more wrong with.
    """
    file = root / f"{split}.txt"
    samples: list[tuple[Path, int]] = []
    for number, rel, label_text, raw in _two_field_lines(
        file, " ", "training.data.bad_cls_line", problems, seen
    ):
        if not label_text.lstrip("-").isdigit():
            problems.append(
                DatasetProblem(str(file), number, "bad_label", t("training.data.bad_label", label=label_text))
            )
            _reject(seen, number, raw)
            continue
        label = int(label_text)
        if num_classes and not 0 <= label < num_classes:
            problems.append(
                DatasetProblem(
                    str(file),
                    number,
                    "label_range",
                    t("training.data.label_range", label=label, count=num_classes),
                    t("training.data.label_range.hint"),
                )
            )
            _reject(seen, number, raw)
            continue
        path = _check_image(root, rel, file, number, problems) if check_files else root / rel
        _record(seen, number, rel, raw, path)
        if path is not None:
            samples.append((path, label))
    if not samples and not any(p.file == str(file) for p in problems):
        problems.append(DatasetProblem(str(file), 0, "empty", t("training.data.empty")))
    return samples


def _require_dir(base: Path) -> None:
    """A dataset root that is not a folder is one problem, reported before anything else is read."""
    if not base.is_dir():
        problem = DatasetProblem(
            str(base), 0, "missing_dir", t("training.data.missing_dir"), t("training.data.missing_dir.hint")
        )
        raise DatasetError([problem])


def read_cls_layout(root: str | Path, *, check_files: bool = True) -> ClsLayout:
    """Read a classification dataset folder; raise :class:`DatasetError` listing every problem."""
    base = Path(root)
    problems: list[DatasetProblem] = []
    _require_dir(base)
    names = read_cls_labels(base, problems)
    samples = {
        split: read_cls_list(base, split, len(names), problems, check_files=check_files) for split in SPLITS
    }
    if problems:
        raise DatasetError(problems)
    return ClsLayout(root=base, class_names=names, samples=samples)


def read_rec_charset(root: Path, problems: list[DatasetProblem]) -> list[str]:
    """``dict.txt``: one character per line, no duplicates."""
    file = root / "dict.txt"
    lines = _read_lines(file, problems)
    if lines is None:
        return []
    charset: list[str] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        if raw == "":
            continue
        if len(raw) != 1:
            problems.append(
                DatasetProblem(
                    str(file), number, "not_single_char", t("training.data.not_single_char", text=raw[:20])
                )
            )
            continue
        if raw in seen:
            problems.append(
                DatasetProblem(
                    str(file),
                    number,
                    "duplicate_char",
                    t("training.data.duplicate_char", char=raw, line=seen[raw]),
                )
            )
            continue
        seen[raw] = number
        charset.append(raw)
    if not charset and not any(p.file == str(file) for p in problems):
        problems.append(DatasetProblem(str(file), 0, "empty", t("training.data.empty")))
    return charset


def read_rec_list(
    root: Path,
    split: str,
    charset: set[str],
    problems: list[DatasetProblem],
    *,
    check_files: bool = True,
    seen: ListLines | None = None,
) -> list[tuple[Path, str]]:
    """``<split>.txt``: ``<relative/path>\\t<text>``; every character of the text must be in ``dict.txt``.

    ``seen``: as for :func:`read_cls_list`.
    """
    file = root / f"{split}.txt"
    samples: list[tuple[Path, str]] = []
    for number, rel, text, raw in _two_field_lines(file, "\t", "training.data.bad_rec_line", problems, seen):
        unknown = sorted({c for c in text if c not in charset})
        if charset and unknown:
            problems.append(
                DatasetProblem(
                    str(file),
                    number,
                    "unknown_char",
                    t("training.data.unknown_char", chars="".join(unknown)),
                    t("training.data.unknown_char.hint"),
                )
            )
            _reject(seen, number, raw)
            continue
        path = _check_image(root, rel, file, number, problems) if check_files else root / rel
        _record(seen, number, rel, raw, path)
        if path is not None:
            samples.append((path, text))
    if not samples and not any(p.file == str(file) for p in problems):
        problems.append(DatasetProblem(str(file), 0, "empty", t("training.data.empty")))
    return samples


def read_rec_layout(root: str | Path, *, check_files: bool = True) -> RecLayout:
    """Read a recognition dataset folder; raise :class:`DatasetError` listing every problem."""
    base = Path(root)
    problems: list[DatasetProblem] = []
    _require_dir(base)
    charset = read_rec_charset(base, problems)
    known = set(charset)
    samples = {
        split: read_rec_list(base, split, known, problems, check_files=check_files) for split in SPLITS
    }
    if problems:
        raise DatasetError(problems)
    return RecLayout(root=base, charset=charset, samples=samples)


Polygon = list[tuple[float, float]]


@dataclass(frozen=True)
class DetLayout:
    """A text detection dataset (PaddleOCR): ``(image path, polygons)`` pairs per split."""

    root: Path
    samples: dict[str, list[tuple[Path, list[Polygon]]]]


def _det_polygons(text: str) -> tuple[list[Polygon] | None, str, str]:
    """Parse one detection label; ``(polygons, "", "")`` or ``(None, code, detail)``."""
    import json

    try:
        boxes = json.loads(text)
    except ValueError as exc:
        return None, "det_json", str(exc)
    if not isinstance(boxes, list) or not all(isinstance(b, dict) for b in boxes):
        return None, "det_json", "not a list of objects"
    polygons: list[Polygon] = []
    for index, box in enumerate(boxes):
        points = box.get("points")
        if (
            not isinstance(points, list)
            or len(points) != 4
            or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(v, int | float) for v in p)
                for p in points
            )
        ):
            count = len(points) if isinstance(points, list) else 0
            return None, "det_points", f"box {index + 1}: {count}"
        polygons.append([(float(p[0]), float(p[1])) for p in points])
    return polygons, "", ""


def read_det_list(
    root: Path,
    split: str,
    problems: list[DatasetProblem],
    *,
    check_files: bool = True,
    seen: ListLines | None = None,
) -> list[tuple[Path, list[Polygon]]]:
    """``<split>.txt``: ``<relative/path>\\t[{"transcription": ..., "points": [[x, y] x 4]}, ...]``.

    ``seen``: as for :func:`read_cls_list`.
    """
    file = root / f"{split}.txt"
    samples: list[tuple[Path, list[Polygon]]] = []
    for number, rel, text, raw in _two_field_lines(file, "\t", "training.data.bad_rec_line", problems, seen):
        polygons, code, detail = _det_polygons(text)
        if polygons is None:
            problems.append(
                DatasetProblem(
                    str(file),
                    number,
                    code,
                    t(f"dataset.problem.{code}", text=detail[:80]),
                    t(f"dataset.problem.{code}.hint"),
                )
            )
            _reject(seen, number, raw)
            continue
        path = _check_image(root, rel, file, number, problems) if check_files else root / rel
        _record(seen, number, rel, raw, path)
        if path is not None:
            samples.append((path, polygons))
    if not samples and not any(p.file == str(file) for p in problems):
        problems.append(DatasetProblem(str(file), 0, "empty", t("training.data.empty")))
    return samples


def read_det_layout(root: str | Path, *, check_files: bool = True) -> DetLayout:
    """Read a text detection dataset folder; raise :class:`DatasetError` listing every problem."""
    base = Path(root)
    problems: list[DatasetProblem] = []
    _require_dir(base)
    samples = {split: read_det_list(base, split, problems, check_files=check_files) for split in SPLITS}
    if problems:
        raise DatasetError(problems)
    return DetLayout(root=base, samples=samples)
