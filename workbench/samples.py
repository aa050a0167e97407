"""The packaged sample configs, usable wherever the tool is started.

The samples ship as package data (``workbench.sample_configs``, the repository's ``sample_configs/``
folder). Their data paths are relative to the config file (``../demo_data/cls``), and the installed
package folder may be read-only, so a sample is used through a copy in the workspace
(``<workspace>/samples/NAME.yaml``): the demo data is then generated under ``<workspace>/demo_data``.
A path that exists is always used as given; only a name that matches no file falls back to a sample.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

SAMPLES_PACKAGE = "workbench.sample_configs"
SAMPLES_DIR = "samples"
PACKAGED_DIR = ".packaged"


def sample_names() -> list[str]:
    """File names of the packaged training samples (``train_*.yaml``), sorted."""
    root = resources.files(SAMPLES_PACKAGE)
    return sorted(
        entry.name
        for entry in root.iterdir()
        if entry.name.startswith("train_") and entry.name.endswith(".yaml")
    )


def sample_text(name: str) -> str:
    return resources.files(SAMPLES_PACKAGE).joinpath(name).read_text(encoding="utf-8")


def materialize_sample(name: str, workspace: Path) -> Path:
    """The workspace copy of sample ``name``: written when missing, refreshed when the packaged sample
    changed and the copy is still the packaged text it was made from; a copy the user edited and saved
    is theirs and is never overwritten (``<samples>/.packaged/NAME`` keeps the text last copied)."""
    text = sample_text(name)
    target = workspace / SAMPLES_DIR / name
    record = target.parent / PACKAGED_DIR / name
    current = _read(target)
    if current is not None and current != text and current != _read(record):
        return target  # edited by the user (or made before copies were recorded): keep it
    if current != text:
        _write(target, text)
    if _read(record) != text:
        _write(record, text)
    return target


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def _write(path: Path, text: str) -> None:
    """Atomic: a reader sees the old text or the new, never half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def sample_config_paths(workspace: Path) -> list[Path]:
    """Every packaged sample, as a workspace copy ready to train."""
    return [materialize_sample(name, workspace) for name in sample_names()]


def find_sample(ref: str) -> str | None:
    """The sample a bare name means (``train_cls_demo``, ``train_cls_demo.yaml``), else ``None``."""
    name = Path(ref).name
    if Path(ref).name != ref:
        return None  # a path with folders means that path, never a sample
    candidates = {name, f"{name}.yaml"}
    return next((n for n in sample_names() if n in candidates), None)


def resolve_config(ref: str | os.PathLike[str], workspace: Path) -> Path:
    """``ref`` as given when that file exists; a sample's workspace copy when it names one."""
    path = Path(ref)
    if path.exists():
        return path
    sample = find_sample(str(ref))
    return materialize_sample(sample, workspace) if sample else path
