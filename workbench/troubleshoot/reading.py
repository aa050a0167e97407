"""A structured reading of a log: the final exception, where it was raised, and the versions it names.

``diagnose`` matches signatures line by line; some causes show only in the *structure* of a failure — the
last exception of the last traceback, the library a ``dlopen`` could not find, the versions of Paddle and
a kit printed somewhere in the log. :func:`read_log` extracts that once per input:

- **the final exception** (:class:`RaisedError`): type and message of the last Python exception line
  (after a ``Traceback`` or standing alone, a kit's ``ppocr ERROR: …`` prefix and a flattened one-line
  paste included), and of a C++ ``Error Message Summary`` block (Paddle's ``InvalidArgumentError: …``),
  a glog fatal line (``F0604 … Check failed: …``) or a ``terminate called after throwing`` — each with
  Paddle's ``(InvalidArgument)`` category, ``[Hint: …]``, ``(at /paddle/…)`` and ``[operator < … >]``;
- **the failing line** (:attr:`Reading.logged`) when there is no exception to read: the last line a build
  tool, the linker, the shell or a logger printed as a failure (``CMake Error``, ``make: ***``, MSVC's
  ``error LNK2019`` in English or Chinese, ``x.cc:12: error:``, ``undefined reference``, ``Segmentation
  fault``/``Killed``/``Aborted``, pip's or a kit logger's ``ERROR``), so a build or shell failure is read
  out too instead of met with silence;
- **the frames** of the traceback that ends in it (:class:`Frame`), each classed as the user's code, a
  kit's (PaddleOCR, PaddleX, PaddleDetection, … installed or checked out), Paddle's own, another
  library's or the standard library's; :attr:`Reading.user_frame` is the innermost user or kit frame;
- **errno names** (``ENOSPC``, ``EACCES``, ``ECONNREFUSED`` …) from ``[Errno N]``, ``[WinError N]``, the
  names themselves and the C library's wording (English and Chinese);
- **library names** in loader errors (``libGL.so.1``, ``libcudnn.so.8``, ``cudnn64_8.dll``);
- **versions** of Paddle, the kits, CUDA, cuDNN, Python and the driver (:data:`VERSION_NAMES`), from
  pip specs and wheel names, site-packages paths, Paddle's device banner, ``nvidia-smi`` and image tags;
- **kit logger prefixes** (``ppocr INFO:``, ``ppdet.engine INFO:``, ``paddlex``, ``[INFO]`` …).

Linear time by construction: the structure is read from the last :data:`STRUCTURE_CHARS` of a text (a
failure's traceback is at its end), the facts from its first :data:`HEAD_CHARS` and last
:data:`TAIL_CHARS` (version banners are near the start), each line is cut to
:data:`LINE_CHARS`, literal ``in`` tests pick the lines worth a look, and every pattern is RE2
(:func:`~workbench.troubleshoot.signatures._linear.compile_capturing`). Nothing here imports Paddle.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

from workbench.troubleshoot.signatures._linear import compile_capturing

HEAD_CHARS = 256 * 1024
"""Characters read from the start of a text for its facts (version banners, the command line)."""
TAIL_CHARS = 512 * 1024
"""Characters read from the end of a text for its facts (versions, errnos, libraries)."""
STRUCTURE_CHARS = 128 * 1024
"""Characters from the end of a text read for its structure (the final exception and its traceback,
the C++ error block): a failure's traceback is at the end and far shorter than this."""
LINE_CHARS = 4000
"""A line is read to this many characters (its end kept too: a flattened traceback ends in its error)."""
MAX_FRAMES = 200
"""Frames kept per traceback (the innermost ones)."""
MAX_LOGGED_LINES = 200
"""Candidate failing lines of a tool classified at most: the last ones of the structure window, from the
end, until one is a failure."""

FrameKind = Literal["user", "kit", "paddle", "library", "stdlib"]

KIT_NAMES: dict[str, str] = {
    "paddleocr": "paddleocr",
    "ppocr": "paddleocr",
    "ppstructure": "paddleocr",
    "paddlex": "paddlex",
    "paddlexui": "paddlex",
    "ppdet": "paddledetection",
    "paddledet": "paddledetection",
    "paddledetection": "paddledetection",
    "paddleclas": "paddleclas",
    "ppcls": "paddleclas",
    "paddleseg": "paddleseg",
    "pdseg": "paddleseg",
    "paddlenlp": "paddlenlp",
    "paddleformers": "paddlenlp",
    "paddlehub": "paddlehub",
    "paddlespeech": "paddlespeech",
    "paddlevideo": "paddlevideo",
    "paddle3d": "paddle3d",
    "paddlets": "paddlets",
    "paddlemix": "paddlemix",
    "paddle2onnx": "paddle2onnx",
    "fastdeploy": "fastdeploy",
    "paddleslim": "paddleslim",
    "paddlerec": "paddlerec",
    "ppgan": "paddlegan",
    "ppdiffusers": "paddlemix",
    "parl": "parl",
    "paddlelite": "paddle-lite",
    "paddle_serving_server": "serving",
    "paddle_serving_server_gpu": "serving",
    "paddle_serving_client": "serving",
    "paddle_serving_app": "serving",
    "paddleaudio": "paddlespeech",
    "ppsci": "paddlescience",
    "erniekit": "ernie",
}
"""A path component (lower case) or package name → the kit it belongs to."""

VERSION_NAMES = (
    "paddlepaddle",
    "paddlepaddle-gpu",
    "paddle",
    "paddleocr",
    "paddlex",
    "paddledetection",
    "paddlenlp",
    "paddleclas",
    "paddleseg",
    "paddlehub",
    "paddle2onnx",
    "paddlespeech",
    "fastdeploy",
    "cuda",
    "cudnn",
    "python",
    "driver",
)
"""The names :attr:`Reading.versions` may hold (``paddle``: Paddle's version when the log does not say
which wheel; ``cuda``: the CUDA runtime Paddle or the image uses; ``driver``: the NVIDIA driver)."""


@dataclass(frozen=True)
class Frame:
    """One frame of a Python traceback."""

    path: str
    line: int
    function: str
    code: str
    """The source line Python printed under it (may be empty)."""
    log_line: int
    """Where the frame's ``File`` line is in the log (1-based)."""
    kind: FrameKind

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "function": self.function,
            "code": self.code,
            "log_line": self.log_line,
            "kind": self.kind,
        }

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        return f"{where} in {self.function}" if self.function else where


@dataclass(frozen=True)
class RaisedError:
    """An exception as the log prints it: Python's (``origin="python"``) or C++'s (``"cpp"``); or a failing
    line with no exception behind it (``"log"``: the tool's word as the type, the rest as the message)."""

    type: str
    """As printed, qualified when it was (``requests.exceptions.SSLError``, ``InvalidArgumentError``)."""
    message: str
    log_line: int
    origin: Literal["python", "cpp", "log"]
    """``log``: a failing line a tool, the shell or a logger printed (:attr:`Reading.logged`)."""
    category: str = ""
    """Paddle's error category, ``(InvalidArgument) …`` → ``InvalidArgument`` (empty when none)."""
    hint: str = ""
    """Paddle's ``[Hint: …]`` text."""
    at: str = ""
    """Paddle's C++ source location (``/paddle/paddle/phi/…:145``)."""
    operator: str = ""
    """The operator of ``[operator < reshape2 > error]``."""

    def is_type(self, names: tuple[str, ...]) -> bool:
        """Whether the type is one of ``names``: a plain name is compared with the last dotted part, a
        dotted one with the end of the type as printed."""
        short = self.short_type
        return any(
            (name == self.type or self.type.endswith("." + name)) if "." in name else name == short
            for name in names
        )

    @property
    def short_type(self) -> str:
        """The type's last dotted part (``SSLError``), what signatures match on."""
        return self.type.rsplit(".", 1)[-1].rsplit("::", 1)[-1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "message": self.message,
            "line": self.log_line,
            "origin": self.origin,
            "category": self.category,
            "hint": self.hint,
            "at": self.at,
            "operator": self.operator,
        }

    def __str__(self) -> str:
        message = f"({self.category}) {self.message}" if self.category else self.message
        return f"{self.type}: {message}" if message else self.type


@dataclass
class Reading:
    """What :func:`read_log` found in one text (every field empty when the text shows no failure)."""

    exception: RaisedError | None = None
    """The last Python exception line of the text."""
    cpp: RaisedError | None = None
    """The last C++ error (``Error Message Summary``, glog fatal, ``terminate called``)."""
    logged: RaisedError | None = None
    """The last failing line of a build tool, the linker, the shell or a logger (:data:`_LOGGED_KINDS`),
    read only when the text shows neither an exception nor a C++ error nor a traceback."""
    frames: tuple[Frame, ...] = ()
    """The frames of the traceback that ends in :attr:`exception` (outermost first), or of the last
    traceback when it has no exception line."""
    traceback: bool = False
    """Whether the text holds a Python traceback (a ``Traceback`` header or ``File "…", line N`` frames)."""
    errnos: tuple[str, ...] = ()
    libraries: tuple[str, ...] = ()
    versions: dict[str, str] = field(default_factory=dict)
    version_lines: dict[str, tuple[int, str]] = field(default_factory=dict)
    """Where each version was first found: (1-based line, that line's text), for quoting it as evidence."""
    fact_lines: dict[str, tuple[int, str]] = field(default_factory=dict)
    """Where each errno and library name was first found: (1-based line, that line's text)."""
    kits: tuple[str, ...] = ()
    """Kits the log shows (logger prefixes, frames, versions), in order of first sight."""
    model_files: tuple[str, ...] = ()
    """Model file names the log mentions (``inference.json``, ``inference.pdmodel``, ``model.pdmodel``)."""

    @property
    def final(self) -> RaisedError | None:
        """The error the failure ends in: the C++ one when it comes after the Python one or explains an
        empty Python message (``EnforceNotMet:`` then the summary), else the Python one."""
        py, cpp = self.exception, self.cpp
        if cpp is None:
            return py
        if py is None or not py.message.strip() or cpp.log_line > py.log_line:
            return cpp
        return py

    @property
    def errors(self) -> tuple[RaisedError, ...]:
        """Every final error read (the Python one and the C++ one), for matching a type."""
        return tuple(e for e in (self.exception, self.cpp) if e is not None)

    @property
    def has_error(self) -> bool:
        """Whether the text shows a failure to read out: an exception, a C++ error block, a traceback or
        a failing line of a tool (:attr:`logged`)."""
        return self.exception is not None or self.cpp is not None or self.traceback or self.logged is not None

    @property
    def user_frame(self) -> Frame | None:
        """The innermost frame in the user's or a kit's code (never Paddle's, another library's or the
        standard library's)."""
        for frame in reversed(self.frames):
            if frame.kind in ("user", "kit"):
                return frame
        return None

    @property
    def raising_frame(self) -> Frame | None:
        """The frame the final exception was raised in: the innermost frame of its traceback outside the
        standard library (an import fails in ``<frozen importlib._bootstrap>`` on behalf of the code that
        imports). ``None`` when the log shows no frames."""
        for frame in reversed(self.frames):
            if frame.kind != "stdlib":
                return frame
        return None

    def raised_in(self, names: tuple[str, ...]) -> bool:
        """Whether :attr:`raising_frame` is of one of ``names``: frame kinds (``kit``, ``paddle``,
        ``user``, ``library``, ``stdlib``) or kits (``paddleocr``, ``paddlex`` …)."""
        frame = self.raising_frame
        return frame is not None and not frame_owners(frame).isdisjoint(names)

    def to_dict(self) -> dict[str, Any]:
        final = self.final
        frame = self.user_frame
        return {
            "exception": final.to_dict() if final else None,
            "python_exception": self.exception.to_dict() if self.exception else None,
            "cpp_error": self.cpp.to_dict() if self.cpp else None,
            "logged_error": self.logged.to_dict() if self.logged else None,
            "frame": frame.to_dict() if frame else None,
            "frames": [f.to_dict() for f in self.frames[-10:]],
            "traceback": self.traceback,
            "errnos": list(self.errnos),
            "libraries": list(self.libraries),
            "versions": dict(self.versions),
            "kits": list(self.kits),
            "model_files": list(self.model_files),
        }


# -- the patterns (RE2, with groups; each run on one cut line) -----------------------------------------

_FRAME = r'File "([^"]+)", line (\d+)(?:, in (.+))?'
_NOTEBOOK_FRAME = (
    r"^(?:File ((?:/|~|[A-Za-z]:[\\/])[^\n]*?):(\d+)(?:, in (.+?))?"  # IPython 8: File /x.py:35, in f()
    r"|((?:Cell|Input) In ?\[\d*\]), (?:line (\d+)|in (.+?))"  # its cell: Cell In[2], line 1
    r"|(<ipython-input-[^>]*>|(?:/|~/|[A-Za-z]:[\\/])[^\n]*?\.pyx?) in (.+?))\s*$"  # IPython 7: /x.py in f()
)
"""A frame as Jupyter/IPython prints it (no quotes; the line number on the ``---> N`` arrow line below)."""
_NOTEBOOK_ARROW = r"^-+> ?(\d+)\s?(.*)$"
"""IPython's marker of a frame's current line: ``---> 35 code``."""
_EXC_TYPE = (
    r"(?:[A-Za-z_][A-Za-z0-9_]*\.)*(?:[A-Z][A-Za-z0-9_]*)?(?:Error|Exception|NotMet|Interrupt|Exit|Fault)"
)
_TYPE_ENDINGS = ("Error", "Exception", "NotMet", "Interrupt", "Exit", "Fault")
_EXC_START = rf"^\s*(?:>>> )?({_EXC_TYPE})(?::[ \t]?(.*))?$"
_EXC_ANY = r"^((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*)(?::[ \t]?(.*))?$"
"""Any ``Name: message`` (or a bare ``Name``) — read only right after a traceback's last frame."""
"""An exception line: its type alone, or ``Type: message``."""
_BUILTIN = (
    "ModuleNotFoundError|ImportError|AttributeError|TypeError|ValueError|RuntimeError|OSError|IOError|"
    "KeyError|IndexError|FileNotFoundError|AssertionError|NotImplementedError|MemoryError|PermissionError|"
    "ConnectionError|SystemError|EnforceNotMet|UnicodeDecodeError|ZeroDivisionError|NameError|"
    "SyntaxError|RecursionError|TimeoutError|SSLError|SSLCertVerificationError|CalledProcessError|"
    "FatalError|InvalidArgumentError|PreconditionNotMetError|ResourceExhaustedError|UnimplementedError|"
    "NotFoundError|OutOfRangeError|ExternalError|UnavailableError|PermissionDeniedError|"
    "AlreadyExistsError|ExecutionTimeoutError"
)
_EXC_INSIDE = rf"(?:^|[\s:>(])((?:[A-Za-z_][A-Za-z0-9_]*\.)*(?:{_BUILTIN})): (.*)$"
"""A well-known exception type inside a line (a flattened paste, a kit's ``… msg: ValueError: …``)."""
_SUMMARY_ERROR = r"^\s*([A-Za-z_][A-Za-z0-9_]*Error|Error)\s*:\s*(.*)$"
_GLOG_FATAL = r"^F\d{4} [0-9:. ]+\s*\d+ ([\w./-]+:\d+)\] (.*)$"
_TERMINATE = r"terminate called after throwing an instance of '([^']+)'"
_CATEGORY = r"^\((\w+)\) ?(.*)$"
_HINT = r"\[Hint: (.*?)\]?(?:\s*\(at ([^)]+)\))?\s*$"
_AT = r"(?:\(at |at \()(/paddle/[^)\s]+|[A-Za-z]:\\[^)\s]+|[\w./-]+\.(?:cc|cu|h|cpp):\d+)\)"
_OPERATOR = r"\[operator < ?(\w+) ?> error\]"
_ERRNO_NUMBER = r"\[(Errno|WinError) (-?\d+)\]"
_ERRNO_NAME = r"\b(E(?:NOSPC|ACCES|PERM|CONNREFUSED|CONNRESET|CONNABORTED|TIMEDOUT|NOENT|NOMEM|ADDRINUSE|"
_ERRNO_NAME += r"HOSTUNREACH|NETUNREACH|AGAIN|MFILE|BUSY|IO|EXIST|ROFS|PIPE|NOTDIR|ISDIR|DQUOT|NOEXEC|"
_ERRNO_NAME += r"INVAL|NODEV|NXIO|AI_NONAME|AI_AGAIN))\b"
_LIBRARY = r"\b(lib[A-Za-z0-9_+-]+(?:\.[0-9]+)*(?:\.so(?:\.[0-9]+)*|\.dylib)|[A-Za-z0-9_-]+\.dll)\b"
_SNDFILE = r"\b(sndfile|portaudio|GL|gthread-2\.0|gomp|cudnn|cublas|cudart|nccl) library not found"
_MODEL_FILE = r"\b((?:inference|model|__model__)(?:\.pdmodel|\.json|\.pdiparams|\.yml|\.yaml)?)\b"

_LINUX_ERRNO = {
    1: "EPERM",
    2: "ENOENT",
    5: "EIO",
    11: "EAGAIN",
    12: "ENOMEM",
    13: "EACCES",
    16: "EBUSY",
    17: "EEXIST",
    20: "ENOTDIR",
    21: "EISDIR",
    24: "EMFILE",
    28: "ENOSPC",
    30: "EROFS",
    32: "EPIPE",
    98: "EADDRINUSE",
    101: "ENETUNREACH",
    103: "ECONNABORTED",
    104: "ECONNRESET",
    110: "ETIMEDOUT",
    111: "ECONNREFUSED",
    113: "EHOSTUNREACH",
    122: "EDQUOT",
    -2: "EAI_NONAME",
    -3: "EAI_AGAIN",
    -5: "EAI_NONAME",
}
"""Linux errno numbers (and getaddrinfo's negative ones, as Python prints them) → names."""
_WINDOWS_ERROR = {
    2: "ENOENT",
    3: "ENOENT",
    5: "EACCES",
    32: "EBUSY",
    112: "ENOSPC",
    10048: "EADDRINUSE",
    10053: "ECONNABORTED",
    10054: "ECONNRESET",
    10060: "ETIMEDOUT",
    10061: "ECONNREFUSED",
    11001: "EAI_NONAME",
    11002: "EAI_AGAIN",
}
"""Windows error numbers (``[WinError N]``) → the POSIX name of the same failure."""
_ERRNO_WORDS = {
    "No space left on device": "ENOSPC",
    "Disk quota exceeded": "EDQUOT",
    "Permission denied": "EACCES",
    "Access is denied": "EACCES",
    "Operation not permitted": "EPERM",
    "Connection refused": "ECONNREFUSED",
    "Connection reset by peer": "ECONNRESET",
    "Connection timed out": "ETIMEDOUT",
    "Name or service not known": "EAI_NONAME",
    "nodename nor servname provided": "EAI_NONAME",
    "Temporary failure in name resolution": "EAI_AGAIN",
    "Read-only file system": "EROFS",
    "Too many open files": "EMFILE",
    "Address already in use": "EADDRINUSE",
    "Network is unreachable": "ENETUNREACH",
    "No route to host": "EHOSTUNREACH",
    "设备上没有空间": "ENOSPC",
    "磁盘空间不足": "ENOSPC",
    "权限不够": "EACCES",
    "拒绝访问": "EACCES",
    "拒绝连接": "ECONNREFUSED",
    "由于目标计算机积极拒绝": "ECONNREFUSED",
}
"""The C library's (and Windows') wording of an errno, English and Chinese → its name."""

_VERSION = r"([0-9]+\.[0-9]+(?:\.[0-9]+)?(?:\.?post[0-9]+|rc[0-9]*|b[0-9]+|a[0-9]+|\.dev[0-9]+)?)"
_ADDLE = ("addle", "ADDLE", "astdeploy", "astDeploy", "ASTDEPLOY")
_CUDA = ("cuda", "CUDA", "Cuda")
_CUDNN = ("cudnn", "cuDNN", "CUDNN", "CuDNN", "Cudnn")
_PACKAGE_VERSIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # pip specs, `pip list`/`pip show`, wheel and sdist names, "<name> version: X", "<name> X"
    (
        rf"(?i)\b(paddlepaddle[-_]gpu|paddlepaddle|paddleocr|paddlex|paddledet|paddledetection|paddlenlp|"
        rf"paddleclas|paddleseg|paddlehub|paddle2onnx|paddlespeech|fastdeploy[-_]gpu[-_]python|"
        rf"fastdeploy[-_]python|fastdeploy)(?:\s*(?:==|>=|~=|-|:|\s)\s*|\s+version\s*:?\s*|\s*\(|"
        rf"\s+v)v?{_VERSION}(?:$|[^0-9A-Za-z])",
        "",
        _ADDLE,
    ),
    (rf"(?i)\bpaddle(?:paddle)?(?:\s+|\.__)version(?:__)?\s*[:=]?\s*['\"]?{_VERSION}", "paddle", _ADDLE),
    (rf"\bPython\s+{_VERSION}", "python", ("Python",)),
    (r"\bpython(3\.[0-9]+)[/\\](?:site|dist)-packages", "python", ("-packages",)),
    (r"[\\/]Python(3[0-9]{1,2})[\\/]", "python_compact", ("Python3",)),
    (r"\bcp(3)([0-9]{1,2})-", "python_wheel", ("cp3",)),
    (rf"CUDA Version:?\s*{_VERSION}", "cuda", ("CUDA Version",)),
    (rf"Runtime API Version:\s*{_VERSION}", "cuda", ("Runtime API Version",)),
    (rf"(?i)\bcuda[ _-]?(?:toolkit\s*)?(?:version\s*:?\s*)?v?{_VERSION}", "cuda", _CUDA),
    (r"(?i)\bcudnn[ _-]?(?:version\s*:?\s*)?v?([0-9]+(?:\.[0-9]+)*)", "cudnn", _CUDNN),
    (r"Driver Version:\s*([0-9]+\.[0-9]+(?:\.[0-9]+)?)", "driver", ("Driver Version",)),
    (r"\bpost(1[0-2][0-9])\b", "cuda_post", ("post1",)),
)
"""(RE2 pattern, what it names, literals one of which a match holds): an empty name takes the package
from the first group; a pattern runs only on a window holding one of its literals (``in``, C speed)."""
_KIT_PREFIXES: tuple[tuple[str, str], ...] = (
    ("ppocr INFO", "paddleocr"),
    ("ppocr ERROR", "paddleocr"),
    ("ppocr WARNING", "paddleocr"),
    ("ppocr DEBUG", "paddleocr"),
    ("] ppdet", "paddledetection"),
    ("ppdet.", "paddledetection"),
    ("ppcls INFO", "paddleclas"),
    ("ppcls WARNING", "paddleclas"),
    ("ppcls ERROR", "paddleclas"),
    ("paddlex INFO", "paddlex"),
    ("paddlex WARNING", "paddlex"),
    ("paddlex ERROR", "paddlex"),
    (".paddlex/", "paddlex"),
    ("PaddleX", "paddlex"),
    ("paddlenlp", "paddlenlp"),
    ("PaddleNLP", "paddlenlp"),
    ("paddleseg", "paddleseg"),
    ("PaddleSeg", "paddleseg"),
    ("paddlespeech", "paddlespeech"),
    ("fastdeploy", "fastdeploy"),
    ("FastDeploy", "fastdeploy"),
    ("Paddle2ONNX", "paddle2onnx"),
    ("paddle2onnx", "paddle2onnx"),
    ("LAUNCH INFO", "paddle.distributed.launch"),
    ("[INFO]", "kit logger"),
    ("] INFO]", "kit logger"),
    ("root INFO:", "kit logger"),
)
"""A literal a kit's log lines hold → the kit (``kit logger``: a kit's generic ``[INFO]`` style)."""


def _re(pattern: str) -> Any:
    return compile_capturing(pattern)


def _cut(line: str) -> str:
    """A line cut to :data:`LINE_CHARS`: its start and its end (a flattened traceback ends in its error)."""
    if len(line) <= LINE_CHARS:
        return line
    half = LINE_CHARS // 2
    return line[:half] + " … " + line[-half:]


def frame_kind(path: str) -> FrameKind:
    """Whose code a traceback frame's file is: Paddle's own, a kit's, another library's, the standard
    library's or the user's."""
    parts = [p for p in path.replace("\\", "/").split("/") if p]
    lowered = [p.lower() for p in parts]
    for i, part in enumerate(lowered):
        if part in ("site-packages", "dist-packages") and i + 1 < len(lowered):
            package = lowered[i + 1].split(".", 1)[0].split("-", 1)[0]
            if package == "paddle":
                return "paddle"
            if package in KIT_NAMES:
                return "kit"
            return "library"
    if path.startswith("<frozen") or any(p.startswith("python3") or p.startswith("python2") for p in lowered):
        return "stdlib"
    if path.startswith("<"):
        return "user"  # <stdin>, <string>, a notebook cell
    if lowered and lowered[0].split(".", 1)[0] in _STDLIB_TOP and len(lowered) <= 3:
        return "stdlib"  # a frozen build's relative path (xml\etree\ElementTree.py)
    if _kit_of_path(path):
        return "kit"
    if "paddle" in lowered[:-1] and ("fluid" in lowered or "base" in lowered or "phi" in lowered):
        return "paddle"  # a Paddle source checkout on the path
    return "user"


def frame_owners(frame: Frame) -> frozenset[str]:
    """Whose code ``frame`` is, as a ``raised_in`` condition names it: its kind, and for a kit's frame
    the kit too (``{"kit", "paddleocr"}``)."""
    if frame.kind != "kit":
        return frozenset((frame.kind,))
    parts = [p.lower() for p in frame.path.replace("\\", "/").split("/") if p]
    for i, part in enumerate(parts):
        if part in ("site-packages", "dist-packages") and i + 1 < len(parts):
            kit = KIT_NAMES.get(parts[i + 1].split(".", 1)[0].split("-", 1)[0])
            if kit:
                return frozenset(("kit", kit))
    kit = _kit_of_path(frame.path)
    return frozenset(("kit", kit)) if kit else frozenset(("kit",))


# -- reading ------------------------------------------------------------------------------------------


def _tail(text: str, first_line: int, keep: int) -> tuple[int, str]:
    """The last ``keep`` characters of ``text`` from a line start (the cut line's tail when one line is
    longer), with the number of its first line."""
    if len(text) <= keep:
        return first_line, text
    cut = len(text) - keep
    line_end = text.find("\n", cut)
    start = line_end + 1 if line_end != -1 and line_end < len(text) - 1 else cut
    return first_line + text.count("\n", 0, start), text[start:]


def _windows(text: str, first_line: int) -> list[tuple[int, str]]:
    """The parts of ``text`` read for facts, each ``(line number of its first line, text)``: all of it
    when short, else its head and its tail (each from a line boundary), long lines cut."""
    if len(text) <= HEAD_CHARS + TAIL_CHARS:
        return [(first_line, _cut_lines(text))]
    head_end = text.rfind("\n", 0, HEAD_CHARS)
    head = text[: head_end if head_end > 0 else HEAD_CHARS]
    start, tail = _tail(text, first_line, TAIL_CHARS)
    return [(first_line, _cut_lines(head)), (start, _cut_lines(tail))]


def _cut_lines(part: str) -> str:
    """``part`` with every line over :data:`LINE_CHARS` cut (:func:`_cut`), line count unchanged: the
    passes over it then cost what its short lines cost, whatever one line holds."""
    if len(part) <= LINE_CHARS:
        return part
    lines = part.split("\n")
    if all(len(line) <= LINE_CHARS for line in lines):
        return part
    return "\n".join(_cut(line) for line in lines)


_INTERESTING = (
    r"(?m)^(?:F[0-9]{4} |File (?:[/~]|[A-Za-z]:[\\/])|(?:Cell|Input) In ?\[|<ipython-input-"
    r"|(?:/|~/|[A-Za-z]:[\\/])\S[^\n]*\.pyx? in "
    r"|[^\n]*?(?:File \"|Traceback \(most|Error|Exception|NotMet|Interrupt|Fault|"
    r"terminate called|what\(\):|\[Hint:|\(at |at \(|\[operator <))"
)
"""A line the structure pass looks at: a frame, a traceback header, an error, a hint, a C++ location."""
_MARKS: tuple[str, ...] = ('File "', "Traceback", "Error", "Exception", "NotMet", "Interrupt", "Fault")
_MARKS += ("terminate called", "what():", "[Hint:", "(at ", "at (", "[operator <", "\nF")
"""Literals one of which a window holds when :data:`_INTERESTING` can match in it."""
MAX_LINES_READ = 50_000
"""Lines of one window the structure pass reads at most (each holds an error word)."""
_LIBRARY_LINE = (
    r"(?m)^[^\n]*(?:cannot open shared object|dlopen|annot load|DLL|\.dll|library not found|"
    r"error while loading shared libraries|Could not load|could not be found|not found|No such file|"
    r"[Cc]ould not find|找不到)[^\n]*"
)


_SIGNALS = ("Segmentation fault", "Aborted", "Killed", "Bus error", "Floating point exception")
"""How a shell reports a job its signal ended (``Killed``, ``Segmentation fault (core dumped)``)."""
_COMMAND_MARKS = ("python", "./", ".py", ".sh", "/")
"""What the command a shell names after a killed job's signal holds (``Killed  python tools/train.py``)."""
_LOGGED_LINE = (
    r"(?m)^[^\n]*?(?:CMake Error|\*\*\* |ninja: build stopped|error (?:LNK|C|MSB)[0-9]|错误\t(?:LNK|C|MSB)[0-9]|"
    r"error:|undefined reference to|ERROR|CRITICAL|" + "|".join(_SIGNALS) + r")[^\n]*"
)
"""A line that may be a tool's failure (:data:`_LOGGED_KINDS` says which, if any)."""
_LOGGED_MARKS = ("CMake Error", "*** ", "ninja:", "error", "错误\t", "ERROR", "CRITICAL", *_SIGNALS)
"""Literals one of which a window holds when :data:`_LOGGED_LINE` can match in it."""
_SIGNAL = "signal"
"""The type of :data:`_LOGGED_KINDS`' signal entry: the signal's name is the type once the line passes
:func:`_signal_line`."""
_LOGGED_KINDS: tuple[tuple[str, str], ...] = (
    (r"^CMake Error(?: at \S+(?: \([\w ]+\))?)?:?\s*(.*)$", "CMake Error"),
    (r"^(?:[\w./-]*make|gmake|mingw32-make)(?:\.exe)?(?:\[[0-9]+\])?: \*\*\* (.*)$", "make"),
    (r"^ninja: build stopped: (.*)$", "ninja"),
    (r"\b(?:fatal )?error ((?:LNK|C|MSB)[0-9]+)\s*:\s*(.*)$", ""),
    (r"^错误\t((?:LNK|C|MSB)[0-9]+)\t([^\t]*)", ""),
    (r"^(?:[^\s:]+|[A-Za-z]:[^\s:]+):[0-9]+(?::[0-9]+)?: (?:fatal )?error: (.*)$", "compiler error"),
    (r"^(?:collect2|ld|clang|g\+\+|gcc|c\+\+|nvcc)(?:\.exe)?: (?:fatal )?error: (.*)$", "compiler error"),
    (r"undefined reference to (.*)$", "undefined reference"),
    (r"(" + "|".join(_SIGNALS) + r")(?: \(core dumped\))?\s*(.*)$", _SIGNAL),
    (r"^ERROR: (.*)$", "ERROR"),
    (r"(?:^|[\s\]\[:-])(?:ERROR|CRITICAL)\b\]?\s*[:-]?\s*(.+)$", "ERROR"),
)
"""(RE2 pattern, type) of a tool's failing line, first match wins: an empty type (MSVC's) or
:data:`_SIGNAL` takes the type from the first group and the message from the second, else the message is
the first group. A signal counts only where a shell reports one (:func:`_signal_line`), never inside a
sentence."""


def _logged_error(number: int, line: str) -> RaisedError | None:
    """The failing line ``line`` read as an error of origin ``log`` (``None`` when it is not one)."""
    stripped = line.strip()
    for pattern, kind in _LOGGED_KINDS:
        found = _re(pattern).search(stripped)
        if found is None:
            continue
        if kind and kind != _SIGNAL:
            return RaisedError(kind, found.group(1).strip(), number, "log")
        message = found.group(2).strip()
        if kind == _SIGNAL and not _signal_line(stripped, found.start(), message):
            continue
        return RaisedError(found.group(1), message, number, "log")
    return None


def _signal_line(line: str, start: int, rest: str) -> bool:
    """Whether a signal's name at ``start`` of ``line`` is the shell's report of a killed process: at the
    line's start, after ``bash: line N: PID`` or a prefix's colon, with nothing or a command after it."""
    before = line[:start].strip()
    return (not before or before.endswith((":", "]")) or before.split()[-1].isdigit()) and (
        not rest or any(mark in rest for mark in _COMMAND_MARKS)
    )


def _notebook_like(line: str) -> bool:
    """Whether ``line`` may be a Jupyter/IPython frame (cheap, before the pattern runs)."""
    return line.startswith(("File ", "Cell In", "Input In", "<ipython-input", "/", "~/")) or line[1:3] in (
        ":\\",
        ":/",
    )


class _Reader:
    """The structure pass over the interesting lines of the text's end, then the facts of its windows."""

    def __init__(self) -> None:
        self.reading = Reading()
        self.frames: list[Frame] = []
        self.code_lines: set[int] = set()
        self.after_summary = False
        self.last_error: RaisedError | None = None
        self.last_error_line = 0
        self.errnos: dict[str, None] = {}
        self.libraries: dict[str, None] = {}
        self.kits: dict[str, None] = {}
        self.models: dict[str, None] = {}

    def structure(self, first_line: int, part: str) -> None:
        """Read the interesting lines of the structure window, in order."""
        if not part.startswith("F") and not any(mark in part for mark in _MARKS):
            return
        line_no, last = first_line, 0
        for count, found in enumerate(_re(_INTERESTING).finditer(part)):
            if count >= MAX_LINES_READ:
                break
            start = found.start()
            line_no += part.count("\n", last, start)
            last = start
            end = part.find("\n", start)
            line = part[start:] if end == -1 else part[start:end]
            if line_no in self.code_lines:
                continue
            following: list[str] = []  # the next lines (a frame's code, a caret line, the exception)
            at = end
            while at != -1 and len(following) < 3:
                after = part.find("\n", at + 1)
                following.append(_cut((part[at + 1 :] if after == -1 else part[at + 1 : after]).rstrip()))
                at = after
            self.line(line_no, _cut(line.rstrip()), following)

    # the structure ------------------------------------------------------------------------------------

    def line(self, number: int, line: str, following: list[str]) -> None:
        stripped = line.strip()
        if "Traceback (most recent call last)" in line and "C++ Traceback" not in line:
            self.reading.traceback = True
            self.frames = []
        if 'File "' in line:
            found = _re(_FRAME).search(line)
            if found is not None:
                self._frame(number, found, line, following)
                return
        if self.reading.traceback and _notebook_like(line) and self._notebook_frame(number, line, following):
            return
        if not self._cpp(number, line, stripped):
            self._exception(number, line, inside=False)
        self._details(number, line, stripped)

    def _notebook_frame(self, number: int, line: str, following: list[str]) -> bool:
        """A Jupyter/IPython frame (after a ``Traceback`` header); whether ``line`` was one. Its line
        number and code come from the ``---> N code`` arrow among the context lines that follow."""
        found = _re(_NOTEBOOK_FRAME).search(line)
        if found is None:
            return False
        groups = found.groups()
        path = groups[0] or groups[3] or groups[6]
        function = groups[2] or groups[5] or groups[7] or ""
        line_in_file = int(groups[1] or groups[4] or 0)
        code = ""
        for offset, candidate in enumerate(following, start=1):
            if candidate.startswith("File ") or (" in " in candidate and not candidate[:1].isspace()):
                break  # the next frame: this one printed no arrow
            arrow = _re(_NOTEBOOK_ARROW).search(candidate)
            if arrow is not None:
                line_in_file, code = int(arrow.group(1)), arrow.group(2).strip()
                self.code_lines.add(number + offset)
                break
        self._add_frame(Frame(path, line_in_file, function.strip(), code, number, frame_kind(path)))
        return True

    def _frame(self, number: int, found: Any, line: str, following: list[str]) -> None:
        self.reading.traceback = True
        rest = line[found.end() :].strip()
        code = ""
        next_line = following[0] if following else ""
        if rest:  # a flattened paste: the code (and maybe the error) follow on the same line
            code = rest
        elif next_line[:1] in (" ", "\t") and 'File "' not in next_line:
            code = next_line.strip()
            if set(code) <= {"^", "~", " "}:
                code = ""
            else:
                self.code_lines.add(number + 1)
        path = found.group(1)
        self._add_frame(
            Frame(path, int(found.group(2)), (found.group(3) or "").strip(), code, number, frame_kind(path))
        )
        if rest:
            self._exception(number, rest, inside=True)
        elif code:
            self._exception_after_frame(number, following[1:])

    def _add_frame(self, frame: Frame) -> None:
        self.frames.append(frame)
        if len(self.frames) > MAX_FRAMES:
            del self.frames[0]
        kit = _kit_of_path(frame.path)
        if kit:
            self.kits.setdefault(kit)

    def _exception_after_frame(self, number: int, after_code: list[str]) -> None:
        """The exception line that Python prints right after the last frame (past a caret line), whatever
        its type is named (``workbench.demo.DemoFailure``, ``ppocr.utils.ConfigMissing``): the pass
        only visits lines holding an error word, so a type without one is read here."""
        for offset, candidate in enumerate(after_code, start=2):
            stripped = candidate.strip()
            if not stripped or set(stripped) <= {"^", "~", " "}:
                continue
            if candidate[:1] in (" ", "\t") or candidate.startswith(("Traceback", "During handling")):
                return
            if any(mark in candidate for mark in _MARKS):
                return  # an error word: the pass reads this line itself
            found = _re(_EXC_ANY).search(candidate)
            if found is not None:
                self._exception(number + offset, candidate, inside=False, found=found)
            return

    def _exception(self, number: int, line: str, *, inside: bool, found: Any = None) -> None:
        if found is None and ":" not in line and not line.rstrip().endswith(_TYPE_ENDINGS):
            return  # neither "Type: message" nor a bare type
        if found is None and not inside:
            found = _re(_EXC_START).search(line)
        if found is None:
            found = _re(_EXC_INSIDE).search(line)
            if found is None:
                return
        kind, message = found.group(1), (found.group(2) or "").strip()
        if kind in ("Error", "Exception", "Fault", "Exit", "Interrupt", "NotMet") and not message:
            return  # a bare word, not an exception line
        if not message and kind.endswith(("Exit", "Interrupt")):
            return
        if kind == "Error":  # Paddle 1.x prints its C++ enforce message as "Error: …"
            self._set_cpp(number, kind, message)
            return
        category = ""
        split = _re(_CATEGORY).search(message)
        if split is not None:
            category, message = split.group(1), split.group(2)
        at = _re(_AT).search(message)
        error = RaisedError(
            kind, message, number, "python", category=category, at=at.group(1) if at is not None else ""
        )
        self.reading.exception = error
        self.reading.frames = tuple(self.frames)
        self.frames = []
        self.last_error, self.last_error_line = error, number

    def _cpp(self, number: int, line: str, stripped: str) -> bool:
        """A C++ error line (summary block, glog fatal, ``terminate called``); whether it was one."""
        if "Error Message Summary" in line:
            self.after_summary = True
            return True
        if self.after_summary:
            self.after_summary = False
            found = _re(_SUMMARY_ERROR).search(stripped)
            if found is not None:
                self._set_cpp(number, found.group(1), found.group(2))
                return True
        if line.startswith("F") and "] " in line:
            found = _re(_GLOG_FATAL).search(line)
            if found is not None:
                self._set_cpp(number, "Fatal", found.group(2), at=found.group(1))
                return True
        if "terminate called after throwing" in line:
            found = _re(_TERMINATE).search(line)
            if found is not None:
                self._set_cpp(number, found.group(1), "")
                return True
        if stripped.startswith("what():") and self.reading.cpp is not None and not self.reading.cpp.message:
            cpp = self.reading.cpp
            self.reading.cpp = RaisedError(cpp.type, stripped[len("what():") :].strip(), cpp.log_line, "cpp")
            self.last_error = self.reading.cpp
            return True
        return False

    def _set_cpp(self, number: int, kind: str, message: str, at: str = "") -> None:
        message = message.strip()
        category = ""
        split = _re(_CATEGORY).search(message)
        if split is not None:
            category, message = split.group(1), split.group(2)
        if not at:
            found = _re(_AT).search(message)
            at = found.group(1) if found is not None else ""
        error = RaisedError(kind, message, number, "cpp", category=category, at=at)
        self.reading.cpp = error
        self.last_error, self.last_error_line = error, number

    def _details(self, number: int, line: str, stripped: str) -> None:
        """``[Hint: …]``, ``(at …)`` and ``[operator < … >]`` within a few lines after an error."""
        error = self.last_error
        if error is None or number - self.last_error_line > 6 or number == error.log_line:
            return
        hint, at, operator = error.hint, error.at, error.operator
        if "[Hint:" in line:
            found = _re(_HINT).search(stripped)
            if found is not None:
                hint = found.group(1).strip()
                at = found.group(2) or at
        if not at and "at" in line:
            found = _re(_AT).search(line)
            if found is not None:
                at = found.group(1)
        if "[operator <" in line:
            found = _re(_OPERATOR).search(line)
            if found is not None:
                operator = found.group(1)
        if (hint, at, operator) == (error.hint, error.at, error.operator):
            return
        updated = RaisedError(
            error.type, error.message, error.log_line, error.origin, error.category, hint, at, operator
        )
        if self.reading.exception is error:
            self.reading.exception = updated
        if self.reading.cpp is error:
            self.reading.cpp = updated
        self.last_error = updated

    # the facts (each one RE2 pass over the window, a bounded number of matches) ----------------------

    def facts(self, first_line: int, part: str) -> None:
        """Errnos, libraries, versions, kit prefixes and model files the window names."""
        for found in _limited(_re(_ERRNO_NUMBER).finditer(part)):
            table = _LINUX_ERRNO if found.group(1) == "Errno" else _WINDOWS_ERROR
            name = table.get(int(found.group(2)))
            if name:
                self._errno(name, first_line, part, found.start())
        for found in _limited(_re(_ERRNO_NAME).finditer(part)):
            self._errno(found.group(1), first_line, part, found.start())
        for words, name in _ERRNO_WORDS.items():
            at = part.find(words)
            if at != -1:
                self._errno(name, first_line, part, at)
        for found in _limited(_re(_LIBRARY_LINE).finditer(part)):
            line = _cut(found.group(0))
            names = [name.group(1) for name in _limited(_re(_LIBRARY).finditer(line))]
            if "library not found" in line:
                names += [f"lib{name.group(1)}" for name in _limited(_re(_SNDFILE).finditer(line))]
            for name in names:
                if name not in self.libraries:
                    self.libraries[name] = None
                    self.reading.fact_lines[name] = _where(first_line, part, found.start())
        self._versions(first_line, part)
        for mark, kit in _KIT_PREFIXES:
            if mark in part:
                self.kits.setdefault(kit)
        for found in _limited(_re(_MODEL_FILE).finditer(part)):
            name = found.group(1)
            if "." in name:
                self.models.setdefault(name)

    def _errno(self, name: str, first_line: int, part: str, at: int) -> None:
        if name not in self.errnos:
            self.errnos[name] = None
            self.reading.fact_lines[name] = _where(first_line, part, at)

    def _versions(self, first_line: int, part: str) -> None:
        versions, where = self.reading.versions, self.reading.version_lines
        for pattern, name, literals in _PACKAGE_VERSIONS:
            if not any(literal in part for literal in literals):
                continue
            for found in _limited(_re(pattern).finditer(part), 16):
                if name == "":
                    key = _package_name(found.group(1))
                    value = found.group(2)
                elif name == "python_compact":
                    digits = found.group(1)
                    key, value = "python", f"{digits[0]}.{digits[1:]}"
                elif name == "python_wheel":
                    key, value = "python", f"{found.group(1)}.{found.group(2)}"
                elif name == "cuda_post":
                    digits = found.group(1)
                    key, value = "cuda", f"{digits[:2]}.{digits[2:]}"
                else:
                    key, value = name, found.group(1)
                if key == "cuda" and not _plausible_cuda(value):
                    continue
                if key not in versions:
                    versions[key] = value.rstrip(".")
                    where[key] = _where(first_line, part, found.start())
                    kit = KIT_NAMES.get(key)
                    if kit:
                        self.kits.setdefault(kit)

    def logged(self, first_line: int, part: str) -> None:
        """The last failing line of a tool in the structure window (:attr:`Reading.logged`); read only
        when the structure pass found no exception, C++ error or traceback."""
        reading = self.reading
        if reading.exception is not None or reading.cpp is not None or reading.traceback:
            return
        if not any(mark in part for mark in _LOGGED_MARKS):
            return
        candidates: deque[tuple[int, str]] = deque(maxlen=MAX_LOGGED_LINES)
        line_no, last = first_line, 0
        for found in _re(_LOGGED_LINE).finditer(part):
            line_no += part.count("\n", last, found.start())
            last = found.start()
            candidates.append((line_no, found.group(0)))
        echo: RaisedError | None = None
        for number, line in reversed(candidates):
            error = _logged_error(number, _cut(line))
            if error is None:
                continue
            if not _echo(error):
                reading.logged = error
                return
            echo = echo or error
        reading.logged = echo

    def finish(self) -> Reading:
        reading = self.reading
        if reading.exception is None and self.frames:
            reading.frames = tuple(self.frames)  # a traceback cut before its error line
        reading.errnos = tuple(self.errnos)
        reading.libraries = tuple(self.libraries)
        reading.kits = tuple(self.kits)
        reading.model_files = tuple(self.models)
        return reading


def _echo(error: RaisedError) -> bool:
    """Whether a failing line only repeats an earlier one: make's ``[target] Error 2`` from each level of a
    recursive build, the linker driver's ``ld returned 1 exit status`` after the undefined references."""
    message = error.message
    return (error.type == "make" and message.startswith("[") and " Error " in message) or (
        error.type == "compiler error" and message.startswith("ld returned")
    )


def _where(first_line: int, part: str, at: int) -> tuple[int, str]:
    """The line number and the (cut, stripped) text of the line of ``part`` holding offset ``at``."""
    start = part.rfind("\n", 0, at) + 1
    end = part.find("\n", at)
    line = part[start:] if end == -1 else part[start:end]
    return first_line + part.count("\n", 0, start), _cut(line).strip()


def _limited(found: Any, most: int = 32) -> list[Any]:
    """At most ``most`` matches of an iterator (a line repeating a name a million times stays cheap)."""
    out = []
    for item in found:
        out.append(item)
        if len(out) >= most:
            break
    return out


def _package_name(raw: str) -> str:
    name = raw.lower().replace("_", "-")
    if name.startswith("fastdeploy"):
        return "fastdeploy"
    if name == "paddledet":
        return "paddledetection"
    return name


def _plausible_cuda(value: str) -> bool:
    major = value.split(".", 1)[0]
    return major.isdigit() and 7 <= int(major) <= 13


def _kit_of_path(path: str) -> str:
    """The kit whose folder (or console script) the path is in; a file named like a kit inside another
    package (``paddlehub/utils/paddlex.py``) is not the kit."""
    parts = path.replace("\\", "/").lower().split("/")
    for i, part in enumerate(parts):
        if i == len(parts) - 1 and "." in part:
            break
        kit = KIT_NAMES.get(part.split("-", 1)[0])  # PaddleOCR-dygraph, paddledet-2.4.0-py3.6.egg
        if kit:
            return kit
    return ""


_STDLIB_TOP = frozenset(
    [
        "xml",
        "json",
        "multiprocessing",
        "asyncio",
        "importlib",
        "logging",
        "concurrent",
        "urllib",
        "http",
        "email",
        "ctypes",
        "encodings",
        "collections",
        "unittest",
        "threading",
        "subprocess",
        "socket",
        "ssl",
        "os",
        "shutil",
        "runpy",
        "tarfile",
        "zipfile",
        "pickle",
    ]
)


def read_log(text: str, first_line: int = 1) -> Reading:
    """Read the structure of one normalised text (see the module's docstring); ``first_line`` is the
    number of its first line in its source, so the lines read are the source's own."""
    reader = _Reader()
    start, part = _tail(text, first_line, STRUCTURE_CHARS)
    part = _cut_lines(part)
    reader.structure(start, part)
    reader.logged(start, part)
    for start_line, part in _windows(text, first_line):
        reader.facts(start_line, part)
    return reader.finish()


__all__ = [
    "HEAD_CHARS",
    "STRUCTURE_CHARS",
    "KIT_NAMES",
    "LINE_CHARS",
    "TAIL_CHARS",
    "VERSION_NAMES",
    "Frame",
    "RaisedError",
    "Reading",
    "frame_kind",
    "frame_owners",
    "read_log",
]
