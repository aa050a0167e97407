"""THE UI: the Textual app, its screens and widgets.

This folder sits at the top of the repository but installs as ``workbench.screens`` (see
``[tool.setuptools] package-dir`` in pyproject.toml), so site-packages gets no generic ``screens``
package. Screens are thin: they render engine results and send user intent back to the engine.
"""
