"""Redaction for shareable reports: environments, secrets, host names, IP addresses, home paths.

A report is meant to be pasted into a public issue. Two layers, both counted by kind
(:attr:`Redactor.counts`, printed by ``report``):

**Always** (``report`` with or without ``--redact``) — :class:`EnvironmentFilter`: a report never carries
a process environment. ``environ({...})`` (what ``paddle.distributed.launch`` writes first into
``log/default.*.log``), dict dumps of upper-case variables and runs of ``NAME=value`` lines (``env``,
``printenv``, the launcher's ``envlog.N``) are replaced by ``<N environment variables not shown>``; the
few variables that change how Paddle behaves (:func:`paddle_variables`: ``CUDA_*``, ``FLAGS_*``,
``PADDLE_*``, ``NCCL_*``, ``OMP_NUM_THREADS``, ``LD_LIBRARY_PATH``…, never a secret-named one) are
collected and listed on their own instead.

**With** ``--redact`` — :class:`Redactor`, in this order (secrets first, so a token that holds a path is
never half-kept), our own rules for the structure we know, then ``detect-secrets`` as a second net:

- **private keys**: ``-----BEGIN … PRIVATE KEY-----`` blocks whole (to their END line, or to the end of
  the text when a log's tail cut them), and lines that are nothing but key material;
- **auth headers**: ``Authorization:``/``Proxy-Authorization:``/``Cookie:``/``X-Api-Key:`` values,
  ``Basic …``/``Bearer …`` credentials;
- **URL credentials**: ``scheme://user:password@host`` (a password may hold ``/``);
- **secret-named keys**: ``NAME=value``, ``NAME: value``, ``"NAME": "value"``, ``--name value`` where the
  name says password/passwd/pwd/secret/token/credential/api key/access key/private key/auth/cookie/
  session/DSN (``DB_PASSWORD``, ``MYSQL_PWD``, ``AWS_SECRET_ACCESS_KEY``, ``apiToken``…); a line that
  starts with the name loses the rest of the line, values may hold any character. In JSON-like values
  (the run's config) a secret-named key keeps its name and loses its whole value;
- **token shapes**: AWS access keys, GitHub/GitLab/Hugging Face/Slack/Stripe/OpenAI/npm/PyPI tokens,
  Google API keys, JWTs, long hex (≥ 32) and long base64-looking runs (≥ 40, mixed case and digits);
- **home paths**: ``/home/<user>``, ``/Users/<user>``, ``C:\\Users\\<user>``, this user's home folder
  and login name;
- **IP addresses** (IPv4, IPv6 full or ``::``-compressed) and **host names**: this machine's, the names
  logs reveal (NCCL ``host:pid:tid`` prefixes, ``host:port`` endpoints, ``hostname=``), and dotted names
  ending in a common or cluster-internal domain — each name wholly, with every label after it
  (``gpu-node-17.cluster.internal`` → ``<host>``).

``detect-secrets`` 1.5 (its detector plugins, used as a library, line by line) then catches the shapes
it knows that ours do not (Azure storage keys, Twilio, SendGrid, Square, Telegram, Discord, IBM,
quoted high-entropy strings…); a value it flags is replaced wherever it occurs. It is a layer on top,
not the base: its keyword rules miss unquoted values outside code files and it has no notion of host
names, home paths or environment dumps. Redaction is deliberately greedy (a 40-hex commit id goes too):
a report that says less is better than one that leaks. Every pattern is bounded or anchored on a literal,
so the cost is linear in the text.
"""

from __future__ import annotations

import contextlib
import functools
import getpass
import math
import os
import re
import socket
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

REDACTED = "<redacted>"

# -------------------------------------------------------------------------------------- secret names

_SECRET_WORDS = re.compile(
    r"(?:^|_)(?:pass|passwd|password|passphrase|pwd|secret|token|credentials?|creds|apikey|"
    r"(?:api|access|secret|private|encryption|signing|master|account|client|app|ssh|storage|"
    r"license|subscription|service)_?key|privkey|auth|authorization|cookie|session(?:_?id)?|dsn|"
    r"conn(?:ection)?_?str(?:ing)?)(?:$|_)"
)


@functools.lru_cache(maxsize=4096)
def secret_name(name: str) -> bool:
    """Whether a variable or key name says its value is a secret (``DB_PASSWORD``, ``apiToken``,
    ``aws_secret_access_key``, ``X-Api-Key``, ``MYSQL_PWD``); ``tokenizer`` or ``max_tokens`` do not."""
    norm = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name[:120]).lower()
    return bool(_SECRET_WORDS.search(re.sub(r"[^a-z0-9]+", "_", norm)))


# ------------------------------------------------------------------------------- environment dumps

# One 'NAME': 'value' pair of a dict repr (either quote style, escapes kept).
_PAIR = r"""\s*['"]([A-Za-z_][A-Za-z0-9_]{0,200})['"]\s*:\s*(?:'((?:[^'\\\n]|\\.){0,100000})'|"((?:[^"\\\n]|\\.){0,100000})")\s*,?"""
_PAIR_RE = re.compile(_PAIR)
# A dump ends at its closing brace; one cut short (a torn or truncated line) takes the rest of the line.
_ENVIRON = re.compile(r"environ\(\{(?:" + _PAIR + r")*\s*(?:\}\)|[^\n]*)")
_DICT_DUMP = re.compile(r"""\{(?=\s*['"][A-Z_][A-Z0-9_]*['"]\s*:)(?:""" + _PAIR + r")+\s*(?:\}|[^\n]*)")
# NAME=value: a name that starts upper-case (``FLAGS_cudnn_deterministic`` too; ``lr=0.1`` is no variable).
_ENV_LINE = re.compile(r"(?m)^[ \t]*(?:export[ \t]+)?([A-Z_][A-Z0-9_]{1,100}[a-z0-9_]{0,100})=([^\n]*)$")
MIN_DICT_VARIABLES = 3
"""A dict repr is an environment dump when it holds at least this many upper-case names."""


def paddle_variable(name: str) -> bool:
    """Whether ``name`` is a variable that changes how Paddle, CUDA, NCCL or OpenMP behave (the envcheck
    probe's list) and not secret-named — the only variables a report may list."""
    from workbench.envcheck.probes import ENV_NAMES, ENV_PREFIXES

    return (name in ENV_NAMES or name.startswith((*ENV_PREFIXES, "CUDA_", "CUDNN_"))) and not secret_name(
        name
    )


def _unescape(value: str) -> str:
    return value.replace("\\\\", "\\").replace("\\'", "'").replace('\\"', '"')


class EnvironmentFilter:
    """Drops environment dumps from text; collects the Paddle-relevant variables they held."""

    def __init__(self) -> None:
        self.dropped = 0
        self.variables: dict[str, str] = {}

    def _pairs(self, dump: str) -> int:
        count = 0
        for match in _PAIR_RE.finditer(dump):
            count += 1
            name, value = match.group(1), match.group(2) if match.group(2) is not None else match.group(3)
            if paddle_variable(name):
                self.variables.setdefault(name, _unescape(value or ""))
        return count

    def _environ(self, match: re.Match[str]) -> str:
        count = self._pairs(match.group())
        self.dropped += count
        return f"environ(<{count} environment variables not shown>)"

    def _dict(self, match: re.Match[str]) -> str:
        dump = match.group()
        names = [m.group(1) for m in _PAIR_RE.finditer(dump)]
        if sum(1 for n in names if n.isupper()) < MIN_DICT_VARIABLES:
            return dump
        count = self._pairs(dump)
        self.dropped += count
        return f"{{<{count} environment variables not shown>}}"

    def _lines(self, text: str) -> str:
        lines = text.split("\n")
        out: list[str] = []
        i = 0
        while i < len(lines):
            j = i
            while j < len(lines) and _ENV_LINE.fullmatch(lines[j]):
                j += 1
            if j - i >= 2:  # two or more NAME=value lines in a row: an environment listing
                hidden = 0
                for line in lines[i:j]:
                    match = _ENV_LINE.fullmatch(line)
                    assert match is not None
                    if paddle_variable(match.group(1)):
                        self.variables.setdefault(match.group(1), match.group(2))
                        out.append(line)
                    else:
                        hidden += 1
                if hidden:
                    out.append(f"<{hidden} environment variables not shown>")
                    self.dropped += hidden
                i = j
            else:
                out.append(lines[i])
                i += 1
        return "\n".join(out)

    def text(self, value: str) -> str:
        """``value`` without environment dumps."""
        if "environ(" in value:
            value = _ENVIRON.sub(self._environ, value)
        if "{" in value:
            value = _DICT_DUMP.sub(self._dict, value)
        if "=" in value:
            value = self._lines(value)
        return value

    def value(self, value: Any) -> Any:
        """A JSON-like value with every string (and list of lines) filtered."""
        return _walk(value, self.text, None)


# ----------------------------------------------------------------------------------------- secrets

_PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----"
    r"(?:[\s\S]*?-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|[\s\S]*)"
)
_PRIVATE_KEY_END = re.compile(r"-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----")
_KEY_MATERIAL_LINE = re.compile(r"(?m)^[ \t\"']*([A-Za-z0-9+/]{40,}={0,2})[ \t\"',]*$")

_AUTH_HEADER = re.compile(
    r"(?i)\b((?:proxy-)?authorization|x-api-key|x-auth-token|api-key|set-cookie|cookie)"
    r"([\"']?[ \t]{0,8}:[ \t]{0,8}[\"']?)([^\r\n\"']{1,4096})"
)
_AUTH_SCHEME = re.compile(
    r"\b(Bearer)[ \t]+[A-Za-z0-9._~+/=-]{8,}"
    r"|\b(Basic)[ \t]+(?=[A-Za-z0-9+/]{0,400}[0-9+/=])[A-Za-z0-9+/]{8,}={0,2}"
)
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{1,20}://)[^\s/@:'\"<>]{0,200}:[^\s@'\"<>]{1,200}@")
_URL_USER = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{1,20}://)[^\s/?#@:'\"<>]{1,200}@")

# An assignment is found from its operator, its name read backwards from there (a forward pattern that
# tries a name at every position backtracks over every long word: 6 s for 1 MB of base64).
_OPERATOR = re.compile(r"[ \t]{0,8}(?:=>|[:=])[ \t]{0,8}")
_FLAG = re.compile(r"--([A-Za-z][A-Za-z0-9_-]{0,60})[ \t]{1,8}(?=[^\s-])")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
MAX_NAME = 80
_KEY_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,120}")
_UNQUOTED_VALUE = re.compile(r"[^\s,;&'\"}\])]{1,4096}")
_KEEP_VALUES = {"", "null", "none", "true", "false", "~"}

_TOKENS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b"),
    re.compile(r"\b(?:ghp|gho|ghs|ghu|ghr|github_pat|hf|xox[abprs])_[A-Za-z0-9_]{16,}"),
    re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}"),
    re.compile(r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    re.compile(r"\bsk-[A-Za-z0-9_-]{12,}"),
    re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"),
    re.compile(r"\bpypi-AgE[A-Za-z0-9_-]{50,}"),
    re.compile(r"\bAIza[0-9A-Za-z_-]{35}"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
    re.compile(r"(?<![0-9a-fA-F])[0-9a-fA-F]{32,}(?![0-9a-fA-F])"),
)
_BASE64ISH = re.compile(r"(?<![A-Za-z0-9+/_.-])[A-Za-z0-9+/_-]{40,}={0,2}")


def _entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def _token_like(run: str) -> bool:
    """A long base64-looking run is a secret when it mixes cases and digits and, if it holds ``/``,
    reads as random (a path's words do not)."""
    body = run.rstrip("=")
    if not (
        any(c.isdigit() for c in body) and any(c.islower() for c in body) and any(c.isupper() for c in body)
    ):
        return False
    if "/" in body:
        return not body.startswith("/") and _entropy(body) >= 4.3
    return True


# ------------------------------------------------------------------------------------- identifying

_USER_PATHS = (
    re.compile(r"(/home/)([^/\s\"']+)"),
    re.compile(r"(/Users/)([^/\s\"']+)"),
    re.compile(r"(?i)([A-Z]:(?:\\\\|\\|/)Users(?:\\\\|\\|/))([^\\/\s\"']+)"),
)
_IPV4 = re.compile(r"(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.]*\d)")
_IPV6 = re.compile(
    r"(?<![\w:])(?:"
    r"(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}"
    r"|(?:[0-9a-fA-F]{1,4}:){1,7}:(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){0,6})?"
    r"|::(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){0,6})"
    r")(?:%\w+)?(?![\w:])"
)
_FQDN = re.compile(
    r"(?i)(?<![\w.-])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){2,10}"
    r"(?:com|net|org|io|ai|cn|local|internal|lan|corp|edu|gov|cloud|intra|intranet|cluster|home|dev)(?![\w-]|\.\w)"
    r"|(?<![\w.-])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.(?:local|internal|lan|corp|intra|intranet|cluster)(?![\w-]|\.\w)"
)
_HOST_HINTS = (
    re.compile(r"(?m)^([A-Za-z][\w.-]{0,250}):\d+:\d+ \[\d+\]"),  # NCCL: host:pid:tid [dev]
    re.compile(r"(?i)\bhost(?:name)?\s{0,8}[=:]\s{0,8}[\"']?([A-Za-z][\w.-]{0,250})"),
    re.compile(
        r"(?i)(?:endpoints?|master|connect(?:ed|ing)? to|server)[\s=:'\"\[]{0,16}"
        r"([A-Za-z][\w-]{0,62}(?:\.[\w-]{1,63}){0,10}):\d{2,5}"
    ),
)
_NOT_HOSTS = {"localhost", "http", "https", "file", "line", "at", "step", "epoch", "rank", "port", "time"}
_NOT_HOSTS |= {"e", "w", "i", "none", "true", "false", "null"}


def _is_ipv6(text: str) -> bool:
    return any(ch.isdigit() for ch in text) and text.count(":") >= 2


def _walk(value: Any, text: Callable[[str], str], key_rule: Callable[[str, Any], Any] | None) -> Any:
    """Apply ``text`` to every string of a JSON-like value: a list of strings as one text (a multi-line
    secret split into a log's lines goes whole), dict keys included; ``key_rule`` sees each key first."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        for key, item in value.items():
            if key_rule is not None and isinstance(key, str):
                replaced = key_rule(key, item)
                if replaced is not item:
                    out[text(key)] = replaced
                    continue
            out[text(key) if isinstance(key, str) else key] = _walk(item, text, key_rule)
        return out
    if isinstance(value, list | tuple):
        if value and all(isinstance(v, str) and "\n" not in v for v in value):
            joined = text("\n".join(value))
            return joined.split("\n")
        return [_walk(v, text, key_rule) for v in value]
    return value


class _Detector:
    """``detect-secrets``' detector plugins, run line by line (``None`` when the package is missing)."""

    MIN_SECRET = 6
    MAX_LINE = 65_536

    def __init__(self) -> None:
        self.plugins: list[Any] = []
        with contextlib.suppress(ImportError):
            from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

            skip = {"Public IP (ipv4)"}  # ours: every IP, private ones too
            mapping: dict[str, Any] = dict(get_mapping_from_secret_type_to_class())
            self.plugins = [plugin() for name, plugin in mapping.items() if name not in skip]

    def secrets(self, line: str) -> set[str]:
        found: set[str] = set()
        for start in range(0, len(line), self.MAX_LINE):
            chunk = line[start : start + self.MAX_LINE]
            for plugin in self.plugins:
                with contextlib.suppress(Exception):  # a plugin's bug never ends a report
                    for secret in plugin.analyze_line(filename="report.yaml", line=chunk, line_number=1):
                        value = str(secret.secret_value or "")
                        if len(value) >= self.MIN_SECRET and "<" not in value and value in chunk:
                            found.add(value)
        return found


class Redactor:
    """Replaces secrets and identifying names in strings (and, recursively, in JSON-like values),
    counting each replacement by kind in :attr:`counts`."""

    def __init__(
        self, hostnames: Iterable[str] = (), user: str | None = None, *, detector: bool = True
    ) -> None:
        self.counts: Counter[str] = Counter()
        names = {name for name in hostnames if name and len(name) >= 2}
        with contextlib.suppress(OSError):
            names.add(socket.gethostname())
            names.add(socket.getfqdn())
        if user is None:
            with contextlib.suppress(Exception):
                user = getpass.getuser()
        self.user = user if user and len(user) >= 3 and user != "root" else None
        home = os.path.expanduser("~")
        self.home = home.rstrip("/") if home not in ("", "/", "~") and len(home) > 4 else None
        names = {n for n in names if n and n.lower() not in _NOT_HOSTS and not _IPV4.fullmatch(n)}
        # longest first; a name takes every dotted label after it ("gpu-7" in "gpu-7.corp.example.xyz")
        self._hosts = (
            re.compile(
                r"(?<![\w-])(?:"
                + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                + r")(?:\.[A-Za-z0-9-]{1,63}){0,10}(?![\w-])"
            )
            if names
            else None
        )
        self._detector = _Detector() if detector else None

    @property
    def detector_available(self) -> bool:
        return bool(self._detector and self._detector.plugins)

    @staticmethod
    def discover_hosts(texts: Iterable[str]) -> set[str]:
        """Host names that logs reveal (NCCL prefixes, ``host:port`` endpoints, ``hostname=``)."""
        found: set[str] = set()
        for text in texts:
            for pattern in _HOST_HINTS:
                for match in pattern.finditer(text):
                    name = match.group(1)
                    if name.lower() in _NOT_HOSTS or _IPV4.fullmatch(name) or name.isdigit():
                        continue
                    if "/" in name or name.endswith((".py", ".cc", ".h", ".cu", ".so")):
                        continue
                    found.add(name)
        return found

    # -- rules ---------------------------------------------------------------------------------------

    def _sub(
        self, kind: str, pattern: re.Pattern[str], repl: str | Callable[[re.Match[str]], str], value: str
    ) -> str:
        value, count = pattern.subn(repl, value)
        self.counts[kind] += count
        return value

    @staticmethod
    def _name_before(value: str, end: int) -> tuple[str, int, bool] | None:
        """The key name that ends at ``end`` (``"NAME"``/``'NAME'`` quotes allowed): ``(name, start,
        flag)`` where ``flag`` says it was written ``--name``; ``None`` if there is none."""
        quote = value[end - 1] if end > 0 and value[end - 1] in "'\"" else ""
        stop = end - len(quote)
        start = stop
        while start > 0 and stop - start < MAX_NAME and value[start - 1] in _NAME_CHARS:
            start -= 1
        while start < stop and not (value[start].isalpha() or value[start] == "_"):
            start += 1
        if start == stop or (quote and (start == 0 or value[start - 1] != quote)):
            return None
        flag = value[max(0, start - 2) : start] == "--"
        return value[start:stop], start - len(quote), flag

    def _assignment_sites(self, value: str) -> list[tuple[int, int, bool]]:
        """``(name start, value start, flag)`` of every secret-named assignment, in order."""
        sites = []
        for match in _OPERATOR.finditer(value):
            found = self._name_before(value, match.start())
            if found is not None and secret_name(found[0]):
                sites.append((found[1], match.end(), found[2]))
        if "--" in value:
            for match in _FLAG.finditer(value):
                if secret_name(match.group(1)):
                    sites.append((match.start(), match.end(), True))
        return sorted(sites, key=lambda site: site[1])

    def _assignments(self, value: str) -> str:
        """``NAME=value`` / ``NAME: value`` / ``"NAME": "value"`` / ``--name value`` with a secret name."""
        out: list[str] = []
        pos = 0
        for name_start, start, flag in self._assignment_sites(value):
            if name_start < pos:
                continue
            if start >= len(value) or value[start] in "\n\r":
                continue
            quote = value[start]
            if quote in "'\"":
                end = value.find(quote, start + 1)
                end = len(value) if end < 0 else end
                body_start, body_end = start + 1, end
            else:
                line_start = value.rfind("\n", 0, name_start) + 1
                prefix = value[line_start:name_start].strip()
                if prefix in ("", "export", "-", "set") and not flag:
                    end = value.find("\n", start)
                    end = len(value) if end < 0 else end
                    while end > start and value[end - 1] in " \t\r":
                        end -= 1
                else:
                    found = _UNQUOTED_VALUE.match(value, start)
                    end = found.end() if found else start
                body_start, body_end = start, end
            body = value[body_start:body_end]
            if body.strip().lower() in _KEEP_VALUES or body.startswith(("<", "{", "[")):
                continue
            out.append(value[pos:body_start])
            out.append(REDACTED)
            pos = body_end
            self.counts["secret_value"] += 1
        out.append(value[pos:])
        return "".join(out)

    def _key_material(self, match: re.Match[str]) -> str:
        run = match.group(1)
        if not _token_like(run):  # a bare path or a word: not key material
            return match.group()
        self.counts["private_key"] += 1
        return "<redacted-key-material>"

    def _token(self, match: re.Match[str]) -> str:
        self.counts["token"] += 1
        return "<redacted-token>"

    def _base64ish(self, match: re.Match[str]) -> str:
        if not _token_like(match.group()):
            return match.group()
        self.counts["token"] += 1
        return "<redacted-secret>"

    def secrets(self, value: str) -> str:
        """``value`` with every secret replaced (no names, paths or addresses touched)."""
        if "PRIVATE KEY" in value:
            value = self._sub("private_key", _PRIVATE_KEY_BLOCK, "<redacted-private-key>", value)
            value = self._sub("private_key", _PRIVATE_KEY_END, "<redacted-private-key>", value)
        value = _KEY_MATERIAL_LINE.sub(self._key_material, value)
        value = self._sub("auth_header", _AUTH_HEADER, lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", value)
        value = self._sub(
            "auth_header", _AUTH_SCHEME, lambda m: f"{m.group(1) or m.group(2)} <redacted-credentials>", value
        )
        if "://" in value:
            value = self._sub("url_credentials", _URL_PASSWORD, r"\1<redacted-credentials>@", value)
            value = self._sub("url_credentials", _URL_USER, r"\1<redacted-credentials>@", value)
        value = self._assignments(value)
        for pattern in _TOKENS:
            value = pattern.sub(self._token, value)
        value = _BASE64ISH.sub(self._base64ish, value)
        return value

    def identifying(self, value: str) -> str:
        """``value`` with home paths, the login name, IP addresses and host names replaced."""
        if self.home:
            value = self._sub("home_path", re.compile(re.escape(self.home) + r"(?![\w.-])"), "~", value)
        for pattern in _USER_PATHS:
            value = self._sub("home_path", pattern, r"\1<user>", value)
        if self.user:
            value = self._sub(
                "user", re.compile(r"(?<![\w-])" + re.escape(self.user) + r"(?![\w-])"), "<user>", value
            )
        value = self._sub("ip", _IPV4, "<ip>", value)

        def ipv6(match: re.Match[str]) -> str:
            if not _is_ipv6(match.group()):
                return match.group()
            self.counts["ip"] += 1
            return "<ip>"

        value = _IPV6.sub(ipv6, value)
        value = self._sub("host", _FQDN, "<host>", value)
        if self._hosts is not None:
            value = self._sub("host", self._hosts, "<host>", value)
        return value

    def detected(self, value: str) -> str:
        """``detect-secrets``' findings over what our rules left."""
        if not self.detector_available:
            return value
        assert self._detector is not None
        for line in value.split("\n"):
            for secret in sorted(self._detector.secrets(line), key=len, reverse=True):
                if secret in value:
                    self.counts["detected"] += value.count(secret)
                    value = value.replace(secret, "<redacted-secret>")
        return value

    def text(self, value: str) -> str:
        """``value`` with every secret and identifying name replaced."""
        return self.detected(self.identifying(self.secrets(value)))

    def _key_rule(self, key: str, item: Any) -> Any:
        # An identifier only: a file name ("ranks/log/auth.1.log") names no secret.
        if (
            _KEY_NAME.fullmatch(key)
            and secret_name(key)
            and item is not None
            and item != ""
            and not isinstance(item, bool)
        ):
            self.counts["secret_value"] += 1
            return REDACTED
        return item

    def value(self, value: Any) -> Any:
        """A JSON-like value with every string (keys included) redacted; a secret-named key's value goes
        whole, whatever it holds."""
        return _walk(value, self.text, self._key_rule)


def paddle_variables(env: Mapping[str, str]) -> dict[str, str]:
    """The variables of ``env`` a report may list (:func:`paddle_variable`), sorted."""
    return {name: env[name] for name in sorted(env) if paddle_variable(name)}


__all__ = [
    "REDACTED",
    "EnvironmentFilter",
    "Redactor",
    "paddle_variable",
    "paddle_variables",
    "secret_name",
]
