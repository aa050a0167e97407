"""Built-in ``image_classification``: a two-convolution CNN on 32x32 RGB images (PaddleClas layout).

Tiny on purpose: on 2 CPU cores a step of batch 64 takes ~50 ms and the demo digits reach >90 %
validation accuracy within the sample config's 300 steps.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from workbench.config.training import TrainingConfig
from workbench.training.parts import TrainParts
from workbench.training.tasks import TASKS, TaskContext, TaskSpec
from workbench.training.tasks._layout_data import check_layout, make_layout_demo
from workbench.training.tasks._optim import make_optimizer

IMAGE_SIZE = 32


def small_cnn(num_classes: int, width: int, paddle: Any) -> Any:
    """conv(3→w) → pool → conv(w→2w) → pool → linear; about 26k parameters at width 16, 10 classes."""
    nn = paddle.nn
    F = paddle.nn.functional

    class SmallCNN(nn.Layer):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2D(3, width, 3, padding=1)
            self.conv2 = nn.Conv2D(width, 2 * width, 3, padding=1)
            self.fc = nn.Linear(2 * width * (IMAGE_SIZE // 4) ** 2, num_classes)

        def forward(self, x: Any) -> Any:
            x = F.max_pool2d(F.relu(self.conv1(x)), 2)
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            return self.fc(paddle.flatten(x, 1))

    return SmallCNN()


def small_cnn_mlp(num_classes: int, width: int, hidden: int, paddle: Any) -> Any:
    """:func:`small_cnn` with a two-layer head ``fc1`` (features → hidden) → ReLU → ``fc2`` (→ classes).

    The pair of Linear layers is what tensor-parallel plans split (``fc1`` by columns, ``fc2`` by rows):
    with the default ``hidden: 64`` both divide evenly over 2, 4 or 8 ranks.
    """
    nn = paddle.nn
    F = paddle.nn.functional

    class SmallCNNMLP(nn.Layer):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2D(3, width, 3, padding=1)
            self.conv2 = nn.Conv2D(width, 2 * width, 3, padding=1)
            self.fc1 = nn.Linear(2 * width * (IMAGE_SIZE // 4) ** 2, hidden)
            self.fc2 = nn.Linear(hidden, num_classes)

        def forward(self, x: Any) -> Any:
            x = F.max_pool2d(F.relu(self.conv1(x)), 2)
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            return self.fc2(F.relu(self.fc1(paddle.flatten(x, 1))))

    return SmallCNNMLP()


def build_cls(cfg: TrainingConfig, ctx: TaskContext) -> TrainParts:
    assert ctx.data_dir is not None  # validation requires data: for this task
    data_dir, paddle = ctx.data_dir, ctx.paddle
    from workbench.datasets.layouts import read_cls_layout
    from workbench.datasets.readers import cls_dataset

    layout = read_cls_layout(data_dir)
    num_classes = cfg.model.num_classes or layout.num_classes
    train = cls_dataset(layout, "train", IMAGE_SIZE)
    val = cls_dataset(layout, "val", IMAGE_SIZE)
    if cfg.model_name() == "small_cnn_mlp":
        model = small_cnn_mlp(num_classes, cfg.model.width, cfg.model.hidden, paddle)
    else:
        model = small_cnn(num_classes, cfg.model.width, paddle)
    optimizer, scheduler = make_optimizer(cfg.train, model.parameters(), paddle)
    F = paddle.nn.functional
    limit = cfg.eval.max_samples or len(val)
    eval_batch = cfg.eval.batch_size

    def evaluate(net: Any) -> dict[str, float]:
        correct, loss_sum, seen = 0, 0.0, 0
        for start in range(0, min(limit, len(val)), eval_batch):
            stop = min(start + eval_batch, limit, len(val))
            x = paddle.to_tensor(val.images[start:stop])
            y = val.labels[start:stop]
            logits = net(x)
            loss_sum += F.cross_entropy(logits, paddle.to_tensor(y), reduction="sum").item()
            correct += int((logits.argmax(axis=-1).numpy() == y).sum())
            seen += stop - start
        return {"accuracy": correct / max(seen, 1), "loss": loss_sum / max(seen, 1)}

    return TrainParts(
        model=model,
        optimizer=optimizer,
        lr_scheduler=scheduler,
        train_data=train,
        val_data=val,
        loss=F.cross_entropy,
        evaluate=evaluate,
        input_spec=[paddle.static.InputSpec([None, 3, IMAGE_SIZE, IMAGE_SIZE], "float32", name="x")],
        summary={
            "num_classes": num_classes,
            "train_samples": len(train),
            "val_samples": len(val),
            "parameters": int(sum(int(np.prod(p.shape)) for p in model.parameters())),
        },
    )


TASKS.register(
    "image_classification",
    TaskSpec(
        build=build_cls,
        title_key="training.task.image_classification",
        models=("small_cnn", "small_cnn_mlp"),
        data_format="cls",
        check_data=partial(check_layout, "cls"),
        make_demo=partial(make_layout_demo, "cls"),
        sample_config="train_cls_demo.yaml",
    ),
    order=10,
)
