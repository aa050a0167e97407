"""``dataset check`` on hostile or oversized input (issue #18, finding 12), through the command a user
types: an oversize list is refused unread, a long line is reported with an excerpt, a NUL byte and a
decompression bomb are located errors (exit 2, all problems at once, never a traceback), ``--fix`` /
``--sample`` / ``--output`` refuse an unusable folder and never write outside OUT, and list paths that
leave the dataset folder are warnings."""

from __future__ import annotations

import json
import os
import struct
import warnings
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from PIL import Image

from workbench.datasets.imagecheck import MAX_PIXELS
from workbench.datasets.layouts import KEEP_PER_CODE, MAX_LIST_BYTES, DatasetError, excerpt, read_cls_layout


def _img(root: Path, rel: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 8), "white").save(path)
    return path


def _cls(root: Path, train: str | bytes) -> Path:
    """A small classification set: images a-d, two classes, ``val.txt`` fine, ``train.txt`` as given."""
    for name in "abcd":
        _img(root, f"images/{name}.png")
    (root / "label.txt").write_text("0 cat\n1 dog\n", encoding="utf-8")
    (root / "val.txt").write_text("images/c.png 0\nimages/d.png 1\n", encoding="utf-8")
    target = root / "train.txt"
    if isinstance(train, bytes):
        target.write_bytes(train)
    else:
        target.write_text(train, encoding="utf-8")
    return root


def _check(tmp_path: Path, *args: str) -> Result:
    from workbench.cli.root import build_cli

    return CliRunner().invoke(
        build_cli(), ["--workspace", str(tmp_path / "ws"), "dataset", "check", *args, "--format", "cls"]
    )


def _png_header(width: int, height: int) -> bytes:
    """A PNG whose header names ``width`` x ``height`` pixels with almost no pixel data: what a
    decompression bomb looks like to ``Image.open`` (which reads the header only)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


def _no_traceback(result: Result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


def test_an_oversize_list_is_refused_unread_with_every_other_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over the default cap (a sparse file: no disk, no memory) the list is never opened; the rest of
    the dataset is still checked in the same run (val.txt's missing image), exit 2."""
    data = _cls(tmp_path / "ds", "")
    (data / "val.txt").write_text("images/c.png 0\nimages/gone.png 1\n", encoding="utf-8")
    with open(data / "train.txt", "wb") as handle:
        handle.truncate(MAX_LIST_BYTES + 1)
    opened: list[str] = []
    real_open = Path.open

    def counting_open(self: Path, *args: object, **kwargs: object) -> object:
        opened.append(self.name)
        return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", counting_open)
    result = _check(tmp_path, str(data))
    _no_traceback(result)
    assert result.exit_code == 2, result.output
    too_big = f"the file is {MAX_LIST_BYTES + 1} B, over the limit of {MAX_LIST_BYTES} B; not read"
    assert f"{data / 'train.txt'}: {too_big}" in result.output
    assert "--max-list-mb" in result.output  # the way out for a real set this big
    assert f"{data / 'val.txt'}:2: image 'images/gone.png' does not exist" in result.output
    assert "train.txt" not in opened


def test_max_list_mb_lowers_the_cap_and_json_says_refused(tmp_path: Path) -> None:
    lines = "".join(f"images/a.png {i % 2}\n" for i in range(80_000))  # ~1.2 MB of honest lines
    data = _cls(tmp_path / "ds", lines)
    result = _check(tmp_path, str(data), "--max-list-mb", "1", "--json")
    _no_traceback(result)
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    assert doc["refused"] is True and doc["ok"] is False
    assert [(Path(p["file"]).name, p["line"], p["code"]) for p in doc["errors"]] == [
        ("train.txt", 0, "file_too_large")
    ]
    assert _check(tmp_path, str(data), "--max-list-mb", "2").exit_code == 1  # duplicates, now read


def test_a_10_mb_line_is_located_and_echoed_as_an_excerpt(tmp_path: Path) -> None:
    data = _cls(tmp_path / "ds", "images/a.png 0\n" + "x" * 10_000_000 + " 1\nimages/gone.png 1\n")
    result = _check(tmp_path, str(data))
    _no_traceback(result)
    assert result.exit_code == 2, result.output[:2000]
    assert len(result.output) < 5000  # was the whole 10 MB line
    assert f"{data / 'train.txt'}:2: the line is 10000002 bytes, over the limit of 8192" in result.output
    assert "x" * 40 + "… (10000002 bytes)" in result.output
    assert f"{data / 'train.txt'}:3: image 'images/gone.png' does not exist" in result.output


def test_a_nul_byte_in_a_list_path_is_a_located_error(tmp_path: Path) -> None:
    data = _cls(tmp_path / "ds", b"images/a.png 0\nimages/b\x00.png 1\nimages/b.png 1\n")
    result = _check(tmp_path, str(data))
    _no_traceback(result)
    assert result.exit_code == 2, result.output
    assert f"{data / 'train.txt'}:2: the line has a NUL byte (at character 9); not read" in result.output


@pytest.mark.parametrize(
    ("width", "height", "size"),
    [(12_000, 12_000, "12000x12000"), (20_000, 20_000, f"> {2 * MAX_PIXELS}")],  # Pillow refuses 2x itself
)
def test_a_decompression_bomb_is_refused_before_decoding(
    tmp_path: Path, width: int, height: int, size: str
) -> None:
    data = _cls(tmp_path / "ds", "images/a.png 0\nimages/big.png 1\n")
    (data / "images" / "big.png").write_bytes(_png_header(width, height))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = _check(tmp_path, str(data), "--workers", "1")
    _no_traceback(result)
    assert result.exit_code == 2, result.output
    assert not [w for w in caught if "DecompressionBomb" in type(w.message).__name__]
    assert "DecompressionBomb" not in result.output
    assert (
        f"{data / 'train.txt'}:2: image 'images/big.png' is {size} pixels, over the limit of {MAX_PIXELS}; "
        "not decoded"
    ) in result.output
    assert "bad_image" not in result.output  # never decoded: its missing pixel data was never read


def test_unusable_output_folders_are_refused_together_before_reading(tmp_path: Path) -> None:
    data = _cls(tmp_path / "ds", "images/a.png 0\nimages/b.png 1\n")
    afile = tmp_path / "afile"
    afile.write_text("keep me\n", encoding="utf-8")
    result = _check(
        tmp_path, str(data), "--fix", str(afile), "--sample", "2", str(afile / "sub"), "--output", str(afile)
    )
    _no_traceback(result)
    assert result.exit_code == 2, result.output
    for option, path in (("--fix", afile), ("--sample", afile / "sub"), ("--output", afile)):
        assert f"{option} {path} is a file, or lies under one; choose a new folder" in result.output
    assert afile.read_text(encoding="utf-8") == "keep me\n"
    assert not (tmp_path / "ws" / "dataset_checks").exists()  # refused before the dataset was read


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _escaping_dataset(tmp_path: Path) -> Path:
    """``../escape/x.png``, an absolute path, a symlinked image and folder out of the dataset, and a
    symlink that stays inside."""
    _img(tmp_path, "escape/x.png")
    _img(tmp_path, "elsewhere/y.png")
    data = _cls(tmp_path / "ds", "")
    os.symlink(tmp_path / "escape" / "x.png", data / "images" / "link.png")
    os.symlink(tmp_path / "elsewhere", data / "more")
    os.symlink("a.png", data / "images" / "alias.png")
    lines = [
        "images/a.png 0",
        "../escape/x.png 1",  # 2
        "images/link.png 0",  # 3
        "more/y.png 1",  # 4
        "images/alias.png 1",  # 5: inside, no warning
        "images/b.png 1",
        "images/../../escape/x.png 0",  # 7
    ]
    (data / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return data


def test_paths_that_leave_the_dataset_are_located_warnings(tmp_path: Path) -> None:
    data = _escaping_dataset(tmp_path)
    result = _check(tmp_path, str(data), "--json")
    _no_traceback(result)
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and doc["errors"] == []  # a set PaddleX reads is not broken
    outside = {(Path(w["file"]).name, w["line"]) for w in doc["warnings"] if w["code"] == "outside_dataset"}
    assert outside == {("train.txt", 2), ("train.txt", 3), ("train.txt", 4), ("train.txt", 7)}
    [first] = [w for w in doc["warnings"] if w["code"] == "outside_dataset" and w["line"] == 2]
    assert first["message"] == (
        # The path as the check shows it: cut to an excerpt when tmp is deep (as under xdist).
        f"image '../escape/x.png' is outside the dataset folder ({excerpt(os.path.realpath(tmp_path / 'escape' / 'x.png'))})"
    )


def test_sample_and_fix_never_write_outside_out(tmp_path: Path) -> None:
    data = _escaping_dataset(tmp_path)
    (data / "train.txt").write_text(
        (data / "train.txt").read_text(encoding="utf-8") + f"{tmp_path / 'escape' / 'x.png'} 1\n",
        encoding="utf-8",
    )
    outs = tmp_path / "outs"
    outs.mkdir()
    before = _tree(tmp_path)
    result = _check(tmp_path, str(data), "--sample", "20", str(outs / "sample"), "--fix", str(outs / "fixed"))
    _no_traceback(result)
    assert result.exit_code == 0, result.output  # the absolute path is a warning; it is not sampled
    written = _tree(tmp_path) - before
    assert written and all(
        p.startswith(("outs/sample", "outs/fixed", "ws")) or p == "outs" for p in written
    ), sorted(written)
    assert not (outs / "escape").exists() and not (tmp_path / "escape" / "x.png.tmp").exists()
    sampled = (outs / "sample" / "train.txt").read_text(encoding="utf-8").splitlines()
    assert "../escape/x.png 1" not in sampled and "images/../../escape/x.png 0" not in sampled
    assert "images/a.png 0" in sampled and "images/link.png 0" in sampled  # a symlink's image is copied
    assert (outs / "sample" / "images" / "link.png").is_file()
    assert not (outs / "sample" / "images" / "link.png").is_symlink()


def test_fix_copies_only_regular_files(tmp_path: Path) -> None:
    """A device behind a symlink in the dataset would be copied forever; a FIFO would block."""
    data = _cls(tmp_path / "ds", "images/a.png 0\nimages/b.png 1\n")
    os.symlink("/dev/zero", data / "images" / "zero.png")
    os.mkfifo(data / "images" / "pipe.png")
    result = _check(tmp_path, str(data), "--fix", str(tmp_path / "fixed"))
    _no_traceback(result)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "fixed" / "images" / "a.png").is_file()
    assert not (tmp_path / "fixed" / "images" / "zero.png").exists()
    assert not (tmp_path / "fixed" / "images" / "pipe.png").exists()


def test_a_million_problems_keep_a_bounded_report_but_every_count(tmp_path: Path) -> None:
    """Problems of one code past KEEP_PER_CODE are counted, not kept: memory stays bounded."""
    count = KEEP_PER_CODE + 500
    data = _cls(tmp_path / "ds", "".join(f"images/gone_{i}.png {i % 2}\n" for i in range(count)))
    result = _check(tmp_path, str(data), "--json")
    doc = json.loads(result.stdout)
    assert result.exit_code == 1
    assert doc["error_counts"] == {"missing_image": count}
    assert len(doc["errors"]) == KEEP_PER_CODE
    assert f"missing_image ×{count}" in result.stderr
    assert f"{count} errors in" in result.stderr


def test_training_refuses_an_over_long_line_located(tmp_path: Path) -> None:
    data = _cls(tmp_path / "ds", "images/a.png 0\n" + "y" * 100_000 + " 1\n")
    with pytest.raises(DatasetError) as caught:
        read_cls_layout(data)
    [problem] = caught.value.problems
    assert (Path(problem.file).name, problem.line, problem.code) == ("train.txt", 2, "line_too_long")
    assert len(str(problem)) < 500
