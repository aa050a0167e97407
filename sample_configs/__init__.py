"""The sample training configs, shipped with the package as ``workbench.sample_configs``.

The YAML files next to this one are the source of truth; :mod:`workbench.samples` finds them with
``importlib.resources`` so the TUI's ``t`` dialog and ``paddle-workbench train NAME`` offer them
wherever the tool is started, not only inside the repository.
"""
