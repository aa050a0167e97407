"""``dataset check`` reads lines as Paddle reads them and says every problem with its fix (issue #22,
items 2-8 and 10), through the command a user types: exact line numbers past odd line breaks, ASCII
numbers, a BOM reported once, spaces in rec/det paths, CRLF and absolute paths as warnings with
``--fix``, the missing checks, a hint for every code, ``--sample`` from passing lines, PaddleX's
failure result file, refusals on stderr."""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from PIL import Image

from workbench.datasets.layouts import PROBLEM_CODES, problem
from workbench.i18n import catalog, set_language


def _img(root: Path, rel: str, size: tuple[int, int] = (32, 32), mode: str = "RGB") -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new(mode, size, "white").save(path)


def _check(tmp_path: Path, root: Path, *args: str) -> Result:
    from workbench.cli.root import build_cli

    result = CliRunner().invoke(
        build_cli(),
        [
            "--workspace",
            str(tmp_path / "ws"),
            "dataset",
            "check",
            str(root),
            "--output",
            str(tmp_path / "o"),
            *args,
        ],
    )
    assert "Traceback" not in result.output + result.stderr, result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def _doc(result: Result) -> dict[str, object]:
    doc: dict[str, object] = json.loads(result.stdout)
    return doc


def _where(doc: dict[str, object], which: str = "errors") -> set[tuple[str, int, str]]:
    return {(Path(p["file"]).name, p["line"], p["code"]) for p in doc[which]}  # type: ignore[attr-defined]


def _rec(root: Path, train: str | bytes, charset: str = "abc") -> Path:
    for name in ("a", "b", "c", "v"):
        _img(root, f"img/{name}.png", (100, 32))
    (root / "dict.txt").write_text("".join(f"{c}\n" for c in charset), encoding="utf-8")
    (root / "val.txt").write_text("img/v.png\tcab\n", encoding="utf-8")
    if isinstance(train, bytes):
        (root / "train.txt").write_bytes(train)
    else:
        (root / "train.txt").write_text(train, encoding="utf-8")
    return root


def _cls(root: Path, train: str, labels: str = "0 cat\n1 dog\n", val: str = "images/v.png 1\n") -> Path:
    for name in ("a", "b", "c", "d", "v"):
        _img(root, f"images/{name}.png")
    (root / "label.txt").write_text(labels, encoding="utf-8")
    (root / "train.txt").write_text(train, encoding="utf-8")
    (root / "val.txt").write_text(val, encoding="utf-8")
    return root


# -- item 2: lines split at \n only ----------------------------------------------------------------


def test_odd_line_breaks_are_located_problems_and_later_lines_keep_their_numbers(tmp_path: Path) -> None:
    lines = [
        "img/a.png\tab",  # 1
        "img/b.png\tba",  # 2
        "img/c.png\ta\u2028b",  # 3 LINE SEPARATOR
        "img/d.png\tc\u0085a",  # 4 NEXT LINE
        "img/e.png\tb\x0cc",  # 5 form feed
        "img/f.png\tc\u200bb",  # 6 zero-width space
        "\ufeffimg/g.png\tcc",  # 7 a BOM mid-file
        "img/missing.png\tabc",  # 8
    ]
    data = _rec(tmp_path / "ds", "\n".join(lines) + "\n")
    for name in "defg":
        _img(data, f"img/{name}.png", (100, 32))
    doc = _doc(_check(tmp_path, data, "--format", "rec", "--json"))
    found = _where(doc)
    assert ("train.txt", 8, "missing_image") in found, found
    odd = {(line, p["message"]) for p in doc["errors"] if (line := p["line"]) and p["code"] == "odd_char"}  # type: ignore[attr-defined]
    assert {line for line, _ in odd} == {3, 4, 5, 6, 7}
    assert any("U+2028" in message and "character 12" in message for _, message in odd), odd
    codes = {code for _, _, code in found}
    assert codes == {"odd_char", "missing_image"}, found  # no false separator / unknown_char / path
    [hint] = {p["hint"] for p in doc["errors"] if p["code"] == "odd_char"}  # type: ignore[attr-defined]
    assert "--fix" in hint


def test_fix_removes_the_odd_characters(tmp_path: Path) -> None:
    data = _rec(tmp_path / "ds", "img/a.png\tab\nimg/c.png\ta\u2028b\nimg/b.png\tc\u200ba\n")
    result = _check(tmp_path, data, "--format", "rec", "--fix", str(tmp_path / "fixed"))
    assert result.exit_code == 1 and "odd_char 2" in result.stdout, result.output
    fixed = _check(tmp_path, tmp_path / "fixed", "--format", "rec", "--json")
    assert fixed.exit_code == 0 and _doc(fixed)["errors"] == [], fixed.output


# -- item 3: ASCII numbers --------------------------------------------------------------------------


def test_superscript_digits_are_located_bad_labels_never_a_traceback(tmp_path: Path) -> None:
    data = _cls(
        tmp_path / "ds",
        "images/a.png 0\nimages/b.png \u00b2\nimages/c.png 1\nimages/d.png 5\n",
        "0 cat\n\u00b9 dog\n1 dog\n",
    )
    result = _check(tmp_path, data, "--format", "cls", "--json")
    assert result.exit_code == 1
    doc = _doc(result)
    found = _where(doc)
    assert {
        ("label.txt", 2, "bad_fields"),
        ("train.txt", 2, "bad_label"),
        ("train.txt", 4, "label_range"),
    } <= found
    [bad] = [p for p in doc["errors"] if p["code"] == "bad_label"]  # type: ignore[attr-defined]
    assert "ASCII digits" in bad["hint"]
    [outside] = [p for p in doc["errors"] if p["code"] == "label_range"]  # type: ignore[attr-defined]
    assert outside["message"] == "label 5 is outside 0..1"  # computed, not "0..2-1"


# -- item 4: a BOM, once --------------------------------------------------------------------------


def test_a_bom_is_reported_once_and_decoded_past(tmp_path: Path) -> None:
    data = _cls(
        tmp_path / "ds",
        "".join(f"images/{n}.png {i % 3}\n" for i, n in enumerate("abcd")),
        labels="0 cat\n1 dog\n2 bird\n",
    )
    (data / "label.txt").write_bytes(b"\xef\xbb\xbf" + (data / "label.txt").read_bytes())
    (data / "val.txt").write_bytes(b"\xef\xbb\xbfimages/v.png 2\n")
    result = _check(tmp_path, data, "--format", "cls", "--json", "--fix", str(tmp_path / "fixed"))
    doc = _doc(result)
    assert _where(doc) == {("label.txt", 1, "bom"), ("val.txt", 1, "bom")}
    assert doc["stats"]["histogram"] == {"cat": 2, "dog": 1, "bird": 2}  # type: ignore[index]
    fixed = _check(tmp_path, tmp_path / "fixed", "--format", "cls", "--json")
    assert fixed.exit_code == 0 and _doc(fixed)["errors"] == [], fixed.output


# -- item 5: a space in a rec / det path ------------------------------------------------------------


def test_a_space_in_a_rec_or_det_path_is_valid_and_train_accepts_it(tmp_path: Path) -> None:
    from workbench.training.tasks import TASKS

    data = _rec(tmp_path / "rec", "img/a.png\tab\nimg/my file.png\tba\n")
    _img(data, "img/my file.png", (100, 32))
    result = _check(tmp_path, data, "--format", "rec", "--json")
    assert result.exit_code == 0 and _doc(result)["errors"] == [], result.output
    check = TASKS.get("text_recognition").check_data
    assert check is not None
    layout = check(data)  # what `train` runs before Paddle: it must accept the set
    assert data / "img" / "my file.png" in [path for path, _ in layout.samples["train"]]  # type: ignore[attr-defined]

    det = tmp_path / "det"
    _img(det, "images/my page.jpg", (100, 50))
    box = '[{"transcription": "hi", "points": [[1, 1], [40, 1], [40, 20], [1, 20]]}]'
    (det / "train.txt").write_text(f"images/my page.jpg\t{box}\n", encoding="utf-8")
    (det / "val.txt").write_text(f"images/my page.jpg\t{box}\n", encoding="utf-8")
    found = _where(_doc(_check(tmp_path, det, "--format", "det", "--json")))
    assert found == {("val.txt", 1, "train_val_overlap")}, found


# -- item 10: CRLF and absolute paths --------------------------------------------------------------


def test_crlf_and_absolute_paths_are_warnings_fixed_by_fix_and_train_accepts_them(tmp_path: Path) -> None:
    from workbench.training.tasks import TASKS

    data = _cls(tmp_path / "ds", "")
    inside = data / "images" / "b.png"
    (data / "train.txt").write_bytes(f"images/a.png 0\r\n{inside} 1\r\nimages/c.png 0\r\n".encode())
    result = _check(tmp_path, data, "--format", "cls", "--json", "--fix", str(tmp_path / "fixed"))
    doc = _doc(result)
    assert result.exit_code == 0 and doc["errors"] == [], result.output
    assert {("train.txt", 1, "crlf"), ("train.txt", 2, "absolute_path")} <= _where(doc, "warnings")
    assert doc["fixed"]["fixes"] == {"crlf": 3, "absolute_path": 1}  # type: ignore[index]
    assert (
        tmp_path / "fixed" / "train.txt"
    ).read_bytes() == b"images/a.png 0\nimages/b.png 1\nimages/c.png 0\n"
    fixed = _doc(_check(tmp_path, tmp_path / "fixed", "--format", "cls", "--json"))
    assert not {code for _, _, code in _where(fixed, "warnings")} & {"crlf", "absolute_path"}
    check = TASKS.get("image_classification").check_data
    assert check is not None
    layout = check(data)
    assert inside in [path for path, _ in layout.samples["train"]]  # type: ignore[attr-defined]


# -- item 6: the missing checks ---------------------------------------------------------------------


def test_long_text_tiny_and_grayscale_images_empty_det_labels_and_conflicting_labels(tmp_path: Path) -> None:
    long = "abc" * 9  # 27 characters: over PaddleOCR's default 25
    data = _rec(
        tmp_path / "rec", f"img/a.png\t{long}\nimg/b.png\tab\nimg/c.png\tab\nimg/b.png\tba\nimg/t.png\tab\n"
    )
    _img(data, "img/t.png", (1, 1))
    for name in ("g1", "g2"):
        _img(data, f"img/{name}.png", (100, 32), "L")
    (data / "val.txt").write_text("img/v.png\tcab\nimg/g1.png\tab\nimg/g2.png\tba\n", encoding="utf-8")
    doc = _doc(_check(tmp_path, data, "--format", "rec", "--json"))
    assert _where(doc) == {("train.txt", 4, "conflicting_label")}
    warned = _where(doc, "warnings")
    assert {
        ("train.txt", 1, "text_too_long"),
        ("train.txt", 5, "tiny_image"),
        ("val.txt", 2, "grayscale_image"),
        ("val.txt", 3, "grayscale_image"),
    } <= warned, warned
    assert doc["warning_counts"]["grayscale_image"] == 2  # type: ignore[index]
    gray = next(p for p in doc["warnings"] if p["code"] == "grayscale_image")  # type: ignore[attr-defined]
    assert "while 5 of 7 images are color" in gray["message"]
    conflict = next(p for p in doc["errors"] if p["code"] == "conflicting_label")  # type: ignore[attr-defined]
    assert "also on line 2" in conflict["message"]
    longer = _doc(_check(tmp_path, data, "--format", "rec", "--json", "--max-text-length", "30"))
    assert "text_too_long" not in {code for _, _, code in _where(longer, "warnings")}

    det = tmp_path / "det"
    for name in ("a", "b"):
        _img(det, f"images/{name}.jpg", (100, 50))
    box = '[{"transcription": "hi", "points": [[1, 1], [40, 1], [40, 20], [1, 20]]}]'
    (det / "train.txt").write_text(f"images/a.jpg\t{box}\nimages/b.jpg\t[]\n", encoding="utf-8")
    (det / "val.txt").write_text("images/b.jpg\t[{not json\n", encoding="utf-8")
    doc = _doc(_check(tmp_path, det, "--format", "det", "--json"))
    assert ("train.txt", 2, "det_empty") in _where(doc, "warnings")
    [bad_json] = [p for p in doc["errors"] if p["code"] == "det_json"]  # type: ignore[attr-defined]
    assert '[{"transcription"' in bad_json["hint"] and "{{" not in bad_json["hint"]


# -- item 7: a hint for every code, no template leftovers -------------------------------------------


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_problem_code_has_a_message_and_a_hint_in_both_languages() -> None:
    messages = catalog()
    for code, stems in PROBLEM_CODES.items():
        for stem in stems:
            for key in (stem, f"{stem}.hint"):
                assert key in messages, (code, key)
                en, zh = messages[key]
                assert en.strip() and zh.strip(), key
    for stem in ("bad_label", "not_single_char", "duplicate_id", "duplicate_char"):  # issue #22 item 7
        assert f"training.data.{stem}.hint" in messages, stem
    for key in messages:  # every problem message of the dataset domains (COCO's too) has its hint
        if key.startswith("dataset.problem.") and not key.endswith(".hint"):
            assert f"{key}.hint" in messages, key


def test_every_code_the_dataset_modules_report_is_in_the_catalogue() -> None:
    """Each literal code passed to ``problem`` / ``_problem`` / ``DatasetProblem`` in workbench/datasets."""
    import workbench.datasets as package

    used: set[tuple[str, str]] = set()
    for source in Path(package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            called = getattr(node, "func", None)
            if (
                isinstance(node, ast.Call)
                and getattr(called, "id", "") in {"problem", "_problem", "DatasetProblem"}
                and len(node.args) > 2
                and isinstance(node.args[2], ast.Constant)
            ):
                used.add((source.name, str(node.args[2].value)))
    assert used and {code for _, code in used} <= set(PROBLEM_CODES), sorted(
        (name, code) for name, code in used if code not in PROBLEM_CODES
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rendered_messages_have_no_template_leftovers_or_unevaluated_sums(lang: str) -> None:
    set_language(lang)  # type: ignore[arg-type]
    try:
        others = [  # the COCO domain's problems (and any other) rendered the same way
            (key.removeprefix("dataset.problem."), (key,))
            for key in catalog()
            if key.startswith("dataset.problem.") and not key.endswith(".hint")
        ]
        for code, stems in [*PROBLEM_CODES.items(), *others]:
            for stem in stems:
                en = catalog()[stem][0]
                values = {name: 7 for name in _placeholders(en) | _placeholders(catalog()[f"{stem}.hint"][0])}
                found = problem("f.txt", 3, code, stem, **values)
                for text in (found.message, found.hint):
                    assert not re.search(r"\{\{|\}\}|\{[a-z_]+\}", text), (code, text)
                    assert not re.search(r"\d\s*-\s*1\b", text), (code, text)  # "0..3-1"
    finally:
        set_language("en")


# -- item 8: --sample, the failure result file, refusals on stderr ---------------------------------


def test_sample_takes_only_passing_lines_stratified_by_valid_classes(tmp_path: Path) -> None:
    data = tmp_path / "ds"
    names = [f"g{i}" for i in range(12)]
    for name in names:
        _img(data, f"images/{name}.png")
    good = [f"images/{name}.png {i % 2}" for i, name in enumerate(names)]
    broken = [
        "images/missing.png 0",
        "images/g0.png x",
        "images/g1.png 9",
        "images/junk one two",
        "images/g2.png 1 ",
        "images/g3.png 1",  # g3 is also line 4 with label 1: a duplicate
    ]
    (data / "label.txt").write_text("0 cat\n1 dog\n", encoding="utf-8")
    (data / "train.txt").write_text("\n".join(good + broken) + "\n", encoding="utf-8")
    _img(data, "images/v.png")
    (data / "val.txt").write_text("images/v.png 0\nimages/nope.png 1\n", encoding="utf-8")
    out = tmp_path / "small"
    result = _check(tmp_path, data, "--format", "cls", "--sample", "8", str(out))
    assert result.exit_code == 1, result.output
    sampled = (out / "train.txt").read_text(encoding="utf-8").splitlines()
    assert len(sampled) == 8 and set(sampled) <= set(good), sampled
    assert {line[-1] for line in sampled} == {"0", "1"}
    assert (out / "val.txt").read_text(encoding="utf-8").splitlines() == ["images/v.png 0"]
    assert _check(tmp_path, out, "--format", "cls").exit_code == 0


def test_a_failed_check_writes_the_result_file_paddlex_writes(tmp_path: Path) -> None:
    data = _cls(tmp_path / "ds", "images/a.png 0\nimages/gone.png 1\n")
    result = _check(tmp_path, data, "--format", "cls")
    assert result.exit_code == 1
    written = json.loads((tmp_path / "o" / "check_dataset_result.json").read_text(encoding="utf-8"))
    assert set(written) == {"done_flag", "err_type", "err_msg"} and written["done_flag"] is False
    assert written["err_type"].endswith("DatasetFileNotFoundError'>")
    assert "train.txt:2: image 'images/gone.png' does not exist" in written["err_msg"]


def test_refusals_go_to_stderr_with_exit_2(tmp_path: Path) -> None:
    data = _cls(tmp_path / "ds", "images/a.png 0\n")
    inside = _check(tmp_path, data, "--format", "cls", "--fix", str(data / "fixed"))
    assert inside.exit_code == 2 and "choose a new folder" in inside.stderr
    assert "choose a new folder" not in inside.stdout
    (data / "train.txt").write_text("images/a.png 0\n" + "y" * 10_000 + " 1\n", encoding="utf-8")
    refused = _check(tmp_path, data, "--format", "cls", "--fix", str(tmp_path / "fixed"))
    assert refused.exit_code == 2 and "--fix / --sample not written" in refused.stderr
    assert "not written" not in refused.stdout and not (tmp_path / "fixed").exists()
