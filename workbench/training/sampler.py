"""Where the next training batch comes from, and how to come back to the same place after a resume.

* :class:`EpochSampler` shuffles indices of a map-style dataset with its own generator, seeded by
  ``(seed, epoch)`` — not the global numpy RNG, so evaluation, checkpoints or user code drawing random
  numbers never change the data order. Its position is two integers ``(epoch, offset)``.
* :class:`BatchSource` turns a dataset (``len`` + ``__getitem__``) or any re-iterable of ready batches
  (e.g. a ``paddle.io.DataLoader``) into ``next_batch()``. For a dataset, resume is exact; for an
  iterable it skips the batches already consumed in the current epoch, which is exact only when the
  iterable yields the same order each time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

Collate = Callable[[list[Any]], Any]


class EpochSampler:
    """Deterministic shuffled batches of ``range(n)``; the last partial batch of an epoch is dropped."""

    def __init__(self, n: int, batch_size: int, seed: int, *, shuffle: bool = True) -> None:
        if n <= 0:
            raise ValueError("the training set is empty")
        self.n = n
        self.batch_size = max(1, min(batch_size, n))
        self.seed = seed
        self.shuffle = shuffle
        self.epoch = 0
        self.offset = 0
        self._order = self._permutation(0)

    def _permutation(self, epoch: int) -> np.ndarray[Any, Any]:
        if not self.shuffle:
            return np.arange(self.n)
        return np.random.default_rng([self.seed % 2**32, epoch]).permutation(self.n)

    def next_indices(self) -> np.ndarray[Any, Any]:
        if self.offset + self.batch_size > self.n:
            self.epoch += 1
            self.offset = 0
            self._order = self._permutation(self.epoch)
        indices = self._order[self.offset : self.offset + self.batch_size]
        self.offset += self.batch_size
        return indices

    def state(self) -> dict[str, int]:
        return {"epoch": self.epoch, "offset": self.offset, "n": self.n, "batch_size": self.batch_size}

    def load_state(self, state: dict[str, int]) -> None:
        if state.get("n") != self.n or state.get("batch_size") != self.batch_size:
            raise ValueError(
                f"the checkpoint was taken with {state.get('n')} samples in batches of {state.get('batch_size')}, "
                f"this run has {self.n} in batches of {self.batch_size}"
            )
        self.epoch = int(state["epoch"])
        self.offset = int(state["offset"])
        self._order = self._permutation(self.epoch)


class BatchSource:
    """``next_batch()`` over a map-style dataset (via :class:`EpochSampler`) or an iterable of batches."""

    def __init__(self, data: Any, *, batch_size: int, seed: int, collate: Collate) -> None:
        self.collate = collate
        self.sampler: EpochSampler | None = None
        self._iterable: Any = None
        self._iterator: Iterator[Any] | None = None
        self.epoch = 0
        self.offset = 0
        if hasattr(data, "__len__") and hasattr(data, "__getitem__") and not _is_loader(data):
            self.dataset = data
            self.sampler = EpochSampler(len(data), batch_size, seed)
        elif hasattr(data, "__iter__"):
            self.dataset = None
            self._iterable = data
        else:
            raise TypeError("train_data must be a dataset (len + getitem) or an iterable of batches")

    @property
    def batch_size(self) -> int | None:
        return self.sampler.batch_size if self.sampler is not None else None

    def next_batch(self) -> Any:
        if self.sampler is not None:
            dataset = self.dataset
            assert dataset is not None
            return self.collate([dataset[int(i)] for i in self.sampler.next_indices()])
        for _ in range(2):
            if self._iterator is None:
                self._iterator = iter(self._iterable)
            try:
                batch = next(self._iterator)
            except StopIteration:
                self._iterator = None
                self.epoch += 1
                self.offset = 0
                continue
            self.offset += 1
            return batch
        raise ValueError("train_data yielded no batches")

    def state(self) -> dict[str, int]:
        if self.sampler is not None:
            return {"kind": 0, **self.sampler.state()}
        return {"kind": 1, "epoch": self.epoch, "offset": self.offset}

    def load_state(self, state: dict[str, int]) -> None:
        if self.sampler is not None:
            self.sampler.load_state({k: v for k, v in state.items() if k != "kind"})
            return
        self.epoch = int(state["epoch"])
        self._iterator = iter(self._iterable)
        for _ in range(int(state["offset"])):
            next(self._iterator)
        self.offset = int(state["offset"])


def _is_loader(data: Any) -> bool:
    """A ``paddle.io.DataLoader`` has ``__len__`` but yields batches, not samples."""
    return type(data).__name__ == "DataLoader" or hasattr(data, "batch_sampler")


def stack_collate(paddle: Any) -> Collate:
    """Stack a list of samples field by field into tensors: ``[(x, y), ...] -> (X, Y)``."""

    def collate(items: list[Any]) -> Any:
        first = items[0]
        if isinstance(first, tuple | list):
            return tuple(_stack([item[i] for item in items], paddle) for i in range(len(first)))
        return (_stack(items, paddle),)

    return collate


def _stack(values: list[Any], paddle: Any) -> Any:
    if isinstance(values[0], paddle.Tensor):
        return paddle.stack(values)
    return paddle.to_tensor(np.stack([np.asarray(v) for v in values]))
