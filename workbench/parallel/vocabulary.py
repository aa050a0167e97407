"""The rest of ``parallelize``'s vocabulary checked against the real model: markers, recompute, amp, pp.

Run by :func:`workbench.parallel.lowering.lower` after the parameter table is settled; it adds findings to
the :class:`~workbench.parallel.lowering.Lowered` it is given and fills its ``layer_markers`` and
``recompute``. What is checked (each a way Paddle 3.3.1 fails late, wrongly or not at all):

* sequence-parallel markers: the mesh has both ``dp`` and ``mp`` (Paddle's split looks both names up
  and raises ``ValueError`` otherwise); every ``SequenceParallelBegin`` has a ``SequenceParallelEnd``
  after it in forward order and the other way round; ``SequenceParallelDisable`` lies inside a range; no
  layer inside a range carries a plan unless a ``SequenceParallelDisable`` layer holds it (Paddle's own
  rule: "DON'T mark any layer in the sp range"); the marked tensor is 3-D ``[b, s, h]`` and its sequence
  length divides over ``mp``; the marked layer runs in forward at all;
* ``PrepareLayerInput/Output``: ``fn: module:function`` names a module next to the training config (or
  an installed one) that defines the function;
* ``recompute``: every match names a layer (nested matches keep the outer layer); a layer with
  parameters whose inputs need no gradient (it takes the batch directly) is refused: Paddle's recompute
  then leaves its parameters without gradients (only a log line says so) and they never train;
* ``amp``: on CPU Paddle's ``auto_cast`` has no effect ("amp_guard can only be enabled on CUDAPlace,
  XPUPlace, and CustomPlace"): a note that the CPU run trains in float32 and the export keeps amp;
* ``pp``: the split layers exist; on CPU refused (Paddle 3.3.1 segfaults in the cross-stage reshard).
"""

from __future__ import annotations

import ast
import difflib
import importlib.util
from pathlib import Path
from typing import Any

from workbench.i18n import t
from workbench.parallel.facts import ModelFacts
from workbench.parallel.lowering import Finding, Lowered, _Where, name_matches
from workbench.parallel.spec import PlanConfig

Loc = tuple[str | int, ...]


def check_vocabulary(
    plan: PlanConfig, facts: ModelFacts, lowered: Lowered, where: _Where, *, device: str
) -> None:
    """Check ``plan``'s markers, recompute, amp and pp on ``facts``; findings go into ``lowered``."""
    check = _Vocabulary(plan, facts, lowered, where)
    check.markers()
    check.sequence_ranges()
    check.recompute()
    check.amp(device)
    check.pipeline(device)


class _Vocabulary:
    def __init__(self, plan: PlanConfig, facts: ModelFacts, lowered: Lowered, where: _Where) -> None:
        self.plan, self.facts, self.lowered, self.where = plan, facts, lowered, where
        self.names = plan.mesh.dim_names
        self.mp = plan.mesh.shape[self.names.index("mp")] if "mp" in self.names else 1
        self.order = {name: i for i, name in enumerate(facts.forward_order)}

    def error(self, code: str, loc: Loc, **values: Any) -> None:
        line, col = self.where.at(*loc)
        self.lowered.errors.append(
            Finding(
                self.where.file,
                line,
                col,
                t(f"parallel.error.{code}", **values),
                t(f"parallel.fix.{code}", **values),
                code,
            )
        )

    def warn(self, code: str, loc: Loc, **values: Any) -> None:
        line, col = self.where.at(*loc)
        self.lowered.warnings.append(
            Finding(self.where.file, line, col, t(f"parallel.warn.{code}", **values), "", code)
        )

    # -- markers -------------------------------------------------------------------------------

    def markers(self) -> None:
        """Each marker's entry for ``parallelize_plan`` and the checks of its layer alone."""
        sp_mesh_reported: set[int] = set()
        for index, layer in self.lowered.markers:
            rule = self.plan.layers[index]
            entry: dict[str, Any] = {"plan": rule.plan}
            if rule.need_transpose is not None:
                entry["need_transpose"] = rule.need_transpose
            if rule.fn is not None:
                entry["fn"] = rule.fn
            self.lowered.layer_markers.setdefault(layer, []).append(entry)
            if rule.plan.startswith("SequenceParallel"):
                if ("dp" not in self.names or "mp" not in self.names) and index not in sp_mesh_reported:
                    sp_mesh_reported.add(index)
                    self.error(
                        "sp_mesh", ("layers", index, "plan"), plan=rule.plan, names=", ".join(self.names)
                    )
                self._sequence_tensor(index, rule.plan, layer, rule.need_transpose is not False)
        for index, rule in enumerate(self.plan.layers):
            if rule.fn is not None:
                self._prepare_fn(index, rule.plan, rule.fn)

    def _sequence_tensor(self, index: int, plan: str, layer: str, transpose: bool) -> None:
        """The tensor a marker splits or joins is ``[b, s, h]``; a split sequence divides over mp."""
        if not self.order:
            return  # facts without a forward pass: nothing known about the tensors
        loc: Loc = ("layers", index, "match")
        if layer not in self.order:
            self.error("sp_not_called", loc, plan=plan, layer=layer)
            return
        side = "output" if plan == "SequenceParallelBegin" else "input"
        shapes = self.facts.output_shapes if side == "output" else self.facts.input_shapes
        shape = shapes.get(layer)
        if shape is None:
            return
        if len(shape) != 3:
            self.error("sp_ndim", loc, plan=plan, layer=layer, side=side, shape=str(list(shape)))
            return
        if plan in ("SequenceParallelBegin", "SequenceParallelEnable"):
            seq = shape[1] if (transpose or plan == "SequenceParallelEnable") else shape[0]
            if self.mp > 1 and seq % self.mp:
                self.error("sp_seq_not_divisible", loc, layer=layer, seq=seq, ranks=self.mp)

    def _prepare_fn(self, index: int, plan: str, fn: str) -> None:
        """``module:function`` is found from the training config's folder (as a custom task's entry)."""
        module, _, attr = fn.partition(":")
        folder = self.plan.train_path(self.where.file).resolve().parent
        loc: Loc = ("layers", index, "fn")
        relative = Path(*module.split("."))
        candidates = [
            base / path
            for base in (folder, Path.cwd())
            for path in (relative.with_suffix(".py"), relative / "__init__.py")
        ]
        source = next((path for path in candidates if path.is_file()), None)
        if source is None:
            top = module.split(".")[0]
            if importlib.util.find_spec(top) is None:
                self.error("prepare_module", loc, plan=plan, fn=fn, module=module, folder=str(folder))
            return  # an installed package: importing it to look inside is the run's job
        try:
            tree = ast.parse(source.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, ValueError):
            return  # the run's import reports it, located in the user's file
        defined = _top_level_names(tree)
        name = attr.split(".")[0]
        if name not in defined:
            close = difflib.get_close_matches(name, sorted(defined), n=3, cutoff=0.5)
            self.error(
                "prepare_function",
                loc,
                plan=plan,
                fn=fn,
                module=str(source),
                function=name,
                close=", ".join(close) or "-",
            )

    # -- sequence-parallel ranges --------------------------------------------------------------

    def sequence_ranges(self) -> None:
        """Begin/End pair up in forward order; Disable lies in a range; nothing else is marked in one."""
        kinds: dict[str, list[tuple[int, str]]] = {}
        for index, layer in self.lowered.markers:
            kinds.setdefault(self.plan.layers[index].plan, []).append((index, layer))
        begins = kinds.get("SequenceParallelBegin", [])
        ends = kinds.get("SequenceParallelEnd", [])
        for index, layer in begins if not ends else ():
            self.error("sp_unpaired_begin", ("layers", index, "plan"), layer=layer)
        for index, layer in ends if not begins else ():
            self.error("sp_unpaired_end", ("layers", index, "plan"), layer=layer)
        if not begins or not ends or not self.order:
            return
        ranges = self._ranges(begins, ends)
        for index, layer in kinds.get("SequenceParallelDisable", []):
            if layer in self.order and not any(self._inside(layer, r) for r in ranges):
                self.error("sp_disable_outside", ("layers", index, "plan"), layer=layer)
        disabled = [layer for _, layer in kinds.get("SequenceParallelDisable", [])]
        marked: dict[str, Loc] = {  # Prepare hooks are the user's own code: they may expect the split
            layer: ("layers", idx, "match")
            for idx, layer in self.lowered.markers
            if self.plan.layers[idx].plan.startswith("SequenceParallel")
        }
        for name in self.lowered.layer_plans:
            marked.setdefault(name, self._rule_of(name))
        self.lowered.sequence_split = [
            name
            for name in self.facts.forward_order
            if not any(_within(name, d) for d in disabled) and any(self._inside(name, r) for r in ranges)
        ]
        for layer, loc in marked.items():
            if layer in disabled or any(_within(layer, d) for d in disabled):
                continue
            for begin, end in ranges:
                if self._inside(layer, (begin, end)):
                    self.error("sp_marked_inside", loc, layer=layer, begin=begin, end=end)
                    break

    def _ranges(self, begins: list[tuple[int, str]], ends: list[tuple[int, str]]) -> list[tuple[str, str]]:
        """``(begin layer, end layer)`` pairs: each Begin with the first End after it in forward order."""
        ranges: list[tuple[str, str]] = []
        called_ends = sorted((self.order[e], i, e) for i, e in ends if e in self.order)
        first_begin = min((self.order[b] for _, b in begins if b in self.order), default=None)
        for _, index, end in called_ends:
            if first_begin is not None and self.order[end] < first_begin:
                before = min((b for _, b in begins if b in self.order), key=self.order.__getitem__)
                self.error("sp_order", ("layers", index, "match"), end=end, begin=before)
        for _, begin in begins:
            if begin not in self.order:
                continue
            after = [e for pos, _, e in called_ends if pos > self.order[begin] and not _within(e, begin)]
            if after:
                ranges.append((begin, after[0]))
        return ranges

    def _inside(self, layer: str, pair: tuple[str, str]) -> bool:
        """Whether ``layer`` runs after ``begin`` finished and before ``end`` starts."""
        begin, end = pair
        if layer not in self.order or _within(layer, begin) or _within(layer, end):
            return False
        return self.order[begin] < self.order[layer] < self.order[end]

    def _rule_of(self, layer: str) -> Loc:
        for index, rule in enumerate(self.plan.layers):
            if rule.plan == self.lowered.layer_plans.get(layer) and name_matches(rule.match, layer):
                return ("layers", index, "match")
        return ("layers",)

    # -- recompute, amp, pipeline --------------------------------------------------------------

    def recompute(self) -> None:
        """Every ``recompute`` match names a layer; the layers run in model order, outermost only."""
        names = [layer.name for layer in self.facts.layers]
        chosen: list[str] = []
        for index, rule in enumerate(self.plan.recompute):
            matched = [name for name in names if name_matches(rule.match, name)]
            if not matched:
                close = difflib.get_close_matches(rule.match, names, n=3, cutoff=0.4)
                self.error(
                    "recompute_matches_nothing",
                    ("recompute", index, "match"),
                    pattern=rule.match,
                    close=", ".join(close) or ", ".join(names[:6]),
                )
            chosen.extend(name for name in matched if name not in chosen)
        self.lowered.recompute = [
            name
            for name in names
            if name in chosen and not any(o != name and _within(name, o) for o in chosen)
        ]
        for name in self.lowered.recompute:
            owns = any(_within(p.layer, name) for p in self.facts.params)
            if owns and self.facts.input_needs_grad.get(name) is False:
                index = next(i for i, r in enumerate(self.plan.recompute) if name_matches(r.match, name))
                self.error("recompute_no_grad_input", ("recompute", index, "match"), layer=name)

    def amp(self, device: str) -> None:
        amp = self.plan.amp
        if amp is not None and device == "cpu":
            self.warn("cpu_amp", ("amp",), level=amp.level, dtype=amp.dtype)

    def pipeline(self, device: str) -> None:
        pp = self.plan.pp
        if pp is None:
            return
        names = [layer.name for layer in self.facts.layers]
        wanted: list[tuple[str, Loc]] = []
        if isinstance(pp.split_spec, str):
            stages = [
                n
                for n in names
                if n.startswith(pp.split_spec + ".") and n.count(".") == pp.split_spec.count(".") + 1
            ]
            if pp.split_spec not in names or not stages:
                wanted.append((pp.split_spec, ("pp", "split_spec")))
            else:
                ranks = self.plan.mesh.shape[self.names.index("pp")]
                if len(stages) < ranks:
                    self.error(
                        "pp_too_few_layers",
                        ("pp", "split_spec"),
                        name=pp.split_spec,
                        count=len(stages),
                        ranks=ranks,
                    )
        else:
            wanted.extend((name, ("pp", "split_spec", name)) for name in pp.split_spec)
        if pp.global_spec is not None:
            wanted.append((pp.global_spec, ("pp", "global_spec")))
        for name, loc in wanted:
            if name not in names:
                close = difflib.get_close_matches(name, names, n=3, cutoff=0.4)
                self.error(
                    "pp_matches_nothing", loc, name=name, close=", ".join(close) or ", ".join(names[:6])
                )
        if device == "cpu":
            self.error("cpu_pipeline", ("pp",))


def _within(name: str, outer: str) -> bool:
    """``name`` is ``outer`` or one of its sublayers."""
    return name == outer or name.startswith(outer + ".")


def _top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names
