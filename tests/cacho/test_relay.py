"""The notice relay (cacho.services.relay): server processes hand their notices to one
process per host, which writes them to Redis in batches; when it is away, nothing is lost
to it: each sender writes its own notices."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from asgiref.sync import async_to_sync

from cacho.services.notices import HUB_PREFIX, RELAY_DATAGRAM_MAX, NoticeSender
from cacho.services.relay import NoticeRelay, RelayBusy, wait_until_bound
from tests.cacho.helpers import notice, receive
from tests.test_foundation.helpers import PYTHON, ROOT, clean_env


@pytest.fixture
def socket_dir() -> Iterator[Path]:
    # A Unix socket's path must stay under ~100 bytes: not pytest's long tmp_path.
    path = Path(tempfile.mkdtemp(prefix="cacho-relay-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def running(relay: NoticeRelay) -> Iterator[NoticeRelay]:
    if not relay.bound:
        relay.bind()
    thread = threading.Thread(target=relay.serve, daemon=True)
    thread.start()
    try:
        yield relay
    finally:
        relay.stop()
        thread.join(timeout=5)


def wait_for(condition: Callable[[], bool], timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def hub_in(layer: Any, group: str) -> str:
    hub = f"{HUB_PREFIX}{uuid.uuid4().hex}"
    async_to_sync(layer.group_add)(group, hub)
    return hub


def test_notices_through_the_relay_reach_a_hub_in_order(redis_layer: Any, socket_dir: Path) -> None:
    layer = redis_layer
    layer.channel_capacity = layer.compile_capacities({"hub-*": 100})
    hub = hub_in(layer, "match-r1")
    path = str(socket_dir / "relay.sock")
    sender = NoticeSender(relay=path)
    with running(NoticeRelay(path, layer)) as relay:
        for version in range(1, 21):
            sender.send(layer, "match-r1", notice("match-r1", version))
        wait_for(lambda: relay.relayed == 20)
        assert [receive(layer, hub)["version"] for _ in range(20)] == list(range(1, 21))
    assert not sender._links[id(layer)].outstanding, "the sender wrote nothing to Redis itself"
    assert not os.path.exists(path), "a stopped relay gives its socket back"


def test_without_a_relay_each_sender_writes_its_own_notices(redis_layer: Any, socket_dir: Path) -> None:
    layer = redis_layer
    hub = hub_in(layer, "match-r2")
    sender = NoticeSender(relay=str(socket_dir / "nobody.sock"))
    began = time.monotonic()
    for version in range(1, 4):
        sender.send(layer, "match-r2", notice("match-r2", version))
    assert [receive(layer, hub)["version"] for _ in range(3)] == [1, 2, 3]
    assert sender._relay_down_until > began, "tried again only after the back-off"


def test_a_relay_that_comes_back_is_used_again(redis_layer: Any, socket_dir: Path) -> None:
    layer = redis_layer
    hub = hub_in(layer, "match-r3")
    path = str(socket_dir / "relay.sock")
    sender = NoticeSender(relay=path)
    sender.send(layer, "match-r3", notice("match-r3", 1))  # no relay yet: written directly
    sender._relay_down_until = 0.0  # the back-off is over
    with running(NoticeRelay(path, layer)) as relay:
        sender.send(layer, "match-r3", notice("match-r3", 2))
        wait_for(lambda: relay.relayed == 1)
    # The relay stopped: its connection is broken, and the sender writes again itself.
    sender.send(layer, "match-r3", notice("match-r3", 3))
    assert sender._relay_socket is None, "a broken connection is closed, made again later"
    sender._relay_down_until = 0.0
    with running(NoticeRelay(path, layer)) as successor:
        sender.send(layer, "match-r3", notice("match-r3", 4))
        wait_for(lambda: successor.relayed == 1)
    assert [receive(layer, hub)["version"] for _ in range(4)] == [1, 2, 3, 4]


def test_a_notice_too_large_for_the_relay_is_written_by_its_sender(
    redis_layer: Any, socket_dir: Path
) -> None:
    layer = redis_layer
    hub = hub_in(layer, "match-r7")
    path = str(socket_dir / "relay.sock")
    sender = NoticeSender(relay=path)
    large = notice("match-r7", 1)
    large["events"][0]["payload"] = {"blob": "x" * RELAY_DATAGRAM_MAX}
    with running(NoticeRelay(path, layer)) as relay:
        sender.send(layer, "match-r7", large)
        sender.send(layer, "match-r7", notice("match-r7", 2))
        wait_for(lambda: relay.relayed == 1)
    assert [receive(layer, hub)["version"] for _ in range(2)] == [1, 2]
    assert sender._relay_down_until == 0.0, "one large notice does not turn the relay off"


def test_a_relay_that_falls_behind_loses_nothing(redis_layer: Any, socket_dir: Path) -> None:
    """Its connection's buffer full, the sender writes the overflow itself; what was queued
    is relayed once the relay reads again."""
    layer = redis_layer
    layer.channel_capacity = layer.compile_capacities({"hub-*": 1000})
    hub = hub_in(layer, "match-r8")
    path = str(socket_dir / "relay.sock")
    relay = NoticeRelay(path, layer)
    relay.bind()  # bound, not reading yet
    sender = NoticeSender(relay=path)
    padded = []
    for version in range(1, 201):
        message = notice("match-r8", version)
        message["events"][0]["payload"] = {"blob": "x" * 8000}
        padded.append(message)
    sent = 0
    while sender._relay_down_until == 0.0 and sent < len(padded):
        sender.send(layer, "match-r8", padded[sent])
        sent += 1
    assert sender._relay_down_until > 0.0, "the buffer never filled"
    assert sender._relay_socket is not None, "a relay that is behind keeps its connection"
    with running(relay):
        wait_for(lambda: relay.relayed == sent - 1)
    received = {receive(layer, hub)["version"] for _ in range(sent)}
    assert received == set(range(1, sent + 1))


def test_a_relay_without_redis_drops_and_goes_on(redis_layer: Any, socket_dir: Path) -> None:
    from channels_redis.core import RedisChannelLayer

    dead = RedisChannelLayer(hosts=[{"address": "redis://127.0.0.1:1/0"}], prefix=redis_layer.prefix)
    path = str(socket_dir / "relay.sock")
    relay = NoticeRelay(path, dead)
    with running(relay):
        sender = NoticeSender(relay=path)
        sender.send(redis_layer, "match-r9", notice("match-r9", 1))
        wait_for(lambda: relay.dropped == 1)
        assert relay._down_until > time.monotonic(), "not tried again at once"
        sender.send(redis_layer, "match-r9", notice("match-r9", 2))  # within the back-off
        wait_for(lambda: relay.dropped == 2)
    assert relay.relayed == 0


def test_a_relayed_notice_reaches_a_member_that_is_not_a_hub(redis_layer: Any, socket_dir: Path) -> None:
    layer = redis_layer
    specific = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)("match-r4", specific)
    path = str(socket_dir / "relay.sock")
    with running(NoticeRelay(path, layer)):
        NoticeSender(relay=path).send(layer, "match-r4", notice("match-r4", 7))
        message = receive(layer, specific, timeout=3.0)
    assert message["version"] == 7 and message["events"] == notice("match-r4", 7)["events"]


def test_a_malformed_message_is_dropped_and_the_relay_goes_on(redis_layer: Any, socket_dir: Path) -> None:
    layer = redis_layer
    hub = hub_in(layer, "match-r5")
    path = str(socket_dir / "relay.sock")
    with running(NoticeRelay(path, layer)) as relay:
        stray = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        stray.connect(path)
        stray.send(b"no separator here")
        NoticeSender(relay=path).send(layer, "match-r5", notice("match-r5", 1))
        wait_for(lambda: relay.relayed == 1)
        assert relay.dropped == 1
    assert receive(layer, hub)["version"] == 1


def test_one_socket_has_one_relay(redis_layer: Any, socket_dir: Path) -> None:
    path = str(socket_dir / "relay.sock")
    with running(NoticeRelay(path, redis_layer)), pytest.raises(RelayBusy):
        NoticeRelay(path, redis_layer).bind()
    successor = NoticeRelay(path, redis_layer)
    successor.bind()  # the first one is gone: its path is free again
    successor.close()


def test_the_command_relays_until_sigterm(socket_dir: Path) -> None:
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("REDIS_URL is not set")
    from channels_redis.core import RedisChannelLayer

    path = str(socket_dir / "relay.sock")
    env = clean_env(socket_dir, REDIS_URL=url, DATABASE_URL=os.environ["DATABASE_URL"])
    process = subprocess.Popen(
        [PYTHON, "manage.py", "notice_relay", "--path", path],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    from django.conf import settings

    layer = RedisChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])  # the command's layer
    hub = f"{HUB_PREFIX}{uuid.uuid4().hex}"
    try:
        wait_until_bound(path, process)
        async_to_sync(layer.group_add)("match-r6", hub)
        sender = NoticeSender(relay=path)
        sender.send(layer, "match-r6", notice("match-r6", 1))
        assert receive(layer, hub, timeout=5.0)["version"] == 1
        assert not sender._links[id(layer)].outstanding, "relayed, not written by the sender"
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
        client = redis.Redis.from_url(url)
        client.delete(f"{layer.prefix}{hub}")
        client.zrem(layer._group_key("match-r6"), hub)
    assert process.returncode == 0, err
    assert "1 relayed, 0 dropped" in out
    assert not os.path.exists(path)


def test_the_command_needs_a_socket(socket_dir: Path) -> None:
    env = clean_env(socket_dir, REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    done = subprocess.run(
        [PYTHON, "manage.py", "notice_relay"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert "CACHO_NOTICE_RELAY" in done.stderr


def test_waiting_for_a_relay_that_exits_says_so(socket_dir: Path) -> None:
    process = subprocess.Popen([PYTHON, "-c", "raise SystemExit(3)"])
    with pytest.raises(RuntimeError, match=r"exited \(3\)"):
        wait_until_bound(str(socket_dir / "never.sock"), process)
