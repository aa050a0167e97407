"""COCO detection sets (``dataset check --format coco``): a planted suite (tests/coco_sets.py) found at
file, line and JSON path, one kind per set and all together; the clean set without a finding; --fix
output re-checked clean; --sample keeping every class; PaddleX's result file; bounded and malformed
JSON located; the CLI's exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.coco_sets import KINDS, Planted, write_coco
from workbench.datasets.coco import CocoProblem, fix_coco, lint_coco, sample_coco
from workbench.datasets.lint import lint_dataset, paddlex_result, write_paddlex_result

FIXABLE = ("outside", "size", "category", "image_id")
UNFIXED = {"coco_missing_image", "coco_polygon", "coco_iscrowd", "coco_segmentation"}
"""Planted codes --fix leaves to a person (plus the duplicate image and category ids)."""


def _found(report: object) -> set[Planted]:
    found = set()
    for problem in report.errors:  # type: ignore[attr-defined]
        assert isinstance(problem, CocoProblem), problem
        found.add(Planted(Path(problem.file).name, problem.line, problem.json_path, problem.code))
    return found


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("coco") / "clean"
    assert write_coco(root) == []
    return root


@pytest.fixture(scope="module")
def planted_all(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Planted]]:
    root = tmp_path_factory.mktemp("coco") / "all"
    return root, write_coco(root, KINDS)


def test_the_clean_set_is_recognised_and_has_no_finding(clean: Path) -> None:
    report = lint_dataset(clean, "auto")
    assert (report.format, report.guessed) == ("coco", True)
    assert report.errors == [] and report.warnings == []
    assert report.stats["samples"] == {"train": 10, "val": 10}
    assert report.stats["images_checked"] == 20
    # class histogram and per-class box counts, crowd regions included
    assert report.stats["boxes"]["train"] == {"cat": 7, "dog": 8, "bird": 6}
    assert report.stats["histogram"] == {"cat": 14, "dog": 16, "bird": 12}


@pytest.mark.parametrize("kind", KINDS)
def test_each_planted_kind_is_found_at_its_file_line_and_path(tmp_path: Path, kind: str) -> None:
    planted = write_coco(tmp_path, (kind,))
    report = lint_dataset(tmp_path, "coco")
    assert _found(report) == set(planted)
    assert report.warnings == []


def test_all_kinds_together_each_at_its_place_and_nothing_else(
    planted_all: tuple[Path, list[Planted]],
) -> None:
    root, planted = planted_all
    report = lint_dataset(root, "coco")
    assert len(planted) == 11
    assert _found(report) == set(planted)
    assert report.warnings == [] and not report.refused
    first = next(p for p in report.errors if p.code == "coco_bbox_outside")
    assert str(first).startswith(f"{root / 'annotations' / 'instance_train.json'}:{first.line}:")
    assert "annotations[21].bbox: bbox [50, 30, 30, 30] reaches outside the 64x48 image — " in str(first)


def test_fix_writes_a_copy_that_rechecks_clean(tmp_path: Path) -> None:
    source = tmp_path / "src"
    write_coco(source, FIXABLE)
    before = {p: p.read_bytes() for p in source.rglob("*") if p.is_file()}
    fixes = fix_coco(source, tmp_path / "fixed")
    assert fixes == {"clipped_box": 1, "empty_box": 1, "unknown_category": 1, "unknown_image": 1}
    assert {p: p.read_bytes() for p in source.rglob("*") if p.is_file()} == before
    fixed = lint_coco(tmp_path / "fixed")
    assert fixed.errors == [] and fixed.warnings == []
    doc = json.loads((tmp_path / "fixed" / "annotations" / "instance_train.json").read_text(encoding="utf-8"))
    clipped = next(a for a in doc["annotations"] if a["id"] == 9101)
    assert clipped["bbox"] == [50, 30, 14, 18]
    assert {9201, 9301, 9401}.isdisjoint(a["id"] for a in doc["annotations"])


def test_fix_leaves_what_is_not_safe_and_renumbers_a_repeated_annotation_id(
    planted_all: tuple[Path, list[Planted]], tmp_path: Path
) -> None:
    root, planted = planted_all
    fixes = fix_coco(root, tmp_path / "fixed")
    assert fixes["duplicate_annotation_id"] == 1
    left = lint_coco(tmp_path / "fixed")
    assert {p.code for p in left.errors} == UNFIXED | {"coco_duplicate_id"}
    assert sorted(p.json_path for p in left.errors if p.code == "coco_duplicate_id") == [  # type: ignore[attr-defined]
        "categories[3].id",
        "images[10].id",
    ]
    assert len(left.errors) == len([p for p in planted if p.code in UNFIXED]) + 2


def test_missing_area_and_iscrowd_in_a_one_line_file_are_located_by_column_and_fixed(tmp_path: Path) -> None:
    """A minified file (as COCO's own are) is one line: the column says where."""
    root = tmp_path / "src"
    write_coco(root)
    file = root / "annotations" / "instance_train.json"
    doc = json.loads(file.read_text(encoding="utf-8"))
    del doc["annotations"][3]["area"], doc["annotations"][3]["iscrowd"]
    text = json.dumps(doc)
    file.write_text(text, encoding="utf-8")
    report = lint_coco(root)
    entry = text.index('{"id": 1003,') + 1  # columns count from 1
    assert {(p.line, p.column, p.json_path, p.code) for p in report.errors} == {  # type: ignore[attr-defined]
        (1, entry, "annotations[3]", "coco_area"),
        (1, entry, "annotations[3]", "coco_field"),
    }
    assert fix_coco(root, tmp_path / "fixed") == {"area": 1, "iscrowd": 1}
    assert lint_coco(tmp_path / "fixed").errors == []
    assert b"\n" not in (tmp_path / "fixed" / "annotations" / "instance_train.json").read_bytes().strip()


def test_malformed_json_bom_and_bad_bytes_are_located(tmp_path: Path) -> None:
    write_coco(tmp_path)
    train = tmp_path / "annotations" / "instance_train.json"
    text = train.read_text(encoding="utf-8")
    at = text.index('"file_name": "train_3.png",') + len('"file_name": "train_3.png"')
    train.write_text(text[:at] + text[at + 1 :], encoding="utf-8")  # the comma after it, gone
    line = text.count("\n", 0, at) + 2  # the next key, on the next line, is where the decoder stops
    column = len(text[at + 1 :].split("\n", 2)[1]) - len(text[at + 1 :].split("\n", 2)[1].lstrip()) + 1
    val = tmp_path / "annotations" / "instance_val.json"
    raw = val.read_bytes()
    val.write_bytes(b"\xef\xbb\xbf" + raw.replace(b'"planted"', b'"pl\xffanted"'))
    report = lint_coco(tmp_path)
    got = {(Path(p.file).name, p.line, p.column, p.code) for p in report.errors}  # type: ignore[attr-defined]
    bad_line = raw[: raw.index(b'"planted"')].count(b"\n") + 1
    bad_column = len(raw.split(b"\n")[bad_line - 1].split(b'"planted"')[0]) + len(b'"pl') + 1
    assert got == {
        ("instance_train.json", line, column, "coco_json"),
        ("instance_val.json", 1, 1, "bom"),
        ("instance_val.json", bad_line, bad_column, "not_utf8"),
    }
    assert "Expecting ',' delimiter" in next(p.message for p in report.errors if p.code == "coco_json")


def test_over_the_cap_and_too_deep_are_located_refusals_not_tracebacks(tmp_path: Path) -> None:
    write_coco(tmp_path)
    report = lint_coco(tmp_path, max_list_bytes=4096)
    assert {(Path(p.file).name, p.code) for p in report.errors} == {
        ("instance_train.json", "file_too_large"),
        ("instance_val.json", "file_too_large"),
    }
    assert report.refused
    deep = '{"images": [], "annotations": [' + "[" * 100_000 + "]" * 100_000 + '], "categories": []}'
    (tmp_path / "annotations" / "instance_train.json").write_text(deep, encoding="utf-8")
    report = lint_coco(tmp_path)
    problem = next(p for p in report.errors if Path(p.file).name == "instance_train.json")
    assert (problem.code, problem.line, problem.column) == ("coco_json", 1, deep.index("[[") + 2)  # type: ignore[attr-defined]


def test_misnamed_annotation_files_are_recognised_and_named(tmp_path: Path) -> None:
    write_coco(tmp_path)
    for split in ("train", "val"):
        (tmp_path / "annotations" / f"instance_{split}.json").rename(
            tmp_path / "annotations" / f"instances_{split}2017.json"
        )
    report = lint_dataset(tmp_path, "auto")
    assert report.format == "coco"
    assert {p.code for p in report.errors} == {"coco_missing_file"}
    assert "instances_train2017.json, instances_val2017.json" in report.errors[0].message


def test_sample_keeps_every_class_and_only_passing_entries(
    planted_all: tuple[Path, list[Planted]], tmp_path: Path
) -> None:
    root, _ = planted_all
    report = lint_coco(root)
    counts = sample_coco(report, 1, tmp_path / "small")
    assert counts["train"] >= 1 and counts["val"] >= 1
    small = lint_coco(tmp_path / "small")
    assert small.errors == []
    assert all(n >= 1 for n in small.stats["boxes"]["train"].values())
    doc = json.loads((tmp_path / "small" / "annotations" / "instance_train.json").read_text(encoding="utf-8"))
    assert all(a["id"] < 9000 for a in doc["annotations"])  # no planted annotation is sampled
    assert [c["name"] for c in doc["categories"]] == ["cat", "dog", "bird"]


def test_paddlex_result_for_detection(clean: Path, tmp_path: Path) -> None:
    """The keys PaddleX 3's COCODatasetChecker writes: its check() returns num_classes and train/val
    samples (image entries) with sample paths; dataset_type COCODetDataset."""
    report = lint_coco(clean)
    written = json.loads(write_paddlex_result(report, tmp_path).read_text(encoding="utf-8"))
    assert written == paddlex_result(report, tmp_path)
    assert set(written) == {
        "done_flag", "check_pass", "attributes", "analysis", "dataset_path", "show_type", "dataset_type",
    }  # fmt: skip
    assert written["dataset_type"] == "COCODetDataset" and written["check_pass"] is True
    attributes = written["attributes"]
    assert set(attributes) == {
        "num_classes",
        "train_samples",
        "train_sample_paths",
        "val_samples",
        "val_sample_paths",
    }
    assert (attributes["num_classes"], attributes["train_samples"], attributes["val_samples"]) == (3, 10, 10)
    assert (tmp_path / attributes["train_sample_paths"][0]).is_file()


def test_cli_format_coco_exit_codes(
    clean: Path, planted_all: tuple[Path, list[Planted]], tmp_path: Path
) -> None:
    from workbench.cli.root import build_cli

    runner, main = CliRunner(), build_cli()
    ws = ["--workspace", str(tmp_path / "ws")]
    ok = runner.invoke(main, [*ws, "dataset", "check", str(clean), "--format", "coco", "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout)["stats"]["boxes"]["val"] == {"cat": 7, "dog": 8, "bird": 6}

    root, planted = planted_all
    fixed = tmp_path / "fixed"
    bad = runner.invoke(
        main, [*ws, "dataset", "check", str(root), "--format", "coco", "--fix", str(fixed), "--json"]
    )
    assert bad.exit_code == 1
    doc = json.loads(bad.stdout)
    outside = next(p for p in planted if p.code == "coco_bbox_outside")
    assert {
        "file": str(root / "annotations" / outside.file),
        "line": outside.line,
        "json_path": outside.json_path,
        "code": outside.code,
    }.items() <= next(e for e in doc["errors"] if e["code"] == "coco_bbox_outside").items()
    assert (
        doc["fixed"]["fixes"]["clipped_box"] == 1
        and (fixed / "annotations" / "instance_train.json").is_file()
    )

    big = _over_a_mib(tmp_path / "big")
    refused = runner.invoke(main, [*ws, "dataset", "check", str(big), "--max-list-mb", "1", "--json"])
    assert refused.exit_code == 2
    doc = json.loads(refused.stdout)
    assert doc["refused"] is True
    assert [(e["file"], e["code"]) for e in doc["errors"]] == [
        (str(big / "annotations" / "instance_train.json"), "file_too_large")
    ]


def _over_a_mib(root: Path) -> Path:
    write_coco(root)
    file = root / "annotations" / "instance_train.json"
    doc = json.loads(file.read_text(encoding="utf-8"))
    doc["info"]["description"] = "x" * (1 << 20)
    file.write_text(json.dumps(doc), encoding="utf-8")
    return root


@pytest.mark.parametrize(
    "text",
    [
        "",
        '{"images": [1, 2,]}',
        '{"images": [1 2]}',
        '{"a" 1}',
        '{"a": 1} x',
        '{"images": [{"id": 1,\n "x": }]}',
        '\n\n{"annotations": [\n{"id": 1}\n{"id": 2}]}',
        '{"annotations": ["a\\x"]}',
    ],
)
def test_malformed_json_is_located_where_json_itself_says(text: str) -> None:
    """The element-by-element parse fails at the same place, with the same words, as ``json.loads``."""
    from workbench.datasets.coco import parse_located

    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    with pytest.raises(json.JSONDecodeError) as got:
        parse_located(text)
    assert (got.value.msg, got.value.lineno, got.value.colno) == (
        expected.value.msg,
        expected.value.lineno,
        expected.value.colno,
    )


def test_every_coco_code_has_both_languages_and_a_hint() -> None:
    import re

    from workbench.datasets import coco
    from workbench.i18n import catalog

    codes = set(re.findall(r'"(coco_\w+)"', Path(coco.__file__).read_text(encoding="utf-8")))
    assert len(codes) >= 20
    for code in codes:
        for key in (f"dataset.problem.{code}", f"dataset.problem.{code}.hint"):
            english, chinese = catalog()[key]
            assert english.strip() and chinese.strip(), key


def test_undecodable_and_empty_image_files_are_located_at_their_entry(tmp_path: Path) -> None:
    write_coco(tmp_path)
    data = (tmp_path / "images" / "train_4.png").read_bytes()
    (tmp_path / "images" / "train_4.png").write_bytes(data[: len(data) // 2])  # cut short
    (tmp_path / "images" / "val_2.png").write_bytes(b"")
    report = lint_coco(tmp_path)
    assert {(Path(p.file).name, p.json_path, p.code) for p in report.errors} == {  # type: ignore[attr-defined]
        ("instance_train.json", "images[3].file_name", "bad_image"),
        ("instance_val.json", "images[1].file_name", "empty_image"),
    }
    text = (tmp_path / "annotations" / "instance_train.json").read_text(encoding="utf-8")
    line = text[: text.index('"file_name": "train_4.png"')].count("\n") + 1
    assert next(p.line for p in report.errors if p.code == "bad_image") == line


def test_an_image_without_annotations_and_an_unused_class_are_warnings(tmp_path: Path) -> None:
    write_coco(tmp_path)
    file = tmp_path / "annotations" / "instance_train.json"
    doc = json.loads(file.read_text(encoding="utf-8"))
    doc["annotations"] = [a for a in doc["annotations"] if a["image_id"] != 5 and a["category_id"] != 3]
    file.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    report = lint_coco(tmp_path)
    assert report.errors == []
    text = file.read_text(encoding="utf-8")
    entry = text[: text.index('"file_name": "train_5.png"')].count("\n") - 1  # "{" is two lines above
    name = text[: text.index('"name": "bird"')].count("\n") + 1
    found = {(p.line, p.json_path, p.code) for p in report.warnings}  # type: ignore[attr-defined]
    assert found == {
        (entry, "images[4]", "coco_no_annotations"),
        (name, "categories[2].name", "unused_class"),
    }
    assert report.stats["boxes"]["train"]["bird"] == 0


@pytest.mark.parametrize(
    ("change", "code"), [("rename", "coco_categories_differ"), ("reorder", "coco_categories_order")]
)
def test_val_categories_must_be_trains_in_the_same_order(tmp_path: Path, change: str, code: str) -> None:
    """PaddleDetection numbers classes by each file's categories, in their order."""
    write_coco(tmp_path)
    file = tmp_path / "annotations" / "instance_val.json"
    doc = json.loads(file.read_text(encoding="utf-8"))
    if change == "rename":
        doc["categories"][2]["name"] = "crow"
    else:
        doc["categories"].reverse()
    file.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    report = lint_coco(tmp_path)
    text = file.read_text(encoding="utf-8")
    line = text[: text.index('"categories": [')].count("\n") + 1
    assert _found(report) == {Planted("instance_val.json", line, "categories", code)}


def test_a_second_folder_named_images_is_an_error_as_paddlex_stops_on_it(tmp_path: Path) -> None:
    write_coco(tmp_path)
    (tmp_path / "images" / "old" / "images").mkdir(parents=True)
    report = lint_coco(tmp_path)
    assert [(p.file, p.line, p.code) for p in report.errors] == [(str(tmp_path), 0, "coco_images_dirs")]
    assert "images, images/old/images" in report.errors[0].message
