"""Release verification: the tutorial's checklist run against a workspace (``paddle-workbench verify``).

* :mod:`~workbench.verify.config` — ``verify.yaml`` (target devices, tolerances);
* :mod:`~workbench.verify.model` — one checklist item (pass / fail / not run, evidence, command);
* :mod:`~workbench.verify.layers` — one module per checklist layer, registered in ``LAYERS``;
* :mod:`~workbench.verify.engine` — :func:`collect`, the one function ``verify`` and the home screen's
  path dashboard call; :mod:`~workbench.verify.junit` — JUnit XML for CI;
  :mod:`~workbench.verify.path` — the dashboard's steps from the same items.

Nothing here imports Paddle at module level; only ``collect(deep=True)`` does (to load a checkpoint).
"""

from workbench.verify.config import VerifyConfig
from workbench.verify.engine import VerifyResult, collect, last_verify, write_report
from workbench.verify.model import FAIL, NOT_RUN, PASS, Item

__all__ = [
    "FAIL",
    "NOT_RUN",
    "PASS",
    "Item",
    "VerifyConfig",
    "VerifyResult",
    "collect",
    "last_verify",
    "write_report",
]
