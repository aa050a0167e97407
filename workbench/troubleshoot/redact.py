"""Redaction for shareable reports: host names, IP addresses, user names in paths, token-like strings.

A report is meant to be pasted into a public issue, so ``report --redact`` passes every string through
:class:`Redactor` before anything is written. What goes, in this order (secrets first, so a token that
happens to hold a path is never half-kept):

- **token-like strings**: ``Bearer …``, ``sk-…``, ``ghp_…``/``hf_…``, AWS access keys, ``token=``/``api_key:``/
  ``password=``… values, long hex runs (≥ 32) and long mixed-case base64-looking runs (≥ 40);
- **user names in paths**: ``/home/<user>/``, ``/Users/<user>/``, ``C:\\Users\\<user>\\`` (any slash), and the
  current login name as a word;
- **IP addresses**: IPv4, and IPv6 in full or ``::``-compressed form;
- **host names**: this machine's name and FQDN, names the logs reveal (NCCL's ``host:pid:tid`` prefixes,
  ``PADDLE_TRAINER_ENDPOINTS``-style ``host:port`` lists, ``hostname=``), and dotted names with three or
  more labels ending in a common top-level domain (``gpu-7.cluster.internal``).

Redaction is deliberately greedy (a 40-hex commit id goes too): a report that says less is better than
one that leaks.
"""

from __future__ import annotations

import contextlib
import getpass
import re
import socket
from collections.abc import Iterable
from typing import Any

_TOKENS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{8,}"), "Bearer <redacted-token>"),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{12,}"), "<redacted-token>"),
    (re.compile(r"\b(?:ghp|gho|ghs|github_pat|hf|xox[abp])_[A-Za-z0-9_]{16,}"), "<redacted-token>"),
    (re.compile(r"\bAKIA[0-9A-Z]{16}\b"), "<redacted-token>"),
    (
        re.compile(
            r"(?i)\b((?:access[_-]?|auth[_-]?|api[_-]?|secret[_-]?|private[_-]?)?(?:token|key|secret|password|passwd|pwd)"
            r"[\"']?\s*[=:]\s*[\"']?)[^\s\"',&;}]{4,}"
        ),
        r"\1<redacted-token>",
    ),
    (re.compile(r"(?<![0-9a-fA-F])[0-9a-fA-F]{32,}(?![0-9a-fA-F])"), "<redacted-hex>"),
    (
        re.compile(r"(?<![A-Za-z0-9+_-])(?=[A-Za-z0-9+_-]*\d)(?=[A-Za-z0-9+_-]*[a-z])(?=[A-Za-z0-9+_-]*[A-Z])"
                   r"[A-Za-z0-9+_-]{40,}={0,2}"),
        "<redacted-secret>",
    ),
)  # fmt: skip

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
    r"(?i)(?<![\w.-])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){2,}"
    r"(?:com|net|org|io|ai|cn|local|internal|lan|corp|edu|gov|cloud|intra|intranet|cluster|home|dev)(?![\w-]|\.\w)"
)
_HOST_HINTS = (
    re.compile(r"(?m)^([A-Za-z][\w.-]*):\d+:\d+ \[\d+\]"),  # NCCL: host:pid:tid [dev]
    re.compile(r"(?i)\bhost(?:name)?\s*[=:]\s*[\"']?([A-Za-z][\w.-]*)"),
    re.compile(
        r"(?i)(?:endpoints?|master|connect(?:ed|ing)? to|server)[\s=:'\"\[]*([A-Za-z][\w-]*(?:\.[\w-]+)*):\d{2,5}"
    ),
)
_NOT_HOSTS = {
    "localhost",
    "http",
    "https",
    "file",
    "line",
    "at",
    "step",
    "epoch",
    "rank",
    "port",
    "time",
    "e",
    "w",
    "i",
}


def _is_ipv6(text: str) -> bool:
    return any(ch.isdigit() for ch in text) and text.count(":") >= 2


class Redactor:
    """Replaces secrets and identifying names in strings (and, recursively, in JSON-like values)."""

    def __init__(self, hostnames: Iterable[str] = (), user: str | None = None) -> None:
        names = {name for name in hostnames if name and len(name) >= 2}
        with contextlib.suppress(OSError):
            names.add(socket.gethostname())
            names.add(socket.getfqdn())
        if user is None:
            with contextlib.suppress(Exception):
                user = getpass.getuser()
        self.user = user if user and len(user) >= 3 and user != "root" else None
        names = {n for n in names if n and n.lower() not in _NOT_HOSTS and not _IPV4.fullmatch(n)}
        # longest first, so "gpu-7.cluster.internal" goes before "gpu-7"
        self._hosts = (
            re.compile(
                r"(?<![\w-])("
                + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                + r")(?![\w-])"
            )
            if names
            else None
        )

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

    def text(self, value: str) -> str:
        """``value`` with every secret and identifying name replaced."""
        for pattern, replacement in _TOKENS:
            value = pattern.sub(replacement, value)
        for pattern in _USER_PATHS:
            value = pattern.sub(r"\1<user>", value)
        if self.user:
            value = re.sub(r"(?<![\w-])" + re.escape(self.user) + r"(?![\w-])", "<user>", value)
        value = _IPV4.sub("<ip>", value)
        value = _IPV6.sub(lambda m: "<ip>" if _is_ipv6(m.group()) else m.group(), value)
        if self._hosts is not None:
            value = self._hosts.sub("<host>", value)
        return _FQDN.sub("<host>", value)

    def value(self, value: Any) -> Any:
        """A JSON-like value with every string (keys included) redacted."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.value(k) if isinstance(k, str) else k: self.value(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.value(v) for v in value]
        return value


__all__ = ["Redactor"]
