"""The key prefilter of ``diagnose`` (:func:`workbench.troubleshoot.diagnose.present_keys`, one RE2 set
pass over the text) says exactly what ``key in text`` says for every signature key — so it selects exactly
the signatures a plain per-key check selects — on every line of the corpus's dev/ and clean/ logs, on the
hostile inputs of ``benchmarks/diagnose.py``, and on the edge cases of literal matching (nested and
overlapping keys, Chinese keys, lone surrogates, keys at the text's ends).

Nothing here reads or prints the corpus's test/ part.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import diagnose_corpus as corpus
from benchmarks.diagnose import hostile_shapes
from workbench.troubleshoot import diagnose as dg
from workbench.troubleshoot.diagnose import normalise, present_keys
from workbench.troubleshoot.signatures._linear import LiteralSet, compile_literals

FOLDER = Path(__file__).parents[1] / "data" / "diagnose_corpus"
HOSTILE_CHARS = 100_000
"""Size of each hostile input here (the benchmark uses 1 MB; equality does not depend on size)."""


def _keys() -> list[str]:
    return sorted({key for entry in dg._compiled() if entry.patterns for key in entry.keys})


def _plain(line: str) -> set[str]:
    """The line-matching signatures a plain check selects: any of the signature's keys ``in`` the line."""
    return {entry.id for entry in dg._compiled() if entry.patterns and any(k in line for k in entry.keys)}


def _check_text(text: str, keys: list[str]) -> None:
    """The whole text and each distinct line: the set's keys and signatures equal the plain check's."""
    in_text = {key for key in keys if key in text}
    assert present_keys(text) == in_text
    for line in set(text.split("\n")):
        expected = {key for key in in_text if key in line}  # a key absent from the text is in no line
        got = present_keys(line)
        assert got == expected, line[:200]
        assert {entry.id for entry in dg._selected(got)} == _plain(line)


def test_the_key_set_uses_one_pass_and_knows_every_key() -> None:
    keys = _keys()
    assert len(keys) > 100
    key_set = dg._index().keys
    assert key_set.uses_set
    assert key_set.literals == tuple(keys)


@pytest.mark.parametrize("part", ["dev", "clean"])
def test_it_selects_what_key_in_line_selects_on_every_corpus_line(part: str) -> None:
    logs, problems = corpus.load(FOLDER, (part,))
    assert problems == [] and logs
    keys = _keys()
    for log in logs:
        _check_text(log.body, keys)
        _check_text(normalise(log.body), keys)


@pytest.mark.parametrize("shape", sorted(hostile_shapes(HOSTILE_CHARS)))
def test_it_selects_what_key_in_line_selects_on_the_hostile_inputs(shape: str) -> None:
    _check_text(hostile_shapes(HOSTILE_CHARS)[shape](), _keys())


def test_every_key_with_its_neighbours_cut_is_found_exactly() -> None:
    """Each key alone, at the start and end of a text, and with its first or last character cut (then
    it is absent unless another key happens to be inside the cut one)."""
    keys = _keys()
    for key in keys:
        for text in (key, f"x{key}", f"{key}x", f"«{key}»\n"):
            assert key in present_keys(text)
        for cut in (key[1:], key[:-1]):
            assert present_keys(cut) == {k for k in keys if k in cut}


@pytest.mark.parametrize("use_set", [True, False])
def test_nested_overlapping_and_non_ascii_literals(use_set: bool) -> None:
    """Overlapping and nested literals are all reported; UTF-8 and lone surrogates are matched as
    ``in`` does on the text; the direct fallback answers the same as the set."""
    literals = ("NCCL", "NCCL error", "CL e", "error", "显存不足", "段错误", "a.b", "(x)")
    matcher = LiteralSet(literals)
    assert matcher.uses_set
    if not use_set:
        matcher._set = None  # the fallback RE2 refusal would take
    texts = [
        "NCCL error 7",
        "NCCLerror",
        "CUDA 显存不足。段错误",
        "显存不",
        "axb (x) a.b",
        "\ud800NCCL\udfff error",
        "",
        "\n".join(literals),
    ]
    for text in texts:
        expected = {lit for lit in literals if lit in text}
        assert matcher.present(text.encode("utf-8", "surrogatepass")) == expected, text


def test_an_empty_literal_is_refused() -> None:
    with pytest.raises(ValueError, match="empty literal"):
        compile_literals(("gloo", ""))
    assert compile_literals(()).present(b"anything") == frozenset()
