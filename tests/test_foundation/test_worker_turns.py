"""The turns of pytest-xdist workers (tests/workers.py): the body of a test marked `alone`
runs while no other test runs, and no test begins while it does. Each thread below opens the
lock files itself, as each worker process does, so the locks tell the threads apart."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator

import pytest

from tests import workers
from tests.test_foundation.helpers import ROOT

POLL = 0.05  # one look: long enough for a thread that could go on to do so


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", f"turns-{uuid.uuid4().hex}")
    yield


class Holder:
    """A thread that takes a turn and holds it until told to let go."""

    def __init__(self, *, alone: bool) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(alone,), daemon=True)
        self.thread.start()

    def _run(self, alone: bool) -> None:
        with workers.turn(alone=alone):
            self.entered.set()
            self.release.wait(10)

    def end(self) -> None:
        self.release.set()
        self.thread.join(10)
        assert not self.thread.is_alive()


def test_tests_run_side_by_side(run: None) -> None:
    first, second = Holder(alone=False), Holder(alone=False)
    assert first.entered.wait(5) and second.entered.wait(5)
    first.end()
    second.end()


def test_an_alone_body_waits_for_the_running_tests_and_holds_back_the_next(run: None) -> None:
    running = Holder(alone=False)
    assert running.entered.wait(5)
    alone = Holder(alone=True)
    assert not alone.entered.wait(POLL), "the alone body began beside a running test"
    # while it waits, no test begins: else tests coming one after another would starve it
    waiting = Holder(alone=False)
    assert not waiting.entered.wait(POLL), "a test began while an alone body waited"
    running.end()
    assert alone.entered.wait(5)
    assert not waiting.entered.wait(POLL), "a test began beside the alone body"
    later = Holder(alone=False)
    assert not later.entered.wait(POLL), "a test began beside the alone body"
    alone.end()
    assert later.entered.wait(5) and waiting.entered.wait(5)
    later.end()
    waiting.end()


def test_an_alone_body_waiting_goes_before_a_test_waiting_at_the_gate(run: None) -> None:
    """Two marked `alone` in a row, a plain test waiting at the gate from before the second
    came: the second goes first (the gate's lock is no queue; the plain test, had it won
    the gate, would have held every other worker back for its whole length)."""
    first = Holder(alone=True)
    assert first.entered.wait(5)
    plain = Holder(alone=False)
    assert not plain.entered.wait(POLL)
    second = Holder(alone=True)
    assert not second.entered.wait(POLL)
    first.end()
    assert second.entered.wait(5), "the plain test went before the alone body waiting"
    assert not plain.entered.wait(POLL), "a test began beside the alone body"
    second.end()
    assert plain.entered.wait(5)
    plain.end()


def test_a_long_test_begins_once_every_alone_test_has_ended(run: None) -> None:
    begun = threading.Event()
    waiter = threading.Thread(target=lambda: (workers.after_the_alone_tests(2), begun.set()), daemon=True)
    waiter.start()
    assert not begun.wait(POLL * 6)
    workers.alone_test_done()
    assert not begun.wait(POLL * 6), "it began with one of two alone tests still to end"
    workers.alone_test_done()
    assert begun.wait(5)
    waiter.join(5)


def test_the_alone_tests_are_counted_after_those_left_out() -> None:
    """A long test waits for the `alone` tests that run: counted before `-m` left one out,
    a narrower run's longest tests waited minutes for a test that never ran."""

    def counted(*selection: str) -> str:
        collected = subprocess.run(
            [
                *(sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"),
                *("-p", "tests.test_foundation.alone_count", *selection),
                *("tests/live/test_embedded.py", "tests/test_foundation/test_worker_turns.py"),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert collected.returncode == 0, collected.stdout + collected.stderr
        found = re.search(r"alone tests counted: (\S+)", collected.stdout)
        assert found is not None, collected.stdout
        return found.group(1)

    assert counted() not in ("0", "None"), "the modules hold an `alone` test to leave out"
    assert counted("-m", "not alone") == "0"
