"""Package list for setuptools: ``screens/`` and ``themes/`` install under the ``workbench`` namespace.

``pyproject.toml`` holds all metadata and the ``package-dir`` mapping; this file only lists the packages,
because automatic discovery cannot follow a mapping from top-level folders into ``workbench.*``.
"""

from setuptools import find_packages, setup


def _mapped(folder: str) -> list[str]:
    return [f"workbench.{name}" for name in find_packages(include=[folder, f"{folder}.*"])]


setup(
    packages=find_packages(include=["workbench", "workbench.*"])
    + _mapped("screens")
    + _mapped("themes")
    + _mapped("sample_configs")
)
