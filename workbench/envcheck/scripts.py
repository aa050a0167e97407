"""Source code that probe children run with ``python -c``: the only place Paddle is imported for a check.

Each script is self-contained (standard library plus what it probes), ends by printing one JSON document
after the marker (see :mod:`workbench.envcheck.isolate`) and reports the failure of the thing it probes
as data, so "paddle does not import" is a fact with the exception text, not a crashed probe. The
scripts are strings, not modules of ours, because the child may be a different interpreter with no
workbench installed.
"""

from __future__ import annotations

import json

from workbench.envcheck.isolate import MARKER

# Shared head of every script: quiet the ccache warning, a JSON emitter, a traceback tail helper.
_PRELUDE = f"""
import json, os, sys, time, traceback, warnings
warnings.filterwarnings("ignore", message=".*ccache.*")
_MARKER = {MARKER!r}
def _emit(doc):
    sys.stdout.write("\\n" + _MARKER + json.dumps(doc, default=str) + "\\n")
    sys.stdout.flush()
def _error(exc):
    return (type(exc).__name__ + ": " + str(exc)).strip()[:2000]
def _tb():
    return "".join(traceback.format_exc().splitlines(True)[-12:])
"""

INTERPRETER = (
    _PRELUDE
    + r"""
import ast, glob, importlib.metadata as md, importlib.util, platform, re, shutil, sysconfig
doc = {
    "executable": sys.executable,
    "version": platform.python_version(),
    "implementation": platform.python_implementation(),
    "prefix": sys.prefix,
    "base_prefix": sys.base_prefix,
    "venv_active": sys.prefix != sys.base_prefix,
    "virtual_env": os.environ.get("VIRTUAL_ENV"),
    "conda_prefix": os.environ.get("CONDA_PREFIX"),
    "conda_env": os.environ.get("CONDA_DEFAULT_ENV"),
    "is_conda": os.path.isdir(os.path.join(sys.prefix, "conda-meta")),
    "purelib": sysconfig.get_paths().get("purelib"),
    "sys_path": [p for p in sys.path if p],
    "pythonpath": os.environ.get("PYTHONPATH"),
    "cwd": os.getcwd(),
}

def _norm(name):
    return re.sub(r"[-_.]+", "-", name or "").lower()

paddle_dists, nvidia_pkgs, seen = [], [], set()
numpy_version = None
for dist in md.distributions():
    try:
        name = dist.metadata["Name"] or ""
    except Exception:
        continue
    norm = _norm(name)
    location = str(dist.locate_file(""))
    key = (norm, os.path.realpath(location))
    if key in seen:
        continue
    seen.add(key)
    if norm.startswith("paddlepaddle"):
        installer = None
        try:
            installer = (dist.read_text("INSTALLER") or "").strip() or None
        except Exception:
            pass
        paddle_dists.append({"name": norm, "version": dist.version, "location": location, "installer": installer})
    elif norm.startswith("nvidia-"):
        nvidia_pkgs.append({"name": norm, "version": dist.version})
try:
    numpy_version = md.version("numpy")
except Exception:
    numpy_version = None
doc["paddle_distributions"] = paddle_dists
doc["nvidia_packages"] = sorted(nvidia_pkgs, key=lambda d: d["name"])
doc["numpy_version"] = numpy_version

def _origin(module):
    try:
        spec = importlib.util.find_spec(module)
    except Exception as exc:
        return {"error": _error(exc)}
    if spec is None:
        return None
    return spec.origin or (list(spec.submodule_search_locations or []) or [None])[0]

doc["paddle_origin"] = _origin("paddle")
doc["workbench_origin"] = _origin("workbench")
doc["pynvml_available"] = _origin("pynvml") is not None

# Build facts readable without importing paddle (import may be what is broken).
static = {}
origin = doc["paddle_origin"]
if isinstance(origin, str):
    version_file = os.path.join(os.path.dirname(origin), "version", "__init__.py")
    try:
        with open(version_file, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                try:
                    static[node.targets[0].id] = ast.literal_eval(node.value)
                except Exception:
                    pass
    except Exception:
        pass
wanted = ("full_version", "commit", "cuda_version", "cudnn_version", "nccl_version", "hip_version",
          "xpu_xre_version", "tensorrt_version", "with_mkl", "with_pip_cuda_libraries", "compiled_cuda_archs")
doc["paddle_static_version"] = {k: static[k] for k in wanted if k in static}

wb = shutil.which("paddle-workbench")
shebang = None
if wb:
    try:
        with open(wb, "rb") as fh:
            first = fh.readline(400).decode("utf-8", "replace").strip()
        shebang = first[2:].strip() if first.startswith("#!") else None
    except OSError:
        pass
doc["workbench_script"] = wb
doc["workbench_script_python"] = shebang

venvs = []
candidates = [os.environ.get("VIRTUAL_ENV"), os.path.join(os.getcwd(), ".venv"), os.path.join(os.getcwd(), "venv")]
for cand in candidates:
    if not cand or not os.path.isfile(os.path.join(cand, "pyvenv.cfg")):
        continue
    real = os.path.realpath(cand)
    if any(v["path"] == real for v in venvs):
        continue
    has_paddle = bool(glob.glob(os.path.join(cand, "lib", "python*", "site-packages", "paddle", "__init__.py")))
    venvs.append({"path": real, "has_paddle": has_paddle, "is_current": real == os.path.realpath(sys.prefix)})
doc["nearby_venvs"] = venvs
_emit(doc)
"""
)

PADDLE = (
    _PRELUDE
    + r"""
t0 = time.perf_counter()
try:
    import paddle
except BaseException as exc:
    _emit({"import_ok": False, "error": _error(exc), "error_type": type(exc).__name__, "traceback": _tb()})
    sys.exit(0)
doc = {"import_ok": True, "import_seconds": round(time.perf_counter() - t0, 3),
       "file": getattr(paddle, "__file__", None), "version": getattr(paddle, "__version__", None)}

def _call(fn, *args):
    try:
        value = fn(*args)
    except Exception:
        return None
    if value is None or isinstance(value, (bool, int, float, list, dict)):
        return value
    return str(value)

version = getattr(paddle, "version", None)
for name in ("cuda", "cudnn", "nccl", "xpu", "tensorrt", "hip", "cuda_archs", "mkl"):
    fn = getattr(version, name, None)
    doc[name] = _call(fn) if callable(fn) else None
doc["commit"] = getattr(version, "commit", None)
doc["with_pip_cuda_libraries"] = getattr(version, "with_pip_cuda_libraries", None)
core = None
for path in ("base", "framework"):
    core = getattr(getattr(paddle, path, None), "core", None)
    if core is not None:
        break
compiled = {}
for name in ("cuda", "rocm", "xpu", "cinn", "distribute", "nccl", "mkldnn", "onednn", "avx"):
    fn = getattr(core, "is_compiled_with_" + name, None) or getattr(paddle, "is_compiled_with_" + name, None)
    compiled[name] = _call(fn) if fn else None
doc["compiled_with"] = compiled
doc["cpu_avx_supported"] = _call(getattr(core, "avx_supported", None)) if core is not None else None
doc["cpu_avx512f_supported"] = _call(getattr(core, "supports_avx512f", None)) if core is not None else None
doc["device"] = _call(lambda: paddle.device.get_device())
doc["custom_device_types"] = _call(lambda: list(core.get_all_custom_device_type())) if core is not None else None
gpus = []
count = 0
if compiled.get("cuda") or compiled.get("rocm"):
    count = _call(lambda: paddle.device.cuda.device_count()) or 0
    for index in range(int(count)):
        gpus.append({
            "index": index,
            "name": _call(lambda: paddle.device.cuda.get_device_name(index)),
            "capability": _call(lambda: list(paddle.device.cuda.get_device_capability(index))),
        })
doc["gpu_count"] = count
doc["gpus"] = gpus
try:
    import numpy
    doc["numpy_version"] = numpy.__version__
except Exception:
    doc["numpy_version"] = None
_emit(doc)
"""
)

_RUN_CHECK_STAGE = r"""
try:
    import paddle
    from paddle.utils import install_check as ic
except BaseException as exc:
    _emit({"ok": False, "import_failed": True, "error": _error(exc), "traceback": _tb()})
    sys.exit(0)
use_cuda = use_xpu = use_custom = False
custom_name = None
try:
    if paddle.is_compiled_with_cuda():
        use_cuda = ic._is_cuda_available()
    elif paddle.is_compiled_with_xpu():
        use_xpu = ic._is_xpu_available()
    else:
        kinds = list(paddle.framework.core.get_all_custom_device_type())
        if kinds:
            use_custom, custom_name = True, kinds[0]
    if use_cuda:
        device, places = "GPU", paddle.static.cuda_places()
    elif use_xpu:
        device, places = "XPU", paddle.static.xpu_places()
    elif use_custom:
        device, places = custom_name, list(range(paddle.framework.core.get_custom_device_count(custom_name)))
    else:
        device, places = "CPU", paddle.static.cpu_places(device_count=1)
    doc = {"device": device, "device_count": len(places), "stage": STAGE}
    private = all(hasattr(ic, n) for n in ("_run_static_single", "_run_dygraph_single", "_run_parallel"))
    t0 = time.perf_counter()
    if not private:
        # An older/newer Paddle without the staged helpers: run the whole public check once.
        doc["mode"] = "run_check"
        paddle.utils.run_check()
    elif STAGE == "static":
        ic._run_static_single(use_cuda, use_xpu, use_custom, custom_name)
    elif STAGE == "dygraph":
        ic._run_dygraph_single(use_cuda, use_xpu, use_custom, custom_name)
    elif STAGE == "parallel":
        if len(places) < 2:
            doc["skipped"] = True
        else:
            ic._run_parallel(places)
    doc["ok"] = True
    doc["seconds"] = round(time.perf_counter() - t0, 3)
    _emit(doc)
except BaseException as exc:
    _emit({"ok": False, "error": _error(exc), "traceback": _tb(), "stage": STAGE})
"""


def run_check_stage(stage: str) -> str:
    """The script for one stage of ``paddle.utils.run_check()``: ``static``, ``dygraph`` or ``parallel``."""
    return _PRELUDE + f"STAGE = {json.dumps(stage)}\n" + _RUN_CHECK_STAGE


TENSOR_OP = (
    _PRELUDE
    + r"""
try:
    import paddle
except BaseException as exc:
    _emit({"ok": False, "import_failed": True, "error": _error(exc)})
    sys.exit(0)
try:
    x = paddle.to_tensor([1, 2, 3])
    y = paddle.to_tensor([4, 5, 6])
    z = x + y
    result = z.tolist()
    _emit({"ok": result == [5, 7, 9], "result": result, "place": str(z.place)})
except BaseException as exc:
    _emit({"ok": False, "error": _error(exc), "traceback": _tb()})
"""
)

DRIVER = (
    _PRELUDE
    + r"""
import ctypes
doc = {"nvml": None, "libcuda": None}
try:
    import pynvml
except ImportError:
    doc["nvml"] = {"available": False}
else:
    nvml = {"available": True}
    try:
        pynvml.nvmlInit()
        def _s(v):
            return v.decode() if isinstance(v, bytes) else str(v)
        nvml["driver_version"] = _s(pynvml.nvmlSystemGetDriverVersion())
        try:
            cuda = int(pynvml.nvmlSystemGetCudaDriverVersion())
            nvml["cuda_driver_version"] = f"{cuda // 1000}.{(cuda % 1000) // 10}"
        except Exception:
            pass
        gpus = []
        for i in range(pynvml.nvmlDeviceGetCount()):
            h = pynvml.nvmlDeviceGetHandleByIndex(i)
            gpu = {"index": i, "name": _s(pynvml.nvmlDeviceGetName(h))}
            try:
                mem = pynvml.nvmlDeviceGetMemoryInfo(h)
                gpu["memory_total_mib"] = mem.total // 2**20
                gpu["memory_used_mib"] = mem.used // 2**20
            except Exception:
                pass
            try:
                gpu["utilization_pct"] = pynvml.nvmlDeviceGetUtilizationRates(h).gpu
            except Exception:
                pass
            try:
                major, minor = pynvml.nvmlDeviceGetCudaComputeCapability(h)
                gpu["compute_capability"] = f"{major}.{minor}"
            except Exception:
                pass
            try:
                gpu["pci_bus_id"] = _s(pynvml.nvmlDeviceGetPciInfo(h).busId)
            except Exception:
                pass
            gpus.append(gpu)
        nvml["gpus"] = gpus
        pynvml.nvmlShutdown()
    except Exception as exc:
        nvml["error"] = _error(exc)
    doc["nvml"] = nvml
lib = {"loaded": False}
try:
    cuda = ctypes.CDLL("libcuda.so.1")
except OSError as exc:
    lib["error"] = str(exc)
else:
    lib["loaded"] = True
    try:
        with open("/proc/self/maps", encoding="utf-8") as fh:
            paths = {line.split()[-1] for line in fh if "libcuda.so" in line}
        lib["path"] = sorted(paths)[0] if paths else None
    except OSError:
        pass
    value = ctypes.c_int()
    if cuda.cuDriverGetVersion(ctypes.byref(value)) == 0:
        lib["cuda_driver_version"] = f"{value.value // 1000}.{(value.value % 1000) // 10}"
    rc = cuda.cuInit(0)
    lib["cu_init"] = rc
    if rc == 0:
        count = ctypes.c_int()
        cuda.cuDeviceGetCount(ctypes.byref(count))
        gpus = []
        for i in range(count.value):
            dev = ctypes.c_int()
            cuda.cuDeviceGet(ctypes.byref(dev), i)
            name = ctypes.create_string_buffer(256)
            cuda.cuDeviceGetName(name, 256, dev)
            major, minor = ctypes.c_int(), ctypes.c_int()
            cuda.cuDeviceGetAttribute(ctypes.byref(major), 75, dev)
            cuda.cuDeviceGetAttribute(ctypes.byref(minor), 76, dev)
            total = ctypes.c_size_t()
            fn = getattr(cuda, "cuDeviceTotalMem_v2", None) or cuda.cuDeviceTotalMem
            fn(ctypes.byref(total), dev)
            gpus.append({"index": i, "name": name.value.decode("utf-8", "replace"),
                         "compute_capability": f"{major.value}.{minor.value}",
                         "memory_total_mib": total.value // 2**20})
        lib["gpus"] = gpus
doc["libcuda"] = lib
_emit(doc)
"""
)

LIBRARIES = (
    _PRELUDE
    + r"""
import ctypes, glob, importlib.util
CANDIDATES = {
    "cudart": ["libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0", "libcudart.so"],
    "cublas": ["libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so"],
    "cudnn": ["libcudnn.so.9", "libcudnn.so.8", "libcudnn.so"],
    "nccl": ["libnccl.so.2", "libnccl.so"],
}
pip_dirs = []
try:
    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec else []:
        pip_dirs.extend(sorted(glob.glob(os.path.join(root, "*", "lib"))))
except Exception:
    pass

def _mapped(fragment):
    try:
        with open("/proc/self/maps", encoding="utf-8") as fh:
            for line in fh:
                if fragment in line and "/" in line:
                    return line.split()[-1]
    except OSError:
        pass
    return None

libs = {}
for lib, names in CANDIDATES.items():
    entry = {"loaded": False, "tried": []}
    for name in names:
        targets = [name] + [os.path.join(d, name) for d in pip_dirs if os.path.exists(os.path.join(d, name))]
        for target in targets:
            try:
                ctypes.CDLL(target)
            except OSError as exc:
                entry["error"] = str(exc)[:300]
                entry["tried"].append(target)
                continue
            entry.update({"loaded": True, "name": name, "path": _mapped(name) or target,
                          "from_pip": target != name})
            entry.pop("error", None)
            break
        if entry["loaded"]:
            break
    entry["tried"] = entry["tried"][:8]
    libs[lib] = entry
_emit({"libraries": libs, "pip_lib_dirs": pip_dirs})
"""
)

SECTION = "@@paddle-workbench-probe@@"
"""Start of a line the shared child prints before and after each probe script (see :func:`in_turn`)."""

_IN_TURN = r"""
import json, os, sys, traceback
# One output stream: the parent splits it into each probe's part by the section lines (glog writes to
# fd 2 directly, so Python-level redirection would miss it).
os.dup2(1, 2)
def _section(**mark):
    sys.stdout.write("\n" + SECTION + json.dumps(mark) + "\n")
    sys.stdout.flush()
for _name, _code in json.loads(SECTIONS):
    _section(begin=_name)
    try:
        exec(compile(_code, "<probe " + _name + ">", "exec"), {"__name__": "__main__"})
    except SystemExit:
        pass
    except BaseException:
        traceback.print_exc()
    _section(end=_name)
sys.stdout.flush()
os._exit(0)  # every part is delivered: the parent waits on nothing Paddle's teardown would do
"""


def in_turn(sections: list[tuple[str, str]]) -> str:
    """One script that runs the probe scripts ``sections`` (name, code) in turn in one interpreter.

    Each runs in a namespace of its own between a ``begin`` and an ``end`` :data:`SECTION` line, so the
    parent knows which probe a document belongs to and which probe was running when the child died; a
    script that exits or raises ends its section without a document and the next one starts.
    """
    head = f"SECTION = {SECTION!r}\nSECTIONS = {json.dumps(json.dumps(sections))}\n"
    return head + _IN_TURN
