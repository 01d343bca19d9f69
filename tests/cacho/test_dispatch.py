"""The after-commit dispatcher: keyed calls replace each other, holds debounce, a
transaction group commits once. (Notices: test_notices.py.)"""

from __future__ import annotations

import os
import threading
import time

import pytest
from django.db import connection

from cacho.services.dispatch import Dispatcher


def test_a_keyed_call_replaces_the_pending_one_with_its_key() -> None:
    dispatcher = Dispatcher()
    ran: list[str] = []
    for version in ("v1", "v2", "v3"):
        dispatcher.call(lambda version=version: ran.append(version), key="match-a", after=0.2)
    dispatcher.call(lambda: ran.append("other"), key="match-b", after=0.2)
    dispatcher.drain()
    assert sorted(ran) == ["other", "v3"]


def test_unkeyed_calls_all_run_in_order() -> None:
    dispatcher = Dispatcher()
    ran: list[int] = []
    for number in range(20):
        dispatcher.call(lambda number=number: ran.append(number))
    dispatcher.drain()
    assert ran == list(range(20))


class Clock:
    """The dispatcher's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def looked(dispatcher: Dispatcher) -> None:
    """Return once the worker has looked at its clock again (an immediate call has run)."""
    done = threading.Event()
    dispatcher.call(done.set)
    assert done.wait(5)


def test_a_held_call_waits_and_a_replacement_starts_the_wait_again() -> None:
    clock = Clock()
    dispatcher = Dispatcher(clock)
    ran: list[str] = []
    dispatcher.call(lambda: ran.append("first"), key="timer", after=1.0)
    clock.now += 0.2
    dispatcher.call(lambda: ran.append("second"), key="timer", after=1.0)
    clock.now += 0.9  # the first one's hold is over, the second one's is not
    looked(dispatcher)
    assert ran == []
    clock.now += 0.1
    looked(dispatcher)
    assert ran == ["second"]


def test_drain_runs_held_calls_at_once() -> None:
    dispatcher = Dispatcher()
    ran: list[str] = []
    dispatcher.call(lambda: ran.append("held"), key="k", after=30)
    began = time.monotonic()
    dispatcher.drain()
    assert ran == ["held"] and time.monotonic() - began < 5


def test_a_failing_call_does_not_stop_the_worker() -> None:
    dispatcher = Dispatcher()
    ran: list[str] = []

    def broken() -> None:
        raise RuntimeError("boom")

    dispatcher.call(broken)
    dispatcher.call(lambda: ran.append("after"))
    dispatcher.drain()
    assert ran == ["after"]


@pytest.mark.usefixtures("committed_db")
def test_calls_of_one_transaction_group_share_a_transaction_and_survive_a_failure() -> None:
    dispatcher = Dispatcher()
    seen: list[tuple[str, bool]] = []
    gate = threading.Event()
    dispatcher.call(gate.wait)  # keep the worker busy while the group piles up

    def record(name: str) -> None:
        seen.append((name, connection.in_atomic_block))

    def broken() -> None:
        seen.append(("broken", connection.in_atomic_block))
        raise RuntimeError("boom")

    dispatcher.call(lambda: record("a"), key="a", transaction="projections")
    dispatcher.call(lambda: record("b"), key="b", transaction="projections")
    gate.set()
    dispatcher.drain()
    assert seen == [("a", True), ("b", True)]

    seen.clear()
    gate.clear()
    dispatcher.call(gate.wait)
    dispatcher.call(lambda: record("c"), key="c", transaction="projections")
    dispatcher.call(broken, key="d", transaction="projections")
    gate.set()
    dispatcher.drain()
    # The group failed as a whole, then each ran on its own: "c" is not lost.
    assert ("c", False) in seen
    dispatcher.call(lambda: __import__("django.db").db.connections.close_all())
    dispatcher.drain()


def test_calls_handed_over_together_keep_their_keys_holds_and_order() -> None:
    clock = Clock()
    dispatcher = Dispatcher(clock)
    ran: list[str] = []
    dispatcher.call(lambda: ran.append("stale projection"), key="project", after=0.2)
    dispatcher.call_each(
        [
            (lambda: ran.append("projection"), "project", None, 0.0),
            (lambda: ran.append("timer"), "timer", None, 0.05),
            (lambda: ran.append("plain"), None, None, 0.0),
        ]
    )
    looked(dispatcher)
    assert ran == ["projection", "plain"]
    clock.now += 0.05
    looked(dispatcher)
    assert ran == ["projection", "plain", "timer"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_runs_its_own_calls_on_its_own_worker_not_the_parents_queue() -> None:
    dispatcher = Dispatcher()
    ran: list[str] = []
    dispatcher.call(lambda: ran.append("parent's"), key="held", after=30.0)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no database, leaves with os._exit
        try:
            dispatcher.call(lambda: ran.append("child's"))
            dispatcher.drain(timeout=5.0)
            os.write(write, ",".join(ran).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        child_ran = pipe.read().decode()
    os.waitpid(pid, 0)
    assert child_ran == "child's", "the child ran its own call, and not the parent's held one"
    dispatcher.drain()
    assert ran == ["parent's"]


def test_a_worker_that_is_gone_is_replaced_within_check_every_calls() -> None:
    dispatcher = Dispatcher()
    dispatcher.drain()  # a worker runs
    gone = threading.Thread(target=lambda: None)
    gone.start()
    gone.join()
    dispatcher._worker = gone  # as if the worker had died
    ran: list[int] = []
    for number in range(Dispatcher.CHECK_EVERY + 1):
        dispatcher.call(lambda number=number: ran.append(number))
    dispatcher.drain()
    assert ran == list(range(Dispatcher.CHECK_EVERY + 1)), "nothing queued to a dead worker is lost"
    assert dispatcher._worker is not gone and dispatcher._worker.is_alive()
