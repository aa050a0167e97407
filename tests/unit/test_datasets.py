"""Demo dataset generators (deterministic, right layouts) and the layout readers' error reports."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from PIL import Image

from workbench.datasets import (
    REC_CHARSET,
    DatasetError,
    generate_cls_demo,
    generate_rec_demo,
    read_cls_layout,
    read_rec_layout,
)


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def cls_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_cls_demo(tmp_path_factory.mktemp("cls") / "data", n_train=40, n_val=10, seed=3)


@pytest.fixture(scope="module")
def rec_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_rec_demo(tmp_path_factory.mktemp("rec") / "data", n_train=30, n_val=8, seed=3)


def test_cls_demo_has_the_paddlex_layout(cls_dir: Path) -> None:
    labels = (cls_dir / "label.txt").read_text(encoding="utf-8").splitlines()
    assert labels[:2] == ["0 zero", "1 one"] and len(labels) == 10
    train = (cls_dir / "train.txt").read_text(encoding="utf-8").splitlines()
    val = (cls_dir / "val.txt").read_text(encoding="utf-8").splitlines()
    assert len(train) == 40 and len(val) == 10
    for line in train + val:
        rel, label = line.split(" ")  # exactly one space, two fields
        assert rel.startswith("images/") and 0 <= int(label) < 10
        with Image.open(cls_dir / rel) as img:
            assert img.size == (32, 32) and img.mode == "RGB"
    # Balanced classes: 50 images, 10 classes.
    counts = [sum(1 for line in train + val if line.endswith(f" {k}")) for k in range(10)]
    assert counts == [5] * 10
    layout = read_cls_layout(cls_dir)
    assert layout.num_classes == 10 and len(layout.samples["train"]) == 40


def test_rec_demo_has_the_paddleocr_layout(rec_dir: Path) -> None:
    charset = (rec_dir / "dict.txt").read_text(encoding="utf-8").splitlines()
    assert charset == list(REC_CHARSET)
    lines = (rec_dir / "train.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 30
    for line in lines:
        rel, text = line.split("\t")
        assert 3 <= len(text) <= 6 and set(text) <= set(REC_CHARSET)
        with Image.open(rec_dir / rel) as img:
            assert img.size == (100, 32)  # w x h
    layout = read_rec_layout(rec_dir)
    assert layout.max_text_length <= 6 and len(layout.samples["val"]) == 8


def test_generation_is_deterministic(tmp_path: Path, cls_dir: Path) -> None:
    again = generate_cls_demo(tmp_path / "again", n_train=40, n_val=10, seed=3)
    assert _digest(again) == _digest(cls_dir)
    other = generate_cls_demo(tmp_path / "other", n_train=40, n_val=10, seed=4)
    assert _digest(other) != _digest(cls_dir)


def test_generation_refuses_to_overwrite_and_leaves_no_work_folder(tmp_path: Path) -> None:
    target = tmp_path / "data"
    target.mkdir()
    with pytest.raises(FileExistsError):
        generate_rec_demo(target, n_train=2, n_val=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


def _write(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(text, encoding="utf-8")


def test_cls_reader_reports_every_bad_line_with_its_location(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    Image.new("RGB", (32, 32)).save(tmp_path / "images" / "a.png")
    _write(tmp_path, "label.txt", "0 cat\n1 dog\nthree\n")
    _write(
        tmp_path,
        "train.txt",
        "images/a.png 0\nimages/a.png  1\nimages/a.png\t1\nimages/a.png x\nimages/a.png 7\nimages/missing.png 1\n",
    )
    _write(tmp_path, "val.txt", "images/a.png 1\n")
    with pytest.raises(DatasetError) as caught:
        read_cls_layout(tmp_path)
    found = {(Path(p.file).name, p.line, p.code) for p in caught.value.problems}
    assert found == {
        ("label.txt", 3, "bad_fields"),
        ("train.txt", 2, "separator"),  # two spaces
        ("train.txt", 3, "separator"),  # a tab
        ("train.txt", 4, "bad_label"),
        ("train.txt", 5, "label_range"),
        ("train.txt", 6, "missing_image"),
    }
    assert f"{tmp_path / 'train.txt'}:6: image 'images/missing.png' does not exist" in str(caught.value)


def test_rec_reader_reports_bad_lines_and_unknown_characters(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    Image.new("RGB", (100, 32)).save(tmp_path / "images" / "a.png")
    _write(tmp_path, "dict.txt", "a\nb\nab\na\n")
    _write(tmp_path, "train.txt", "images/a.png\tab\nimages/a.png ab\nimages/a.png\tabz\n")
    with pytest.raises(DatasetError) as caught:
        read_rec_layout(tmp_path)
    found = {(Path(p.file).name, p.line, p.code) for p in caught.value.problems}
    assert found == {
        ("dict.txt", 3, "not_single_char"),
        ("dict.txt", 4, "duplicate_char"),
        ("train.txt", 2, "separator"),
        ("train.txt", 3, "unknown_char"),
        ("val.txt", 0, "missing_file"),
    }


def test_missing_folder_is_one_clear_problem(tmp_path: Path) -> None:
    with pytest.raises(DatasetError) as caught:
        read_cls_layout(tmp_path / "nope")
    [problem] = caught.value.problems
    assert problem.code == "missing_dir" and "data.demo" in problem.hint


def test_paddle_readers_decode_and_encode(
    cls_dir: Path, rec_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # a first `import paddle` makes ~/.cache/paddle
    pytest.importorskip("paddle")
    from workbench.datasets.readers import cls_dataset, rec_dataset

    train = cls_dataset(cls_dir, "train")
    image, label = train[0]
    assert len(train) == 40 and image.shape == (3, 32, 32) and image.dtype.name == "float32"
    assert float(image.min()) >= -1.0 and float(image.max()) <= 1.0 and label.dtype.name == "int64"
    rec = rec_dataset(rec_dir, "val")
    image, ids, length = rec[0]
    assert image.shape == (1, 32, 100) and ids.dtype.name == "int32"
    text = rec.texts[0]
    assert int(length) == len(text)
    assert [rec.charset[i - 1] for i in ids[: int(length)]] == list(text)  # 0 is the CTC blank
