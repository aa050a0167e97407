"""Causes a log cannot tell apart are offered together: for the data, checkpoint, network and config
families, a message that two sibling causes print alike ranks both among the first three (the likelier
first), and a harmless fallback warning that looks like one claims nothing. Each case is a log shaped
like a user's paste, diagnosed through the same engine ``diagnose`` uses."""

from __future__ import annotations

import pytest

from workbench.troubleshoot import diagnose as dg


def _top3(text: str) -> list[str]:
    return [match.id for match in dg.diagnose_text(text).matches[:3]]


SIBLINGS = [
    pytest.param(
        # Cross-entropy with ignore_index 255: a segmentation label out of range; colour label PNGs are
        # a common reason, offered second.
        "Error: /paddle/paddle/phi/kernels/gpu/cross_entropy_kernel.cu:312 Assertion failed.\n"
        "ValueError: (InvalidArgument) The value of label[3] expected >= 0 and < 2, or == 255, but got 38. "
        "Please check input value.\n",
        ["data.label_out_of_range", "data.seg_label_format"],
        id="seg-label-range",
    ),
    pytest.param(
        # PaddleOCR's loader: weights of the file the model has no parameter for (names do not line up).
        "[2022/04/07 01:35:15] ppocr WARNING: The pretrained params last_conv.weight not in model\n"
        "[2022/04/07 01:35:15] ppocr WARNING: The pretrained params out.weight not in model\n"
        "[2022/04/07 01:35:15] ppocr INFO: load pretrain successful from ./pretrain_models/MobileNetV3\n",
        ["checkpoints.skip_loading_missing", "checkpoints.kit_shape_mismatch"],
        id="ocr-params-not-in-model",
    ),
    pytest.param(
        # from_pretrained on a name that is neither a folder here nor reachable on the hub.
        "Traceback (most recent call last):\n"
        '  File "train.py", line 12, in <module>\n'
        '    tokenizer = AutoTokenizer.from_pretrained("ernie-3.0-medium-zh")\n'
        "OSError: Can't load tokenizer for 'ernie-3.0-medium-zh'. If you were trying to load it from "
        "'https://huggingface.co/models', make sure you don't have a local directory with the same name.\n",
        ["network.download", "checkpoints.path_not_found"],
        id="cannot-load-tokenizer",
    ),
    pytest.param(
        # A kit building a head from its config section with a key that class does not take: a config of
        # another kit release, or a kit that does not fit the config's Paddle-era API.
        "Traceback (most recent call last):\n"
        '  File "tools/train.py", line 100, in main\n'
        "    model = build_model(config['Architecture'])\n"
        '  File "/home/USER/PaddleOCR/ppocr/modeling/heads/__init__.py", line 60, in build_head\n'
        "    module_class = eval(module_name)(**config)\n"
        "TypeError: __init__() got an unexpected keyword argument 'use_attention'\n",
        ["config.missing_key"],
        id="component-kwargs",
    ),
    pytest.param(
        # A parameter file Paddle cannot read as a tensor stream: a format the runtime does not read, or a
        # damaged download.
        "RuntimeError: (InvalidArgument) Deserialize to tensor failed, maybe the loaded file is not a paddle "
        "model(expected file format: 0, but 3203334144 found).\n"
        "  [Hint: Expected version == 0U, but received version:3203334144 != 0U:0.] "
        "(at /paddle/paddle/fluid/framework/lod_tensor.cc:301)\n",
        ["versions.model_format", "checkpoints.truncated"],
        id="deserialize-tensor",
    ),
    pytest.param(
        # PaddleDetection's COCO metric on a class id the dataset lacks: the class list, or num_classes.
        '  File "/home/USER/PaddleDetection/ppdet/metrics/json_results.py", line 29, in get_det_res\n'
        "    category_id = label_to_cat_id_map[int(num_id)]\n"
        "KeyError: 3\n",
        ["data.label_list_mismatch", "config.num_classes_mismatch"],
        id="coco-category-id",
    ),
    pytest.param(
        # A label past the head's width: labels numbered from 1, or num_classes set too small.
        "Error: Variable value (label) of OP(fluid.layers.cross_entropy) expected >= 0 and < 5, but got 5. "
        "Please check label value.\n",
        ["data.label_out_of_range", "config.num_classes_mismatch"],
        id="label-past-head",
    ),
    pytest.param(
        # No records: the annotations hold none, or the anno_path points elsewhere.
        "AssertionError: not found any coco record in dataset/coco/annotations/instances_train2017.json\n",
        ["data.det_no_records", "data.list_file_missing"],
        id="no-records",
    ),
    pytest.param(
        # A downloaded archive that does not unpack: the file is cut short, the download was.
        '  File "/usr/local/lib/python3.10/site-packages/paddle/utils/download.py", line 300, in _decompress\n'
        "    with tarfile.open(fname) as tf:\n"
        "tarfile.ReadError: file could not be opened successfully\n",
        ["checkpoints.truncated", "network.download"],
        id="archive-cut-short",
    ),
]


@pytest.mark.parametrize(("log", "expected"), SIBLINGS)
def test_causes_a_log_cannot_tell_apart_are_offered_together(log: str, expected: list[str]) -> None:
    # Every sibling among the first three; where this family's reading is the likelier one (more than one
    # sibling listed), it ranks first.
    top = _top3(log)
    assert set(expected) <= set(top), top
    if len(expected) > 1:
        assert top[0] == expected[0], top


def test_paddle_1x_fallback_to_separate_parameter_files_claims_nothing() -> None:
    # The loader tries the folder format next; on a run that then trains, nothing is wrong.
    log = (
        "2020-04-24 17:30:12,433-WARNING: /home/USER/.cache/paddle/weights/DarkNet53_pretrained.pdparams "
        "not found, try to load model file saved with [ save_params, save_persistables, save_vars ]\n"
        "2020-04-24 17:30:40,120-INFO: iter: 0, lr: 0.000000, 'loss': '10385.233', time: 0.000, eta: 0:00:00\n"
    )
    assert dg.diagnose_text(log).matches == []


def test_a_folder_given_as_a_weights_prefix_ranks_below_skipped_weights() -> None:
    # A folder prefix ('…/.pdparams not found'): alone it is the cause; when the folder format then
    # loaded with skipped weights, those come first.
    alone = "./pretrain_models/MobileNetV3_large_x0_5_pretrained/.pdparams not found,\n"
    assert _top3(alone) == ["checkpoints.path_not_found"]
    skipped = alone + (
        "UserWarning: Skip loading for fc.weight. fc.weight receives a shape [2048, 1000], "
        "but the expected shape is [2048, 2].\n"
    )
    assert _top3(skipped)[:2] == ["checkpoints.skip_loading_shape", "checkpoints.path_not_found"]
