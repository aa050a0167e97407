"""Train/inference parity: export any checkpoint, run it every deployed way, compare, find the pitfalls.

* :mod:`~workbench.inference.source` — the run, its checkpoint, the model rebuilt and its weights loaded
  by name (mismatches recorded);
* :mod:`~workbench.inference.export` — ``export/step-<N>/`` with ``manifest.json`` and ``preprocess.json``;
* :mod:`~workbench.inference.paths` — one module per way of running the model (a :class:`Registry`);
* :mod:`~workbench.inference.engine` — the comparison itself; :mod:`~workbench.inference.findings` — the
  pitfall detectors; :mod:`~workbench.inference.ops` — operator inventory; :mod:`~workbench.inference.matrix`
  — the workspace's hardware × model × version matrix; :mod:`~workbench.inference.report` — reports;
* :mod:`~workbench.inference.foreign` — the same comparison on an export the workbench did not make
  (a ``paddle.jit.save`` prefix, a PaddleX/PaddleOCR inference-model folder);
* :mod:`~workbench.inference.onnx_convert` — paddle2onnx in a child process (its abort is a finding);
  :mod:`~workbench.inference.isolated` — a whole comparison in a child process, for the TUI.

Nothing here imports Paddle at module level.
"""

from workbench.inference.engine import CompareOptions, CompareResult, run_comparison
from workbench.inference.source import CompareInputError

__all__ = ["CompareInputError", "CompareOptions", "CompareResult", "run_comparison"]
