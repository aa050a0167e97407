"""A planted COCO detection suite: a small clean set in PaddleX's layout, and the same set with one or more
kinds of problem planted, each with where it must be found.

``write_coco(root, kinds)`` writes ``annotations/instance_{train,val}.json`` (indented, as ``json.dump``
tools write them) and ``images/*.png`` (64x48, Pillow) and returns the planted problems as
:class:`Planted` ``(file name, line, JSON path, code)``. The line of each is found in the written text by
a search for the planted entry's own unique id and the key after it, never by the checker's locator.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

KINDS = ("outside", "size", "category", "image_id", "duplicate", "missing_file", "segmentation")
WIDTH, HEIGHT = 64, 48
CATEGORIES = [{"id": 1, "name": "cat"}, {"id": 2, "name": "dog"}, {"id": 3, "name": "bird"}]
IMAGES_PER_SPLIT = 10


@dataclass(frozen=True)
class Planted:
    file: str
    line: int
    json_path: str
    code: str


def _box(ident: int, image_id: int, category: int, box: list[float], **extra: Any) -> dict[str, Any]:
    x, y, w, h = box
    polygon = [x, y, x + w, y, x + w, y + h, x, y + h]
    entry = {
        "id": ident,
        "image_id": image_id,
        "category_id": category,
        "bbox": box,
        "area": w * h,
        "iscrowd": 0,
        "segmentation": [polygon],
    }
    entry.update(extra)
    return entry


def _clean(split: str) -> dict[str, Any]:
    base = 0 if split == "train" else 100
    images = [
        {"id": base + i, "file_name": f"{split}_{i}.png", "width": WIDTH, "height": HEIGHT}
        for i in range(1, IMAGES_PER_SPLIT + 1)
    ]
    annotations = []
    for i, image in enumerate(images):
        annotations.append(_box(1000 + base * 10 + 2 * i, image["id"], 1 + i % 3, [2, 3, 20, 15]))
        annotations.append(_box(1001 + base * 10 + 2 * i, image["id"], 1 + (i + 1) % 3, [30.5, 20, 33.5, 28]))
    # a crowd region as COCO writes one: an RLE mask at the image's size, its counts adding up to h*w
    crowd = _box(5000 + base, images[0]["id"], 2, [0, 0, 10, 10], iscrowd=1)
    crowd["segmentation"] = {"counts": [100, 50, WIDTH * HEIGHT - 150], "size": [HEIGHT, WIDTH]}
    annotations.append(crowd)
    return {
        "info": {"description": "planted"},
        "images": images,
        "annotations": annotations,
        "categories": [dict(c) for c in CATEGORIES],
    }


def _plant(doc: dict[str, Any], kind: str) -> None:
    """Append the entries of one kind of problem to the train document."""
    anns, images, cats = doc["annotations"], doc["images"], doc["categories"]
    if kind == "outside":
        anns.append(_box(9101, 1, 1, [50, 30, 30, 30]))
    elif kind == "size":
        anns.append(_box(9201, 2, 2, [5, 5, 0, 10], area=1))
    elif kind == "category":
        anns.append(_box(9301, 3, 99, [5, 5, 10, 10]))
    elif kind == "image_id":
        anns.append(_box(9401, 777, 1, [5, 5, 10, 10]))
    elif kind == "duplicate":
        images.append({"id": 2, "file_name": "train_dup.png", "width": WIDTH, "height": HEIGHT})
        cats.append({"id": 3, "name": "bird_again"})
        anns.append(_box(9501, 4, 1, [5, 5, 10, 10]))
        anns.append(_box(9501, 5, 1, [6, 6, 10, 10]))
    elif kind == "missing_file":
        images.append({"id": 50, "file_name": "missing.png", "width": WIDTH, "height": HEIGHT})
        anns.append(_box(9601, 50, 1, [5, 5, 10, 10]))
    elif kind == "segmentation":
        anns.append(_box(9701, 6, 1, [5, 5, 10, 10], segmentation=[[5, 5, 15, 5, 15]]))
        anns.append(_box(9702, 7, 1, [5, 5, 10, 10], iscrowd=2))
        anns.append(_box(9703, 8, 1, [5, 5, 10, 10], segmentation={"counts": "abc", "size": [HEIGHT, WIDTH]}))


def _line(text: str, *needles: str) -> int:
    """The line of the last needle, each searched after the one before."""
    at = 0
    for number, needle in enumerate(needles, start=1):
        at = text.index(needle, at)
        at += len(needle) if number < len(needles) else 0
    return text.count("\n", 0, at) + 1


def _index(doc: dict[str, Any], section: str, ident: int, nth: int = 1) -> int:
    found = [i for i, e in enumerate(doc[section]) if e["id"] == ident]
    return found[nth - 1]


def _expected(kind: str, doc: dict[str, Any], text: str) -> list[Planted]:
    file = "instance_train.json"
    ann = lambda ident, nth=1: _index(doc, "annotations", ident, nth)  # noqa: E731
    anchor = '"annotations": ['
    if kind == "outside":
        return [
            Planted(
                file,
                _line(text, anchor, '"id": 9101', '"bbox"'),
                f"annotations[{ann(9101)}].bbox",
                "coco_bbox_outside",
            )
        ]
    if kind == "size":
        return [
            Planted(
                file,
                _line(text, anchor, '"id": 9201', '"bbox"'),
                f"annotations[{ann(9201)}].bbox",
                "coco_bbox_size",
            )
        ]
    if kind == "category":
        return [
            Planted(
                file,
                _line(text, anchor, '"id": 9301', '"category_id"'),
                f"annotations[{ann(9301)}].category_id",
                "coco_unknown_category",
            )
        ]
    if kind == "image_id":
        return [
            Planted(
                file,
                _line(text, anchor, '"id": 9401', '"image_id"'),
                f"annotations[{ann(9401)}].image_id",
                "coco_unknown_image",
            )
        ]
    if kind == "duplicate":
        image = _index(doc, "images", 2, 2)
        category = _index(doc, "categories", 3, 2)
        return [
            Planted(
                file,
                _line(text, '"images": [', '"file_name": "train_dup.png"') - 1,
                f"images[{image}].id",
                "coco_duplicate_id",
            ),
            Planted(
                file,
                _line(text, anchor, '"id": 9501', '"id": 9501'),
                f"annotations[{ann(9501, 2)}].id",
                "coco_duplicate_id",
            ),
            Planted(
                file,
                _line(text, '"categories": [', '"name": "bird_again"') - 1,
                f"categories[{category}].id",
                "coco_duplicate_id",
            ),
        ]
    if kind == "missing_file":
        image = _index(doc, "images", 50)
        return [
            Planted(
                file,
                _line(text, '"images": [', '"file_name": "missing.png"'),
                f"images[{image}].file_name",
                "coco_missing_image",
            )
        ]
    assert kind == "segmentation"
    return [
        Planted(
            file,
            _line(text, anchor, '"id": 9701', '"segmentation"') + 1,
            f"annotations[{ann(9701)}].segmentation[0]",
            "coco_polygon",
        ),
        Planted(
            file,
            _line(text, anchor, '"id": 9702', '"iscrowd"'),
            f"annotations[{ann(9702)}].iscrowd",
            "coco_iscrowd",
        ),
        Planted(
            file,
            _line(text, anchor, '"id": 9703', '"segmentation"'),
            f"annotations[{ann(9703)}].segmentation",
            "coco_segmentation",
        ),
    ]


def write_coco(root: Path, kinds: tuple[str, ...] | list[str] = ()) -> list[Planted]:
    """Write the set (clean when ``kinds`` is empty) and return where each planted problem is."""
    (root / "annotations").mkdir(parents=True)
    (root / "images").mkdir()
    planted: list[Planted] = []
    for split in ("train", "val"):
        doc = _clean(split)
        for kind in kinds if split == "train" else ():
            _plant(doc, kind)
        for image in doc["images"]:
            if image["file_name"] != "missing.png":
                Image.new("RGB", (WIDTH, HEIGHT), (image["id"] * 20 % 255, 90, 160)).save(
                    root / "images" / image["file_name"]
                )
        text = json.dumps(doc, indent=2) + "\n"
        (root / "annotations" / f"instance_{split}.json").write_text(text, encoding="utf-8")
        if split == "train":
            for kind in kinds:
                planted += _expected(kind, doc, text)
    return planted
