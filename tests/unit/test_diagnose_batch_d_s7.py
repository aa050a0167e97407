"""The causes of the fourth dev batch, read from the wordings Paddle, Paddle Inference, the launchers, the
kits and their build tools print: a pretrained model given as a checkpoint to resume, the old
one-file-per-parameter format a loader falls back to, a C++ demo built Debug against the Release library
or with a wrong library path, a missing 1.x ``__model__`` under paddle2onnx, a TensorRT 5 engine fed a new
input shape, a node whose own address is not in the launcher's list, an OS library without a symbol the
wheel needs, and the version readings whose siblings a log cannot tell apart ranked in the order the
message points to. Each case is a log shaped like a user's paste in a phrasing of its own (another
release's, another kit's, another console's), diagnosed through the engine ``diagnose`` uses; a normal log
or a near miss claims nothing, or not that cause."""

from __future__ import annotations

import pytest

from workbench.troubleshoot import diagnose as dg


def _ids(text: str) -> list[str]:
    return [match.id for match in dg.diagnose_text(text).matches]


FIRST = [
    # -- checkpoints.pretrained_as_resume ------------------------------------------------------------
    pytest.param(
        "Traceback (most recent call last):\n"
        '  File "tools/train.py", line 121, in main\n'
        "    best_model_dict = load_model(config, model, optimizer)\n"
        '  File "/home/USER/PaddleOCR/ppocr/utils/save_load.py", line 72, in load_model\n'
        "    optimizer.set_state_dict(optim_dict)\n"
        '  File "/usr/local/lib/python3.8/site-packages/paddle/optimizer/optimizer.py", line 317, in '
        "set_state_dict\n"
        '    self._learning_rate.set_state_dict(state_dict["LR_Scheduler"])\n'
        "KeyError: 'LR_Scheduler'\n",
        "checkpoints.pretrained_as_resume",
        id="optimizer-state-without-scheduler",
    ),
    pytest.param(
        '  File "/opt/conda/lib/python3.9/site-packages/paddle/optimizer/lr.py", line 196, in set_state_dict\n'
        "    raise RuntimeError(\n"
        "RuntimeError: Please check whether state_dict is correct for optimizer. Can't find [ last_epoch ] "
        "in state_dict\n",
        "checkpoints.pretrained_as_resume",
        id="scheduler-state-key-missing",
    ),
    pytest.param(
        "[2022/08/01 14:02:11] ppocr INFO: resume from ./pretrain_models/ch_PP-OCRv3_rec_train/best_accuracy\n"
        "[2022/08/01 14:02:11] ppocr WARNING: ./pretrain_models/ch_PP-OCRv3_rec_train/best_accuracy.pdopt is "
        "not exists, params of optimizer is not loaded\n",
        "checkpoints.pretrained_as_resume",
        id="ppocr-pdopt-absent",
    ),
    # -- checkpoints.legacy_format_fallback: the log stops at the warning -----------------------------
    pytest.param(
        "2020-05-11 09:14:02,540-INFO: Loading parameters from /root/.cache/paddle/weights/"
        "ResNet50_cos_pretrained...\n"
        "2020-05-11 09:14:02,551-WARNING: /root/.cache/paddle/weights/ResNet50_cos_pretrained.pdparams not "
        "found, try to load model file saved with [ save_params, save_persistables, save_vars ]\n"
        "2020-05-11 09:14:02,603-WARNING: variable file [ /root/.cache/paddle/weights/ResNet50_cos_pretrained/"
        "fc_0.w_0 ] not used\n",
        "checkpoints.legacy_format_fallback",
        id="legacy-fallback-then-unused-head",
    ),
    # -- deploy.inference_build_config ---------------------------------------------------------------
    pytest.param(
        "Error\tLNK2038\tmismatch detected for '_ITERATOR_DEBUG_LEVEL': value '0' doesn't match value '2' in "
        "main.obj\tppocr\tD:\\paddle_inference\\paddle\\lib\\paddle_inference.lib(analysis_predictor.obj)\t1\t\n",
        "deploy.inference_build_config",
        id="vs-error-list-iterator-debug-level",
    ),
    pytest.param(
        "libcpmtd.lib(xlocale.obj) : error LNK2019: unresolved external symbol __CrtDbgReport referenced in "
        'function "public: void __cdecl std::locale::_Locimp::_Addfac(class std::locale::facet *,unsigned '
        '__int64)"\n'
        "D:\\demo\\build\\Debug\\demo.exe : fatal error LNK1120: 1 unresolved externals\n",
        "deploy.inference_build_config",
        id="msvc-debug-crt-unresolved",
    ),
    pytest.param(
        "[ 80%] Building CXX object CMakeFiles/ppocr.dir/src/main.cpp.o\n"
        "make[2]: *** No rule to make target '/paddle/lib/libpaddle_inference.so', needed by 'ppocr'.  Stop.\n"
        "make[1]: *** [CMakeFiles/Makefile2:76: CMakeFiles/ppocr.dir/all] Error 2\n",
        "deploy.inference_build_config",
        id="make-no-rule-library",
    ),
    pytest.param(
        "ninja: error: 'C:/paddle_inference/paddle/lib/paddle_inference.lib', needed by 'clas_system.exe', "
        "missing and no known rule to make it\n",
        "deploy.inference_build_config",
        id="ninja-missing-library",
    ),
    # -- deploy.trt_dynamic_shape --------------------------------------------------------------------
    pytest.param(
        "InvalidArgumentError: Input shapes are inconsistent with the model. Expect [3, 48, 320] in model "
        "description, but got [3, 48, 412] in runtime. TRT 5 or lower version does not support dynamic input "
        "shapes. Please check and modify your input shapes.\n"
        "  [Hint: Expected model_input_shape == runtime_input_shape == true, but received model_input_shape "
        "== runtime_input_shape:0 != true:1.] (at /paddle/paddle/fluid/operators/tensorrt/tensorrt_engine_op"
        ".h:80)\n",
        "deploy.trt_dynamic_shape",
        id="trt5-static-shape",
    ),
    # -- distributed.launch_args ---------------------------------------------------------------------
    pytest.param(
        '  File "/usr/local/lib/python3.7/dist-packages/paddle/distributed/fleet/launch_utils.py", line 252, '
        "in get_cluster_from_args\n"
        "AssertionError: Can’t find your local ip {127.0.1.1} in node_ips: {['10.10.0.11', '10.10.0.12']}\n",
        "distributed.launch_args",
        id="typographic-apostrophe-node-ips",
    ),
    # -- libraries.system_lib ------------------------------------------------------------------------
    pytest.param(
        "Traceback (most recent call last):\n"
        '  File "<string>", line 1, in <module>\n'
        '  File "/usr/local/lib/python3.9/site-packages/paddle/__init__.py", line 25, in <module>\n'
        "    from .base import core  # noqa: F401\n"
        "ImportError: /usr/lib64/libcrypto.so.1.1: undefined symbol: EVP_KDF_ctrl, version OPENSSL_1_1_1b\n",
        "libraries.system_lib",
        id="old-system-libcrypto",
    ),
    # -- versions.kit_paddle_mismatch ----------------------------------------------------------------
    pytest.param(
        "Traceback (most recent call last):\n"
        '  File "tools/train.py", line 25, in <module>\n'
        "    from ppcls.data import Reader\n"
        '  File "/home/USER/PaddleClas/ppcls/data/reader.py", line 19, in <module>\n'
        "    from paddle.fluid.incubate.fleet.collective import fleet\n"
        "ModuleNotFoundError: No module named 'paddle.fluid.incubate.fleet.collective'\n",
        "versions.kit_paddle_mismatch",
        id="fluid-submodule-missing",
    ),
    pytest.param(
        "Traceback (most recent call last):\n"
        '  File "train.py", line 7, in <module>\n'
        "    from paddle import fluid\n"
        "ImportError: cannot import name fluid\n",
        "versions.kit_paddle_mismatch",
        id="python2-paddle-without-fluid",
    ),
    pytest.param(
        '  File "/home/USER/models/PaddleCV/image_classification/train.py", line 140, in build_optimizer\n'
        "    regularization=fluid.regularizer.L2Decay(1e-4))\n"
        '  File "/usr/local/lib/python3.8/site-packages/paddle/fluid/optimizer.py", line 1226, in __init__\n'
        '    "parameter_list argument given to the Optimizer should not be None in dygraph mode."\n'
        "AttributeError: parameter_list argument given to the Optimizer should not be None in dygraph mode.\n",
        "versions.kit_paddle_mismatch",
        id="fluid-optimizer-under-dygraph-default",
    ),
    pytest.param(
        # The printed source line is the end of a multi-line call: only the function's name is left.
        "Traceback (most recent call last):\n"
        '  File "tools/train.py", line 172, in <module>\n'
        "    run(FLAGS, cfg)\n"
        '  File "tools/train.py", line 131, in run\n'
        "    master_grad=cfg.get('master_grad', False))\n"
        "TypeError: decorate() got an unexpected keyword argument 'master_grad'\n",
        "versions.kit_paddle_mismatch",
        id="amp-argument-newer-than-paddle",
    ),
    # -- versions.api_removed stays first for paddle.fluid itself -------------------------------------
    pytest.param(
        '  File "/home/USER/PaddleSeg/legacy/pdseg/train.py", line 30, in <module>\n'
        "    import paddle.fluid as fluid\n"
        "ModuleNotFoundError: No module named 'paddle.fluid'\n",
        "versions.api_removed",
        id="fluid-itself-missing",
    ),
    # -- versions.kit_api_changed --------------------------------------------------------------------
    pytest.param(
        '  File "train_cls.py", line 3, in <module>\n'
        "    from paddlex import models\n"
        "ImportError: cannot import name 'models' from 'paddlex' (/usr/local/lib/python3.8/site-packages/"
        "paddlex/__init__.py)\n",
        "versions.kit_api_changed",
        id="paddlex1-models-import",
    ),
    # -- versions.dependency_mismatch ----------------------------------------------------------------
    pytest.param(
        '  File "/home/USER/pdf2img.py", line 14, in convert\n'
        "    page = doc.loadPage(i)\n"
        "AttributeError: 'Document' object has no attribute 'loadPage'. Did you mean: 'load_page'?\n",
        "versions.dependency_mismatch",
        id="pymupdf-load-page",
    ),
    pytest.param(
        "AttributeError: 'Page' object has no attribute 'getText'\n",
        "versions.dependency_mismatch",
        id="pymupdf-get-text",
    ),
    # -- versions.model_format -----------------------------------------------------------------------
    pytest.param(
        '  File "/usr/local/lib/python3.7/site-packages/paddle/fluid/dygraph/checkpoint.py", line 160, in '
        "load_dygraph\n"
        "    opti_dict = pickle.load(f) if six.PY2 else pickle.load(\n"
        "_pickle.UnpicklingError: invalid load key, '\\x08'.\n",
        "versions.model_format",
        id="load-dygraph-old-binary-opt",
    ),
    pytest.param(
        "Traceback (most recent call last):\n"
        '  File "export.py", line 12, in <module>\n'
        "    state = paddle.load('weights/best.pdparams')\n"
        '  File "/usr/local/lib/python3.10/site-packages/paddle/framework/io.py", line 1108, in load\n'
        "    load_result = pickle.load(f, encoding='latin1')\n"
        "_pickle.UnpicklingError: invalid load key, '\\x1f'.\n",
        "versions.model_format",
        id="paddle-load-not-a-pickle",
    ),
    # -- data.dict_mismatch -----------------------------------------------------------------------
    pytest.param(
        # A reshape whose tensor is as wide as the Chinese dictionary: the dictionary is the cause.
        "ValueError: (InvalidArgument) The 'shape' attribute in ReshapeOp is invalid. The input tensor X'size "
        "must be divisible by known capacity of 'shape'. But received X's shape = [2048, 6625], X's size = "
        "13568000, 'shape' is [-1, 32, 97], known capacity of 'shape' is -3104.\n",
        "data.dict_mismatch",
        id="reshape-chinese-dict-width",
    ),
    # -- config.component_not_found ------------------------------------------------------------------
    pytest.param(
        '  File "/usr/local/lib/python3.8/site-packages/paddlenlp/transformers/tokenizer_utils_base.py", '
        "line 1522, in from_pretrained\n"
        "    vocab_files[file_id] = map_list[pretrained_model_name_or_path]\n"
        "KeyError: 'ernie-tiny-zh'\n",
        "config.component_not_found",
        id="pretrained-name-not-in-table",
    ),
    pytest.param(
        '  File "/usr/local/lib/python3.8/site-packages/paddlenlp/taskflow/taskflow.py", line 640, in __init__\n'
        "    config_kwargs = TASKS[self.task]\n"
        "KeyError: 'sentiment_analyze'\n",
        "config.component_not_found",
        id="taskflow-task-not-in-table",
    ),
]


@pytest.mark.parametrize(("log", "expected"), FIRST)
def test_the_cause_ranks_first(log: str, expected: str) -> None:
    assert _ids(log)[:1] == [expected], _ids(log)


AMONG_THREE = [
    pytest.param(
        # paddle2onnx 0.x on a folder without the 1.x program file: a 2.x export (file names not given)
        # and a folder of parameters only are both offered, after the model-format reading.
        "Traceback (most recent call last):\n"
        '  File "/usr/local/bin/paddle2onnx", line 8, in <module>\n'
        "    sys.exit(main())\n"
        '  File "/usr/local/lib/python3.7/site-packages/paddle2onnx/command.py", line 148, in main\n'
        "    program2onnx(args.model_dir, args.save_file, args.model_filename, args.params_filename)\n"
        '  File "/usr/local/lib/python3.7/site-packages/paddle/fluid/io.py", line 1302, in '
        "load_inference_model\n"
        '    with open(model_filename, "rb") as f:\n'
        "FileNotFoundError: [Errno 2] No such file or directory: './output/ppyolo/__model__'\n",
        ["deploy.paddle2onnx_args", "deploy.training_model_exported"],
        id="paddle2onnx-no-program-file",
    ),
    pytest.param(
        # A model name a kit's table does not hold, with no frame to say where: one reading among others.
        "KeyError: 'ppyoloe-plus-crn-s'\n",
        ["config.component_not_found"],
        id="bare-model-name-key",
    ),
]


@pytest.mark.parametrize(("log", "expected"), AMONG_THREE)
def test_the_siblings_rank_among_the_first_three(log: str, expected: list[str]) -> None:
    top3 = _ids(log)[:3]
    assert set(expected) <= set(top3), top3


QUIET = [
    pytest.param(
        # The 1.x kits print the fallback on every fine-tuning start and go on to train: a normal log.
        "2020-06-02 10:21:40,118-INFO: Loading parameters from output/pretrain/MobileNetV1_pretrained...\n"
        "2020-06-02 10:21:40,120-WARNING: output/pretrain/MobileNetV1_pretrained.pdparams not found, try to "
        "load model file saved with [ save_params, save_persistables, save_vars ]\n"
        "2020-06-02 10:21:44,907-INFO: 16551 samples in file dataset/voc/trainval.txt\n"
        "2020-06-02 10:21:51,230-INFO: iter: 0, lr: 0.000333, 'loss': '12.4471', time: 0.000, eta: 0:00:00\n",
        id="legacy-fallback-then-training",
    ),
]


@pytest.mark.parametrize("log", QUIET)
def test_a_normal_log_claims_nothing(log: str) -> None:
    assert _ids(log) == []


NOT_THIS = [
    pytest.param(
        # A config key missing from the user's YAML is not an optimizer state: not a resume of weights.
        '  File "/home/USER/PaddleOCR/ppocr/optimizer/__init__.py", line 52, in build_optimizer\n'
        "    lr = build_lr_scheduler(config.pop('lr'), epochs, step_each_epoch)\n"
        "KeyError: 'lr'\n",
        "checkpoints.pretrained_as_resume",
        id="config-key-not-resume",
    ),
    pytest.param(
        # Paddle's own extension missing a symbol is a mixed install, not an old OS library.
        "ImportError: /usr/local/lib/python3.8/site-packages/paddle/fluid/core_avx.so: undefined symbol: "
        "_ZN6paddle8platform12CUDAPlaceC1Ev\n",
        "libraries.system_lib",
        id="paddle-extension-symbol",
    ),
    pytest.param(
        # make stopping on a target of the project itself, not on the inference library.
        "make[2]: *** No rule to make target 'src/utility.cpp', needed by 'CMakeFiles/ppocr.dir/src/"
        "utility.cpp.o'.  Stop.\n",
        "deploy.inference_build_config",
        id="make-no-rule-own-source",
    ),
    pytest.param(
        # Paddle-Lite's opt on a folder without __model__ keeps its own first answer.
        "F0711 10:02:33.104127  9121 io.cc:46] Check failed: file_ Unable to open file: "
        "./ppocr_det/__model__\n",
        "deploy.paddle2onnx_args",
        id="lite-opt-model-dir",
    ),
    pytest.param(
        # PyMuPDF's current snake_case names missing mean another package named fitz, not the rename.
        "AttributeError: 'Document' object has no attribute 'get_page_pixmap'\n",
        "versions.dependency_mismatch",
        id="pymupdf-new-name-missing",
    ),
]


@pytest.mark.parametrize(("log", "absent"), NOT_THIS)
def test_a_near_miss_is_not_this_cause_first(log: str, absent: str) -> None:
    assert _ids(log)[:1] != [absent], _ids(log)
