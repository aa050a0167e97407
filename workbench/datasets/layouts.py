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

**Lines as Paddle reads them.** A list is split at ``\\n`` only, one trailing ``\\r`` dropped from each
line (:func:`split_lines`): Paddle's readers (``readlines`` on a binary file, PaddleX's ``strip("\\n")``)
never split at U+2028, U+0085 or a form feed, so neither do we, and every later line keeps its number. Such a
character (:data:`ODD_CHARS`) inside a line is its own located ``odd_char`` problem and is taken out before
the line is parsed, so it causes nothing else. A BOM at the start of a file is decoded past (the linter
reports it once, ``bom``). Numbers are read with ASCII rules only (:func:`ascii_int`): ``²`` is no digit.

**Bounded input.** A list is a path and a label per line, so its size is refused before it is read
(:data:`MAX_LIST_BYTES`), each line has a length bound (:data:`MAX_LINE_BYTES`, :data:`MAX_DET_LINE_BYTES`)
and a NUL byte is refused (no file name holds one); each is a located problem whose code is in
:data:`REFUSED`. Text from the files is echoed as an :func:`excerpt`, never whole.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from workbench.i18n import t

SPLITS = ("train", "val")

MAX_LIST_BYTES = 64 * 1024 * 1024
"""Largest list / label / dict file read (64 MiB). The biggest public classification set, ImageNet-1k,
has 1.28 M lines of ~40 bytes (``train/n01440764/n01440764_10026.JPEG 0``): ~51 MB. Checking a list
holds a few times its size in memory, so this bounds memory too; ``dataset check --max-list-mb`` raises
it for a bigger set."""
MAX_LINE_BYTES = 8 * 1024
"""Longest classification / recognition / label / dict line: a path (Linux opens at most PATH_MAX, 4096
bytes) and a label (a class id, or one line of text: PaddleOCR's ``max_text_length`` is 25 by default,
long-text models a few hundred characters)."""
MAX_DET_LINE_BYTES = 1024 * 1024
"""Longest detection line: a path and a JSON list of boxes (~100-200 bytes each with the text), so
room for thousands of boxes on one image; a dense document page has a few hundred."""
MAX_TEXT_LENGTH = 25
"""PaddleOCR's ``Global.max_text_length`` default: its label encoders drop a longer recognition text
(``BaseRecLabelEncode.encode`` returns ``None``, and the sample is skipped)."""
EXCERPT_CHARS = 80
"""Characters of a file's text echoed in a message; the rest is summarised by its size."""
REFUSED = frozenset({"file_too_large", "line_too_long", "nul_byte", "image_too_large"})
"""Problem codes for input the checker refused to read or decode: its verdict is incomplete (exit 2)."""


ODD_CHARS = {
    "\u2028": "LINE SEPARATOR (U+2028)",
    "\u2029": "PARAGRAPH SEPARATOR (U+2029)",
    "\u0085": "NEXT LINE (U+0085)",
    "\x0c": "FORM FEED (U+000C)",
    "\x0b": "LINE TABULATION (U+000B)",
    "\x1c": "FILE SEPARATOR (U+001C)",
    "\x1d": "GROUP SEPARATOR (U+001D)",
    "\x1e": "RECORD SEPARATOR (U+001E)",
    "\u200b": "ZERO WIDTH SPACE (U+200B)",
    "\u2060": "WORD JOINER (U+2060)",
    "\u180e": "MONGOLIAN VOWEL SEPARATOR (U+180E)",
    "\ufeff": "BYTE ORDER MARK (U+FEFF)",
}
"""Characters that do not belong in a list line: the line breaks ``str.splitlines`` splits at but Paddle
does not, and invisible zero-width ones (a BOM mid-file is one). ZERO WIDTH NON-JOINER / JOINER (U+200C,
U+200D) are not here: Persian, Indic and emoji text needs them in a label or a ``dict.txt`` line."""
_ODD = re.compile("[" + "".join(ODD_CHARS) + "]")
_ASCII_INT = re.compile(r"-?[0-9]+", re.ASCII)


def ascii_int(text: str) -> int | None:
    """``text`` as an int when it is ASCII digits with an optional ``-``, else ``None``.

    ``str.isdigit`` is true for ``²`` and ``¹``, which ``int`` then refuses; Paddle's lists hold ASCII.
    """
    return int(text) if _ASCII_INT.fullmatch(text) else None


def split_lines(text: str) -> list[str]:
    """``text``'s lines as Paddle's readers see them: split at ``\\n`` only, one trailing ``\\r`` off each,
    no last empty line after a final ``\\n``."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def problem(file: Path | str, line: int, code: str, stem: str = "", /, **values: Any) -> DatasetProblem:
    """A located problem whose message is ``stem`` (default ``dataset.problem.<code>``) and whose fix is
    ``<stem>.hint``, both filled with ``values``; ``code`` must be in :data:`PROBLEM_CODES`."""
    key = stem or f"dataset.problem.{code}"
    return DatasetProblem(str(file), line, code, t(key, **values), t(f"{key}.hint", **values))


class Containment:
    """Where a path under ``root`` really points, to tell whether it stays inside ``root``.

    ``..`` and symlinks are resolved as the OS resolves them: each folder once (a dataset has few, a list
    many lines in each), the file itself only when it is a symlink (``is_link``: the caller's ``lstat``).
    """

    def __init__(self, root: Path) -> None:
        self.root = os.path.realpath(root)
        self.folders: dict[str, str] = {}

    def resolve(self, path: str, is_link: bool) -> str:
        if is_link:
            return os.path.realpath(path)
        head, tail = os.path.split(path)
        real = self.folders.get(head)
        if real is None:
            real = self.folders[head] = os.path.realpath(head)
        return os.path.normpath(os.path.join(real, tail))

    def inside(self, real: str) -> bool:
        return real == self.root or real.startswith(self.root.rstrip(os.sep) + os.sep)


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """``text`` when short, else its first ``limit`` characters and ``… (N bytes)``."""
    if len(text) <= limit:
        return text
    return t("dataset.excerpt", text=text[:limit], size=len(text.encode("utf-8", "replace")))


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


KEEP_PER_CODE = 1000
"""Problems of one code kept with their text (all are counted): a list of two million missing images is
two million problems, ~0.5 KB each, and nobody reads past the first few of a kind."""


class ProblemList(list[DatasetProblem]):
    """A list of problems that keeps the first :data:`KEEP_PER_CODE` of each code and counts them all
    (``counts``, ``total``), so the memory a report takes is bounded whatever the dataset holds; the
    lines with a problem are all known (``located``), so what passed is known too."""

    def __init__(self, keep: int = KEEP_PER_CODE) -> None:
        super().__init__()
        self.keep = keep
        self.counts: dict[str, int] = {}
        self.located: dict[str, set[int]] = {}
        """The line numbers with a problem, per file, kept or not (a number per line at most)."""

    def append(self, problem: DatasetProblem) -> None:
        count = self.counts[problem.code] = self.counts.get(problem.code, 0) + 1
        if problem.line:
            self.located.setdefault(problem.file, set()).add(problem.line)
        if count <= self.keep:
            super().append(problem)

    @property
    def total(self) -> int:
        return sum(self.counts.values())


PROBLEM_CODES: dict[str, tuple[str, ...]] = {
    "missing_dir": ("training.data.missing_dir",),
    "missing_file": ("training.data.missing_file",),
    "unreadable": ("training.data.unreadable",),
    "empty": ("training.data.empty",),
    "bad_fields": (
        "training.data.bad_label_line",
        "training.data.bad_cls_line",
        "training.data.bad_rec_line",
    ),
    "duplicate_id": ("training.data.duplicate_id",),
    "id_gap": ("training.data.id_gap",),
    "bad_label": ("training.data.bad_label",),
    "label_range": ("training.data.label_range",),
    "not_single_char": ("training.data.not_single_char",),
    "duplicate_char": ("training.data.duplicate_char",),
    "unknown_char": ("training.data.unknown_char",),
    **{
        code: (f"dataset.problem.{code}",)
        for code in (
            "trailing_whitespace",
            "separator",
            "path_space",
            "empty_label",
            "det_json",
            "det_points",
            "bom",
            "crlf",
            "not_utf8",
            "odd_char",
            "trailing_whitespace_text",
            "duplicate_line",
            "conflicting_label",
            "absolute_path",
            "backslash",
            "train_val_overlap",
            "missing_image",
            "empty_image",
            "bad_image",
            "file_too_large",
            "line_too_long",
            "nul_byte",
            "image_too_large",
            "outside_dataset",
            "det_degenerate",
            "det_outside",
            "det_empty",
            "text_too_long",
            "tiny_image",
            "grayscale_image",
            "tiny_split",
            "unused_class",
            "class_imbalance",
        )
    },
}
"""Every problem code the cls / rec / det readers and the linter report, with the catalog keys of its
messages (each key has a ``.hint``: every problem carries its fix). A test holds the code to it."""


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


def read_bounded(path: Path, problems: list[DatasetProblem], limit: int = MAX_LIST_BYTES) -> bytes | None:
    """The file's bytes, or ``None`` and a problem (``missing_file``, ``unreadable``, ``file_too_large``).

    The size is checked before anything is read, so a file over ``limit`` costs no memory; a file that
    says it is smaller but is not (a pipe, a file still growing) is read to ``limit + 1`` bytes at most
    and refused. Only regular files are read: a FIFO or a device would block or never end.
    """
    try:
        info = path.stat()
        if not path.is_file():
            raise IsADirectoryError(f"not a regular file: {path}")
        if info.st_size <= limit:
            with path.open(
                "rb"
            ) as handle:  # read(n) allocates n bytes first: ask for the size, not the limit
                data = handle.read(info.st_size + 1)
                if len(data) > info.st_size:  # it grew since: read on, still within the limit
                    data += handle.read(limit + 1 - len(data))
            if len(data) <= limit:
                return data
        size = max(info.st_size, limit + 1)
    except FileNotFoundError:
        problems.append(problem(path, 0, "missing_file", "training.data.missing_file"))
        return None
    except (OSError, ValueError) as exc:
        problems.append(problem(path, 0, "unreadable", "training.data.unreadable", error=excerpt(str(exc))))
        return None
    shown, most = _sizes(size, limit)
    problems.append(problem(path, 0, "file_too_large", size=shown, limit=most))
    return None


def _sizes(size: int, limit: int) -> tuple[str, str]:
    """``size`` and ``limit`` in MiB, or in bytes when they would read the same in MiB."""
    shown = f"{size / 2**20:.1f} MiB", f"{limit / 2**20:.1f} MiB"
    return shown if shown[0] != shown[1] else (f"{size} B", f"{limit} B")


def _read_lines(
    path: Path, problems: list[DatasetProblem], data: bytes | None = None, *, given: bool = False
) -> list[str] | None:
    """The file's lines without line endings, or ``None`` (and a problem) if it cannot be read.

    ``data``: the file's bytes when the caller has read them already (the linter reads each list once);
    ``given``: the caller read (or tried to read) the file, so ``None`` means it could not, and said why.
    """
    if data is None and not given:
        data = read_bounded(path, problems)
    if data is None:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _lines_with_bad_bytes(path, problems, data)
    return split_lines(text.removeprefix("\ufeff"))  # a leading BOM: reported once by the linter


def _lines_with_bad_bytes(path: Path, problems: list[DatasetProblem], data: bytes) -> list[str]:
    """A file that is not all UTF-8: a ``not_utf8`` problem on each line that is not, and every line
    read (bad bytes replaced) so the rest of the file is still checked."""
    lines: list[str] = []
    for number, raw in enumerate(data.removeprefix(b"\xef\xbb\xbf").split(b"\n"), start=1):
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            problems.append(problem(path, number, "not_utf8", offset=exc.start + 1))
            lines.append(raw.decode("utf-8", errors="replace"))
    return split_lines("\n".join(lines))


def checked_lines(
    file: Path, lines: Iterable[str], problems: list[DatasetProblem], limit: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` for each line within the length bound and free of NUL bytes.

    A longer line is a ``line_too_long`` problem and a line with a NUL byte a ``nul_byte`` one; either is
    skipped, so nothing later parses it, looks it up on disk or echoes it whole. Each character of
    :data:`ODD_CHARS` in a line is an ``odd_char`` problem and is taken out of the line yielded.
    """
    for number, raw in enumerate(lines, start=1):
        if len(raw) > limit // 4:  # a character is at most 4 bytes: only long lines are measured
            size = len(raw.encode("utf-8", "replace"))
            if size > limit:
                problems.append(
                    problem(file, number, "line_too_long", size=size, limit=limit, text=excerpt(raw, 40))
                )
                continue
        if "\x00" in raw:
            problems.append(problem(file, number, "nul_byte", column=raw.index("\x00") + 1))
            continue
        if _ODD.search(raw):
            raw = _without_odd(file, number, raw, problems)
        yield number, raw


def _without_odd(file: Path, number: int, raw: str, problems: list[DatasetProblem]) -> str:
    """``raw`` without its :data:`ODD_CHARS`, each reported as an ``odd_char`` problem at its column."""
    for found in _ODD.finditer(raw):
        problems.append(
            problem(file, number, "odd_char", char=ODD_CHARS[found.group()], column=found.start() + 1)
        )
    return _ODD.sub("", raw)


def _check_image(root: Path, rel: str, file: Path, line: int, problems: list[DatasetProblem]) -> Path | None:
    path = root / rel  # an absolute path stays itself, as os.path.join in Paddle's readers keeps it
    if not path.is_file():
        problems.append(problem(file, line, "missing_image", path=excerpt(rel)))
        return None
    return path


def read_cls_labels(root: Path, problems: list[DatasetProblem]) -> list[str]:
    """``label.txt``: ids must be 0..N-1, each once."""
    file = root / "label.txt"
    lines = _read_lines(file, problems)
    if lines is None:
        return []
    names: dict[int, str] = {}
    seen: dict[int, int] = {}
    for number, raw in checked_lines(file, lines, problems):
        if not raw.strip():
            continue
        fields = raw.split(" ", 1)
        class_id = ascii_int(fields[0]) if len(fields) == 2 and fields[1].strip() else None
        if class_id is None or class_id < 0:
            problems.append(
                problem(file, number, "bad_fields", "training.data.bad_label_line", text=excerpt(raw, 60))
            )
            continue
        if class_id in names:
            problems.append(
                problem(
                    file,
                    number,
                    "duplicate_id",
                    "training.data.duplicate_id",
                    id=class_id,
                    line=seen[class_id],
                )
            )
            continue
        names[class_id] = fields[1].strip()
        seen[class_id] = number
    if names and sorted(names) != list(range(len(names))):
        problems.append(problem(file, 0, "id_gap", "training.data.id_gap", last=len(names) - 1))
    if not names and lines is not None:
        problems.append(problem(file, 0, "empty", "training.data.empty"))
    return [names[i] for i in sorted(names)]


@dataclass
class ListLines:
    """What a list reader tells the linter besides its samples (:func:`read_cls_list` and the others).

    ``data`` and ``given`` go in: the list file's bytes when the caller has read them already, so the file
    is read once (``given`` with ``data`` ``None``: the caller could not read it and reported why).
    ``accepted``, ``labels`` and ``rejected`` come out: ``(line number, path as written)`` and
    the label of each sample (with ``check_files=False`` the reader returns no samples: they are here), and ``(line number, the line)`` for each non-blank line that gave no sample (a bad label,
    a wrong separator, a missing image): the linter checks those lines' paths without reading the file
    again.
    """

    data: bytes | None = None
    given: bool = False
    accepted: list[tuple[int, str]] = field(default_factory=list)
    labels: list[Any] = field(default_factory=list)
    rejected: list[tuple[int, str]] = field(default_factory=list)


def _two_field_lines(
    file: Path,
    separator: str,
    bad_key: str,
    problems: list[DatasetProblem],
    seen: ListLines | None,
    limit: int = MAX_LINE_BYTES,
) -> Iterator[tuple[int, str, str, str]]:
    """``(line number, first, second, line)`` for each well-formed non-blank line of a list file.

    A line that is not exactly two non-empty fields split by ``separator`` becomes a ``bad_fields``
    problem (message ``bad_key``, hint ``bad_key + ".hint"``) and is skipped (into ``seen.rejected``);
    a missing or unreadable file is reported by :func:`_read_lines` and yields nothing, and a line over
    ``limit`` bytes or with a NUL byte is reported by :func:`checked_lines` and skipped.
    """
    if seen is not None:
        lines = _read_lines(file, problems, seen.data, given=seen.given)
    else:
        lines = _read_lines(file, problems)
    for number, raw in checked_lines(file, lines or [], problems, limit):
        if not raw.strip():
            continue
        fields = raw.split(separator)
        if len(fields) != 2 or not fields[0] or not fields[1]:
            _reject(seen, number, raw)
            code = line_shape_code(raw, separator)
            if code == "bad_fields":
                problems.append(problem(file, number, code, bad_key, text=excerpt(raw, 60)))
            else:
                shown = excerpt(raw, 60).replace("\t", "\\t")  # a tab is the point: show it
                problems.append(problem(file, number, code, text=shown))
            continue
        yield number, fields[0], fields[1], raw


def _reject(seen: ListLines | None, number: int, raw: str) -> None:
    if seen is not None:
        seen.rejected.append((number, raw))


def _record(
    seen: ListLines | None, number: int, rel: str, raw: str, label: Any, path: Path | None, check_files: bool
) -> bool:
    """A line that passed the reader's checks: accepted (with its label) if its image is there or was not
    looked for, else rejected. Whether the reader returns it as a sample: the linter (``seen`` without
    ``check_files``) takes the samples from ``seen`` and gets none, so no ``Path`` is made per line."""
    found = path is not None or not check_files
    if seen is not None:
        if found:
            seen.accepted.append((number, rel))
            seen.labels.append(label)
        else:
            seen.rejected.append((number, raw))
    return found and (check_files or seen is None)


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
        if len(fields) > 2 and ascii_int(fields[-1]) is not None:
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
        label = ascii_int(label_text)
        if label is None:
            problems.append(
                problem(file, number, "bad_label", "training.data.bad_label", label=excerpt(label_text))
            )
            _reject(seen, number, raw)
            continue
        if num_classes and not 0 <= label < num_classes:
            problems.append(
                problem(
                    file,
                    number,
                    "label_range",
                    "training.data.label_range",
                    label=label,
                    last=num_classes - 1,
                )
            )
            _reject(seen, number, raw)
            continue
        path = _check_image(root, rel, file, number, problems) if check_files else None
        if _record(seen, number, rel, raw, label, path, check_files):
            samples.append((path or root / rel, label))
    if not samples and not (seen and seen.accepted) and not any(p.file == str(file) for p in problems):
        problems.append(problem(file, 0, "empty", "training.data.empty"))
    return samples


def _require_dir(base: Path) -> None:
    """A dataset root that is not a folder is one problem, reported before anything else is read."""
    if not base.is_dir():
        raise DatasetError([problem(base, 0, "missing_dir", "training.data.missing_dir")])


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
    for number, raw in checked_lines(file, lines, problems):
        if raw == "":
            continue
        if len(raw) != 1:
            problems.append(
                problem(
                    file, number, "not_single_char", "training.data.not_single_char", text=excerpt(raw, 20)
                )
            )
            continue
        if raw in seen:
            problems.append(
                problem(
                    file, number, "duplicate_char", "training.data.duplicate_char", char=raw, line=seen[raw]
                )
            )
            continue
        seen[raw] = number
        charset.append(raw)
    if not charset and not any(p.file == str(file) for p in problems):
        problems.append(problem(file, 0, "empty", "training.data.empty"))
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
                problem(
                    file,
                    number,
                    "unknown_char",
                    "training.data.unknown_char",
                    chars=excerpt("".join(unknown)),
                )
            )
            _reject(seen, number, raw)
            continue
        path = _check_image(root, rel, file, number, problems) if check_files else None
        if _record(seen, number, rel, raw, text, path, check_files):
            samples.append((path or root / rel, text))
    if not samples and not (seen and seen.accepted) and not any(p.file == str(file) for p in problems):
        problems.append(problem(file, 0, "empty", "training.data.empty"))
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
    lines = _two_field_lines(file, "\t", "training.data.bad_rec_line", problems, seen, MAX_DET_LINE_BYTES)
    for number, rel, text, raw in lines:
        polygons, code, detail = _det_polygons(text)
        if polygons is None:
            problems.append(problem(file, number, code, text=detail[:80]))
            _reject(seen, number, raw)
            continue
        path = _check_image(root, rel, file, number, problems) if check_files else None
        if _record(seen, number, rel, raw, polygons, path, check_files):
            samples.append((path or root / rel, polygons))
    if not samples and not (seen and seen.accepted) and not any(p.file == str(file) for p in problems):
        problems.append(problem(file, 0, "empty", "training.data.empty"))
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
