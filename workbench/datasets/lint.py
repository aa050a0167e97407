"""The dataset linter: every problem of a cls / rec / det dataset in one pass, as ``file:line`` findings.

Builds on :mod:`workbench.datasets.layouts` (which parses the list files exactly as PaddleX reads them)
and adds what a reader cannot see line by line: the bytes of the files (BOM, CRLF, non-UTF-8, trailing
whitespace), the paths (spaces, backslashes, absolute), the images themselves (missing, empty, not
decodable — decoded in a process pool by :mod:`workbench.datasets.imagecheck`), duplicate lines, the
same image in train and val, detection polygons against their image, and the warnings (unused classes,
class imbalance, tiny splits, images outside the dataset folder) with the class histogram.

Input is bounded (:mod:`workbench.datasets.layouts`, "Bounded input"): an over-size list is refused
before it is read, an over-long line or one with a NUL byte is reported and skipped, an image whose
header names too many pixels is never decoded. Those problems (``LintReport.refused``) mean the
check is incomplete: the CLI exits 2 for them, 1 for a dataset checked in full with errors.

:func:`lint_dataset` returns a :class:`LintReport`; :meth:`LintReport.to_dict` is the ``--json``
document and :func:`paddlex_result` the ``check_dataset_result.json`` PaddleX tools read.
"""

from __future__ import annotations

import io
import os
import stat
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.datasets.imagecheck import MAX_PIXELS, QUICK, STANDARD, ImageChecker, TooLarge
from workbench.datasets.layouts import (
    MAX_LINE_BYTES,
    MAX_LIST_BYTES,
    MAX_TEXT_LENGTH,
    REFUSED,
    SPLITS,
    Containment,
    DatasetError,
    DatasetProblem,
    ListLines,
    Polygon,
    ProblemList,
    ascii_int,
    excerpt,
    problem,
    read_bounded,
    read_cls_labels,
    read_cls_list,
    read_det_list,
    read_rec_charset,
    read_rec_list,
    split_lines,
)
from workbench.i18n import t

FORMATS = ("cls", "rec", "det", "coco")
TINY_SPLIT = 10
"""A split with fewer samples than this gets a warning (train on a sample first, but not release)."""
IMBALANCE_RATIO = 10.0
"""Most / fewest samples per used class above this is a warning."""
SAMPLE_PATHS = 10
"""Sample image paths per split in ``check_dataset_result.json`` (PaddleX's ``sample_num``)."""
DECODE_EVERY = 500
"""One image in this many is decoded in full whatever the level (but ``quick``): a format whose headers
read but whose data Pillow cannot decode shows in the sample."""
TINY_IMAGE = 8
"""An image with a side under this many pixels is a warning (a 1x1 export, a crop gone wrong)."""
GRAYSCALE_MODES = frozenset({"1", "L", "LA", "I", "I;16", "I;16B", "I;16L", "I;16N", "F"})
"""Pillow modes of single-channel images (with or without alpha)."""

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: stage ``lines`` or ``images``."""


@dataclass
class LintReport:
    """Everything the linter found in one dataset folder."""

    root: Path
    format: str
    guessed: bool = False
    errors: list[DatasetProblem] = field(default_factory=ProblemList)
    warnings: list[DatasetProblem] = field(default_factory=ProblemList)
    stats: dict[str, Any] = field(default_factory=dict)
    sample_paths: dict[str, list[Path]] = field(default_factory=dict)
    passing: dict[str, list[tuple[int, Any]]] = field(default_factory=dict)
    """Per split, ``(line number, class id)`` of each line with no error at all (``None`` for the class
    outside ``cls``): what ``--sample`` may take."""

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def error_count(self) -> int:
        """Every error found, including those past :data:`KEEP_PER_CODE` of a code (counted, not kept)."""
        return _total(self.errors)

    @property
    def warning_count(self) -> int:
        return _total(self.warnings)

    @property
    def refused(self) -> bool:
        """Some input was refused (too large, too long, a NUL byte, too many pixels): not all was checked."""
        return any(p.code in REFUSED for p in self.errors)

    def groups(self, which: str = "errors", first: int = 3) -> list[tuple[str, int, list[DatasetProblem]]]:
        """``(code, count, first problems)`` for each code, most frequent first."""
        by_code: dict[str, list[DatasetProblem]] = defaultdict(list)
        problems = self.errors if which == "errors" else self.warnings
        for found in problems:
            by_code[found.code].append(found)
        counts = _counts(problems)
        ordered = sorted(by_code.items(), key=lambda item: (-counts[item[0]], item[0]))
        return [(code, counts[code], found[:first]) for code, found in ordered]

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` document: ``{"ok", "format", "errors", "warnings", "stats"}``."""
        return {
            "ok": self.ok,
            "refused": self.refused,
            "root": str(self.root),
            "format": self.format,
            "format_guessed": self.guessed,
            "errors": [p.to_dict() for p in self.errors],
            "warnings": [p.to_dict() for p in self.warnings],
            "error_counts": _counts(self.errors),
            "warning_counts": _counts(self.warnings),
            "stats": self.stats,
        }

    def raise_for_errors(self) -> None:
        """Raise :class:`DatasetError` with every error (the training engine refuses such a dataset)."""
        if self.errors:
            raise DatasetError(list(self.errors))


def _counts(problems: list[DatasetProblem]) -> dict[str, int]:
    """Problems per code, counting those a :class:`ProblemList` did not keep."""
    if isinstance(problems, ProblemList):
        return dict(problems.counts)
    return dict(Counter(p.code for p in problems))


def _total(problems: list[DatasetProblem]) -> int:
    return problems.total if isinstance(problems, ProblemList) else len(problems)


def guess_format(root: Path) -> str:
    """``coco`` with JSON files under ``annotations/`` (:func:`workbench.datasets.coco.is_coco`), ``cls``
    with a ``label.txt``, ``rec`` with a ``dict.txt``, else by the first list line's shape."""
    from workbench.datasets.coco import is_coco

    if is_coco(root):
        return "coco"
    if (root / "label.txt").is_file():
        return "cls"
    if (root / "dict.txt").is_file():
        return "rec"
    try:
        with (root / "train.txt").open(encoding="utf-8", errors="replace") as handle:
            first = handle.readline(MAX_LINE_BYTES)  # a file with no newline is not read whole
    except (OSError, ValueError):
        return "cls"
    if "\t" in first:
        return "det" if first.split("\t", 1)[1].lstrip().startswith("[") else "rec"
    return "cls"


# -- the bytes of the text files -------------------------------------------------------------------


def _read_bytes(file: Path, limit: int = MAX_LIST_BYTES) -> bytes | None:
    """The file's bytes, or ``None`` when it cannot be read or is over ``limit`` (its reader then says
    why)."""
    return read_bounded(file, [], limit)


def _check_bytes(
    file: Path, data: bytes | None, errors: list[DatasetProblem], warnings: list[DatasetProblem], fmt: str
) -> None:
    """BOM, CRLF line ends, bytes that are not UTF-8 and (rec/det lists) trailing whitespace.

    A BOM is an error, reported once: PaddleX and Paddle's readers keep it as part of the first line (an
    id ``int()`` refuses, a path that is not there); the readers here decode past it, so nothing else
    is reported for it. CRLF line ends are a warning: PaddleX (text mode) and PaddleClas (``strip()``)
    drop the CR, PaddleOCR's ``strip("\\n")`` leaves it on a recognition text, where its label encoder
    skips a character not in the dictionary.
    """
    if data is None:
        return  # the reader reports a missing or unreadable file
    if data.startswith(b"\xef\xbb\xbf"):
        errors.append(problem(file, 1, "bom"))
        data = data[3:]
    # Counted and found in place: a list of millions of lines is not split into millions of objects.
    crlf = data.count(b"\r\n") + data.endswith(b"\r")
    if crlf:
        at = data.find(b"\r\n")
        first = data.count(b"\n", 0, at) + 1 if at >= 0 else data.count(b"\n") + 1
        warnings.append(problem(file, first, "crlf", count=crlf))
    if file.name not in ("train.txt", "val.txt") or fmt == "cls":
        return
    for number, raw in enumerate(io.BytesIO(data), start=1):  # one line at a time
        if len(raw) > MAX_LINE_BYTES and fmt != "det":
            continue  # the reader reports it as too long
        text = raw.removesuffix(b"\n").decode("utf-8", errors="replace").rstrip("\r")  # bad bytes: the
        if text.strip() and text != text.rstrip(" \t"):  # reader reports them
            warnings.append(problem(file, number, "trailing_whitespace_text"))


# -- the lists -------------------------------------------------------------------------------------


@dataclass
class _Split:
    """One list file: its non-blank lines, what its reader saw (``seen.accepted`` line by line with
    ``seen.labels``, ``seen.rejected``)."""

    lines: int = 0
    seen: ListLines = field(default_factory=ListLines)

    @property
    def records(self) -> list[tuple[int, str]]:
        """``(line number, path as written)`` of each sample."""
        return self.seen.accepted

    @property
    def labels(self) -> list[Any]:
        """The label of each sample, in the order of :attr:`records`."""
        return self.seen.labels


def _count_lines(data: bytes | None) -> int:
    return 0 if data is None else sum(1 for raw in io.BytesIO(data) if raw.strip())


def _read_lists(
    root: Path, fmt: str, lists: dict[str, bytes | None], errors: list[DatasetProblem]
) -> tuple[dict[str, _Split], list[str], dict[int, int]]:
    """Parse the lists (``lists``: each file's bytes, read once; ``None`` when it could not be, already
    reported) through the layout readers; ``(splits, class names or charset, id -> line)``."""
    splits = {
        name: _Split(lines=_count_lines(lists[name]), seen=ListLines(data=lists[name], given=True))
        for name in SPLITS
    }
    names: list[str] = []
    id_lines: dict[int, int] = {}
    if fmt == "cls":
        names = read_cls_labels(root, errors)
        labels = _read_bytes(root / "label.txt")
        text = "" if labels is None else labels.decode("utf-8", errors="replace").removeprefix("\ufeff")
        for number, raw in enumerate(split_lines(text), start=1):
            head = ascii_int(raw[:32].split(" ", 1)[0])
            if head is not None:
                id_lines.setdefault(head, number)
        for name, split in splits.items():
            read_cls_list(root, name, len(names), errors, check_files=False, seen=split.seen)
    elif fmt == "rec":
        names = read_rec_charset(root, errors)
        known = set(names)
        for name, split in splits.items():
            read_rec_list(root, name, known, errors, check_files=False, seen=split.seen)
    else:
        for name, split in splits.items():
            read_det_list(root, name, errors, check_files=False, seen=split.seen)
    return splits, names, id_lines


def _check_paths_and_lines(
    root: Path, splits: dict[str, _Split], errors: list[DatasetProblem], warnings: list[DatasetProblem]
) -> dict[str, list[tuple[str, int, str, Any]]]:
    """Paths (absolute, backslash, missing, empty, outside the folder), duplicate lines, the same image
    with two labels, train/val overlap.

    A path that leaves the dataset folder (``../``, or a symlink out of it) is a warning: PaddleX joins
    the path to the folder and reads it wherever it lands, but a copy or an archive of the folder leaves
    that image behind (and ``--sample`` leaves out a ``../`` path). An absolute path is a warning for the
    same reason (``os.path.join`` in PaddleX's checkers and Paddle's readers keeps it whole, so they open
    it); it is checked like any other. A space in a rec / det path is no problem: those lines split at
    the tab. Returns, per split, the samples whose image exists as a regular file:
    ``(image path, line, path as written, label)``.
    """
    present: dict[str, list[tuple[str, int, str, Any]]] = {}
    first_split: dict[str, tuple[str, int]] = {}
    containment = Containment(root)
    for name, split in splits.items():
        file = root / f"{name}.txt"
        seen: dict[str, tuple[int, Any]] = {}
        keep: list[tuple[str, int, str, Any]] = []
        for (number, rel), label in zip(split.records, split.labels, strict=True):
            first = seen.get(rel)
            if first is not None:
                code = "duplicate_line" if first[1] == label else "conflicting_label"
                errors.append(problem(file, number, code, first=first[0], path=excerpt(rel)))
                continue
            seen[rel] = (number, label)
            shown = excerpt(rel)
            absolute = os.path.isabs(rel)
            if absolute:
                warnings.append(problem(file, number, "absolute_path", path=shown))
            if "\\" in rel:
                errors.append(problem(file, number, "backslash", path=shown))
                continue
            other = first_split.get(rel)
            if other is not None and other[0] != name:
                errors.append(
                    problem(file, number, "train_val_overlap", path=shown, other=f"{other[0]}.txt:{other[1]}")
                )
            first_split.setdefault(rel, (name, number))
            path = os.path.join(root, rel)  # a str: no Path object per line
            try:
                info = os.lstat(path)
                link = stat.S_ISLNK(info.st_mode)
            except (OSError, ValueError):  # ValueError: a NUL byte (the reader skips those lines)
                info, link = None, False
            real = containment.resolve(path, link)
            if not absolute and not containment.inside(real):
                warnings.append(problem(file, number, "outside_dataset", path=shown, target=excerpt(real)))
            try:
                info = os.stat(path) if link else info
            except (OSError, ValueError):
                info = None
            if info is None or not stat.S_ISREG(info.st_mode):
                errors.append(problem(file, number, "missing_image", path=shown))
                continue
            if info.st_size == 0:
                errors.append(problem(file, number, "empty_image", path=shown))
                continue
            keep.append((path, number, rel, label))
        present[name] = keep
    return present


def _check_rejected_paths(
    root: Path,
    fmt: str,
    splits: dict[str, _Split],
    errors: list[DatasetProblem],
    warnings: list[DatasetProblem],
) -> None:
    """Path problems on lines the reader rejected for another reason (a bad label, a wrong separator).

    Those lines never reach :func:`_check_paths_and_lines`, so the reader hands them over
    (``ListLines.rejected``); here the path is cut out as the format writes it (a tab before the label
    for rec/det, the last blank for cls) and checked for what needs no label: backslashes (an error)
    and an absolute path (a warning).
    """
    for name, split in splits.items():
        file = root / f"{name}.txt"
        for number, raw in split.seen.rejected:
            text = raw.strip().lstrip("\ufeff")
            if not text:
                continue
            fields = text.split("\t", 1) if fmt != "cls" or "\t" in text else text.rsplit(None, 1)
            rel = fields[0].strip()
            if os.path.isabs(rel):
                warnings.append(problem(file, number, "absolute_path", path=excerpt(rel)))
            if "\\" in rel:
                errors.append(problem(file, number, "backslash", path=excerpt(rel)))


def _area(polygon: Polygon) -> float:
    total = 0.0
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        total += x1 * y2 - x2 * y1
    return abs(total) / 2


def _check_polygons(
    file: Path, number: int, polygons: list[Polygon], size: tuple[int, int], errors: list[DatasetProblem]
) -> None:
    width, height = size
    for index, polygon in enumerate(polygons, start=1):
        if _area(polygon) < 1.0:
            errors.append(problem(file, number, "det_degenerate", box=index))
        elif any(not (0 <= x <= width and 0 <= y <= height) for x, y in polygon):
            errors.append(problem(file, number, "det_outside", box=index, width=width, height=height))


def _warnings(
    root: Path,
    fmt: str,
    names: list[str],
    id_lines: dict[int, int],
    splits: dict[str, _Split],
    warnings: list[DatasetProblem],
    stats: dict[str, Any],
) -> None:
    for name, split in splits.items():
        count = len(split.records)
        if 0 < count < TINY_SPLIT:
            warnings.append(problem(root / f"{name}.txt", 0, "tiny_split", count=count, minimum=TINY_SPLIT))
    if fmt != "cls" or not names:
        return
    histogram = Counter(label for split in splits.values() for label in split.labels)
    stats["histogram"] = {names[i]: histogram.get(i, 0) for i in range(len(names))}
    train = Counter(splits["train"].labels)
    for class_id, class_name in enumerate(names):
        if train.get(class_id, 0) == 0 and splits["train"].records:
            warnings.append(
                problem(root / "label.txt", id_lines.get(class_id, 0), "unused_class", name=class_name)
            )
    used = [n for n in train.values() if n > 0]
    if len(used) > 1 and max(used) / min(used) > IMBALANCE_RATIO:
        most, fewest = train.most_common()[0], min(train.items(), key=lambda kv: kv[1])
        warnings.append(
            problem(
                root / "train.txt",
                0,
                "class_imbalance",
                most=f"{names[most[0]]} ({most[1]})",
                fewest=f"{names[fewest[0]]} ({fewest[1]})",
            )
        )


def lint_dataset(
    root: str | Path,
    fmt: str = "auto",
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    max_list_bytes: int = MAX_LIST_BYTES,
    max_text_length: int = MAX_TEXT_LENGTH,
    image_check: str = STANDARD,
) -> LintReport:
    """Check the dataset folder ``root`` in format ``fmt`` (``cls``, ``rec``, ``det``, ``coco`` or
    ``auto``; ``coco`` is :func:`workbench.datasets.coco.lint_coco`).

    ``max_list_bytes``: the largest ``train.txt`` / ``val.txt`` read; a larger one is refused unread.
    ``max_text_length``: a longer recognition text is a warning (PaddleOCR drops the sample).
    ``image_check``: how far each image is read (:data:`workbench.datasets.imagecheck.LEVELS`).
    """
    started = time.perf_counter()
    base = Path(root)
    guessed = fmt == "auto"
    chosen = guess_format(base) if guessed and base.is_dir() else ("cls" if guessed else fmt)
    if chosen == "coco":  # COCO detection JSON: its own checker (workbench.datasets.coco)
        from workbench.datasets.coco import lint_coco

        return lint_coco(
            base,
            guessed=guessed,
            workers=workers,
            progress=progress,
            max_list_bytes=max_list_bytes,
            image_check=image_check,
        )
    report = LintReport(root=base, format=chosen, guessed=guessed)
    if not base.is_dir():
        report.errors.append(problem(base, 0, "missing_dir", "training.data.missing_dir"))
        return report
    errors, warnings = report.errors, report.warnings
    text_files = [("label.txt" if chosen == "cls" else "dict.txt")] if chosen != "det" else []
    lists = {  # each list read once, here; a missing or over-size one is reported here too
        name: read_bounded(base / f"{name}.txt", errors, max_list_bytes) for name in SPLITS
    }
    checker = ImageChecker(image_check, workers)  # no process until the images are checked
    for name in text_files:
        _check_bytes(base / name, _read_bytes(base / name), errors, warnings, chosen)
    for name in SPLITS:
        _check_bytes(base / f"{name}.txt", lists[name], errors, warnings, chosen)
    splits, names, id_lines = _read_lists(base, chosen, lists, errors)
    for split in splits.values():  # parsed: the bytes (up to the cap each) are not needed any more
        split.seen.data = None
    del lists
    if progress is not None:
        progress("lines", sum(s.lines for s in splits.values()), sum(s.lines for s in splits.values()))
    present = _check_paths_and_lines(base, splits, errors, warnings)
    _check_rejected_paths(base, chosen, splits, errors, warnings)

    _check_labels(base, chosen, splits, warnings, max_text_length)

    unique = sorted({path for samples in present.values() for path, *_ in samples})
    decoded = dict(zip(unique, _decode(checker, unique, present, progress), strict=True))
    _check_images(base, chosen, present, decoded, errors, warnings)
    for name, samples in present.items():
        report.sample_paths[name] = [Path(path) for path, *_ in samples[:SAMPLE_PATHS]]

    _warnings(base, chosen, names, id_lines, splits, warnings, report.stats)
    report.passing = _passing(base, chosen, splits, errors)
    errors.sort(key=lambda p: (p.file, p.line))
    report.stats.update(
        {
            "format": chosen,
            "num_classes": len(names) if chosen == "cls" else None,
            "charset_size": len(names) if chosen == "rec" else None,
            "lines": {name: split.lines for name, split in splits.items()},
            "samples": {name: len(split.records) for name, split in splits.items()},
            "images_checked": len(unique),
            "images_decoded": checker.decoded,
            "image_check": checker.level,
            "seconds": round(time.perf_counter() - started, 3),
        }
    )
    return report


def _check_labels(
    root: Path, fmt: str, splits: dict[str, _Split], warnings: list[DatasetProblem], max_text_length: int
) -> None:
    """Labels Paddle's training skips: a recognition text over ``max_text_length`` (PaddleOCR's label
    encoders return nothing for it) and a detection label with no box (``DetLabelEncode`` likewise)."""
    for name, split in splits.items():
        file = root / f"{name}.txt"
        for (number, _), label in zip(split.records, split.labels, strict=True):
            if fmt == "rec" and len(label) > max_text_length:
                warnings.append(
                    problem(file, number, "text_too_long", length=len(label), limit=max_text_length)
                )
            elif fmt == "det" and not label:
                warnings.append(problem(file, number, "det_empty"))


def _check_images(
    root: Path,
    fmt: str,
    present: dict[str, list[tuple[str, int, str, Any]]],
    decoded: dict[str, Any],
    errors: list[DatasetProblem],
    warnings: list[DatasetProblem],
) -> None:
    """What the decode found, at each line naming the image: too large, undecodable, boxes outside it
    (det); as warnings, a side under :data:`TINY_IMAGE` and a grayscale image among color ones (only
    when grayscale images are the fewer: a grayscale set is no problem)."""
    modes = Counter(
        "gray" if result[2] in GRAYSCALE_MODES else "color"
        for result in decoded.values()
        if isinstance(result, tuple)
    )
    odd_gray = 0 < modes["gray"] < modes["color"]
    total = modes["gray"] + modes["color"]
    for name, samples in present.items():
        file = root / f"{name}.txt"
        for path, number, rel, label in samples:
            result = decoded[path]
            if isinstance(result, TooLarge):
                size = f"{result.width}x{result.height}" if result.width else f"> {2 * MAX_PIXELS}"
                errors.append(
                    problem(file, number, "image_too_large", path=excerpt(rel), size=size, limit=MAX_PIXELS)
                )
                continue
            if isinstance(result, str):
                errors.append(problem(file, number, "bad_image", path=excerpt(rel), error=result))
                continue
            width, height, mode = result
            if min(width, height) < TINY_IMAGE:
                warnings.append(
                    problem(
                        file,
                        number,
                        "tiny_image",
                        path=excerpt(rel),
                        width=width,
                        height=height,
                        minimum=TINY_IMAGE,
                    )
                )
            if odd_gray and mode in GRAYSCALE_MODES:
                warnings.append(
                    problem(
                        file,
                        number,
                        "grayscale_image",
                        path=excerpt(rel),
                        mode=mode,
                        color=modes["color"],
                        total=total,
                    )
                )
            if fmt == "det":
                _check_polygons(file, number, label, (width, height), errors)


def _passing(
    root: Path, fmt: str, splits: dict[str, _Split], errors: list[DatasetProblem]
) -> dict[str, list[tuple[int, Any]]]:
    """Per split, ``(line, class id or None)`` of each sample no error names (see :class:`LintReport`)."""
    located: dict[str, set[int]] = {}
    if isinstance(errors, ProblemList):
        located = errors.located
    else:
        for found in errors:
            located.setdefault(found.file, set()).add(found.line)
    passing: dict[str, list[tuple[int, Any]]] = {}
    for name, split in splits.items():
        bad = located.get(str(root / f"{name}.txt"), set())
        passing[name] = [
            (number, label if fmt == "cls" else None)
            for (number, _), label in zip(split.records, split.labels, strict=True)
            if number not in bad
        ]
    return passing


def _decode(
    checker: ImageChecker,
    paths: list[str],
    present: dict[str, list[tuple[str, int, str, Any]]],
    progress: Progress | None,
) -> list[Any]:
    """Every image checked at the checker's level, then its pool closed. Besides those the level
    decodes, a sample is decoded in full (not at ``quick``): the first :data:`SAMPLE_PATHS` of each
    split (the ones ``check_dataset_result.json`` names, and PaddleX decodes) and one in
    :data:`DECODE_EVERY` of the rest, spread over the folders (``paths`` is sorted)."""
    sample: set[str] = set()
    if checker.level != QUICK:
        sample = {path for samples in present.values() for path, *_ in samples[:SAMPLE_PATHS]}
        sample.update(paths[::DECODE_EVERY])
    step = None if progress is None else (lambda done, total: progress("images", done, total))
    with checker:  # a stop signal on its way out never waits for the workers
        return checker.run(paths, decode=sample, progress=step)


# -- PaddleX's check_dataset_result.json ----------------------------------------------------------

DATASET_TYPES = {
    "cls": "ClsDataset",
    "rec": "MSTextRecDataset",
    "det": "TextDetDataset",
    "coco": "COCODetDataset",
}


PADDLEX_ERRORS = {
    "missing": "<class 'paddlex.utils.errors.dataset_checker.DatasetFileNotFoundError'>",
    "check": "<class 'paddlex.utils.errors.dataset_checker.CheckFailedError'>",
}
"""``err_type`` as PaddleX writes it (``str(type(exc))`` in ``paddlex.utils.result_saver``): a missing
file or folder, or any other failed check."""


def paddlex_result(report: LintReport, output_dir: Path) -> dict[str, Any]:
    """The document PaddleX 3's ``check_dataset`` writes, for the same data (paths relative to
    ``output_dir``, where PaddleX puts them): ``done_flag``, ``check_pass``, ``attributes``,
    ``analysis``, ``dataset_path``, ``show_type``, ``dataset_type``.

    A dataset with errors gets what PaddleX writes when its check raises (``save_result(False, …)``):
    ``done_flag`` false, ``err_type`` and ``err_msg`` (the first error and its fix, and how many more),
    nothing else.
    """
    if not report.ok:
        first = report.errors[0]
        missing = first.code in (
            "missing_dir",
            "missing_file",
            "missing_image",
            "coco_missing_file",
            "coco_missing_image",
        )
        message = t("dataset.paddlex.err_msg", error=str(first).split(" — ")[0], hint=first.hint or "-")
        if report.error_count > 1:
            message += "\n  " + t("cli.dataset.more", count=report.error_count - 1)
        return {
            "done_flag": False,
            "err_type": PADDLEX_ERRORS["missing" if missing else "check"],
            "err_msg": message,
        }
    attributes: dict[str, Any] = {}
    if report.format == "cls":
        attributes["label_file"] = os.path.relpath(report.root / "label.txt", output_dir)
    if report.format in ("cls", "coco"):
        attributes["num_classes"] = report.stats.get("num_classes") or 0
    counted = "samples" if report.format == "coco" else "lines"  # COCO: image entries, as PaddleX counts
    for split in SPLITS:
        attributes[f"{split}_samples"] = report.stats.get(counted, {}).get(split, 0)
        attributes[f"{split}_sample_paths"] = [
            os.path.relpath(path, output_dir) for path in report.sample_paths.get(split, [])
        ]
    return {
        "done_flag": True,
        "check_pass": report.ok,
        "attributes": attributes,
        "analysis": {"histogram": "check_dataset/histogram.png"},
        "dataset_path": str(report.root),
        "show_type": "image",
        "dataset_type": DATASET_TYPES[report.format],
    }


def write_paddlex_result(report: LintReport, output_dir: Path) -> Path:
    """Write ``check_dataset_result.json`` and (for a dataset that passed) ``check_dataset/histogram.png``
    into ``output_dir``."""
    import json

    output_dir.mkdir(parents=True, exist_ok=True)
    if report.ok:  # PaddleX draws nothing for a check that failed
        (output_dir / "check_dataset").mkdir(exist_ok=True)
        _histogram_png(report.stats.get("histogram") or report.stats.get("samples", {}), output_dir)
    target = output_dir / "check_dataset_result.json"
    target.write_text(json.dumps(paddlex_result(report, output_dir), indent=2, ensure_ascii=False) + "\n")
    return target


def _histogram_png(counts: dict[str, int], output_dir: Path) -> None:
    """A plain bar chart of samples per class (per split for rec/det), as PaddleX draws one."""
    from PIL import Image, ImageDraw

    bars = list(counts.items())[:200]
    width, height = max(200, 12 * len(bars) + 20), 160
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    top = max([count for _, count in bars] + [1])
    for index, (_, count) in enumerate(bars):
        x = 10 + 12 * index
        draw.rectangle([x, height - 10 - int(130 * count / top), x + 8, height - 10], fill=(70, 110, 200))
    image.save(output_dir / "check_dataset" / "histogram.png")


def report_text(report: LintReport, first: int = 5) -> str:
    """The report as plain lines for a panel: summary, then each code with its count and first
    offending lines (``file:line: problem — fix``), then the class histogram."""
    samples = sum(report.stats.get("samples", {}).values())
    lines = [
        t("dataset.panel.title", path=str(report.root), format=report.format),
        t(
            "dataset.panel.summary",
            errors=report.error_count,
            warnings=report.warning_count,
            samples=samples,
        ),
    ]
    for which in ("errors", "warnings"):
        for code, count, problems in report.groups(which, first):
            lines += ["", f"{code} ×{count}"]
            lines += [f"  {problem}" for problem in problems]
            if count > len(problems):
                lines.append("  " + t("cli.dataset.more", count=count - len(problems)))
    histogram = report.stats.get("histogram") or {}
    if histogram:
        lines += ["", t("cli.dataset.histogram")]
        lines += [f"  {name} {count}" for name, count in histogram.items()]
    return "\n".join(lines)
