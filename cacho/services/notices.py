"""Channel-layer notices to match groups on Redis, sent from one plain thread.

Every committed move is a notice to its match's group, so this is the hottest path after
the append itself. channels-redis's `group_send` is a coroutine of four Redis round trips
(expire the group, read its members, expire each member's queue, run a Lua script it
sends in full), driven by asyncio redis-py: on the write path's machine that was about
0.45 ms of CPU a notice, more than the rest of the command, and the event loop thread
fought the request threads for the GIL.

Here a notice is one `EVALSHA` of a script that does the same in Redis, written by the
thread that committed to a connection of its own, its reply read later. The script writes exactly what
`RedisChannelLayer.group_send` writes for a member channel (the serialised message in the
channel's sorted set, scored by time, capacity and expiry as configured), so
`RedisChannelLayer.receive` reads it unchanged. It does that only for the server
processes' hub channels (plain names `hub-…`, cacho.live.hub), which need no
`__asgi_channel__` routing; any other member of the group gets the message through the
layer's own `send`. A layer with several Redis hosts (sharded) or another backend gets
the layer's own `group_send`.

With `CACHO_NOTICE_RELAY` set, a notice is first offered to the host's relay
(cacho.services.relay), which writes the notices of all the host's server processes in
batches through the same packing; the sender writes it here when the relay does not take
it.

Delivery stays at-most-once: a failure is logged and the notice dropped; clients detect
the version gap and catch up from the log.
"""

from __future__ import annotations

import logging
import os
import random
import socket
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from asgiref.sync import async_to_sync

from cacho.hot_settings import setting

logger = logging.getLogger(__name__)

HUB_PREFIX = "hub-"  # the plain channel names of the hubs (one per server process)
GROUP_KEYS_KEPT = 4096  # a link's packed group keys (one per match it notified lately)
NOTICE_SEPARATOR = b"\0"  # between a relayed notice's group and its message (no group has one)
RELAY_DATAGRAM_MAX = 65536  # a larger notice is written to Redis by its sender

GROUP_SEND = """
local group, payload, now = KEYS[1], ARGV[1], ARGV[2]
local group_cutoff, queue_cutoff = ARGV[3], ARGV[4]
local expiry, capacity, prefix, hub = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7], ARGV[8]
redis.call('ZREMRANGEBYSCORE', group, 0, group_cutoff)
local others = {}
for _, member in ipairs(redis.call('ZRANGE', group, 0, -1)) do
    if string.sub(member, 1, #hub) == hub then
        local queue = prefix .. member
        redis.call('ZREMRANGEBYSCORE', queue, 0, queue_cutoff)
        if redis.call('ZCOUNT', queue, '-inf', '+inf') < capacity then
            redis.call('ZADD', queue, now, payload)
            redis.call('EXPIRE', queue, expiry)
        end
    else
        table.insert(others, member)
    end
end
return others
"""


# A notice as a link writes it: its group, the serialized message, the message itself when
# the writer has it (a relayed one has only its bytes).
Notice = tuple[str, bytes, "dict[str, Any] | None"]

_SENDERS: weakref.WeakSet[NoticeSender] = weakref.WeakSet()


class NoticeSender:
    """Sends on the caller's thread (the write path's, after commit) without waiting: the
    `EVALSHA` is written to a connection of its own and the replies are read in a batch,
    once `READ_EVERY` are outstanding (or on `settle`). A notice costs a socket write; no
    round trip is waited for, and no thread is woken (handing notices to a thread cost
    more CPU in wake-ups and GIL hand-overs than the send itself: docs/event-store.md,
    "Performance"). A reply naming members that are not hubs is sent on by the layer's
    `send` when that reply is read: only hubs join match groups, so that path is for
    foreign listeners, never for players; a lost script is loaded again and the notices
    that failed are re-sent.
    If Redis fails, notices are dropped for `BACKOFF` seconds: an outage never slows the
    moves down (the connection's timeouts are short)."""

    BACKOFF = 1.0
    TIMEOUT = 0.5
    READ_EVERY = 32

    def __init__(self, relay: str | None = None) -> None:
        self._links: dict[int, _Link | None] = {}
        self._lock = threading.Lock()
        self._down_until = 0.0
        # The notice relay's socket (cacho.services.relay); None: the CACHO_NOTICE_RELAY setting.
        self.relay = relay
        self._relay_socket: socket.socket | None = None
        self._relay_down_until = 0.0
        self._relay_was_up = True
        _SENDERS.add(self)

    def _after_fork(self) -> None:
        """In a forked child: the parent's links are the parent's sockets (a child writing
        on one would interleave with the parent), and its lock may have been held at the
        fork. The child makes its own links on its first notice."""
        self._links = {}
        self._lock = threading.Lock()
        self._relay_socket = None

    def send(self, layer: Any, group: str, message: dict[str, Any]) -> None:
        """`layer.group_send(group, message)`, at most once; failures are logged."""
        if time.monotonic() < self._down_until:
            return
        with self._lock:
            try:
                link = self._link_for(layer)
                if link is None:
                    async_to_sync(layer.group_send)(group, message)
                    return
                if not self._relayed(link, group, message):
                    link.send(group, message)
            except Exception:
                self._down_until = time.monotonic() + self.BACKOFF
                self._drop(layer)
                logger.warning(
                    "notice to %s dropped, and any in the next %.0f s", group, self.BACKOFF, exc_info=True
                )

    def _relayed(self, link: _Link, group: str, message: dict[str, Any]) -> bool:
        """Hand the notice to the host's relay, or write it to Redis at once if the relay
        does not take it (and do that for `BACKOFF` seconds before trying it again), or if
        it is over `RELAY_DATAGRAM_MAX`.
        False: no relay is configured or it is in back-off; the caller writes the notice."""
        path = self.relay if self.relay is not None else setting("CACHO_NOTICE_RELAY", "")
        if not path or time.monotonic() < self._relay_down_until:
            return False
        body = link.serialize(message)
        datagram = group.encode() + NOTICE_SEPARATOR + body
        if len(datagram) > RELAY_DATAGRAM_MAX:  # rare (a long batch): this one is written here
            link.send_serialized(((group, body, message),))
            return True
        try:
            if self._relay_socket is None:
                # A connection of its own: its messages keep their bounds, and what waits
                # for the relay is bounded by this socket's buffer, not by a queue length
                # (net.unix.max_dgram_qlen is 10 on some hosts).
                relay = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
                try:
                    relay.connect(path)
                except OSError:
                    relay.close()
                    raise
                self._relay_socket = relay
            self._relay_socket.send(datagram, socket.MSG_DONTWAIT)
            self._relay_was_up = True
        except OSError as exc:
            if self._relay_socket is not None and not isinstance(exc, BlockingIOError):
                self._relay_socket.close()  # the relay went away: connect again after the back-off
                self._relay_socket = None
            # Gone (ENOENT, ECONNREFUSED, EPIPE) or behind (EAGAIN): written here.
            self._relay_down_until = time.monotonic() + self.BACKOFF
            log = logger.warning if self._relay_was_up else logger.debug
            log("notice relay %s refused a notice (%s): writing to Redis for %.0f s", path, exc, self.BACKOFF)
            self._relay_was_up = False
            link.send_serialized(((group, body, message),))
        return True

    def settle(self) -> None:
        """Read every outstanding reply (tests; a process about to exit)."""
        with self._lock:
            for link in list(self._links.values()):
                if link is None:
                    continue
                try:
                    link.read_replies()
                except Exception:
                    logger.warning("notice replies lost", exc_info=True)
                    self._drop(link.layer)

    def _drop(self, layer: Any) -> None:
        link = self._links.pop(id(layer), None)
        if link is not None:
            link.connection.disconnect()

    def _link_for(self, layer: Any) -> _Link | None:
        key = id(layer)
        link = self._links.get(key)
        # A link serves the layer it was made for (a new layer may reuse a dead one's id);
        # a forked child starts without its parent's links (`_after_fork`).
        if link is not None and link.layer is not layer:
            link = None
        elif key in self._links:
            return link
        from channels_redis.core import RedisChannelLayer

        if isinstance(layer, RedisChannelLayer) and layer.ring_size == 1:
            link = _Link(layer, self.TIMEOUT, self.READ_EVERY)
        self._links[key] = link
        return link


class _Link:
    """One Redis connection carrying one layer's notices; its replies are read in batches."""

    def __init__(self, layer: Any, timeout: float, read_every: int) -> None:
        import redis

        host = dict(layer.hosts[0])
        address = host.pop("address", None)
        host.update(socket_timeout=timeout, socket_connect_timeout=timeout)
        self.client = redis.Redis.from_url(address, **host) if address else redis.Redis(**host)
        self.connection = self.client.connection_pool.get_connection()
        self.layer = layer
        self.read_every = read_every
        self.outstanding: deque[Notice] = deque()
        self.last_score = 0.0
        self.serialize = _serializer_for(layer)
        # What does not change from one notice to the next is packed once: the command's
        # head (with the script's digest), the layer's settings, the cutoffs within a
        # second, each group's key.
        self._use_script(self._load_script())
        self.fixed_tail = b"".join(
            _bulk(str(value).encode())
            for value in (int(layer.expiry), layer.get_capacity(HUB_PREFIX), layer.prefix, HUB_PREFIX)
        )
        self._second = -1
        self._cutoffs = b""
        self._group_keys: dict[str, bytes] = {}

    def _use_script(self, sha: bytes) -> None:
        self.head = b"*12\r\n$7\r\nEVALSHA\r\n" + _bulk(sha) + b"$1\r\n1\r\n"

    def _group_key(self, group: str) -> bytes:
        key = self._group_keys.get(group)
        if key is None:
            if len(self._group_keys) >= GROUP_KEYS_KEPT:
                self._group_keys.clear()
            key = self._group_keys[group] = _bulk(self.layer._group_key(group))
        return key

    def send(self, group: str, message: dict[str, Any]) -> None:
        self.send_serialized(((group, self.serialize(message), message),))

    def send_serialized(self, notices: Sequence[Notice]) -> None:
        """Write these notices (group, serialized message, the message if at hand) in one
        socket write; their replies are read later."""
        if len(self.outstanding) >= self.read_every:
            self.read_replies()
        packed = b"".join([self._pack(group, body) for group, body, _ in notices])
        self.connection.send_packed_command([packed], check_health=False)
        self.outstanding.extend(notices)

    def _pack(self, group: str, body: bytes) -> bytes:
        now = time.time()
        # A queue is read in score order: two notices within the clock's resolution must
        # still keep their order.
        self.last_score = score = max(now, self.last_score + 1e-5)
        second = int(now)
        if second != self._second:  # the group's and the queues' expiry cutoffs
            layer = self.layer
            self._second = second
            self._cutoffs = _bulk(str(second - layer.group_expiry).encode()) + _bulk(
                str(second - int(layer.expiry)).encode()
            )
        # The command is packed here (RESP): redis-py's packing of 12 arguments cost more
        # than the socket write.
        return b"".join(
            (
                self.head,
                self._group_key(group),
                _bulk(body),
                _bulk(repr(score).encode()),
                self._cutoffs,
                self.fixed_tail,
            )
        )

    def _load_script(self) -> bytes:
        sha = self.client.script_load(GROUP_SEND)
        return sha if isinstance(sha, bytes) else str(sha).encode()

    def read_replies(self) -> None:
        """Every outstanding reply (Redis answers in order, and long before this is called)."""
        from redis.exceptions import NoScriptError, ResponseError

        resend: list[Notice] = []
        while self.outstanding:
            notice = self.outstanding.popleft()
            try:
                others = self.connection.read_response()
            except NoScriptError:  # Redis restarted or its scripts were flushed
                resend.append(notice)
                continue
            except ResponseError:
                logger.warning("notice to %s refused by Redis", notice[0], exc_info=True)
                continue
            if others:  # not hubs: the layer's own way (process-specific names)
                _, body, message = notice
                if message is None:  # relayed: only its bytes came
                    message = self.layer.deserialize(body)
                for member in others:
                    channel = member.decode() if isinstance(member, bytes) else member
                    _guarded(
                        lambda channel=channel, message=message: async_to_sync(self.layer.send)(
                            channel, dict(message)
                        )
                    )  # type: ignore[misc]
        if resend:
            self._use_script(self._load_script())
            self.send_serialized(resend)


def _serializer_for(layer: Any) -> Callable[[dict[str, Any]], bytes]:
    """`layer.serialize`, or the same bytes with one msgpack packer kept for the link:
    `msgpack.packb` builds a packer on every call. Only for the layer's plain msgpack
    serializer (no encryption); any other is the layer's own."""
    from channels_redis.serializers import MsgPackSerializer

    serializer = getattr(layer, "_serializer", None)
    if type(serializer) is not MsgPackSerializer or serializer.crypter is not None:
        return layer.serialize  # type: ignore[no-any-return]
    import msgpack

    pack = msgpack.Packer().pack  # packb's defaults; it resets after every message
    length = serializer.random_prefix_length
    if length <= 0:
        return pack  # type: ignore[no-any-return]
    bits = 8 * length
    getrandbits = random.getrandbits

    def serialize(message: dict[str, Any]) -> bytes:
        # The prefix as channels-redis makes it: the queue is a sorted set, and two equal
        # messages must stay two members.
        return getrandbits(bits).to_bytes(length, "big") + pack(message)  # type: ignore[no-any-return]

    return serialize


def _bulk(value: bytes) -> bytes:
    return b"$%d\r\n%s\r\n" % (len(value), value)


def _guarded(function: Callable[[], Any]) -> None:
    try:
        function()
    except Exception:
        logger.warning("after-commit notice failed", exc_info=True)


def _reset_after_fork() -> None:
    for sender in list(_SENDERS):
        sender._after_fork()


os.register_at_fork(after_in_child=_reset_after_fork)

NOTICES = NoticeSender()
