"""The dataset linter: a corpus of broken datasets (one problem per line) found in one run, file and
line right; clean datasets pass; PaddleX's check_dataset_result.json; --fix and --sample; the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from workbench.datasets import generate_cls_demo, generate_rec_demo
from workbench.datasets.fix import fix_dataset, sample_dataset
from workbench.datasets.lint import lint_dataset, paddlex_result, write_paddlex_result


def _img(root: Path, rel: str, size: tuple[int, int] = (32, 32)) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, "white").save(path)


def _found(report: object) -> set[tuple[str, int, str]]:
    return {(Path(p.file).name, p.line, p.code) for p in report.errors}  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def cls_clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_cls_demo(tmp_path_factory.mktemp("lint") / "cls", n_train=40, n_val=10, seed=5)


@pytest.fixture(scope="module")
def rec_clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_rec_demo(tmp_path_factory.mktemp("lint") / "rec", n_train=20, n_val=10, seed=5)


def test_clean_datasets_are_ok_with_zero_errors(cls_clean: Path, rec_clean: Path) -> None:
    for root, fmt in ((cls_clean, "cls"), (rec_clean, "rec")):
        report = lint_dataset(root, "auto")
        assert report.format == fmt and report.guessed
        assert report.ok and report.errors == []
        assert report.stats["images_checked"] == (50 if fmt == "cls" else 30)
        assert report.stats["image_check"] == "standard"
    assert lint_dataset(cls_clean, "cls").stats["histogram"]["zero"] == 5


def _broken_cls(root: Path) -> None:
    for name in ("a", "b", "c", "d", "v"):
        _img(root, f"images/{name}.png")
    (root / "images" / "empty.png").write_bytes(b"")
    (root / "images" / "trunc.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    _img(root, "images/with space.png")
    (root / "label.txt").write_text("0 cat\n1 dog\n3 bird\n", encoding="utf-8")  # id 2 missing
    lines = [
        "images/a.png 0",  # 1 ok
        "images/a.png\t1",  # 2 tab
        "images/a.png  1",  # 3 two spaces
        "images/a.png",  # 4 one field
        "images/with space.png 1",  # 5 space in path
        "images\\b.png 1",  # 6 backslash
        "/abs/c.png 0",  # 7 absolute
        "images/missing.png 0",  # 8 missing image
        "images/empty.png 0",  # 9 zero-size
        "images/trunc.png 0",  # 10 cannot decode
        "images/c.png x",  # 11 not an int
        "images/c.png -1",  # 12 negative
        "images/c.png 9",  # 13 >= classes
        "images/a.png 0",  # 14 duplicate of 1
        "images/d.png 1 ",  # 15 trailing whitespace
        "images/v.png 1",  # 16 also in val
    ]
    (root / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "val.txt").write_bytes(b"\xef\xbb\xbfimages/b.png 0\r\nimages/v.png 1\r\nimages/c.png \xff0\r\n")


def test_broken_cls_every_problem_in_one_run(tmp_path: Path) -> None:
    _broken_cls(tmp_path)
    report = lint_dataset(tmp_path, "cls")
    found = _found(report)
    expected = {
        ("label.txt", 0, "id_gap"),
        ("train.txt", 2, "separator"),
        ("train.txt", 3, "separator"),
        ("train.txt", 4, "bad_fields"),
        ("train.txt", 5, "path_space"),
        ("train.txt", 6, "backslash"),
        ("train.txt", 7, "missing_image"),  # absolute: read as written, and not there
        ("train.txt", 8, "missing_image"),
        ("train.txt", 9, "empty_image"),
        ("train.txt", 10, "bad_image"),
        ("train.txt", 11, "bad_label"),
        ("train.txt", 12, "label_range"),
        ("train.txt", 13, "label_range"),
        ("train.txt", 14, "duplicate_line"),
        ("train.txt", 15, "trailing_whitespace"),
        ("val.txt", 1, "bom"),
        ("val.txt", 2, "train_val_overlap"),
        ("val.txt", 3, "not_utf8"),
    }
    assert expected <= found, expected - found
    problem = next(p for p in report.errors if p.code == "missing_image" and p.line == 8)
    assert str(problem) == (
        f"{tmp_path / 'train.txt'}:8: image 'images/missing.png' does not exist — "
        "paths are relative to the dataset folder"
    )
    groups = {code: count for code, count, _ in report.groups()}
    assert groups["separator"] == 2 and groups["label_range"] == 2
    # Warnings: class 'bird' (id 3 -> not reached) ... the unused class and the tiny val split.
    warned = {(Path(p.file).name, p.line, p.code) for p in report.warnings}
    assert {("val.txt", 0, "tiny_split"), ("val.txt", 1, "crlf"), ("train.txt", 7, "absolute_path")} <= warned


def test_unused_class_and_imbalance_are_warnings_with_the_histogram(tmp_path: Path) -> None:
    _img(tmp_path, "i.png")
    (tmp_path / "label.txt").write_text("0 common\n1 rare\n2 never\n", encoding="utf-8")
    train = [f"c{i}.png 0" for i in range(22)] + ["r.png 1"]
    for line in train:
        _img(tmp_path, line.split()[0])
    (tmp_path / "train.txt").write_text("\n".join(train) + "\n", encoding="utf-8")
    (tmp_path / "val.txt").write_text("i.png 0\n", encoding="utf-8")
    report = lint_dataset(tmp_path, "cls")
    assert report.ok
    warned = {(Path(p.file).name, p.line, p.code) for p in report.warnings}
    assert warned == {
        ("label.txt", 3, "unused_class"),
        ("train.txt", 0, "class_imbalance"),
        ("val.txt", 0, "tiny_split"),
    }
    assert report.stats["histogram"] == {"common": 23, "rare": 1, "never": 0}


def test_broken_rec_every_problem_in_one_run(tmp_path: Path) -> None:
    for name in ("a", "b"):
        _img(tmp_path, f"img/{name}.png", (100, 32))
    (tmp_path / "dict.txt").write_text("a\nb\nc\n", encoding="utf-8")
    lines = ["img/a.png\tab", "img/a.png ab", "img/b.png\t", "img/b.png\tabz", "img/b.png\tcab "]
    (tmp_path / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "val.txt").write_text("img/b.png\tba\n", encoding="utf-8")
    report = lint_dataset(tmp_path, "rec")
    assert _found(report) >= {
        ("train.txt", 2, "separator"),
        ("train.txt", 3, "empty_label"),
        ("train.txt", 4, "unknown_char"),
        ("train.txt", 5, "unknown_char"),  # the trailing space is not in dict.txt
    }
    assert ("train.txt", 5, "trailing_whitespace_text") in {
        (Path(p.file).name, p.line, p.code) for p in report.warnings
    }


def test_broken_det_every_problem_in_one_run(tmp_path: Path) -> None:
    for name in ("a", "b", "d", "e"):
        _img(tmp_path, f"images/{name}.jpg", (100, 50))
    good = '[{"transcription": "hi", "points": [[1, 1], [40, 1], [40, 20], [1, 20]]}]'
    lines = [
        f"images/a.jpg\t{good}",
        "images/a.jpg\t[{not json",
        'images/b.jpg\t[{"transcription": "x", "points": [[1, 1], [4, 1], [4, 4]]}]',
        'images/d.jpg\t[{"transcription": "x", "points": [[1, 1], [1, 1], [1, 1], [1, 1]]}]',
        'images/e.jpg\t[{"transcription": "x", "points": [[1, 1], [140, 1], [140, 20], [1, 20]]}]',
    ]
    (tmp_path / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _img(tmp_path, "images/c.jpg", (100, 50))
    (tmp_path / "val.txt").write_text(f"images/c.jpg\t{good}\n", encoding="utf-8")
    report = lint_dataset(tmp_path, "auto")
    assert report.format == "det"
    assert _found(report) == {
        ("train.txt", 2, "det_json"),
        ("train.txt", 3, "det_points"),
        ("train.txt", 4, "det_degenerate"),
        ("train.txt", 5, "det_outside"),
    }


def test_missing_files_and_folder(tmp_path: Path) -> None:
    report = lint_dataset(tmp_path, "cls")
    assert _found(report) == {
        ("label.txt", 0, "missing_file"),
        ("train.txt", 0, "missing_file"),
        ("val.txt", 0, "missing_file"),
    }
    assert _found(lint_dataset(tmp_path / "nope", "auto")) == {("nope", 0, "missing_dir")}


def test_paddlex_result_has_paddlex_keys_and_counts(cls_clean: Path, tmp_path: Path) -> None:
    """The document PaddleX 3's image classification checker writes (``check_dataset`` module:
    ``check()`` returns label_file, num_classes, train/val samples and sample paths; the checker adds
    done_flag, check_pass, analysis.histogram, dataset_path, show_type, dataset_type)."""
    expected_shape = {
        "done_flag": True,
        "check_pass": True,
        "attributes": {
            "label_file": "…/label.txt",
            "num_classes": 10,
            "train_samples": 40,
            "train_sample_paths": ["…"] * 10,
            "val_samples": 10,
            "val_sample_paths": ["…"] * 10,
        },
        "analysis": {"histogram": "check_dataset/histogram.png"},
        "dataset_path": "…",
        "show_type": "image",
        "dataset_type": "ClsDataset",
    }
    report = lint_dataset(cls_clean, "cls")
    out = tmp_path / "output"
    written = json.loads(write_paddlex_result(report, out).read_text(encoding="utf-8"))
    assert written == paddlex_result(report, out)
    assert set(written) == set(expected_shape)
    assert set(written["attributes"]) == set(expected_shape["attributes"])
    for key in ("num_classes", "train_samples", "val_samples"):
        assert written["attributes"][key] == expected_shape["attributes"][key]
    assert len(written["attributes"]["train_sample_paths"]) == 10
    assert (out / written["attributes"]["train_sample_paths"][0]).is_file()
    assert (out / written["attributes"]["label_file"]).resolve() == (cls_clean / "label.txt").resolve()
    assert (out / "check_dataset" / "histogram.png").is_file()
    assert written["check_pass"] is True and written["dataset_type"] == "ClsDataset"


def test_fix_writes_a_corrected_copy_and_leaves_the_original(tmp_path: Path) -> None:
    src = tmp_path / "src"
    for name in ("a", "b", "c"):
        _img(src, f"images/{name}.png")
    (src / "label.txt").write_bytes(b"\xef\xbb\xbf0 cat\r\n1 dog\r\n")
    (src / "train.txt").write_text(
        "images/a.png\t0\nimages\\b.png  1\nimages/a.png 0\nimages/c.png 1\n", encoding="utf-8"
    )
    (src / "val.txt").write_text("images/c.png 1\r\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in src.rglob("*") if p.is_file()}
    assert not lint_dataset(src, "cls").ok
    fixes = fix_dataset(src, "cls", tmp_path / "fixed")
    assert fixes == {"bom": 1, "crlf": 3, "separator": 2, "backslash": 1, "duplicate_line": 1}
    assert {p: p.read_bytes() for p in src.rglob("*") if p.is_file()} == before
    fixed = lint_dataset(tmp_path / "fixed", "cls")
    assert {p.code for p in fixed.errors} == {"train_val_overlap"}  # not a safe fix: left to a person
    assert (tmp_path / "fixed" / "train.txt").read_text(encoding="utf-8").splitlines() == [
        "images/a.png 0",
        "images/b.png 1",
        "images/c.png 1",
    ]


def test_sample_is_stratified_and_lints_clean(cls_clean: Path, tmp_path: Path) -> None:
    counts = sample_dataset(cls_clean, "cls", 20, tmp_path / "small")
    assert counts["train"] == 20 and counts["val"] >= 5
    report = lint_dataset(tmp_path / "small", "cls")
    assert report.ok
    assert all(count >= 1 for count in report.stats["histogram"].values())


def test_cli_check_json_and_exit_codes(cls_clean: Path, tmp_path: Path) -> None:
    from workbench.cli.root import build_cli

    runner, main = CliRunner(), build_cli()
    ws = str(tmp_path / "ws")
    ok = runner.invoke(main, ["--workspace", ws, "dataset", "check", str(cls_clean), "--json"])
    assert ok.exit_code == 0, ok.output
    doc = json.loads(ok.stdout)
    assert doc["ok"] is True and doc["errors"] == [] and doc["stats"]["samples"] == {"train": 40, "val": 10}
    assert Path(doc["paddlex_result"]).is_file()

    broken = tmp_path / "broken"
    _broken_cls(broken)
    bad = runner.invoke(
        main,
        [
            "--workspace",
            ws,
            "dataset",
            "check",
            str(broken),
            "--format",
            "cls",
            "--output",
            str(tmp_path / "o"),
        ],
    )
    assert bad.exit_code == 1
    assert f"{broken / 'train.txt'}:8: image 'images/missing.png' does not exist" in bad.output
    assert "separator ×2" in bad.output
    again = runner.invoke(
        main,
        ["--workspace", ws, "dataset", "check", str(broken), "--fix", str(broken / "inside")],
    )
    assert again.exit_code == 2 and "choose a new folder" in again.output
    assert not (broken / "inside").exists()


def test_many_images_are_decoded_in_a_pool(tmp_path: Path) -> None:
    """Above the pool threshold the images go to worker processes; results keep their order."""
    from workbench.datasets import imagecheck

    _img(tmp_path, "ok.png")
    (tmp_path / "bad.png").write_bytes(b"nope")
    paths = [str(tmp_path / "ok.png"), str(tmp_path / "bad.png")] * (imagecheck.POOL_THRESHOLD // 2 + 1)
    results = imagecheck.check_all(paths, workers=2)
    assert results[0] == (32, 32, "RGB") and isinstance(results[1], str) and len(results) == len(paths)


def test_training_refuses_a_dataset_with_errors(tmp_path: Path) -> None:
    from workbench.datasets import DatasetError
    from workbench.training.tasks import TASKS

    _broken_cls(tmp_path)
    check = TASKS.get("image_classification").check_data
    assert check is not None
    with pytest.raises(DatasetError) as caught:
        check(tmp_path)
    codes = {p.code for p in caught.value.problems}
    assert {"bad_image", "train_val_overlap", "bom"} <= codes
    assert os.path.exists(tmp_path / "train.txt")


def test_a_line_with_a_bad_label_still_reports_its_path(tmp_path: Path) -> None:
    """A rejected line reports its path problems too, not only its first problem (the label)."""
    _img(tmp_path, "images/a.png")
    (tmp_path / "label.txt").write_text("0 cat\n1 dog\n", encoding="utf-8")
    (tmp_path / "train.txt").write_bytes(b"images/a.png 0\r\nC:\\data\\b.png 9\r\n/abs/c.png x\r\n")
    (tmp_path / "val.txt").write_text("images/a.png 1\n", encoding="utf-8")
    report = lint_dataset(tmp_path, "cls")
    found = _found(report)
    assert {
        ("train.txt", 2, "label_range"),
        ("train.txt", 2, "backslash"),
        ("train.txt", 3, "bad_label"),
    } <= found, found
    assert ("train.txt", 1, "backslash") not in found
    warned = {(Path(p.file).name, p.line, p.code) for p in report.warnings}
    assert {("train.txt", 1, "crlf"), ("train.txt", 3, "absolute_path")} <= warned


@pytest.mark.parametrize("fmt", ["cls", "rec"])
def test_each_list_file_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    """The readers hand the linter the lines they rejected: the path check on those lines no longer
    reads train.txt / val.txt again (nor do the byte checks and the line count)."""
    _img(tmp_path, "images/a.png")
    if fmt == "cls":
        (tmp_path / "label.txt").write_text("0 cat\n1 dog\n", encoding="utf-8")
        train = b"images/a.png 0\r\nC:\\data\\b.png 9\r\n/abs/c.png x\r\n"
        (tmp_path / "val.txt").write_text("images/a.png 1\n", encoding="utf-8")
    else:
        (tmp_path / "dict.txt").write_text("a\nb\n", encoding="utf-8")
        train = b"images/a.png\tab\nC:\\data\\b.png\tzz\n/abs/c.png ab\n"
        (tmp_path / "val.txt").write_text("images/a.png\tba\n", encoding="utf-8")
    (tmp_path / "train.txt").write_bytes(train)
    opened: list[str] = []
    real_open = Path.open

    def counting_open(self: Path, *args: object, **kwargs: object) -> object:
        opened.append(self.name)
        return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", counting_open)
    report = lint_dataset(tmp_path, fmt)
    assert opened.count("train.txt") == 1 and opened.count("val.txt") == 1, opened
    assert ("train.txt", 2, "backslash") in _found(report)
    assert ("train.txt", 3, "absolute_path") in {(Path(p.file).name, p.line, p.code) for p in report.warnings}
