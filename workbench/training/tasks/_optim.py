"""Optimizer and learning-rate schedule from the ``train`` section, shared by the built-in tasks."""

from __future__ import annotations

from typing import Any

from workbench.config.training import TrainSection


def make_scheduler(train: TrainSection, paddle: Any) -> Any:
    """An ``LRScheduler`` for the config's schedule and warm-up, or ``None`` for a plain constant lr."""
    lr_mod = paddle.optimizer.lr
    decay_steps = max(1, train.steps - train.warmup_steps)
    base: Any = train.lr
    if train.lr_schedule == "cosine":
        base = lr_mod.CosineAnnealingDecay(learning_rate=train.lr, T_max=decay_steps)
    if train.warmup_steps:
        return lr_mod.LinearWarmup(
            learning_rate=base, warmup_steps=train.warmup_steps, start_lr=0.0, end_lr=train.lr
        )
    return base if train.lr_schedule != "constant" else None


def make_optimizer(train: TrainSection, parameters: Any, paddle: Any) -> tuple[Any, Any]:
    """``(optimizer, lr_scheduler or None)`` as the ``train`` section describes them."""
    scheduler = make_scheduler(train, paddle)
    lr = scheduler if scheduler is not None else train.lr
    clip = paddle.nn.ClipGradByGlobalNorm(train.grad_clip) if train.grad_clip else None
    decay = train.weight_decay or None
    opt = paddle.optimizer
    if train.optimizer == "sgd":
        optimizer = opt.SGD(learning_rate=lr, parameters=parameters, weight_decay=decay, grad_clip=clip)
    elif train.optimizer == "momentum":
        optimizer = opt.Momentum(
            learning_rate=lr, momentum=0.9, parameters=parameters, weight_decay=decay, grad_clip=clip
        )
    elif train.optimizer == "adam":
        optimizer = opt.Adam(learning_rate=lr, parameters=parameters, weight_decay=decay, grad_clip=clip)
    else:
        optimizer = opt.AdamW(
            learning_rate=lr, parameters=parameters, weight_decay=train.weight_decay, grad_clip=clip
        )
    return optimizer, scheduler
