"""Placements as the plan file spells them: ``Replicate()``, ``Shard(<dim>)``, ``Partial()`` / ``Partial(avg)``.

The text is Paddle's own constructor syntax, so a plan reads like the code it becomes
(``dist.Shard(1)``); :func:`parse_placement` turns it into a small value the rest of the engine can
reason about without importing Paddle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PATTERN = re.compile(
    r"\s*(?:(?P<r>Replicate)\(\s*\)|(?P<s>Shard)\(\s*(?P<dim>-?\d+)\s*\)"
    r"|(?P<p>Partial)\(\s*(?P<red>avg|sum|max|min)?\s*\))\s*",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Placement:
    """One mesh dimension's placement of a tensor."""

    kind: str
    """``replicate``, ``shard`` or ``partial``."""
    dim: int | None = None
    """The tensor dimension split by ``Shard``."""
    reduce: str = "sum"
    """How ``Partial`` values combine (``sum`` or ``avg``)."""

    def __str__(self) -> str:
        if self.kind == "shard":
            return f"Shard({self.dim})"
        if self.kind == "partial":
            return "Partial()" if self.reduce == "sum" else f"Partial({self.reduce})"
        return "Replicate()"

    @property
    def is_shard(self) -> bool:
        return self.kind == "shard"


REPLICATE = Placement("replicate")


def parse_placement(text: str) -> Placement | None:
    """``"Shard(1)"`` → ``Placement("shard", 1)``; ``None`` when the text is not a placement."""
    match = _PATTERN.fullmatch(text)
    if match is None:
        return None
    if match.group("r"):
        return REPLICATE
    if match.group("s"):
        return Placement("shard", int(match.group("dim")))
    return Placement("partial", reduce=(match.group("red") or "sum").lower())


def local_shape(
    shape: tuple[int, ...], placements: tuple[Placement, ...], mesh: tuple[int, ...]
) -> tuple[int, ...]:
    """The shape one rank holds: each sharded dim divided by its mesh dim (rounded up, as Paddle splits)."""
    out = list(shape)
    for placement, size in zip(placements, mesh, strict=False):
        if placement.is_shard and placement.dim is not None and 0 <= placement.dim < len(out):
            out[placement.dim] = -(-out[placement.dim] // size)
    return tuple(out)
