"""Safe repairs and small samples of a dataset, always written to a new folder (the original is never
touched).

* :func:`fix_dataset` copies a dataset with the fixes that cannot change its meaning: separators (a tab
  or several spaces where one space belongs; spaces where a tab belongs), CRLF line ends and a BOM,
  backslashes in paths, and exact duplicate lines. Everything else stays for a person to decide.
* :func:`sample_dataset` writes a small stratified split (every class keeps its share, at least one
  sample each) — the "train on a small sample first" step.

Images are hard-linked into the copy where the file system allows it (no extra space), else copied.
"""

from __future__ import annotations

import os
import random
import shutil
from collections import defaultdict
from pathlib import Path

from workbench.datasets.layouts import SPLITS


class OutputExists(Exception):
    """The output folder exists and is not empty, or is the dataset itself."""


def _prepare_output(root: Path, out: Path) -> None:
    if out.resolve() == root.resolve() or root.resolve() in out.resolve().parents:
        raise OutputExists(str(out))
    if out.exists() and any(out.iterdir()):
        raise OutputExists(str(out))
    out.mkdir(parents=True, exist_ok=True)


def _link_or_copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        return
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _fix_list_line(line: str, fmt: str) -> tuple[str, list[str]]:
    """One list line with the safe fixes applied, and the fix codes used."""
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
    return path + sep + rest, used


def fix_dataset(root: str | Path, fmt: str, out: str | Path) -> dict[str, int]:
    """Write a fixed copy of ``root`` to ``out``; return how many fixes of each kind were made."""
    base, target = Path(root), Path(out)
    _prepare_output(base, target)
    counts: dict[str, int] = defaultdict(int)
    lists = {f"{split}.txt" for split in SPLITS}
    for source in sorted(base.rglob("*")):
        rel = source.relative_to(base)
        if source.is_dir() or rel.parts[0] == "check_dataset":
            continue
        if source.name.endswith(".txt") and len(rel.parts) == 1:
            data = source.read_bytes()
            if data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
                counts["bom"] += 1
            if b"\r\n" in data:
                counts["crlf"] += data.count(b"\r\n")
                data = data.replace(b"\r\n", b"\n")
            if source.name in lists:
                text = data.decode("utf-8", errors="surrogateescape")
                kept: list[str] = []
                seen: set[str] = set()
                for line in text.split("\n"):
                    if line.strip():
                        line, used = _fix_list_line(line, fmt)
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


def sample_dataset(root: str | Path, fmt: str, n: int, out: str | Path, *, seed: int = 0) -> dict[str, int]:
    """Write ``n`` training samples (and ``max(1, n // 4)`` validation ones), stratified by class for
    ``cls``, with the images they use, to ``out``. Returns the sample counts per split."""
    base, target = Path(root), Path(out)
    _prepare_output(base, target)
    rng = random.Random(seed)
    wanted = {"train": n, "val": max(1, n // 4)}
    written: dict[str, int] = {}
    for name in ("label.txt", "dict.txt"):
        if (base / name).is_file():
            shutil.copy2(base / name, target / name)
    separator = " " if fmt == "cls" else "\t"
    for split in SPLITS:
        file = base / f"{split}.txt"
        lines = (
            [ln for ln in file.read_text(encoding="utf-8-sig").splitlines() if ln.strip()]
            if file.is_file()
            else []
        )
        groups: dict[str, list[str]] = defaultdict(list)
        for line in lines:
            key = line.rsplit(separator, 1)[-1] if fmt == "cls" else ""
            groups[key].append(line)
        chosen: list[str] = []
        total = len(lines)
        for _, members in sorted(groups.items()):
            share = max(1, round(wanted[split] * len(members) / max(total, 1)))
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
        (target / f"{split}.txt").write_text("".join(f"{line}\n" for line in chosen), encoding="utf-8")
        written[split] = len(chosen)
    return written
