"""Distributed checkpoints of a plan run: Paddle's distributed state dict, committed atomically.

Layout: ``<run>/dist_checkpoints/step-<N>/`` is a :class:`~workbench.training.checkpoints.CheckpointStore`
folder (manifest with sha256 per file, fsync, one ``os.replace``) holding what
``paddle.distributed.save_state_dict`` writes — ``0.metadata`` (every tensor's global shape and each
shard's offset, the placements made concrete) and ``<rank>_0.distcp`` (that rank's shards; a replicated
tensor is stored once) — plus ``rank-<r>.state.pkl`` per rank (step, sampler position, RNG states, LR
scheduler) and in the manifest the mesh and placements it was saved under. Every rank writes into the
same work folder ``step-<N>.tmp-<pid of rank 0>``; after a barrier rank 0 seals and commits it, so a
kill at any moment leaves the previous checkpoint whole and the half-written one ignored.

Loading does not go through ``paddle.distributed.load_state_dict``: in Paddle 3.3.1 on CPU ranks it
moves any shard another rank saved through ``Tensor.cuda()`` and fails ("No available device found"),
even for the same plan (docs/paddle-notes.md). The ranks of a local run share the filesystem, so each
rank reads the metadata and the shard files itself, assembles the global tensors and keeps its own slice
under the placements of the plan it runs now — the reshard Paddle's load would do, from the same
metadata, without collectives. ``plan merge`` uses the same reader for the single-card checkpoint.
Paddle is imported by the caller and passed in.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from workbench.config.training import TrainingConfig
from workbench.i18n import t
from workbench.inference.preprocess import preprocess_identity
from workbench.runs import RunStore, read_run_config, run_name
from workbench.training.checkpoints import (
    MANIFEST,
    CheckpointInfo,
    CheckpointStore,
    read_manifest,
    verify_checkpoint,
)
from workbench.training.plan import PrepareError, ResumePoint

FOLDER = "dist_checkpoints"
FORMAT = "paddle-dist-state-dict"
METADATA_FILE = "0.metadata"
MODEL_PREFIX = "model."
OPTIMIZER_PREFIX = "optimizer."
STATE_FORMAT = 1


def state_file(rank: int) -> str:
    return f"rank-{rank}.state.pkl"


def store_of(run_dir: Path, keep: int | None = None) -> CheckpointStore:
    return CheckpointStore(run_dir / FOLDER, keep=keep)


def is_tensor(value: Any, paddle: Any) -> bool:
    return isinstance(value, paddle.Tensor)


def flat_state(
    model_state: Mapping[str, Any], optimizer_state: Mapping[str, Any], paddle: Any
) -> dict[str, Any]:
    """One flat ``{"model.<name>"|"optimizer.<name>": tensor}`` dict (``save_state_dict`` takes no
    nesting on load); the optimizer's non-tensor entries (its LR scheduler) go into the rank state."""
    flat = {MODEL_PREFIX + k: v for k, v in model_state.items() if is_tensor(v, paddle)}
    flat.update({OPTIMIZER_PREFIX + k: v for k, v in optimizer_state.items() if is_tensor(v, paddle)})
    return flat


def layout_of(state: Mapping[str, Any]) -> dict[str, list[str]]:
    """``{name: [placement, ...]}`` of the distributed tensors in ``state`` (what the manifest records)."""
    out: dict[str, list[str]] = {}
    for name, value in state.items():
        is_dist = getattr(value, "is_dist", None)
        if callable(is_dist) and is_dist():
            out[name] = [str(p) for p in value.placements]
    return out


@dataclass(frozen=True)
class SavedLayout:
    """How a distributed checkpoint was laid out when it was saved (from its manifest)."""

    world: int
    mesh_shape: tuple[int, ...]
    dim_names: tuple[str, ...]
    placements: Mapping[str, Sequence[str]]

    @classmethod
    def read(cls, checkpoint: Path) -> SavedLayout:
        doc = read_manifest(checkpoint).get("dist") or {}
        return cls(
            world=int(doc.get("world", 1)),
            mesh_shape=tuple(int(v) for v in doc.get("mesh_shape") or ()),
            dim_names=tuple(str(v) for v in doc.get("dim_names") or ()),
            placements={str(k): [str(p) for p in v] for k, v in (doc.get("placements") or {}).items()},
        )

    def describe(self) -> str:
        mesh = "×".join(map(str, self.mesh_shape)) or "-"
        return f"{self.world} ranks, mesh {mesh} [{', '.join(self.dim_names)}]"


def save(
    store: CheckpointStore,
    step: int,
    *,
    tensors: Mapping[str, Any],
    rank_state: Mapping[str, Any],
    meta: Mapping[str, Any],
    paddle: Any,
    pause_s: float = 0.0,
) -> CheckpointInfo:
    """Save one distributed checkpoint from every rank (a collective: all ranks call it at ``step``).

    ``pause_s``: sleep that long with the files written but not committed (the ``slow_checkpoint``
    fault: a test kills the job there)."""
    dist = paddle.distributed
    world = dist.get_world_size()
    rank = dist.get_rank() if world > 1 else 0
    owners: list[Any] = []
    if world > 1:
        if not dist.is_initialized():
            dist.init_parallel_env()  # what save_state_dict does; the pid exchange comes first
        dist.all_gather_object(owners, os.getpid())
    owner = int(owners[0]) if owners else os.getpid()
    tmp = store.directory / f"step-{step}.tmp-{owner}"
    if rank == 0:
        tmp = store.begin(step, owner)
    if world > 1:
        dist.barrier()
    dist.save_state_dict(dict(tensors), str(tmp), unique_id=0)
    state_path = tmp / state_file(rank)
    with open(state_path, "wb") as fh:
        pickle.dump(dict(rank_state), fh, protocol=pickle.HIGHEST_PROTOCOL)
        fh.flush()
        os.fsync(fh.fileno())
    if pause_s > 0:
        time.sleep(pause_s)
    if world > 1:
        dist.barrier()  # every rank's shards are on disk before rank 0 hashes them
    info: CheckpointInfo | None = None
    if rank == 0:
        for lock in tmp.glob("*.lock"):  # save_state_dict's metadata lock, not part of the checkpoint
            with contextlib.suppress(OSError):
                lock.unlink()
        info = store.seal(tmp, step, {**meta, "format_dist": FORMAT})
    if world > 1:
        dist.barrier()  # committed before any rank goes on (or saves the next one)
    if info is None:
        final = store.directory / f"step-{step}"
        info = CheckpointInfo(final, step, read_manifest(final))
    return info


def _file_arrays(folder: Path, name: str, cache: dict[str, dict[str, Any]], paddle: Any) -> dict[str, Any]:
    if name not in cache:
        cache[name] = paddle.load(str(folder / name), return_numpy=True)
    return cache[name]


def read_global(checkpoint: Path, paddle: Any, prefix: str | None = None) -> dict[str, np.ndarray[Any, Any]]:
    """Every tensor of a distributed checkpoint assembled to its global shape (numpy), keyed as saved;
    with ``prefix`` only those keys, the prefix taken off. ``ValueError`` on a layout it cannot read."""
    metadata = paddle.load(str(checkpoint / METADATA_FILE))
    out: dict[str, np.ndarray[Any, Any]] = {}
    cache: dict[str, dict[str, Any]] = {}
    for key, shards in metadata.state_dict_metadata.items():
        if prefix is not None and not key.startswith(prefix):
            continue
        first = shards[0]
        out[key] = np.zeros(tuple(first.global_shape), dtype=str(first.dtype))
    for index, file_name in metadata.storage_metadata.items():
        key = index.tensor_key
        if key not in out:
            continue
        if index.is_flattened:
            raise ValueError(f"{checkpoint}: {key} is saved flattened (a sharded optimizer state)")
        value = np.asarray(_file_arrays(checkpoint, file_name, cache, paddle)[key])
        where = tuple(
            slice(int(o), int(o) + int(n))
            for o, n in zip(index.global_offset, index.local_shape, strict=True)
        )
        out[key][where] = value.reshape(tuple(int(n) for n in index.local_shape))
    if prefix is None:
        return out
    return {key[len(prefix) :]: value for key, value in out.items()}


def local_slice(
    global_value: np.ndarray[Any, Any], placements: Sequence[Any], mesh: Any, rank: int
) -> np.ndarray[Any, Any]:
    """This rank's part of a global tensor under ``placements`` on ``mesh`` (even splits: validation
    refuses uneven ones before launch)."""
    ids = np.asarray(mesh.process_ids).reshape(tuple(mesh.shape))
    where = np.argwhere(ids == rank)
    if not len(where):
        return global_value
    coord = where[0]
    value = global_value
    for mesh_dim, placement in enumerate(placements):
        is_shard = getattr(placement, "is_shard", None)
        if not (callable(is_shard) and is_shard()):
            continue
        dim = int(placement.get_dim())
        parts = int(mesh.shape[mesh_dim])
        size = value.shape[dim] // parts
        index = [slice(None)] * value.ndim
        index[dim] = slice(int(coord[mesh_dim]) * size, (int(coord[mesh_dim]) + 1) * size)
        value = value[tuple(index)]
    return value


def load_into(
    checkpoint: Path, targets: Mapping[str, Any], rank: int, paddle: Any
) -> tuple[list[str], list[str]]:
    """Set every tensor of ``targets`` (flat keys, as :func:`flat_state` makes them) in place to its
    slice of the checkpoint's global value under its own placements. Returns ``(not in the checkpoint,
    in the checkpoint but not a target)``."""
    saved = read_global(checkpoint, paddle)
    missing: list[str] = []
    for key, target in targets.items():
        if key not in saved:
            missing.append(key)
            continue
        value = saved[key]
        is_dist = getattr(target, "is_dist", None)
        if callable(is_dist) and is_dist():
            local = local_slice(value, target.placements, target.process_mesh, rank)
            target._local_value().set_value(np.ascontiguousarray(local).astype(value.dtype))
        else:
            target.set_value(value)
    unused = sorted(k for k in saved if k not in targets)
    return missing, unused


def read_rank_state(checkpoint: Path, rank: int) -> dict[str, Any]:
    """Rank ``rank``'s state file, or rank 0's when the checkpoint had fewer ranks (every rank draws
    the same global batches from the same seed, so rank 0's sampler and RNG states serve any rank)."""
    path = checkpoint / state_file(rank)
    if not path.is_file():
        path = checkpoint / state_file(0)
    with open(path, "rb") as fh:
        state = pickle.load(fh)  # noqa: S301 - the user's own checkpoint, verified by sha256
    if not isinstance(state, dict):
        raise ValueError(f"{path}: not a rank state")
    return state


def find_resume(ref: str, store: RunStore, name: str) -> ResumePoint:
    """``plan run --resume``: ``latest`` (the newest verified distributed checkpoint among this plan's
    runs), a run id, prefix or folder (its newest verified one), or a ``dist_checkpoints/step-<N>``
    folder. Raises :class:`PrepareError` with every reason when nothing fits."""
    if not ref.strip():
        raise PrepareError([t("training.resume.empty")])
    path = Path(ref).expanduser()
    if (path / MANIFEST).is_file():
        problems = verify_checkpoint(path)
        if problems or read_manifest(path).get("format_dist") != FORMAT:
            raise PrepareError([t("parallel.resume.not_dist", path=str(path)), *problems])
        return ResumePoint(path.parent.parent, path, int(read_manifest(path)["step"]))
    skipped: list[str] = []
    if ref == "latest":
        candidates = [d for d in store.run_dirs() if run_name(d) == name]
    else:
        found = store.resolve(str(path) if path.is_dir() else ref)
        if found is None:
            raise PrepareError([store.miss_message(ref)])
        candidates = [found]
    for run_dir in candidates:
        for info in reversed(store_of(run_dir).committed()):
            problems = verify_checkpoint(info.path)
            if problems:
                skipped.append(
                    t("training.resume.skipped", path=str(info.path), problems="; ".join(problems))
                )
                continue
            return ResumePoint(run_dir, info.path, info.step, tuple(skipped))
    if ref == "latest":
        raise PrepareError(
            [t("parallel.resume.no_latest", name=name, workspace=str(store.workspace)), *skipped]
        )
    raise PrepareError([t("parallel.resume.none", run=str(candidates[0])), *skipped])


def reshard_notice(
    point: ResumePoint, world: int, mesh_shape: Sequence[int], dim_names: Sequence[str]
) -> str | None:
    """What a resume under another plan does, in words (``None``: the same layout, nothing to say)."""
    saved = SavedLayout.read(point.checkpoint)
    now = SavedLayout(world, tuple(mesh_shape), tuple(dim_names), {})
    if (saved.world, saved.mesh_shape, saved.dim_names) == (now.world, now.mesh_shape, now.dim_names):
        return None
    return t("parallel.resume.reshard", step=point.step, saved=saved.describe(), now=now.describe())


@dataclass(frozen=True)
class Merged:
    """What ``plan merge`` wrote into the plan run's folder."""

    checkpoint: CheckpointInfo
    export: Path | None
    export_error: str | None


def plan_run_source(run_dir: Path) -> tuple[TrainingConfig, Path | None, Path]:
    """A plan run's training config (its ``parallel`` section off), data folder and config folder, from
    ``run.yaml``; ``ValueError`` when ``run_dir`` is not a plan run."""
    config = dict(read_run_config(run_dir))
    parallel = config.pop("parallel", None)
    if not isinstance(parallel, dict) or not parallel.get("train_file"):
        raise ValueError(t("parallel.merge.not_plan_run", run=str(run_dir)))
    train_file = Path(str(parallel["train_file"]))
    cfg = TrainingConfig.model_validate(config)
    return cfg, cfg.data_dir(train_file), train_file.parent


def merge(run_dir: Path, checkpoint: CheckpointInfo, paddle: Any) -> Merged:
    """Assemble ``checkpoint`` (a distributed one of plan run ``run_dir``) into a single-card checkpoint
    ``<run>/checkpoints/step-<N>`` — the files a single-card run saves, so ``compare`` and ``serve`` read
    it as theirs (the optimizer entries keep the names the distributed optimizer gave them) — then export
    the model as a run's export."""
    from workbench.inference.export import code_of, write_export_records
    from workbench.training.export import default_input_spec, export_model
    from workbench.training.loop import MODEL_FILE, OPTIMIZER_FILE, STATE_FILE
    from workbench.training.sampler import stack_collate
    from workbench.training.tasks import build_parts

    cfg, data_dir, config_dir = plan_run_source(run_dir)
    with paddle.utils.unique_name.guard():
        parts = build_parts(cfg, data_dir=data_dir, config_dir=config_dir, paddle=paddle)
    model = parts.model
    weights = read_global(checkpoint.path, paddle, prefix=MODEL_PREFIX)
    own = model.state_dict()
    missing = sorted(k for k in own if k not in weights)
    unused = sorted(k for k in weights if k not in own)
    if missing or unused:
        raise ValueError(
            t("parallel.resume.mismatch", checkpoint=str(checkpoint.path),
              missing=", ".join(missing) or "-", unused=", ".join(unused) or "-")
        )  # fmt: skip
    model.set_state_dict({k: paddle.to_tensor(v) for k, v in weights.items()})
    optimizer = {
        k: paddle.to_tensor(v) for k, v in read_global(checkpoint.path, paddle, OPTIMIZER_PREFIX).items()
    }
    state = read_rank_state(checkpoint.path, 0)
    if state.get("lr_scheduler") is not None:
        optimizer["LR_Scheduler"] = state["lr_scheduler"]

    def write_state(path: Path) -> None:
        with open(path, "wb") as fh:
            pickle.dump(state, fh, protocol=pickle.HIGHEST_PROTOCOL)

    manifest = checkpoint.manifest
    meta = {key: manifest.get(key) for key in ("run_id", "task", "preprocess", "loss")}
    meta["merged_from"] = str(checkpoint.path)
    info = CheckpointStore(run_dir / "checkpoints", keep=None).save(
        checkpoint.step,
        {
            MODEL_FILE: lambda path: paddle.save(model.state_dict(), str(path)),
            OPTIMIZER_FILE: lambda path: paddle.save(optimizer, str(path)),
            STATE_FILE: write_state,
        },
        meta,
    )
    try:
        spec = parts.input_spec
        if spec is None:
            collate = parts.collate or stack_collate(paddle)
            first = collate([parts.train_data[0]])
            spec = default_input_spec(first[0] if isinstance(first, tuple | list) else first, paddle)
        prefix = export_model(model, run_dir, spec, paddle)
        write_export_records(
            prefix,
            step=checkpoint.step,
            preprocess=preprocess_identity(cfg),
            input_spec=spec,
            checkpoint=info,
            paddle_version=str(paddle.__version__),
            code=code_of(model, cfg, config_dir),
        )
    except Exception as exc:  # noqa: BLE001 - the checkpoint stands; compare can export it itself
        return Merged(info, None, f"{type(exc).__name__}: {exc}")
    return Merged(info, prefix, None)
