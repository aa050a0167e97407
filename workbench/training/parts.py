"""What a task hands the training loop: :class:`TrainParts`, also the return type of a custom ``build``.

A ``task: custom`` config names ``entry: package.module:build``; the workbench imports it (the config's
folder is put on ``sys.path`` first) and calls ``build(cfg)`` with the validated
:class:`~workbench.config.training.TrainingConfig` — free-form settings live in ``cfg.options``. The
call happens inside ``paddle.utils.unique_name.guard()`` after the seeds are set, so parameter names and
initial weights are the same in every run. ``build`` returns a :class:`TrainParts`::

    from workbench.training import TrainParts

    def build(cfg):
        model = MyNet()
        opt = paddle.optimizer.Adam(cfg.train.lr, parameters=model.parameters())
        return TrainParts(model=model, optimizer=opt, train_data=MyDataset("train"),
                          val_data=MyDataset("val"), loss=paddle.nn.functional.cross_entropy)

Batches are tuples ``(inputs, *labels)``: the loop calls ``outputs = model(inputs)`` and
``loss(outputs, *labels)`` (or ``compute_loss(model, batch)`` when given). A map-style dataset is
batched by the workbench (``train.batch_size``, deterministic shuffle, exact resume); any other iterable
is taken as ready batches.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

LossFn = Callable[..., Any]
"""``loss(outputs, *labels) -> scalar Tensor``."""
EvaluateFn = Callable[[Any], Mapping[str, float]]
"""``evaluate(model) -> {"accuracy": 0.93, ...}``; called under ``no_grad`` with the model in eval mode."""


@dataclass
class TrainParts:
    """Everything the training loop needs from a task (built-in or ``task: custom``)."""

    model: Any
    """A ``paddle.nn.Layer``."""
    optimizer: Any
    """A ``paddle.optimizer.Optimizer`` over ``model.parameters()``."""
    train_data: Any
    """A map-style dataset of ``(input, *labels)`` samples, or an iterable of ready batches."""
    loss: LossFn | None = None
    """``loss(outputs, *labels)``; required unless ``compute_loss`` is given."""
    val_data: Any = None
    """Validation samples (same shape as ``train_data``); enables ``eval/loss`` (and ``eval/accuracy``
    for classifier-shaped outputs) when ``evaluate`` is not given."""
    lr_scheduler: Any = None
    """A ``paddle.optimizer.lr.LRScheduler`` stepped once per training step (saved in checkpoints)."""
    evaluate: EvaluateFn | None = None
    """Custom evaluation; results are logged with an ``eval/`` prefix."""
    compute_loss: Callable[[Any, Any], Any] | None = None
    """``compute_loss(model, batch) -> loss`` for models whose call is not ``model(batch[0])``."""
    collate: Callable[[list[Any]], Any] | None = None
    """Turns a list of samples into a batch tuple (default: stack each field into a tensor)."""
    input_spec: Sequence[Any] | None = None
    """``paddle.static.InputSpec`` list for ``paddle.jit.save`` (default: from the first batch's input)."""
    summary: Mapping[str, Any] | None = None
    """Facts about the task shown in the run summary (e.g. number of classes, dataset sizes)."""

    def check(self) -> None:
        """Raise ``TypeError`` with a plain message when a required part is missing."""
        if self.model is None or self.optimizer is None or self.train_data is None:
            raise TypeError("TrainParts needs model, optimizer and train_data")
        if self.loss is None and self.compute_loss is None:
            raise TypeError("TrainParts needs loss(outputs, *labels) or compute_loss(model, batch)")
