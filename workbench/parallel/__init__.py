"""Sharding plans: say how tensors are split, check it against the real model, run it, prove parity.

* :mod:`~workbench.parallel.spec` — the plan file (Paddle's ``dist.parallelize`` vocabulary plus
  per-parameter placements), :mod:`~workbench.parallel.placements` — ``Replicate()`` / ``Shard(d)`` /
  ``Partial()``;
* :mod:`~workbench.parallel.facts` — the model as data (built on the CPU from the training config);
* :mod:`~workbench.parallel.lowering` — both levels lowered to one parameter table, every hazard found
  with its ``file:line:col`` and fix; :mod:`~workbench.parallel.estimate` — memory and communication per
  rank; :mod:`~workbench.parallel.validate` — the three together (``plan validate``);
* :mod:`~workbench.parallel.apply` and :mod:`~workbench.parallel.worker` — inside a rank;
  :mod:`~workbench.parallel.launch` — ``plan run`` (launcher, stall watchdog);
* :mod:`~workbench.parallel.parity` — ``plan parity``; :mod:`~workbench.parallel.export` — ``plan export``.

Paddle is imported only inside functions, by the code that runs a rank or builds the model.
"""
