"""The suite's own scheduling under ``make test``'s ``pytest -n 3 --dist loadgroup`` (tests/conftest.py): the
tests of a file with a module fixture run in one worker (the fixture is built once), and the files with the
longest groups are handed out first."""

from __future__ import annotations

import pytest

from tests.conftest import LONGEST_FIRST


@pytest.fixture(scope="module")
def shared() -> list[str]:
    """A module fixture: it puts this file's tests in one group."""
    return []


def _under_loadgroup(config: pytest.Config) -> bool:
    return getattr(config, "workerinput", None) is not None and bool(config.getvalue("loadgroup"))


def test_a_file_with_a_module_fixture_runs_as_one_group(
    request: pytest.FixtureRequest, shared: list[str]
) -> None:
    if not _under_loadgroup(request.config):
        pytest.skip("only an xdist worker under --dist loadgroup groups tests")
    # xdist's worker puts the group after "@" in the test's id; the scheduler keeps a group together.
    assert request.node.nodeid.endswith("@tests/unit/test_suite_groups.py"), request.node.nodeid
    assert request.config.getvalue("loadscopereorder") is False  # groups go out in collection order


def test_the_longest_groups_come_first(request: pytest.FixtureRequest, shared: list[str]) -> None:
    paths = [item.nodeid.split("::", 1)[0] for item in request.session.items]
    longest = [n for n, path in enumerate(paths) if path in LONGEST_FIRST]
    if not longest:
        pytest.skip("none of the longest files is in this run")
    assert max(longest) < min(n for n, path in enumerate(paths) if path not in LONGEST_FIRST)
    firsts = [path for n, path in enumerate(paths) if path in LONGEST_FIRST and paths.index(path) == n]
    assert firsts == [path for path in LONGEST_FIRST if path in firsts]
