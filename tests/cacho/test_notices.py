"""Notices to match groups (cacho.services.notices): written to Redis so that
channels-redis's own `receive` reads them, for hub channels in one script call and for
any other member through the layer's `send`; a Redis outage costs a dropped notice, not
a slow move."""

from __future__ import annotations

import os
import time
import uuid
from typing import Any

import redis
from asgiref.sync import async_to_sync

from cacho.services.notices import HUB_PREFIX, NoticeSender
from tests.cacho.helpers import notice, receive


class RecordingLayer:
    """A channel layer that is not channels-redis: the sender uses its `group_send`."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.sent.append((group, message))


def test_another_layer_gets_its_own_group_send() -> None:
    layer = RecordingLayer()
    NoticeSender().send(layer, "g", notice("g", 1))
    assert layer.sent == [("g", notice("g", 1))]


def test_a_hub_and_a_process_specific_member_both_receive_through_channels_redis(redis_layer: Any) -> None:
    layer = redis_layer
    hub = f"{HUB_PREFIX}{uuid.uuid4().hex}"
    group = "match-1"

    async def join() -> str:
        specific = await layer.new_channel()
        await layer.group_add(group, hub)
        await layer.group_add(group, specific)
        return specific  # type: ignore[no-any-return]

    specific = async_to_sync(join)()
    sent = notice(group, 7)
    sender = NoticeSender()
    sender.send(layer, group, sent)
    sender.settle()  # the reply names the process-specific member: sent on by the layer
    assert receive(layer, hub) == sent
    assert receive(layer, specific) == sent


def test_a_hub_queue_keeps_the_layers_capacity(redis_layer: Any) -> None:
    layer = redis_layer
    hub = f"{HUB_PREFIX}{uuid.uuid4().hex}"
    async_to_sync(layer.group_add)("match-2", hub)
    sender = NoticeSender()
    for version in range(1, 8):
        sender.send(layer, "match-2", notice("match-2", version))
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    assert client.zcard(f"{layer.prefix}{hub}") == 5, "capacity 5: the rest dropped, as group_send does"
    assert [receive(layer, hub)["version"] for _ in range(5)] == [1, 2, 3, 4, 5]


def test_redis_down_drops_notices_for_a_moment_without_slowing_the_caller(redis_layer: Any) -> None:
    from channels_redis.core import RedisChannelLayer

    dead = RedisChannelLayer(hosts=[{"address": "redis://127.0.0.1:1/0"}], prefix="cachodead")
    sender = NoticeSender()
    began = time.monotonic()
    sender.send(dead, "match-4", notice("match-4", 1))  # refused: logged, dropped
    sender.send(dead, "match-4", notice("match-4", 2))  # within the back-off: not even tried
    assert time.monotonic() - began < NoticeSender.TIMEOUT * 2
    assert sender._down_until > time.monotonic()


def test_a_flushed_script_is_loaded_again_and_the_notice_resent(redis_layer: Any) -> None:
    layer = redis_layer
    hub = f"{HUB_PREFIX}{uuid.uuid4().hex}"
    async_to_sync(layer.group_add)("match-5", hub)
    sender = NoticeSender()
    sender.send(layer, "match-5", notice("match-5", 1))
    sender.settle()
    redis.Redis.from_url(os.environ["REDIS_URL"]).script_flush()
    sender.send(layer, "match-5", notice("match-5", 2))  # NOSCRIPT: loaded again, sent again
    sender.settle()
    assert [receive(layer, hub)["version"] for _ in range(2)] == [1, 2]


def test_many_notices_without_reading_replies_stay_in_order(redis_layer: Any) -> None:
    layer = redis_layer
    hub = f"{HUB_PREFIX}{uuid.uuid4().hex}"
    async_to_sync(layer.group_add)("match-6", hub)
    sender = NoticeSender()
    sender.READ_EVERY = 3
    layer.channel_capacity = layer.compile_capacities({"hub-*": 100})
    for version in range(1, 11):
        sender.send(layer, "match-6", notice("match-6", version))
    assert [receive(layer, hub)["version"] for _ in range(10)] == list(range(1, 11))


def test_a_forked_child_sends_on_a_link_of_its_own(redis_layer: Any) -> None:
    """A child writing on its parent's socket would interleave commands with it and read
    its replies: the child makes its own link, and both processes' notices arrive."""
    layer = redis_layer
    hub = f"{HUB_PREFIX}{uuid.uuid4().hex}"
    async_to_sync(layer.group_add)("match-7", hub)
    sender = NoticeSender()
    sender.send(layer, "match-7", notice("match-7", 1))
    parents = sender._links[id(layer)]
    child = os.fork()
    if child == 0:  # pragma: no cover (the child's outcome is its exit status)
        status = 1
        try:
            sender.send(layer, "match-7", notice("match-7", 2))
            sender.settle()
            status = 0 if sender._links[id(layer)] is not parents else 3
        finally:
            os._exit(status)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the child wrote on the parent's link"
    sender.send(layer, "match-7", notice("match-7", 3))
    sender.settle()
    assert [receive(layer, hub)["version"] for _ in range(3)] == [1, 2, 3]


def test_the_expiry_cutoffs_follow_the_clock(redis_layer: Any) -> None:
    """The cutoffs are packed once a second: a membership older than the group expiry is
    dropped by a notice sent seconds after the previous one, as `group_send` drops it."""
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=redis_layer.hosts, prefix=redis_layer.prefix, group_expiry=1)
    old, new = (f"{HUB_PREFIX}{uuid.uuid4().hex}" for _ in range(2))
    sender = NoticeSender()
    async_to_sync(layer.group_add)("match-8", old)
    sender.send(layer, "match-8", notice("match-8", 1))
    assert receive(layer, old)["version"] == 1
    for _ in range(5):  # the group key lives on (each group_add renews its expiry); `old` ages
        time.sleep(0.45)
        async_to_sync(layer.group_add)("match-8", new)
    sender.send(layer, "match-8", notice("match-8", 2))
    sender.settle()
    assert receive(layer, new)["version"] == 2
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    assert client.zcard(f"{layer.prefix}{old}") == 0, "the expired member got nothing"
    assert client.zscore(layer._group_key("match-8"), old) is None


def test_two_equal_notices_stay_two_messages_in_a_hub_queue(redis_layer: Any) -> None:
    """The link packs messages itself; like channels-redis it gives each a random prefix,
    or a sorted set would keep one of two equal messages."""
    layer = redis_layer
    hub = f"{HUB_PREFIX}{uuid.uuid4().hex}"
    async_to_sync(layer.group_add)("match-3", hub)
    sender = NoticeSender()
    sender.send(layer, "match-3", notice("match-3", 4))
    sender.send(layer, "match-3", notice("match-3", 4))
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    assert client.zcard(f"{layer.prefix}{hub}") == 2
    assert receive(layer, hub) == receive(layer, hub) == notice("match-3", 4)


class ReversingCrypter:
    """Stands in for channels-redis's Fernet (not installed here): any transformation of
    the bytes that only the layer's own serializer knows."""

    def encrypt(self, data: bytes) -> bytes:
        return data[::-1]

    def decrypt(self, data: bytes, ttl: Any = None) -> bytes:
        return data[::-1]


def test_an_encrypting_layer_packs_its_own_way(redis_layer: Any) -> None:
    layer = redis_layer
    layer._serializer.crypter = ReversingCrypter()
    hub = f"{HUB_PREFIX}{uuid.uuid4().hex}"
    async_to_sync(layer.group_add)("match-4", hub)
    NoticeSender().send(layer, "match-4", notice("match-4", 9))
    assert receive(layer, hub) == notice("match-4", 9)
