"""``diagnose`` on version and import failures a log cannot pin to one cause: the plausible sibling causes
rank together in the first three, and one is picked first only where the log holds the evidence (a frame,
a source line, a kit's own message)."""

from __future__ import annotations

from workbench.troubleshoot.diagnose import diagnose_text


def ids(text: str) -> list[str]:
    return [match.id for match in diagnose_text(text).matches]


def test_a_users_script_missing_a_kit_api_ranks_the_kit_paddle_and_kit_kit_readings_together() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/USER/slim/quant_demo.py", line 30, in <module>\n'
        "    quant.quant_post_static(executor=exe, model_dir='./infer')\n"
        "AttributeError: module 'paddleslim.quant' has no attribute 'quant_post_static'\n"
    )
    top = ids(text)[:3]
    assert top[0] == "versions.kit_too_old"
    assert {"versions.kit_kit_mismatch", "versions.kit_paddle_mismatch"} <= set(top)


def test_an_import_error_without_its_module_names_both_version_readings_and_the_frame_decides() -> None:
    bare = "ImportError: cannot import name 'quant_aware'\n"
    assert {"versions.kit_paddle_mismatch", "versions.kit_too_old"} <= set(ids(bare)[:3])
    from_paddle = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 9, in <module>\n'
        "    from paddle.distributed import ParallelEnv\n"
        "ImportError: cannot import name 'ParallelEnv'\n"
    )
    assert ids(from_paddle)[0] == "versions.kit_paddle_mismatch"
    from_kit = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 9, in <module>\n'
        "    from parl.utils import summary\n"
        "ImportError: cannot import name 'summary'\n"
    )
    assert ids(from_kit)[:2] == ["versions.kit_too_old", "versions.kit_paddle_mismatch"]


def test_a_dll_without_the_procedure_asked_for_is_a_dll_failure_and_a_version_clash() -> None:
    text = (
        "RuntimeError: FastDeploy initalized failed! Error: DLL load failed while importing fastdeploy_main: "
        "The specified procedure could not be found.\n"
    )
    top = ids(text)[:3]
    assert top[0] == "imports.dll_load_failed" and "versions.kit_paddle_mismatch" in top


def test_a_kit_logger_line_refusing_an_argument_reads_kit_and_paddle_first_then_kit_too_old() -> None:
    text = "[2022-08-04 16:39:38,212] [   ERROR] - __init__() got an unexpected keyword argument 'negative_slope'\n"
    assert ids(text)[:2] == ["versions.kit_paddle_mismatch", "versions.kit_too_old"]


def test_a_users_call_refused_by_a_kit_reads_kit_too_old_first() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "demo/first_order.py", line 108, in <module>\n'
        "    predictor = FirstOrderPredictor(output='out', image_size=512)\n"
        "TypeError: __init__() got an unexpected keyword argument 'image_size'\n"
    )
    top = ids(text)[:3]
    assert top[0] == "versions.kit_too_old" and "versions.kit_paddle_mismatch" in top


def test_an_object_attribute_missing_in_a_kits_code_is_a_weak_version_reading_but_none_is_not() -> None:
    kit_frame = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.10/site-packages/paddledet/engine/trainer.py", line 520, in train\n'
        "    self.model._layers.set_state_dict(state)\n"
        "AttributeError: 'DataParallel' object has no attribute '_layers'\n"
    )
    assert "versions.kit_paddle_mismatch" in ids(kit_frame)[:3]
    none_value = kit_frame.replace("'DataParallel'", "'NoneType'")
    assert "versions.kit_paddle_mismatch" not in ids(none_value)


def test_a_library_refusing_a_kits_positional_arguments_is_a_dependency_version() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.8/site-packages/paddlespeech/cli/asr/infer.py", line 256, in preprocess\n'
        "    audio = librosa.resample(audio, audio_sample_rate, self.sample_rate)\n"
        "TypeError: resample() takes 1 positional argument but 3 were given\n"
    )
    assert ids(text)[0] == "versions.dependency_mismatch"


def test_pip_finding_no_paddle_wheel_names_the_python_and_the_index_readings() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement paddlepaddle-gpu==2.4.2.post117 "
        "(from versions: none)\nERROR: No matching distribution found for paddlepaddle-gpu==2.4.2.post117\n"
    )
    top = ids(text)[:3]
    assert {"versions.python_unsupported", "install.no_matching_distribution"} <= set(top)


def test_a_pip_conflict_over_protobuf_names_the_dependency_and_protobuf() -> None:
    text = (
        "ERROR: pip's dependency resolver does not currently take into account all the packages that are "
        "installed. This behaviour is the source of the following dependency conflicts.\n"
        'paddlepaddle 2.5.2 requires protobuf<=3.20.2,>=3.1.0; platform_system == "Windows", but you have '
        "protobuf 4.25.3 which is incompatible.\n"
    )
    top = ids(text)[:3]
    assert {"versions.dependency_mismatch", "imports.protobuf"} <= set(top)


def test_python_2s_unquoted_module_name_still_names_the_missing_kit() -> None:
    assert ids("ImportError: No module named ppdet\n")[0] == "imports.kit_missing"


def test_a_kits_compiled_op_built_against_another_paddle_is_a_kit_paddle_mismatch() -> None:
    text = (
        "ImportError: /usr/lib/python3.10/site-packages/paddle3d_ops/libpaddle3d_ops.so: "
        "undefined symbol: _ZN3phi6detail18ThrowErrorIfNotOKEv\n"
    )
    assert ids(text)[0] == "versions.kit_paddle_mismatch"


def test_code_for_the_paddleocr_2_wheel_importing_ppocr_reads_missing_kit_and_changed_api() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/USER/pdf_extract/ocr.py", line 3, in <module>\n'
        "    from ppocr.utils.logging import get_logger\n"
        "ModuleNotFoundError: No module named 'ppocr'\n"
    )
    top = ids(text)[:3]
    assert top[0] == "imports.kit_missing" and "versions.kit_api_changed" in top


def test_multi_gpu_training_on_a_windows_build_without_nccl_is_a_platform_limit() -> None:
    text = (
        '  File "C:\\\\Anaconda3\\\\lib\\\\site-packages\\\\paddle\\\\distributed\\\\collective.py", line 157, in _new_process_group_impl\n'
        "    pg = core.ProcessGroupNCCL.create(store, rank, world_size, group_id)\n"
        "AttributeError: module 'paddle.base.libpaddle' has no attribute 'ProcessGroupNCCL'\n"
    )
    assert ids(text)[0] == "versions.platform_unsupported"


def test_uv_refusing_the_python_version_is_a_python_reading() -> None:
    text = (
        "  × No solution found when resolving dependencies:\n"
        "  ╰─▶ Because the current Python version (3.13.1) does not satisfy Python>=3.8,<3.13 and "
        "paddlepaddle==2.6.2 depends on Python>=3.8,<3.13, we can conclude that paddlepaddle==2.6.2 cannot be used.\n"
    )
    top = ids(text)[:3]
    assert top[0] == "versions.python_unsupported" and "install.no_matching_distribution" in top


def test_paddleocr_without_its_paddleocr_class_is_another_paddleocr_on_the_path() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "app.py", line 1, in <module>\n'
        "    from paddleocr import PaddleOCR\n"
        "ImportError: cannot import name 'PaddleOCR' from 'paddleocr' (/home/USER/app/paddleocr/__init__.py)\n"
    )
    assert ids(text)[0] == "imports.shadowed_module"
