"""``diagnose`` on import, version, install and config failures in the wordings Paddle, the kits, pip, the
loader and ONNX Runtime print: an installed kit missing its own module, a file shadowing a third-party
package, a wheel for another CPU, a pinned dependency built from source, a model newer than its runtime."""

from __future__ import annotations

from workbench.troubleshoot.diagnose import diagnose_text


def ids(text: str) -> list[str]:
    return [match.id for match in diagnose_text(text).matches]


def test_an_installed_kit_whose_relative_import_fails_lacks_its_own_module() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\USER\\seg\\infer.py", line 2, in <module>\n'
        "    import paddleseg\n"
        '  File "C:\\Users\\USER\\anaconda3\\envs\\seg\\lib\\site-packages\\paddleseg-2.9.0-py3.9.egg\\paddleseg'
        '\\models\\__init__.py", line 15, in <module>\n'
        "    from .backbones import *\n"
        "ModuleNotFoundError: No module named 'paddleseg.models.backbones'\n"
    )
    assert ids(text)[0] == "imports.kit_incomplete_install"


def test_a_kit_importing_its_vendored_package_ranks_not_installed_and_incomplete_install_together() -> None:
    text = (
        '  File "/home/USER/.local/lib/python3.8/site-packages/paddleclas/paddleclas.py", line 26, in <module>\n'
        "    from ppcls.arch import backbone\n"
        "ModuleNotFoundError: No module named 'ppcls'\n"
    )
    top = ids(text)[:3]
    assert top[0] == "imports.kit_missing"
    assert "imports.kit_incomplete_install" in top


def test_a_relative_import_naming_a_paddle_module_is_not_an_incomplete_kit() -> None:
    """The traceback is cut: the kit imports a Paddle API its Paddle lacks."""
    text = (
        '  File "/home/USER/paddlenlp/data/data_collator.py", line 25, in <module>\n'
        "    from ..transformers import BertTokenizer\n"
        "ModuleNotFoundError: No module named 'paddle.distributed.fleet.layers'\n"
    )
    assert "imports.kit_incomplete_install" not in ids(text)


def test_a_users_file_named_like_a_package_the_kit_imports_is_shadowing() -> None:
    text = (
        '  File "/usr/local/lib/python3.9/site-packages/paddlenlp/transformers/auto/modeling.py", line 20\n'
        "    from transformers import AutoConfig\n"
        "ImportError: cannot import name 'AutoConfig' from 'transformers' (/home/USER/nlp/transformers.py)\n"
    )
    assert ids(text)[0] == "imports.shadowed_module"


def test_python_36s_bare_wording_for_a_paddle_without_fluid_is_not_paddlepaddle() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "tools/infer/predict_det.py", line 20, in <module>\n'
        "    from paddle import fluid\n"
        "ImportError: cannot import name 'fluid'\n"
    )
    assert {"imports.shadowed_module", "imports.no_paddle"} <= set(ids(text)[:3])


def test_an_unbuilt_extension_of_a_source_checkout_is_shadowing() -> None:
    text = (
        '  File "/home/USER/FastDeploy/python/fastdeploy/c_lib_wrap.py", line 160, in <module>\n'
        "    from .libs.fastdeploy_main import *\n"
        "ModuleNotFoundError: No module named 'fastdeploy.libs.fastdeploy_main'\n"
    )
    assert "imports.shadowed_module" in ids(text)[:2]


def test_kit_and_paddle_names_in_typographic_quotes_are_still_read() -> None:
    assert ids("ModuleNotFoundError: No module named ‘paddleseg’")[0] == "imports.kit_missing"
    assert ids("ModuleNotFoundError: No module named “paddle”")[0] == "imports.no_paddle"


def test_a_private_glibc_symbol_is_a_glibc_mismatch_first() -> None:
    text = (
        "ImportError: /home/USER/miniconda3/lib/python3.9/site-packages/paddle/fluid/core_avx.so: "
        "undefined symbol: _dl_sym, version GLIBC_PRIVATE\n"
    )
    assert ids(text)[0] == "imports.glibc"


def test_a_platform_limited_package_with_no_files_names_python_and_platform() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement paddle-serving-server-gpu==0.9.0.post112 "
        "(from versions: none)\n"
        "ERROR: No matching distribution found for paddle-serving-server-gpu==0.9.0.post112\n"
    )
    top = ids(text)[:3]
    assert {
        "versions.python_unsupported",
        "versions.platform_unsupported",
        "install.no_matching_distribution",
    } == set(top)


def test_a_kits_own_extension_module_the_loader_cannot_open_is_another_cpus_build() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "run_lite.py", line 1, in <module>\n'
        "    from paddlelite.lite import MobileConfig\n"
        "ImportError: /usr/lib/python3/dist-packages/paddlelite/lite.cpython-38-aarch64-linux-gnu.so: "
        "cannot open shared object file: No such file or directory\n"
    )
    assert ids(text)[0] == "versions.platform_unsupported"


def test_a_pinned_dependency_built_from_source_names_install_python_and_platform() -> None:
    text = (
        "  Building wheel for PyMuPDF (setup.py) ... error\n"
        "  error: subprocess-exited-with-error\n"
        "\n"
        "  × python setup.py bdist_wheel did not run successfully.\n"
        "  │ exit code: 1\n"
        "  ╰─> [12 lines of output]\n"
        "      error: command 'swig' failed: No such file or directory\n"
        "      [end of output]\n"
        "  ERROR: Failed building wheel for PyMuPDF\n"
        "error: legacy-install-failure\n"
        "\n"
        "× Encountered error while trying to install package.\n"
        "╰─> PyMuPDF\n"
    )
    top = ids(text)[:3]
    assert top[0] == "install.no_matching_distribution"
    assert {"versions.python_unsupported", "versions.platform_unsupported"} <= set(top)


def test_an_onnx_model_newer_than_onnxruntime_is_a_dependency_version() -> None:
    for message in (
        "onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : "
        "Failed to load model with error: Unknown model file format version.",
        "onnx.onnx_cpp2py_export.checker.ValidationError: Your model ir_version 10 is higher than the checker's (9).",
    ):
        assert ids(message)[0] == "versions.dependency_mismatch", message


def test_a_name_missing_from_a_kit_module_names_the_three_kit_version_readings() -> None:
    text = "ImportError: cannot import name 'FasterTokenizer' from 'paddlenlp.experimental'\n"
    assert {"versions.kit_kit_mismatch", "versions.kit_too_old", "versions.kit_api_changed"} == set(
        ids(text)[:3]
    )


def test_a_kit_asking_for_a_paddle_prerelease_names_the_old_kits_check_beside_paddle() -> None:
    text = (
        "Exception: PaddlePaddle version 2.1.0-rc0 or higher is required, or a suitable develop version is "
        "satisfied as well.\nPlease make sure the version is good with your code.\n"
    )
    assert ids(text)[:2] == ["versions.kit_paddle_mismatch", "versions.kit_too_old"]


def test_a_paddlevideo_section_missing_from_the_config_is_a_missing_key() -> None:
    text = (
        '  File "/home/USER/PaddleVideo/paddlevideo/utils/config.py", line 60, in __getattr__\n'
        "    return self[key]\n"
        "KeyError: 'INFERENCE'\n"
    )
    assert ids(text)[0] == "config.missing_key"


def test_paddle_lites_unsupported_model_format_is_a_model_format_reading() -> None:
    text = (
        "[F 11/12 10:01:02.345 ...e-Lite/lite/model_parser/model_parser.cc:134 PrintPbModelErrorMessage]\n"
        " Error, Unsupported model format!\n"
        "      1. contents in model directory should be in one of these formats:\n"
    )
    assert "versions.model_format" in ids(text)[:2]


def test_a_kit_sub_module_missing_without_a_frame_names_the_kit_version_readings() -> None:
    top = ids("ModuleNotFoundError: No module named 'paddlenlp.transformers.qwen2'\n")[:3]
    assert {"versions.kit_kit_mismatch", "versions.kit_too_old"} <= set(top)


def test_a_kit_saying_it_only_supports_a_paddle_release_is_the_kit_paddle_reading() -> None:
    assert ids("Exception: Paddle2ONNX only support paddlepaddle>=2.0.0, please upgrade it.\n")[0] == (
        "versions.kit_paddle_mismatch"
    )


def test_config_wordings_with_the_path_or_a_should_be_set_are_missing_keys() -> None:
    for message in (
        "AssertionError: config file configs/yolov3/yolov3_darknet53_270e_coco.yml does not exist",
        "ValueError: num_classes should be set in the config file",
    ):
        assert ids(message)[0] == "config.missing_key", message


def test_a_c_extension_built_without_pythons_headers_is_an_install_reading() -> None:
    text = (
        "      lap/_lapjv.cpp:4:10: fatal error: Python.h: No such file or directory\n"
        "      compilation terminated.\n"
        "      error: command '/usr/bin/gcc' failed with exit code 1\n"
    )
    assert ids(text)[0] == "install.no_matching_distribution"


def test_a_translated_no_module_message_for_paddle_is_read() -> None:
    assert ids("ModuleNotFoundError: 没有名为 'paddle' 的模块\n")[0] == "imports.no_paddle"


def test_a_runtime_refusing_or_needing_the_pir_json_format_is_a_model_format_reading() -> None:
    for message in (
        "[ERROR] Paddle Lite does not support the model with PIR format (.json), please re-export it with "
        "FLAGS_enable_pir_api=0",
        "ValueError: The model directory ./PP-OCRv5_server_det_infer does not contain inference.pdmodel",
        "RuntimeError: inference.json is only supported by PaddlePaddle 3.0 and later",
    ):
        assert ids(message)[0] == "versions.model_format", message


def test_a_tool_saying_it_runs_on_some_systems_only_is_the_platform_reading() -> None:
    for message in (
        "RuntimeError: The high-performance inference plugin is only available on Linux x86-64.",
        "Paddle Serving does not support Windows, please use the Docker image.",
        "NotImplementedError: The Windows version of PaddlePaddle does not support NCCL.",
    ):
        assert ids(message)[0] == "versions.platform_unsupported", message


def test_a_data_file_missing_from_the_installed_kits_own_folder_is_an_incomplete_install() -> None:
    text = (
        '  File "/usr/local/lib/python3.8/site-packages/paddleocr/ppocr/postprocess/rec_postprocess.py", line 40\n'
        "    with open(character_dict_path, 'rb') as fin:\n"
        "FileNotFoundError: [Errno 2] No such file or directory: "
        "'/usr/local/lib/python3.8/site-packages/paddleocr/ppocr/utils/ppocr_keys_v1.txt'\n"
    )
    assert ids(text)[0] == "imports.kit_incomplete_install"
    windows = (
        "FileNotFoundError: [Errno 2] No such file or directory: "
        "'C:\\\\Users\\\\USER\\\\anaconda3\\\\lib\\\\site-packages\\\\paddlex\\\\configs\\\\pipelines\\\\OCR.yaml'\n"
    )
    assert ids(windows)[0] == "imports.kit_incomplete_install"


def test_protobuf_refusing_a_program_desc_is_a_model_format_reading() -> None:
    text = (
        "google.protobuf.message.DecodeError: Error parsing message with type "
        "'paddle.framework.proto.ProgramDesc'\n"
    )
    assert ids(text)[0] == "versions.model_format"


def test_an_old_numpy_refusing_a_dtype_subscript_is_a_dependency_version() -> None:
    assert (
        ids("TypeError: 'numpy._DTypeMeta' object is not subscriptable\n")[0]
        == "versions.dependency_mismatch"
    )
