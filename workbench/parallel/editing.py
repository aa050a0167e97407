"""Edit a plan's YAML text the way the plan screen's keys do, keeping the user's comments and layout.

ruamel.yaml's round-trip mode keeps comments, key order, flow style and quotes; only the entry being
changed is touched. A ``layers`` entry is found by its ``match`` being exactly the layer's name; a
``params`` entry by its ``match`` being exactly the parameter's name. New entries are written in the
flow style the samples use (``{match: fc1, plan: ColWiseParallel}``).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)  # "  - {match: ...}", as the samples are written
    return yaml


def _load(text: str) -> Any:
    return _yaml().load(text)


def _dump(doc: Any) -> str:
    out = io.StringIO()
    _yaml().dump(doc, out)
    return out.getvalue()


def _entry(match: str, key: str, value: Any) -> CommentedMap:
    item = CommentedMap([("match", match), (key, value)])
    item.fa.set_flow_style()
    return item


def _section(doc: Any, name: str) -> CommentedSeq:
    section = doc.get(name)
    if isinstance(section, CommentedSeq):
        return section
    created = CommentedSeq()
    doc[name] = created
    return created


def set_layer_plan(text: str, layer: str, plan: str | None) -> str:
    """``text`` with ``layer``'s plan set to ``plan`` (``None``: its ``layers`` entry removed)."""
    doc = _load(text)
    layers = _section(doc, "layers")
    for index, item in enumerate(layers):
        if isinstance(item, dict) and item.get("match") == layer:
            if plan is None:
                del layers[index]
            else:
                item["plan"] = plan
            break
    else:
        if plan is not None:
            layers.append(_entry(layer, "plan", plan))
    if not layers:
        del doc["layers"]
    return _dump(doc)


def set_param_placements(text: str, param: str, placements: Sequence[str] | None) -> str:
    """``text`` with a ``params`` rule for exactly ``param`` (``None``: that rule removed)."""
    doc = _load(text)
    params = _section(doc, "params")
    value = CommentedSeq([DoubleQuotedScalarString(p) for p in placements or ()])
    value.fa.set_flow_style()
    for index, item in enumerate(params):
        if isinstance(item, dict) and item.get("match") == param:
            if placements is None:
                del params[index]
            else:
                item["placements"] = value
            break
    else:
        if placements is not None:
            params.append(_entry(param, "placements", value))
    if not params:
        del doc["params"]
    return _dump(doc)
