"""Notices to match groups (cacho.services.notices): channels-redis's own `group_send`,
awaited on the process's notice loop. The caller never waits for Redis; one group's
notices arrive in order; a failure drops a notice, never the loop."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from typing import Any

from asgiref.sync import async_to_sync

from cacho.services.notices import NoticeLoop
from tests.cacho.helpers import notice, receive


class HeldLayer:
    """A layer whose `group_send` waits until the test lets it go (or fails once)."""

    def __init__(self, fail_first: bool = False) -> None:
        self.sent: list[tuple[str, int]] = []
        self.fail_first = fail_first
        self.release: asyncio.Event | None = None

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        if self.release is None:
            self.release = asyncio.Event()
        await self.release.wait()
        if self.fail_first:
            self.fail_first = False
            raise ConnectionError("Redis went away")
        self.sent.append((group, message["version"]))


def let_go(loop: NoticeLoop, layer: HeldLayer) -> None:
    async def release() -> None:
        while layer.release is None:
            await asyncio.sleep(0)
        layer.release.set()

    assert loop._loop is not None
    asyncio.run_coroutine_threadsafe(release(), loop._loop).result(5)


def test_a_notice_reaches_a_group_member_through_channels_redis(redis_layer: Any) -> None:
    member = f"hub-{uuid.uuid4().hex}"
    async_to_sync(redis_layer.group_add)("match-1", member)
    NoticeLoop().send(redis_layer, "match-1", notice("match-1", 7))
    assert receive(redis_layer, member) == notice("match-1", 7)


def test_one_groups_notices_arrive_in_order(redis_layer: Any) -> None:
    member = f"hub-{uuid.uuid4().hex}"
    async_to_sync(redis_layer.group_add)("match-2", member)
    async_to_sync(redis_layer.group_add)("match-3", f"hub-{uuid.uuid4().hex}")
    notices = NoticeLoop()
    for version in range(1, 6):  # the layer's capacity for hubs here: 5
        notices.send(redis_layer, "match-2", notice("match-2", version))
        notices.send(redis_layer, "match-3", notice("match-3", version))
    notices.settle()
    assert [receive(redis_layer, member)["version"] for _ in range(5)] == [1, 2, 3, 4, 5]


def test_notices_go_through_uvloop_as_the_servers_do(redis_layer: Any) -> None:
    """uvloop comes with uvicorn's standard extras: the notices' loop is one of its loops,
    not asyncio's Python one (docs/benchmarks.md, "The notices' event loop")."""
    import uvloop

    member = f"hub-{uuid.uuid4().hex}"
    async_to_sync(redis_layer.group_add)("match-5", member)
    notices = NoticeLoop()
    notices.send(redis_layer, "match-5", notice("match-5", 1))
    assert receive(redis_layer, member) == notice("match-5", 1)
    assert isinstance(notices._loop, uvloop.Loop)


def test_the_caller_never_waits_for_the_layer() -> None:
    layer = HeldLayer()
    notices = NoticeLoop()
    began = time.monotonic()
    for version in (1, 2, 3):
        notices.send(layer, "match-4", notice("match-4", version))
    assert time.monotonic() - began < 0.5 and layer.sent == []  # all held by the layer
    let_go(notices, layer)
    notices.settle()
    assert layer.sent == [("match-4", 1), ("match-4", 2), ("match-4", 3)]


def test_a_failed_notice_is_dropped_and_the_next_ones_go() -> None:
    layer = HeldLayer(fail_first=True)
    notices = NoticeLoop()
    notices.send(layer, "match-5", notice("match-5", 1))
    notices.send(layer, "match-5", notice("match-5", 2))
    let_go(notices, layer)
    notices.settle()
    assert layer.sent == [("match-5", 2)]


def test_notices_beyond_the_backlog_are_dropped() -> None:
    layer = HeldLayer()
    notices = NoticeLoop(max_pending=2)
    for version in (1, 2, 3):
        notices.send(layer, "match-6", notice("match-6", version))
    let_go(notices, layer)
    notices.settle()
    assert layer.sent == [("match-6", 1), ("match-6", 2)]


def test_redis_down_costs_the_caller_nothing() -> None:
    from channels_redis.core import RedisChannelLayer

    dead = RedisChannelLayer(hosts=[{"address": "redis://127.0.0.1:1/0"}], prefix="cachodead")
    notices = NoticeLoop()
    began = time.monotonic()
    notices.send(dead, "match-7", notice("match-7", 1))  # refused on the loop: logged, dropped
    assert time.monotonic() - began < 0.5
    notices.settle()


def test_a_forked_child_sends_on_a_loop_of_its_own(redis_layer: Any) -> None:
    member = f"hub-{uuid.uuid4().hex}"
    async_to_sync(redis_layer.group_add)("match-8", member)
    notices = NoticeLoop()
    notices.send(redis_layer, "match-8", notice("match-8", 1))
    notices.settle()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child's outcome is its exit status)
        status = 1
        try:
            notices.send(redis_layer, "match-8", notice("match-8", 2))
            notices.settle()
            status = 0
        finally:
            os._exit(status)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    notices.send(redis_layer, "match-8", notice("match-8", 3))
    notices.settle()
    assert [receive(redis_layer, member)["version"] for _ in range(3)] == [1, 2, 3]
