"""Following training logs the workbench did not write (``paddle-workbench attach PATH``).

The registry of log formats lives in :mod:`workbench.attach.parsers` (empty until the feature lands).
"""
