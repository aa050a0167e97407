"""Safe repairs and small samples of a dataset, always written to a new folder (the original is never
touched).

* :func:`fix_dataset` copies a dataset with the fixes that cannot change its meaning: separators (a tab
  or several spaces where one space belongs; spaces where a tab belongs), CRLF line ends and a BOM,
  invisible characters Paddle does not split lines at (:data:`~workbench.datasets.layouts.ODD_CHARS`),
  backslashes in paths, absolute paths to files inside the dataset (made relative), and exact duplicate
  lines. Everything else stays for a person to decide.
* :func:`sample_dataset` writes a small stratified split from the lines the linter passed (every valid
  class keeps its share, at least one sample each) — the "train on a small sample first" step.

Images are hard-linked into the copy where the file system allows it (no extra space), else copied.

**Nothing is written outside OUT.** OUT must be a folder that does not exist yet or is empty, not the
dataset nor inside it (:func:`output_problem`); every file written is checked to resolve inside OUT, so a
list line such as ``../escape/x.png`` is left out of a sample instead of landing beside OUT. Only regular
files are copied (a FIFO or a device in the dataset would block or never end), and the lists are read
within the linter's size bound (:data:`~workbench.datasets.layouts.MAX_LIST_BYTES`).
"""

from __future__ import annotations

import os
import random
import shutil
import stat
from collections import defaultdict
from pathlib import Path
from typing import Any

from workbench.datasets.layouts import (
    MAX_LIST_BYTES,
    ODD_CHARS,
    SPLITS,
    Containment,
    DatasetError,
    DatasetProblem,
    read_bounded,
    split_lines,
)


class OutputExists(Exception):
    """The output folder cannot be used; ``str(exc)`` is its path and ``reason`` says why:
    ``not_empty`` (it exists with something in it), ``inside`` (it is the dataset or inside it),
    ``not_dir`` (it is a file, or lies under one) or ``unusable`` (it cannot be created: ``error``)."""

    def __init__(self, path: Path, reason: str, error: str = "") -> None:
        super().__init__(str(path))
        self.reason = reason
        self.error = error


def output_problem(root: Path, out: Path) -> str | None:
    """Why ``out`` cannot take a fixed copy or a sample of the dataset ``root`` (an
    :class:`OutputExists` reason), or ``None`` when it can: checked before anything is read."""
    real_out, real_root = Path(os.path.realpath(out)), Path(os.path.realpath(root))
    if real_out == real_root or real_root in real_out.parents:
        return "inside"
    if not_a_folder(out):
        return "not_dir"
    if out.exists():
        try:
            return "not_empty" if any(out.iterdir()) else None
        except OSError:
            return "unusable"
    return None


def not_a_folder(out: Path) -> bool:
    """Whether ``out`` exists as something other than a folder, or would have to be made under a file."""
    if out.exists() or out.is_symlink():
        return not out.is_dir()
    for parent in out.parents:  # the nearest one that exists must be a folder
        if parent.exists():
            return not parent.is_dir()
    return False


def _prepare_output(root: Path, out: Path) -> None:
    reason = output_problem(root, out)
    if reason is not None:
        raise OutputExists(out, reason)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputExists(out, "unusable", exc.strerror or type(exc).__name__) from None


def _inside_output(out: Containment, target: Path) -> bool:
    """Whether writing ``target`` writes inside the output folder (``..`` and symlinks resolved)."""
    return out.inside(out.resolve(str(target), target.is_symlink()))


def _link_or_copy(source: Path, target: Path) -> None:
    """Hard-link (else copy) the file ``source`` names to ``target``; anything but a regular file is
    left out. A symlink is followed (``os.link`` would link the symlink itself, and OUT would then hold
    a link pointing out of it)."""
    try:
        real = os.path.realpath(source)
        if not stat.S_ISREG(os.stat(real).st_mode):
            return
    except (OSError, ValueError):
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists() or target.is_symlink():
        return
    try:
        os.link(real, target)
    except OSError:
        shutil.copy2(real, target)


def _read_list(file: Path, limit: int) -> bytes:
    """A list or label file's bytes within ``limit``; :class:`DatasetError` when it cannot be read."""
    problems: list[DatasetProblem] = []
    data = read_bounded(file, problems, limit)
    if data is None:
        raise DatasetError(problems)
    return data


def _fix_list_line(line: str, fmt: str, root: Containment) -> tuple[str, list[str]]:
    """One list line with the safe fixes applied, and the fix codes used. ``root``: the dataset folder,
    for an absolute path to a file inside it (made relative)."""
    used: list[str] = []
    if fmt == "cls":
        parts = line.split()
        if len(parts) == 2 and line != f"{parts[0]} {parts[1]}":
            line = f"{parts[0]} {parts[1]}"
            used.append("separator")
        path, sep, rest = line.partition(" ")
    else:
        if "\t" not in line and " " in line.strip():
            head, _, tail = line.strip().partition(" ")
            line = f"{head}\t{tail.lstrip(' ')}"
            used.append("separator")
        path, sep, rest = line.partition("\t")
    if "\\" in path:
        path = path.replace("\\", "/")
        used.append("backslash")
    if os.path.isabs(path):
        real = root.resolve(path, False)
        if root.inside(real) and os.path.isfile(path):
            path = os.path.relpath(path, root.root)
            used.append("absolute_path")
    return path + sep + rest, used


def _without_odd(text: str) -> tuple[str, int]:
    """``text`` without :data:`~workbench.datasets.layouts.ODD_CHARS`, and how many were taken out."""
    count = sum(text.count(char) for char in ODD_CHARS)
    if count:
        for char in ODD_CHARS:
            text = text.replace(char, "")
    return text, count


def fix_dataset(
    root: str | Path, fmt: str, out: str | Path, *, max_list_bytes: int = MAX_LIST_BYTES
) -> dict[str, int]:
    """Write a fixed copy of ``root`` to ``out``; return how many fixes of each kind were made.

    Raises :class:`OutputExists` for an unusable ``out`` and :class:`DatasetError` for a top-level text
    file over ``max_list_bytes`` (checked before anything is written).
    """
    base, target = Path(root), Path(out)
    reason = output_problem(base, target)
    if reason is not None:
        raise OutputExists(target, reason)
    texts = [f for f in sorted(base.glob("*.txt")) if f.is_file()]
    over = [problem for f in texts for problem in _size_problems(f, max_list_bytes)]
    if over:
        raise DatasetError(over)
    _prepare_output(base, target)
    inside, source_root = Containment(target), Containment(base)
    counts: dict[str, int] = defaultdict(int)
    lists = {f"{split}.txt" for split in SPLITS}
    for source in sorted(base.rglob("*")):
        rel = source.relative_to(base)
        if source.is_dir() or rel.parts[0] == "check_dataset" or not _inside_output(inside, target / rel):
            continue
        if source.name.endswith(".txt") and len(rel.parts) == 1:
            data = _read_list(source, max_list_bytes)
            if data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
                counts["bom"] += 1
            if b"\r\n" in data:
                counts["crlf"] += data.count(b"\r\n")
                data = data.replace(b"\r\n", b"\n")
            text, odd = _without_odd(data.decode("utf-8", errors="surrogateescape"))
            if odd:
                counts["odd_char"] += odd
                data = text.encode("utf-8", errors="surrogateescape")
            if source.name in lists:
                kept: list[str] = []
                seen: set[str] = set()
                for line in text.split("\n"):
                    if line.strip():
                        line, used = _fix_list_line(line, fmt, source_root)
                        for code in used:
                            counts[code] += 1
                        if line in seen:
                            counts["duplicate_line"] += 1
                            continue
                        seen.add(line)
                    kept.append(line)
                data = "\n".join(kept).encode("utf-8", errors="surrogateescape")
            (target / rel).write_bytes(data)
        else:
            _link_or_copy(source, target / rel)
    # Paths fixed from backslashes name files that exist under their forward-slash name already.
    return dict(counts)


def _size_problems(file: Path, limit: int) -> list[DatasetProblem]:
    """A ``file_too_large`` problem when ``file`` is over ``limit`` (by its size: nothing is read)."""
    problems: list[DatasetProblem] = []
    try:
        if file.stat().st_size > limit:
            read_bounded(file, problems, limit)  # the same problem the linter reports; reads nothing
    except OSError:
        pass
    return problems


def sample_dataset(
    root: str | Path,
    fmt: str,
    n: int,
    out: str | Path,
    *,
    seed: int = 0,
    max_list_bytes: int = MAX_LIST_BYTES,
    passing: dict[str, list[tuple[int, Any]]] | None = None,
) -> dict[str, int]:
    """Write ``n`` training samples (and ``max(1, n // 4)`` validation ones), stratified by class for
    ``cls``, with the images they use, to ``out``. Returns the sample counts per split.

    Only lines that pass are taken: ``passing`` is the linter's
    (:attr:`~workbench.datasets.lint.LintReport.passing`, line and class id of each line with no error);
    without it the dataset is linted here. A line whose image would land outside ``out`` (``../x.png``,
    an absolute path) is never sampled: the sample holds its own images at the paths its lists name.
    Lines are written as Paddle reads them: no BOM, no CR.
    """
    base, target = Path(root), Path(out)
    if passing is None:
        from workbench.datasets.lint import lint_dataset

        passing = lint_dataset(base, fmt, max_list_bytes=max_list_bytes).passing
    _prepare_output(base, target)
    inside = Containment(target)
    rng = random.Random(seed)
    wanted = {"train": n, "val": max(1, n // 4)}
    written: dict[str, int] = {}
    for name in ("label.txt", "dict.txt"):
        if (base / name).is_file():
            data = _read_list(base / name, max_list_bytes).removeprefix(b"\xef\xbb\xbf")
            (target / name).write_bytes(data.replace(b"\r\n", b"\n"))
    separator = " " if fmt == "cls" else "\t"
    for split in SPLITS:
        file = base / f"{split}.txt"
        ok = dict(passing.get(split, []))
        text = "" if not ok else _read_list(file, max_list_bytes).decode("utf-8", errors="surrogateescape")
        groups: dict[Any, list[str]] = defaultdict(list)
        for number, line in enumerate(split_lines(text.removeprefix("\ufeff")), start=1):
            if number in ok and _inside_output(inside, target / line.split(separator, 1)[0]):
                groups[ok[number]].append(line)
        lines = [line for members in groups.values() for line in members]
        chosen: list[str] = []
        for _, members in sorted(groups.items(), key=lambda item: str(item[0])):
            share = max(1, round(wanted[split] * len(members) / max(len(lines), 1)))
            chosen.extend(rng.sample(members, min(share, len(members))))
        taken = set(chosen)
        rest = [line for line in lines if line not in taken]
        chosen.extend(rng.sample(rest, min(len(rest), max(0, wanted[split] - len(chosen)))))
        rng.shuffle(chosen)
        chosen = chosen[: max(wanted[split], len(groups) if fmt == "cls" else 0)]
        for line in chosen:
            rel = line.split(separator, 1)[0]
            if (base / rel).is_file():
                _link_or_copy(base / rel, target / rel)
        text = "".join(f"{line}\n" for line in chosen)
        (target / f"{split}.txt").write_bytes(text.encode("utf-8", errors="surrogateescape"))
        written[split] = len(chosen)
    return written
