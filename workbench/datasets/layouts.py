"""Parse the list files of the classification and recognition layouts, reporting every bad line.

Layouts (as PaddleX 3.7's own checkers read them, PADDLE_FACTS.md):

* image classification (PaddleX / PaddleClas): ``label.txt`` lines ``<int id> <name>`` with ids from 0;
  ``train.txt`` / ``val.txt`` lines ``<relative/path> <int label>`` — exactly one space, two fields.
* text recognition (PaddleOCR): ``dict.txt`` one character per line; ``train.txt`` / ``val.txt`` lines
  ``<relative/path>\\t<text>``. PaddleX does not check the text against ``dict.txt``; training must, so
  we do.

A reader never stops at the first problem: :class:`DatasetError` carries all of them, each with the
file, the 1-based line, a stable ``code``, a message and a fix (DESIGN.md §7). Pure Python: no Paddle.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
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


def _read_lines(path: Path, problems: list[DatasetProblem]) -> list[str] | None:
    """The file's lines without line endings, or ``None`` (and a problem) if it cannot be read."""
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
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(
            DatasetProblem(str(path), 0, "unreadable", t("training.data.unreadable", error=str(exc)))
        )
        return None
    return text.splitlines()


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


def _two_field_lines(
    file: Path, separator: str, bad_key: str, problems: list[DatasetProblem]
) -> Iterator[tuple[int, str, str]]:
    """``(line number, first, second)`` for each well-formed non-blank line of a list file.

    A line that is not exactly two non-empty fields split by ``separator`` becomes a ``bad_fields``
    problem (message ``bad_key``, hint ``bad_key + ".hint"``) and is skipped; a missing or unreadable
    file is reported by :func:`_read_lines` and yields nothing.
    """
    lines = _read_lines(file, problems)
    for number, raw in enumerate(lines or [], start=1):
        if not raw.strip():
            continue
        fields = raw.split(separator)
        if len(fields) != 2 or not fields[0] or not fields[1]:
            problems.append(
                DatasetProblem(
                    str(file), number, "bad_fields", t(bad_key, text=raw[:60]), t(f"{bad_key}.hint")
                )
            )
            continue
        yield number, fields[0], fields[1]


def read_cls_list(
    root: Path, split: str, num_classes: int, problems: list[DatasetProblem], *, check_files: bool = True
) -> list[tuple[Path, int]]:
    """``<split>.txt``: ``<relative/path> <int label>``, exactly one space, label in range."""
    file = root / f"{split}.txt"
    samples: list[tuple[Path, int]] = []
    for number, rel, label_text in _two_field_lines(file, " ", "training.data.bad_cls_line", problems):
        if not label_text.lstrip("-").isdigit():
            problems.append(
                DatasetProblem(str(file), number, "bad_label", t("training.data.bad_label", label=label_text))
            )
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
            continue
        path = _check_image(root, rel, file, number, problems) if check_files else root / rel
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
    root: Path, split: str, charset: set[str], problems: list[DatasetProblem], *, check_files: bool = True
) -> list[tuple[Path, str]]:
    """``<split>.txt``: ``<relative/path>\\t<text>``; every character of the text must be in ``dict.txt``."""
    file = root / f"{split}.txt"
    samples: list[tuple[Path, str]] = []
    for number, rel, text in _two_field_lines(file, "\t", "training.data.bad_rec_line", problems):
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
            continue
        path = _check_image(root, rel, file, number, problems) if check_files else root / rel
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
