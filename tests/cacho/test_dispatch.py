"""The after-commit dispatcher: keyed calls replace each other, holds debounce, a
transaction group commits once. (Notices: test_notices.py.)"""

from __future__ import annotations

import os
import threading
import time

import pytest
from django.db import connection
from hypothesis import given, settings
from hypothesis import strategies as st

from cacho.services.dispatch import Dispatcher, Queued


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
    """Return once the worker has looked at its clock again (an immediate call has run).
    The worker waits in real seconds for what the moved clock says is due next: it is woken
    at once instead (otherwise each look waited up to the held time for real)."""
    done = threading.Event()
    dispatcher.call(done.set)
    dispatcher.look_again()
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


def test_a_replacement_that_keeps_its_time_runs_once_a_hold_however_often_it_comes() -> None:
    """A projection of a match that moves every 0.5 s under a 2 s hold: the latest version
    is written once, 2 s after the first move it waited for (a restarted hold would never
    run while the match keeps moving)."""
    clock = Clock()
    dispatcher = Dispatcher(clock)
    ran: list[str] = []
    for move in range(4):  # at 0, 0.5, 1.0 and 1.5 s
        dispatcher.call(lambda move=move: ran.append(f"v{move}"), key="project", after=2.0, restart=False)
        looked(dispatcher)
        clock.now += 0.5
    assert ran == []
    looked(dispatcher)  # 2 s after the first
    assert ran == ["v3"]
    dispatcher.call(lambda: ran.append("v4"), key="project", after=2.0, restart=False)
    clock.now += 1.9
    looked(dispatcher)
    assert ran == ["v3"]
    # A call due sooner than the pending one (a finished match's last write) brings it forward.
    dispatcher.call(lambda: ran.append("final"), key="project", after=0.0, restart=False)
    looked(dispatcher)
    assert ran == ["v3", "final"]
    clock.now += 1.0
    looked(dispatcher)
    assert ran == ["v3", "final"]


# A step: queue a held call (key or None, hold in seconds), or move the clock and let the
# worker look.
steps = st.lists(
    st.one_of(
        st.tuples(st.just("call"), st.sampled_from([None, "a", "b", "c"]), st.sampled_from([0.5, 1.0, 2.0])),
        st.tuples(st.just("advance"), st.none(), st.sampled_from([0.0, 0.3, 0.5, 1.0, 2.5])),
    ),
    max_size=30,
)


@settings(max_examples=30, deadline=None)
@given(steps=steps)
def test_held_calls_run_once_due_latest_per_key_in_the_order_they_were_queued(
    steps: list[tuple[str, str | None, float]],
) -> None:
    """Against a model: a pending dict in queue order (a replaced key goes to the end);
    each look runs every pending call that is due, in that order, and nothing else."""
    clock = Clock()
    dispatcher = Dispatcher(clock)
    ran: list[int] = []
    expected: list[int] = []
    pending: dict[object, tuple[float, int]] = {}
    for number, (kind, key, seconds) in enumerate(steps):
        if kind == "call":
            dispatcher.call(lambda number=number: ran.append(number), key=key, after=seconds)
            slot = key if key is not None else ("unkeyed", number)
            pending.pop(slot, None)
            pending[slot] = (clock.now + seconds, number)
        else:
            clock.now += seconds
            due = [slot for slot, (not_before, _) in pending.items() if not_before <= clock.now]
            expected += [pending.pop(slot)[1] for slot in due]
            looked(dispatcher)
            assert ran == expected
    dispatcher.drain()
    assert ran == expected + [number for _, number in pending.values()]


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
            Queued(lambda: ran.append("projection"), "project", None, 0.0),
            Queued(lambda: ran.append("timer"), "timer", None, 0.05),
            Queued(lambda: ran.append("plain"), None, None, 0.0),
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


@pytest.mark.usefixtures("committed_db")
def test_a_busy_worker_keeps_its_connection_and_gives_back_one_an_error_may_have_broken() -> None:
    from django.db import connections
    from django.db.backends.signals import connection_created

    dispatcher = Dispatcher()
    opened: list[str] = []

    def on_connect(sender: object, connection: object, **_: object) -> None:
        if threading.current_thread().name == "cacho-dispatch":
            opened.append("connect")

    def query() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")

    def broken() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT no_such_column")

    connection_created.connect(on_connect)
    try:
        dispatcher.call(lambda: None, key="timer", after=60)  # pending: the worker is busy
        for _ in range(4):
            dispatcher.call(query)
            looked(dispatcher)
        assert opened == ["connect"]
        dispatcher.call(broken)
        looked(dispatcher)
        dispatcher.call(query)
        looked(dispatcher)
        assert opened == ["connect", "connect"]
    finally:
        connection_created.disconnect(on_connect)
        dispatcher.drain()  # the held call too: the worker is idle
        dispatcher.call(connections.close_all)
        looked(dispatcher)
