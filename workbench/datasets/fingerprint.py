"""A dataset's fingerprint: which data a run trained on, recorded in ``run.yaml`` and re-checked by ``verify``.

One sha256 over every file under the dataset folder, in path order: list files (``*.txt``, ``*.json``,
``*.jsonl``, ``*.tsv``, ``*.csv`` — small, and where a relabelled line hides) by their content, every
other file (images) by its relative path, size and modification time. Hashing images by content would
cost seconds per run on a large set; size and mtime catch a replaced or re-rendered image all the same.
Two fingerprints are equal exactly when the lists are byte-identical and no image changed size or time.

``samples`` counts the non-blank lines of the split lists at the top of the folder (``train.txt``,
``val.txt``, ``test.txt`` — the layout every supported format shares), from the bytes already read for
the digest: how many samples each split had, without opening an image.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

LIST_SUFFIXES = frozenset({".txt", ".json", ".jsonl", ".tsv", ".csv"})
SPLIT_LISTS = {"train.txt": "train", "val.txt": "val", "test.txt": "test"}


def dataset_fingerprint(root: str | os.PathLike[str]) -> dict[str, Any]:
    """``{"sha256", "files", "lists", "bytes", "samples": {split: lines}}`` for the folder ``root`` (links are not followed).

    Raises ``OSError`` when ``root`` is not a readable folder.
    """
    base = Path(root)
    if not base.is_dir():
        raise NotADirectoryError(f"{base}: not a folder")
    digest = hashlib.sha256()
    files = lists = total = 0
    samples: dict[str, int] = {}
    for folder, dirs, names in os.walk(base):
        dirs.sort()
        for name in sorted(names):
            path = Path(folder, name)
            rel = path.relative_to(base).as_posix()
            try:
                st = path.lstat()
            except OSError:
                continue
            files += 1
            total += st.st_size
            if path.suffix.lower() in LIST_SUFFIXES:
                lists += 1
                digest.update(f"L {rel} ".encode())
                data = path.read_bytes()
                digest.update(hashlib.sha256(data).digest())
                if rel in SPLIT_LISTS:
                    samples[SPLIT_LISTS[rel]] = sum(1 for line in data.splitlines() if line.strip())
            else:
                digest.update(f"F {rel} {st.st_size} {st.st_mtime_ns}\n".encode())
    return {"sha256": digest.hexdigest(), "files": files, "lists": lists, "bytes": total, "samples": samples}
