"""Generate ``workbench/troubleshoot/similar_reports.json``: the exemplars of ``diagnose``'s similar
public reports, one per log of the corpus's ``dev/`` part (never ``test/``, never ``clean/``).

Run from the repository root after the corpus's ``dev/`` part changes:
``python -m benchmarks.build_similar`` (``--check``: exit 1 when the file is out of date, write nothing).
``tests/unit/test_diagnose_similar.py`` fails while the file and ``dev/`` differ.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import diagnose_corpus  # noqa: E402

CORPUS = ROOT / "tests/data/diagnose_corpus"


def build(folder: Path = CORPUS) -> str:
    """The data file's text for the ``dev/`` part of the corpus under ``folder``."""
    from workbench.troubleshoot.reading import read_log
    from workbench.troubleshoot.similar import dumps, report_of

    logs, problems = diagnose_corpus.load(folder, ("dev",))
    if problems:
        raise SystemExit("the corpus has format problems:\n" + "\n".join(problems))
    return dumps(
        report_of(log.headers["source"], log.expected, log.body, read_log(log.body))
        for log in sorted(logs, key=lambda log: log.name)
    )


def main() -> None:
    from workbench.troubleshoot.similar import DATA

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is out of date")
    args = parser.parse_args()
    text = build()
    current = DATA.read_text(encoding="utf-8") if DATA.exists() else ""
    if args.check:
        print(
            "up to date"
            if text == current
            else f"{DATA} is out of date: run python -m benchmarks.build_similar"
        )
        raise SystemExit(0 if text == current else 1)
    DATA.write_text(text, encoding="utf-8")
    print(
        f"wrote {DATA.relative_to(ROOT)} ({text.count(chr(10)) - 4} reports, {len(text.encode()) / 1024:.0f} KB)"
    )


if __name__ == "__main__":
    main()
