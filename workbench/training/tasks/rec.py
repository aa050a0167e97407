"""Built-in ``text_recognition``: a small CRNN (convolutions + bidirectional LSTM) trained with CTC.

Input: 1x32x100 grey images (PaddleOCR layout, resized when they differ). The convolutions reduce the
height to 4 and the width to 25 time steps; a BiLSTM reads the 25 columns; a linear layer scores
``len(dict.txt) + 1`` classes per step (class 0 is the CTC blank). ``paddle.nn.functional.ctc_loss``
takes the raw scores (warp-ctc applies the softmax itself). Evaluation decodes greedily (best class per
step, merge repeats, drop blanks) and reports word accuracy (exact matches) and character accuracy
(1 - edit distance / length).
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

HEIGHT, WIDTH = 32, 100


def crnn(num_classes: int, width: int, paddle: Any) -> Any:
    """conv/2 → conv → pool → conv → pool(2,1) → BiLSTM → linear, ``[B,1,32,100] -> [B,25,classes]``."""
    nn = paddle.nn
    F = paddle.nn.functional
    c1, c2, c3 = width, 2 * width, 3 * width
    hidden = 3 * width

    class CRNN(nn.Layer):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2D(1, c1, 3, stride=2, padding=1)  # 16 x 50
            self.bn1 = nn.BatchNorm2D(c1)
            self.conv2 = nn.Conv2D(c1, c2, 3, padding=1)  # pooled to 8 x 25
            self.bn2 = nn.BatchNorm2D(c2)
            self.conv3 = nn.Conv2D(c2, c3, 3, padding=1)  # pooled to 4 x 25
            self.bn3 = nn.BatchNorm2D(c3)
            self.rnn = nn.LSTM(c3 * (HEIGHT // 8), hidden, direction="bidirect")
            self.fc = nn.Linear(2 * hidden, num_classes)

        def forward(self, x: Any) -> Any:
            x = F.relu(self.bn1(self.conv1(x)))
            x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
            x = F.max_pool2d(F.relu(self.bn3(self.conv3(x))), kernel_size=(2, 1), stride=(2, 1))
            x = paddle.flatten(x, 1, 2).transpose([0, 2, 1])  # [B, W, C*H]: one feature vector per column
            x, _ = self.rnn(x)
            return self.fc(x)

    return CRNN()


def greedy_decode(ids: np.ndarray[Any, Any], charset: list[str]) -> list[str]:
    """Best-path CTC decoding of ``[B, T]`` class ids (0 = blank; class k is ``charset[k - 1]``)."""
    texts: list[str] = []
    for row in ids:
        chars: list[str] = []
        previous = 0
        for k in row.tolist():
            if k != previous and k != 0:
                chars.append(charset[k - 1])
            previous = k
        texts.append("".join(chars))
    return texts


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (short strings: the simple dynamic programme is enough)."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def build_rec(cfg: TrainingConfig, ctx: TaskContext) -> TrainParts:
    assert ctx.data_dir is not None  # validation requires data: for this task
    data_dir, paddle = ctx.data_dir, ctx.paddle
    from workbench.datasets.layouts import read_rec_layout
    from workbench.datasets.readers import rec_dataset

    layout = read_rec_layout(data_dir)
    charset = list(layout.charset)
    max_len = max(layout.max_text_length, 1)
    train = rec_dataset(layout, "train", charset=charset, max_len=max_len, height=HEIGHT, width=WIDTH)
    val = rec_dataset(layout, "val", charset=charset, max_len=max_len, height=HEIGHT, width=WIDTH)
    model = crnn(len(charset) + 1, cfg.model.width, paddle)
    optimizer, scheduler = make_optimizer(cfg.train, model.parameters(), paddle)
    F = paddle.nn.functional

    def ctc(outputs: Any, labels: Any, lengths: Any) -> Any:
        batch, steps = outputs.shape[0], outputs.shape[1]
        input_lengths = paddle.full([batch], steps, dtype="int64")
        return F.ctc_loss(
            outputs.transpose([1, 0, 2]),
            labels.astype("int32"),
            input_lengths,
            lengths.astype("int64"),
            blank=0,
            reduction="mean",
        )

    limit = min(cfg.eval.max_samples or len(val), len(val))
    eval_batch = cfg.eval.batch_size

    def evaluate(net: Any) -> dict[str, float]:
        exact, char_score, loss_sum, batches = 0, 0.0, 0.0, 0
        for start in range(0, limit, eval_batch):
            stop = min(start + eval_batch, limit)
            outputs = net(paddle.to_tensor(val.images[start:stop]))
            loss_sum += ctc(
                outputs, paddle.to_tensor(val.labels[start:stop]), paddle.to_tensor(val.lengths[start:stop])
            ).item()
            batches += 1
            predicted = greedy_decode(outputs.argmax(axis=-1).numpy(), charset)
            for guess, truth in zip(predicted, val.texts[start:stop], strict=True):
                exact += guess == truth
                char_score += max(0.0, 1.0 - edit_distance(guess, truth) / max(len(truth), 1))
        return {
            "word_accuracy": exact / max(limit, 1),
            "char_accuracy": char_score / max(limit, 1),
            "loss": loss_sum / max(batches, 1),
        }

    return TrainParts(
        model=model,
        optimizer=optimizer,
        lr_scheduler=scheduler,
        train_data=train,
        val_data=val,
        loss=ctc,
        evaluate=evaluate,
        input_spec=[paddle.static.InputSpec([None, 1, HEIGHT, WIDTH], "float32", name="x")],
        summary={
            "charset_size": len(charset),
            "max_text_length": max_len,
            "train_samples": len(train),
            "val_samples": len(val),
            "parameters": int(sum(int(np.prod(p.shape)) for p in model.parameters())),
        },
    )


TASKS.register(
    "text_recognition",
    TaskSpec(
        build=build_rec,
        title_key="training.task.text_recognition",
        models=("crnn",),
        data_format="rec",
        check_data=partial(check_layout, "rec"),
        make_demo=partial(make_layout_demo, "rec"),
        sample_config="train_rec_demo.yaml",
    ),
    order=20,
)
