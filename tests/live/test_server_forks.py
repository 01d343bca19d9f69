"""Every test's server is forked from its worker's parent (tests/live/server_forks.py), not
only the first one's: a server started afresh costs about half a second of CPU more, paid
by each of the hundred-odd tests that ask for one. The two tests run on one worker, one after
the other, so that the second one's server comes from a parent an earlier test started."""

from __future__ import annotations

import urllib.request

import pytest

from tests.test_foundation.helpers import ForkedProcess, Server

pytestmark = pytest.mark.xdist_group("server-forks")


@pytest.mark.parametrize("turn", ["first", "second"])
def test_each_tests_server_is_forked_and_serves(server: Server, turn: str) -> None:
    assert isinstance(server.process, ForkedProcess), f"the {turn} test's server was started afresh"
    with urllib.request.urlopen(f"{server.url}/healthz", timeout=10) as answer:
        assert answer.status == 200
