"""The similar-reports layer on logs it has not seen: the held-out logs are dev-only batches
(``--held``, by default every one in ``DEV_ONLY_BATCHES``), the exemplars are the ``dev/`` logs collected
before the first of them (the first batch has no ``collected`` header and comes before every batch).

For each held-out log: the signature ids of an engine (``--engine DIR``: another tree, e.g. the commit
before the batch was read, run in a subprocess so its package does not mix with this one), then this
tree's similar layer fills the slots after them as ``diagnose`` does (only where that engine read a
failure: a match or a traceback / C++ error block; the ids already listed skipped before the free slots
are filled). Prints top-3 recall before and after, and the similar layer alone. Never reads ``test/``.
Run from the repository root: ``python benchmarks/similar_holdout.py --engine /tmp/old``, or
``--held 2026-12-02b 2026-12-02c`` for those batches alone (exemplars: the logs before ``2026-12-02b``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import diagnose_corpus  # noqa: E402

CORPUS = ROOT / "tests/data/diagnose_corpus"
_ENGINE_IDS = """
import json, sys
sys.path.insert(0, sys.argv[1])
from workbench.troubleshoot.diagnose import diagnose_text
out = {}
for path in sys.argv[2:]:
    body = open(path, encoding="utf-8").read().partition("\\n---\\n")[2]
    d = diagnose_text(body)
    out[path] = [[m.id for m in d.matches], getattr(d, "kind", "recognised" if d.matches else "none")]
print(json.dumps(out))
"""


def main() -> None:
    from workbench.troubleshoot.reading import read_log
    from workbench.troubleshoot.similar import MAX_SHOWN, ReportIndex, rank, report_of, tokens_of

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", type=Path, default=ROOT, help="the tree whose signatures answer first")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument(
        "--held",
        nargs="+",
        choices=diagnose_corpus.DEV_ONLY_BATCHES,
        default=list(diagnose_corpus.DEV_ONLY_BATCHES),
        help="the dev-only batches held out (default: all)",
    )
    args = parser.parse_args()
    logs, _ = diagnose_corpus.load(args.corpus, ("dev",))
    held = [log for log in logs if log.headers.get("collected") in args.held]
    first_held = min(args.held)
    exemplars = [log for log in logs if log.headers.get("collected", "") < first_held]
    answered = json.loads(
        subprocess.run(
            [sys.executable, "-c", _ENGINE_IDS, str(args.engine.resolve()), *(str(log.path) for log in held)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    index = ReportIndex(
        [report_of(e.headers["source"], e.expected, e.body, read_log(e.body)) for e in exemplars]
    )
    before = after = alone = 0
    for log in held:
        ids, kind = answered[str(log.path)]
        reading = read_log(log.body)
        query = report_of("", (), log.body, reading)
        counts = tokens_of(query.lines, query.facts)
        similar = [s.id for s in rank(index, counts, most=MAX_SHOWN)]
        filled = ids[:MAX_SHOWN]
        if kind != "none":
            filled += [s.id for s in rank(index, counts, skip=set(filled), most=MAX_SHOWN - len(filled))]
        before += any(i in log.expected for i in ids[:MAX_SHOWN])
        after += any(i in log.expected for i in filled)
        alone += any(i in log.expected for i in similar)
    n = len(held)
    print(
        f"engine {args.engine}; exemplars {len(exemplars)} dev logs, held out {n} ({', '.join(sorted(args.held))})"
    )
    print(
        f"top-3: signatures {before}/{n} = {before / n:.1%}; with similar reports {after}/{n} = {after / n:.1%}"
    )
    print(f"similar reports alone (top 3): {alone}/{n} = {alone / n:.1%}")


if __name__ == "__main__":
    main()
