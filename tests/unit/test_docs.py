"""Every document the repository points to is in the repository, and every pointer into docs/ lands.

A person who clones the repository must be able to follow each reference in it. The design used to live
in team documents outside the repository; they are now ``docs/architecture.md`` and
``docs/paddle-notes.md``. This test reads every tracked text file (``git ls-files``; binary files and
the SVG snapshots are skipped) and fails, listing every offending line at once, when a file

* names a document outside the repository (the old team documents or the folder they lived in);
* mentions a ``docs/<name>.md`` that does not exist;
* names a section of a docs file (``docs/architecture.md, "Run store"``) that has no heading with
  those words, or links to a ``#anchor`` no heading produces;
* in a markdown file, links to a relative path that does not exist;
* (docs only) names a test (``tests/x.py::test_y``), an engine or UI object (``workbench.a.b.name``) or a
  repository path that does not exist — so "the code that handles it and the test that proves it" in
  paddle-notes.md cannot silently go stale when code moves.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Spelled in pieces so this file does not match itself.
OUTSIDE_DOCUMENTS = tuple(
    "".join(parts)
    for parts in (
        ("DESIGN", ".md"),
        ("PADDLE_", "FACTS", ".md"),
        ("STYLE", ".md"),
        ("..", "/shared"),
        ("/work", "/shared"),
    )
)
OUTSIDE_PATTERN = re.compile("|".join(re.escape(name) for name in OUTSIDE_DOCUMENTS))

DOCS_PATH = re.compile(r"\bdocs/[\w./-]*?\.md\b")
# docs/architecture.md, "Run store"  |  docs/paddle-notes.md 'Auto-parallel'  |  <doc>, section "<words>"
SECTION_REF = re.compile(
    r"\b(docs/[\w.-]+\.md)(?:#[\w-]+)?,?\s+(?:section\s+)?[\"'“‘]([^\"'”’\n]{2,80})[\"'”’]"
)
ANCHOR_REF = re.compile(r"\b((?:docs/)?[\w.-]+\.md)#([\w-]+)")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


def tracked_text_files() -> list[tuple[str, str]]:
    """``(path, text)`` of every tracked text file, snapshots and binaries left out."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    listing = subprocess.run(
        [git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
    ).stdout.decode("utf-8", "surrogateescape")
    files: list[tuple[str, str]] = []
    for rel in filter(None, listing.split("\0")):
        if rel.startswith("tests/ui/__snapshots__/") and rel.endswith(".svg"):
            continue  # rendered terminal screens, not text anyone follows
        path = ROOT / rel
        if not path.is_file():
            continue  # deleted in the working tree, not yet in the index
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue
        try:
            files.append((rel, data.decode("utf-8")))
        except UnicodeDecodeError:
            continue
    return files


def _lines(
    files: list[tuple[str, str]], pattern: re.Pattern[str]
) -> list[tuple[str, int, str, re.Match[str]]]:
    hits = []
    for rel, text in files:
        for number, line in enumerate(text.splitlines(), start=1):
            for match in pattern.finditer(line):
                hits.append((rel, number, line.strip(), match))
    return hits


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def headings(doc: str) -> tuple[str, ...]:
    path = ROOT / doc
    if not path.is_file():
        return ()
    return tuple(
        line.lstrip("#").strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    )


def test_no_file_refers_to_a_document_outside_the_repository() -> None:
    offending = [
        f"{rel}:{number}: {match.group(0)!r} in: {line[:140]}"
        for rel, number, line, match in _lines(tracked_text_files(), OUTSIDE_PATTERN)
    ]
    assert not offending, (
        "these lines point to documents that are not in the repository; point them to "
        "docs/architecture.md or docs/paddle-notes.md (and the section) instead:\n" + "\n".join(offending)
    )


def test_the_repository_documents_exist_and_the_readme_links_them() -> None:
    for doc in ("docs/architecture.md", "docs/paddle-notes.md"):
        assert (ROOT / doc).is_file(), f"{doc} is missing"
        assert headings(doc), f"{doc} has no headings"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/architecture.md)" in readme and "(docs/paddle-notes.md)" in readme


def test_every_docs_path_mentioned_exists() -> None:
    missing = [
        f"{rel}:{number}: {match.group(0)} does not exist"
        for rel, number, _line, match in _lines(tracked_text_files(), DOCS_PATH)
        if not (ROOT / match.group(0)).is_file()
    ]
    assert not missing, "\n".join(missing)


def test_every_named_section_and_anchor_exists() -> None:
    files = tracked_text_files()
    problems = []
    for rel, number, _line, match in _lines(files, SECTION_REF):
        doc, section = match.group(1), match.group(2).strip()
        wanted = section.lower().replace("`", "")
        if headings(doc) and not any(wanted in h.lower().replace("`", "") for h in headings(doc)):
            problems.append(f"{rel}:{number}: {doc} has no section {section!r}")
    for rel, number, _line, match in _lines(files, ANCHOR_REF):
        target, anchor = match.group(1), match.group(2)
        doc = target if target.startswith("docs/") else str(Path(rel).parent / target)
        if (ROOT / doc).is_file() and anchor not in {slug(h) for h in headings(doc)}:
            problems.append(f"{rel}:{number}: {doc} has no heading for #{anchor}")
    for rel, number, _line, match in _lines([(r, t) for r, t in files if r.endswith(".md")], MARKDOWN_LINK):
        target = match.group(1)
        if target.startswith("#") and target[1:] not in {slug(h) for h in headings(rel)}:
            problems.append(f"{rel}:{number}: no heading in this file for {target}")
    assert not problems, "\n".join(problems)


def test_relative_links_in_markdown_resolve() -> None:
    broken = []
    for rel, number, _line, match in _lines(
        [(rel, text) for rel, text in tracked_text_files() if rel.endswith(".md")], MARKDOWN_LINK
    ):
        target = match.group(1)
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a URL, or an anchor in the same file (checked above for docs/)
        path = target.split("#", 1)[0]
        if not (ROOT / Path(rel).parent / path).exists():
            broken.append(f"{rel}:{number}: link to {target} does not resolve")
    assert not broken, "\n".join(broken)


def test_the_checks_catch_what_they_are_meant_to() -> None:
    """The patterns themselves: an outside reference, a section reference and an anchor are recognised."""
    outside = "see " + OUTSIDE_DOCUMENTS[0] + " §3"
    assert OUTSIDE_PATTERN.search(outside)
    assert not OUTSIDE_PATTERN.search("DESIGN_COMMANDS = [...]")
    ref = SECTION_REF.search('(see docs/architecture.md, "Run store")')
    assert ref is not None and ref.groups() == ("docs/architecture.md", "Run store")
    ref = SECTION_REF.search("see docs/paddle-notes.md, 'Graph mode is per thread'.")
    assert ref is not None and ref.group(2) == "Graph mode is per thread"
    assert slug("Train → inference") == "train--inference"
    assert slug("`warnings.catch_warnings()` is process-global") == "warningscatch_warnings-is-process-global"


DOCS = ("docs/architecture.md", "docs/paddle-notes.md")
TEST_REF = re.compile(r"\b(tests/[\w/]+\.py)::(\w+)")
CODE_NAME = re.compile(r"`(workbench(?:\.\w+)+)(?:\(\))?`")
PLANNED: set[str] = set()
"""Names the docs mention as planned (said so next to them), not written yet."""
# Not tools/: the notes also name the kits' own scripts (PaddleOCR's tools/train.py).
REPO_PATH = re.compile(r"`((?:workbench|screens|themes|tests|benchmarks|sample_configs|docs)/[\w./-]*)`")


def _resolve(dotted: str) -> bool:
    """Whether ``workbench.a.b.Name.attr`` names something: the longest importable module, then attributes."""
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False


def test_the_code_and_the_tests_the_docs_name_exist() -> None:
    """paddle-notes.md names, for every behaviour, the function that handles it and the test that proves it."""
    missing = []
    for doc in DOCS:
        text = (ROOT / doc).read_text(encoding="utf-8")
        for path, name in set(TEST_REF.findall(text)):
            file = ROOT / path
            if not file.is_file() or not re.search(rf"def {name}\(", file.read_text(encoding="utf-8")):
                missing.append(f"{doc}: test {path}::{name} does not exist")
        for dotted in sorted(set(CODE_NAME.findall(text))):
            if dotted not in PLANNED and not _resolve(dotted):
                missing.append(f"{doc}: {dotted} does not exist")
        for path in sorted(set(REPO_PATH.findall(text))):
            if "<" not in path and not (ROOT / path.rstrip("/")).exists():
                missing.append(f"{doc}: {path} does not exist")
    assert not missing, "\n".join(missing)
