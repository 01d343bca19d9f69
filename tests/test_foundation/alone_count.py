"""A pytest plugin for tests/test_foundation/test_worker_turns.py: prints how many tests of
the run the suite counts as marked `alone`, once every other hook has had its say."""

from __future__ import annotations

import pytest

from tests.conftest import ALONE_TESTS


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    print(f"alone tests counted: {session.config.stash.get(ALONE_TESTS, None)}")
