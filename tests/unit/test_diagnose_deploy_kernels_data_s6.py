"""The deployment, kernel-build, data, checkpoint and device causes read from the wordings Paddle, Paddle
Inference, Paddle-Lite, FastDeploy, paddle2onnx and PaddleOCR print: a C++ inference app built without its
library paths, paddle2onnx called with arguments that do not fit, a custom operator that fails to compile,
a folder under an LMDB data_dir that is not a database — each in several phrasings (POSIX and Windows,
English and Chinese, Python tracebacks and C++ CHECK lines) — and the messages whose siblings a log cannot
tell apart ranked together. Each case is a log shaped like a user's paste, diagnosed through the engine
``diagnose`` uses; a normal log that only looks like one claims nothing."""

from __future__ import annotations

import pytest

from workbench.troubleshoot import diagnose as dg


def _ids(text: str) -> list[str]:
    return [match.id for match in dg.diagnose_text(text).matches]


FIRST = [
    # -- deploy.inference_build_config ---------------------------------------------------------------
    pytest.param(
        "-- The CXX compiler identification is MSVC 19.29.30133.0\n"
        "CMake Error at C:/work/PaddleOCR/deploy/cpp_infer/CMakeLists.txt:33 (message):\n"
        "  please set PADDLE_LIB with -DPADDLE_LIB=/path/paddle/lib\n"
        "-- Configuring incomplete, errors occurred!\n",
        "deploy.inference_build_config",
        id="cmake-paddle-lib-unset",
    ),
    pytest.param(
        "[ 50%] Linking CXX executable ppocr\n"
        "/usr/bin/ld: cannot find -lpaddle_inference\n"
        "collect2: error: ld returned 1 exit status\n"
        "make[2]: *** [CMakeFiles/ppocr.dir/build.make:215: ppocr] Error 1\n",
        "deploy.inference_build_config",
        id="ld-cannot-find-lib",
    ),
    pytest.param(
        "[100%] Linking CXX executable clas_demo\n"
        "/usr/bin/ld: warning: libcommon.so, needed by /home/USER/paddle_inference/paddle/lib/"
        "libpaddle_inference.so, not found (try using -rpath or -rpath-link)\n"
        "/usr/bin/ld: /home/USER/paddle_inference/paddle/lib/libpaddle_inference.so: undefined reference to "
        "`common::enforce::GetCurrentTraceBackString[abi:cxx11](bool)'\n"
        "collect2: error: ld returned 1 exit status\n",
        "deploy.inference_build_config",
        id="ld-sibling-lib-not-linked",
    ),
    pytest.param(
        "LINK : fatal error LNK1104: 无法打开文件“D:\\paddle_inference\\paddle\\lib\\paddle_inference.lib”\n"
        "[D:\\PaddleOCR\\deploy\\cpp_infer\\build\\ppocr.vcxproj]\n",
        "deploy.inference_build_config",
        id="msvc-lnk1104-chinese",
    ),
    pytest.param(
        "/home/USER/demo/main.cc:5:10: fatal error: paddle_inference_api.h: No such file or directory\n"
        '    5 | #include "paddle_inference_api.h"\n'
        "compilation terminated.\n",
        "deploy.inference_build_config",
        id="gcc-header-missing",
    ),
    pytest.param(
        # The 1.x/2.0 C++ API (namespace paddle::) unresolved: MSVC in Chinese, then GNU ld.
        'main.obj : error LNK2001: 无法解析的外部符号 "public: __cdecl paddle::AnalysisConfig::AnalysisConfig(void)" '
        "(??0AnalysisConfig@paddle@@QEAA@XZ)\n"
        "D:\\demo\\build\\Release\\demo.exe : fatal error LNK1120: 1 个无法解析的外部命令\n",
        "deploy.inference_build_config",
        id="msvc-lnk2001-old-api",
    ),
    pytest.param(
        "main.cc:(.text+0x2a): undefined reference to `paddle::CreatePaddlePredictor<paddle::AnalysisConfig>"
        "(paddle::AnalysisConfig const&)'\n"
        "collect2: error: ld returned 1 exit status\n",
        "deploy.inference_build_config",
        id="ld-old-api-undefined",
    ),
    # -- deploy.paddle2onnx_args ---------------------------------------------------------------------
    pytest.param(
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/bin/paddle2onnx", line 8, in <module>\n'
        "    sys.exit(main())\n"
        '  File "/opt/conda/lib/python3.9/site-packages/paddle2onnx/command.py", line 170, in main\n'
        '    assert args.model_dir is not None, "--model_dir should be defined while translating paddle '
        'model to onnx"\n'
        "AssertionError: --model_dir should be defined while translating paddle model to onnx\n",
        "deploy.paddle2onnx_args",
        id="p2o-model-dir-missing",
    ),
    pytest.param(
        "usage: paddle2onnx [-h] [--model_dir MODEL_DIR] [--model_filename MODEL_FILENAME]\n"
        "                   [--params_filename PARAMS_FILENAME] [--save_file SAVE_FILE]\n"
        "paddle2onnx: error: unrecognized arguments: --enable_onnx_checker True\n",
        "deploy.paddle2onnx_args",
        id="p2o-unrecognized-argument",
    ),
    pytest.param(
        "[Paddle2ONNX] Start to parse PaddlePaddle model...\n"
        "[Paddle2ONNX] Failed to read model file: ./inference/det/model.pdmodel, please make sure your model "
        "file or file path is valid.\n",
        "deploy.paddle2onnx_args",
        id="p2o-model-filename-wrong",
    ),
    pytest.param(
        "2022-03-01 10:11:12 [WARNING]\tThe model is saved by paddlepaddle v2.1.0, but now your paddlepaddle "
        "is v2.2.2, this difference may cause error, it is recommend you reinstall a same version of "
        "paddlepaddle for this model\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.8/site-packages/paddle2onnx/command.py", line 149, in program2onnx\n'
        "    program.blocks[0].ops[i].desc.infer_shape(program.blocks[0].desc)\n"
        "ValueError: (InvalidArgument) The input of Op(conv2d) should be a 4-D or 5-D Tensor. But "
        "received: input's dimension is 2, input's shape is [1, 3].\n"
        "  [Hint: Expected in_dims.size() == 4 || in_dims.size() == 5 == true, but received "
        "in_dims.size() == 4 || in_dims.size() == 5:0 != true:1.] (at /paddle/paddle/phi/infermeta/"
        "binary.cc:400)\n",
        "deploy.paddle2onnx_args",
        id="p2o-input-shape-dict-reinfer",
    ),
    pytest.param(
        '  File "/usr/local/lib/python3.8/site-packages/paddle2onnx/legacy/command.py", line 84, in '
        "program2onnx\n"
        "    program.blocks[0].var(k).desc.set_shape(v)\n"
        '  File "/usr/local/lib/python3.8/site-packages/paddle/fluid/framework.py", line 3264, in var\n'
        '    raise ValueError("var %s not in this block" % name)\n'
        "ValueError: var image not in this block\n",
        "deploy.paddle2onnx_args",
        id="p2o-input-shape-dict-name",
    ),
    # -- kernels.custom_op_build ---------------------------------------------------------------------
    pytest.param(
        "Compiling user custom op, it will cost a few seconds.....\n"
        "Traceback (most recent call last):\n"
        '  File "/home/USER/Paddle3D/paddle3d/ops/__init__.py", line 38, in __getattr__\n'
        "    custom_ops = load(name=name, sources=sources, verbose=True)\n"
        '  File "/usr/local/lib/python3.8/dist-packages/paddle/utils/cpp_extension/cpp_extension.py", '
        "line 852, in load\n"
        "    _jit_compile(custom_op_api, verbose)\n"
        '  File "/usr/local/lib/python3.8/dist-packages/paddle/utils/cpp_extension/extension_utils.py", '
        "line 1229, in run_cmd\n"
        "    raise RuntimeError(\n"
        "RuntimeError: Failed to run command: <built-in function compile>, errors: Command 'cd "
        "/root/.cache/paddle_extensions && /usr/bin/python3.8 roiaware_pool3d_setup.py build' returned "
        "non-zero exit status 1.\n",
        "kernels.custom_op_build",
        id="jit-build-failed",
    ),
    pytest.param(
        "running build_ext\n"
        "Compiling user custom op, it will cost a few seconds.....\n"
        "building 'rbox_iou_ops' extension\n"
        "unable to execute '/usr/local/cuda/bin/nvcc': No such file or directory\n"
        "error: command '/usr/local/cuda/bin/nvcc' failed with exit status 1\n",
        "kernels.custom_op_build",
        id="setup-nvcc-missing",
    ),
    pytest.param(
        '  File "C:\\Python39\\lib\\site-packages\\paddle\\utils\\cpp_extension\\extension_utils.py", line '
        "505, in find_cuda_includes\n"
        "    raise ValueError(\n"
        "ValueError: Not found CUDA runtime, please use `export CUDA_HOME=XXX` to specific it.\n",
        "kernels.custom_op_build",
        id="cuda-home-unset",
    ),
    pytest.param(
        "D:\\ext_op\\rbox_iou_op.cc(15): fatal error C1083: Cannot open include file: 'paddle/extension.h': "
        "No such file or directory\n"
        "error: command 'C:\\\\Program Files\\\\Microsoft Visual Studio\\\\2019\\\\bin\\\\cl.exe' failed "
        "with exit code 2\n",
        "kernels.custom_op_build",
        id="msvc-extension-header",
    ),
    pytest.param(
        "[Paddle2ONNX] Start to parse PaddlePaddle model...\n"
        "[ERROR][Paddle2ONNX] [set_value: set_value_0.tmp_0] Only supports the step of axes is 1, but now the "
        "step is 2.\n",
        "kernels.onnx_unsupported",
        id="p2o-mapper-refuses-config",
    ),
    pytest.param(
        "main.obj : error LNK2038: 检测到“RuntimeLibrary”的不匹配项: 值“MT_StaticRelease”不匹配值"
        "“MD_DynamicRelease”(ocr_det.obj 中)\n",
        "deploy.inference_build_config",
        id="msvc-runtime-library-mismatch",
    ),
    pytest.param(
        "/tmp/paddle_ext/nms_rotated.cu:2:10: fatal error: cuda_runtime.h: No such file or directory\n"
        "compilation terminated.\n",
        "kernels.custom_op_build",
        id="custom-op-cuda-headers",
    ),
    pytest.param(
        # nvcc refusing a host GCC newer than its CUDA supports, while a kit's op builds.
        "running build_ext\n"
        "/usr/local/cuda/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc "
        "versions later than 11 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used "
        "to override this version check; however, using an unsupported host compiler may cause compilation "
        "failure or incorrect run time execution. Use at your own risk.\n",
        "kernels.custom_op_build",
        id="nvcc-host-compiler-too-new",
    ),
    # -- data.lmdb_stray_dir -------------------------------------------------------------------------
    pytest.param(
        "Traceback (most recent call last):\n"
        '  File "/home/aistudio/PaddleOCR/ppocr/data/lmdb_dataset.py", line 44, in '
        "load_hierarchical_lmdb_dataset\n"
        "    meminit=False)\n"
        "lmdb.Error: ./train_data/data_lmdb_release/validation/.ipynb_checkpoints: No such file or directory\n",
        "data.lmdb_stray_dir",
        id="lmdb-notebook-folder",
    ),
    pytest.param(
        '  File "D:\\PaddleOCR\\ppocr\\data\\lmdb_dataset.py", line 52, in load_hierarchical_lmdb_dataset\n'
        "    meminit=False,\n"
        "lmdb.Error: D:\\PaddleOCR\\train_data\\lmdb\\train\\backup: The system cannot find the path "
        "specified.\n",
        "data.lmdb_stray_dir",
        id="lmdb-windows-stray",
    ),
    pytest.param(
        "lmdb.InvalidError: ./train_data/lmdb/train/images: MDB_INVALID: File is not an LMDB file\n",
        "data.lmdb_stray_dir",
        id="lmdb-not-a-database",
    ),
    pytest.param(
        '  File "/home/USER/PaddleOCR/ppocr/data/lmdb_dataset.py", line 58, in load_hierarchical_lmdb_dataset\n'
        "    num_samples = int(txn.get('num-samples'.encode()))\n"
        "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'\n",
        "data.lmdb_stray_dir",
        id="lmdb-no-num-samples",
    ),
    # -- siblings of these families: new wordings of causes already known -----------------------------
    pytest.param(
        "[ERROR] fastdeploy/fastdeploy_model.cc(254)::InitRuntimeWithSpecifiedBackend\t"
        "PaddleDetection/PicoDet is not supported with backend Backend::LITE.\n",
        "deploy.fastdeploy_backend",
        id="fastdeploy-model-backend",
    ),
    pytest.param(
        "[WARNING] PaddleClas/PPLCNet is not supported with backend Backend::OPENVINO.\n"
        "[WARNING] There's no valid gpu backend for PaddleClas/PPLCNet.\n",
        "deploy.fastdeploy_backend",
        id="fastdeploy-model-backend-bare",
    ),
    pytest.param(
        "terminate called after throwing an instance of 'paddle::platform::EnforceNotMet'\n"
        "  what():  (InvalidArgument) Pass tensorrt_subgraph has not been registered.\n",
        "deploy.no_trt_build",
        id="trt-pass-short-name",
    ),
    pytest.param(
        "[F  6/ 3 11:02:09.120 ...lite/model_parser/base/io.cc:46 BinaryFileReader] Check failed: file_: "
        "Unable to open file: ./mobilenet_v1/conv1_weights\n"
        "Aborted (core dumped)\n",
        "deploy.lite_opt_model_args",
        id="lite-opt-model-dir-on-combined",
    ),
    pytest.param(
        "[F 11/ 2 10:01:44.301 ...lite/core/program.cc:307 RuntimeProgram] Check failed: op: \n"
        "Error: This model is not supported, because operator 'fetch' is not supported by Paddle-Lite.\n",
        "deploy.lite_static_link_ops",
        id="lite-no-fetch-op",
    ),
    pytest.param(
        "ValueError: `paddle.load` can not parse the file:/root/.paddlenlp/models/ernie-3.0-base-zh/"
        "model_state.pdparams.\n",
        "checkpoints.truncated",
        id="paddle-load-cannot-parse",
    ),
    pytest.param(
        "RuntimeError: (NotFound) Cannot open file /home/USER/.paddleocr/whl/det/ch/ch_PP-OCRv4_det_infer/"
        "inference, please confirm whether the file is normal.\n"
        "  [Hint: Expected static_cast<bool>(fin.is_open()) == true, but received "
        "static_cast<bool>(fin.is_open()):0 != true:1.] (at /paddle/paddle/fluid/inference/api/"
        "analysis_predictor.cc:2410)\n",
        "checkpoints.path_not_found",
        id="predictor-cannot-open-prefix",
    ),
    pytest.param(
        # paddle.load given a checkpoint folder: it reads every file in it as a tensor.
        '  File "tools/evaluate.py", line 98, in main\n'
        "    load_pretrained_model(model, args.model)\n"
        '  File "/usr/local/lib/python3.8/site-packages/paddle/framework/io.py", line 1006, in load\n'
        "    load_result = _load_state_dict_from_save_params(path)\n"
        '  File "/usr/local/lib/python3.8/site-packages/paddle/framework/io.py", line 150, in '
        "_load_state_dict_from_save_params\n"
        "    _legacy_C_ops.load(temp_var, 'file_path', os.path.join(model_path, name))\n"
        "ValueError: (InvalidArgument) Deserialize to tensor failed, maybe the loaded file is not a paddle "
        "model(expected file format: 0, but 2151678336 found).\n",
        "checkpoints.path_not_found",
        id="paddle-load-folder",
    ),
    pytest.param(
        '  File "/home/USER/PaddleDetection/ppdet/engine/trainer.py", line 71, in __init__\n'
        "    self.place = paddle.set_device('gpu:{}'.format(ParallelEnv().dev_id))\n"
        '  File "/usr/local/lib/python3.7/site-packages/paddle/fluid/dygraph/parallel.py", line 200, in '
        "device_id\n"
        "    return self._device_id\n"
        "AttributeError: 'ParallelEnv' object has no attribute '_device_id'\n",
        "device.cpu_build",
        id="parallel-env-no-device-id",
    ),
    pytest.param(
        # A bundle without Paddle's DLLs: the frames keep their package-relative names.
        "Traceback (most recent call last):\n"
        '  File "ocr_app.py", line 3, in <module>\n'
        '  File "paddle\\__init__.py", line 28, in <module>\n'
        '  File "paddle\\base\\core.py", line 269, in <module>\n'
        "ImportError: DLL load failed while importing libpaddle: 找不到指定的模块。\n",
        "deploy.frozen_bundle",
        id="frozen-package-relative-frame",
    ),
]


@pytest.mark.parametrize(("log", "expected"), FIRST)
def test_the_cause_ranks_first(log: str, expected: str) -> None:
    assert _ids(log)[:1] == [expected], _ids(log)


AMONG_THREE = [
    pytest.param(
        # Paddle 1.x's tensor reader on a pickled training checkpoint given as the params file: that
        # reading first, beside a damaged file and another format.
        "paddle.fluid.core_avx.EnforceNotMet: tensor version 2151678336 is not supported, Only version 0 is "
        "supported at [/paddle/paddle/fluid/framework/lod_tensor.cc:287]\n",
        ["deploy.training_model_exported"],
        id="tensor-version-pickle",
    ),
    pytest.param(
        # The runtime's empty-kernel CHECK: the target, the opt release and a missing op are all offered.
        "[F  8/ 2 09:12:40.101 ...lite/core/program.cc:269 RuntimeProgram] Check failed: (kernels.size() > "
        "0): 0\n",
        ["deploy.lite_valid_targets", "deploy.lite_opt_version_mismatch", "deploy.lite_unsupported_ops"],
        id="lite-empty-kernels",
    ),
    pytest.param(
        # A parameter file Paddle cannot read as a tensor stream: a pickled checkpoint is the third reading.
        "RuntimeError: (InvalidArgument) Deserialize to tensor failed, maybe the loaded file is not a paddle "
        "model(expected file format: 0, but 2151678336 found).\n",
        ["versions.model_format", "checkpoints.truncated", "deploy.training_model_exported"],
        id="deserialize-three-readings",
    ),
]


@pytest.mark.parametrize(("log", "expected"), AMONG_THREE)
def test_the_siblings_rank_among_the_first_three(log: str, expected: list[str]) -> None:
    top3 = _ids(log)[:3]
    assert set(expected) <= set(top3), top3


QUIET = [
    pytest.param(
        # Paddle3D compiling its ops on first use, then training normally.
        "Compiling user custom op, it will cost a few seconds.....\n"
        "W0805 16:47:21.422516  5542 gpu_resources.cc:61] Please NOTE: device: 0, GPU Compute Capability: "
        "7.0, Driver API Version: 11.2, Runtime API Version: 10.1\n"
        "2023-02-01 10:00:00,000 -     INFO - [TRAIN] epoch=1/80, iter=20/3712 lr=0.000101 | loss=3.4210\n",
        id="jit-build-then-training",
    ),
    pytest.param(
        # A notebook run: the user's and the checkout's modules print relative paths; no bundle.
        "Traceback (most recent call last):\n"
        '  File "tools/train.py", line 52, in main\n'
        "    train_dataloader = build_dataloader(config, 'Train', device, logger)\n"
        '  File "ppocr/data/__init__.py", line 66, in build_dataloader\n'
        "    dataset = eval(module_name)(config, mode, logger, seed)\n"
        "KeyboardInterrupt\n",
        id="relative-checkout-frames",
    ),
    pytest.param(
        # A successful paddle2onnx run prints its survey line; nothing failed.
        "[Paddle2ONNX] Start to parse PaddlePaddle model...\n"
        "[Paddle2ONNX] Model file path: ./inference/det/inference.pdmodel\n"
        "[Paddle2ONNX] PaddlePaddle model is exported as ONNX format now.\n"
        "2024-03-01 10:00:00 [INFO]\t===============Make PaddlePaddle Better!================\n",
        id="paddle2onnx-success",
    ),
]


@pytest.mark.parametrize("log", QUIET)
def test_a_normal_log_claims_nothing(log: str) -> None:
    assert _ids(log) == []
