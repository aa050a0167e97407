"""Version facts: which Paddle a kit release needs, which PaddleX a PaddleOCR release needs, which Paddle
reads a PIR (``.json``) model — checked against the versions a log names.

A signature lists a check by name in its ``facts:`` field; the check reads the
:class:`~workbench.troubleshoot.reading.Reading` of a log and, when the versions it found break a fact,
returns a :class:`FactFinding` (its evidence: the versions, on the line where the kit's was found). A
check says nothing when a version it needs is not in the log: a fact is never guessed.

Where each fact comes from is cited beside it. Nothing here imports Paddle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from workbench.troubleshoot.reading import Reading


@dataclass(frozen=True)
class FactFinding:
    """A version fact the log breaks, quoted where the decisive version was found."""

    check: str
    line: int
    """The 1-based line of the decisive version (0 when the log does not say where)."""
    quote: str
    """That line's text: the evidence a signature shows."""
    detail: str
    """The versions involved and what the fact asks for (names and numbers, for the JSON and tests)."""


def _found(reading: Reading, check: str, name: str, detail: str) -> FactFinding:
    line, quote = reading.version_lines.get(name, (0, detail))
    return FactFinding(check, line, quote, detail)


def _major_minor(version: str) -> tuple[int, int] | None:
    """``"3.0.0rc1"`` → ``(3, 0)``; ``None`` when it does not start with a number."""
    parts = version.split(".")
    digits = "".join(ch for ch in parts[1] if ch.isdigit()) if len(parts) > 1 else ""
    try:
        return int(parts[0]), int(digits or 0)
    except ValueError:
        return None


def paddle_version(reading: Reading) -> tuple[str, str] | None:
    """The Paddle version the log names and under which name (a wheel's name first)."""
    for name in ("paddlepaddle-gpu", "paddlepaddle", "paddle"):
        version = reading.versions.get(name)
        if version:
            return name, version
    return None


KIT_NEEDS_PADDLE: dict[str, tuple[int, tuple[int, int]]] = {
    # PaddleOCR 3.x runs on PaddlePaddle 3.0 or later: its installation page installs paddlepaddle 3.0.0
    # (https://www.paddleocr.ai/latest/en/version3.x/installation.html), and 3.x predicts through PaddleX 3.
    "paddleocr": (3, (3, 0)),
    # PaddleX 3.x needs PaddlePaddle 3.0 or later (PaddleX 3.0 installation guide, "install PaddlePaddle
    # 3.0"; https://paddlepaddle.github.io/PaddleX/3.0/en/installation/installation.html).
    "paddlex": (3, (3, 0)),
}
"""Kit → (from this major version of the kit, the lowest Paddle (major, minor) it runs on)."""


def kit_needs_newer_paddle(reading: Reading) -> FactFinding | None:
    """A kit release that needs a newer Paddle than the one the log names."""
    paddle = paddle_version(reading)
    if paddle is None:
        return None
    have = _major_minor(paddle[1])
    for kit, (from_major, needs) in KIT_NEEDS_PADDLE.items():
        version = reading.versions.get(kit)
        kit_v = _major_minor(version) if version else None
        if kit_v is None or have is None or kit_v[0] < from_major or have >= needs:
            continue
        return _found(
            reading,
            "kit_needs_newer_paddle",
            kit,
            f"{kit} {version} needs paddlepaddle >= {needs[0]}.{needs[1]}; the log shows {paddle[0]} {paddle[1]}",
        )
    return None


def paddleocr_needs_its_paddlex(reading: Reading) -> FactFinding | None:
    """PaddleOCR 3.N with a PaddleX that is not 3.N.

    PaddleOCR 3.x pins PaddleX to its own minor release: ``paddlex[ocr-core]>=3.4.0,<3.5.0`` for paddleocr
    3.4 (PaddleOCR's pyproject.toml, ``dependencies``); an older or newer PaddleX breaks PaddleOCR's calls
    into it (``PaddlePredictorOption.__init__() takes 1 positional argument``).
    """
    ocr, pdx = reading.versions.get("paddleocr"), reading.versions.get("paddlex")
    ocr_v = _major_minor(ocr) if ocr else None
    pdx_v = _major_minor(pdx) if pdx else None
    if ocr_v is None or pdx_v is None or ocr_v[0] < 3 or ocr_v == pdx_v:
        return None
    return _found(
        reading,
        "paddleocr_needs_its_paddlex",
        "paddlex",
        f"paddleocr {ocr} needs paddlex {ocr_v[0]}.{ocr_v[1]}.x; the log shows paddlex {pdx}",
    )


def pir_model_needs_paddle3(reading: Reading) -> FactFinding | None:
    """A PIR model (``inference.json``) with a Paddle older than 3.0.

    Paddle 3.0 saves inference models in the PIR format, ``*.json`` beside ``*.pdiparams``, where 2.x wrote
    ``*.pdmodel`` (Paddle 3.0 release notes, "PIR ... enabled by default"; PaddleX 3 exports
    ``inference.json``); a Paddle before 3.0 cannot read a ``.json`` program.
    """
    if not any(name.endswith(".json") for name in reading.model_files):
        return None
    paddle = paddle_version(reading)
    have = _major_minor(paddle[1]) if paddle else None
    if paddle is None or have is None or have >= (3, 0):
        return None
    return _found(
        reading,
        "pir_model_needs_paddle3",
        paddle[0],
        f"a PIR model (.json) needs paddlepaddle >= 3.0; the log shows {paddle[0]} {paddle[1]}",
    )


def both_paddle_wheels(reading: Reading) -> FactFinding | None:
    """``paddlepaddle`` and ``paddlepaddle-gpu`` both installed: they share the ``paddle`` package, so
    whichever was installed last wins file by file (Paddle's installation guide: uninstall one before
    installing the other)."""
    cpu, gpu = reading.versions.get("paddlepaddle"), reading.versions.get("paddlepaddle-gpu")
    if not cpu or not gpu:
        return None
    later = max(
        ("paddlepaddle", "paddlepaddle-gpu"), key=lambda name: reading.version_lines.get(name, (0, ""))[0]
    )
    return _found(reading, "both_paddle_wheels", later, f"paddlepaddle {cpu} and paddlepaddle-gpu {gpu}")


FACTS: dict[str, Callable[[Reading], FactFinding | None]] = {
    "kit_needs_newer_paddle": kit_needs_newer_paddle,
    "paddleocr_needs_its_paddlex": paddleocr_needs_its_paddlex,
    "pir_model_needs_paddle3": pir_model_needs_paddle3,
    "both_paddle_wheels": both_paddle_wheels,
}
"""Every version-facts check a signature's ``facts:`` may name."""


__all__ = ["FACTS", "KIT_NEEDS_PADDLE", "FactFinding", "paddle_version"]
