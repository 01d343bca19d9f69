"""Table talk on the match socket (docs/table-talk.md), in process: the `chat` and
`chat-history` frames, a spectators' message never reaching a seated player while the table
plays, muting, the rate limit over the socket, and a property test that no chat frame
carries anything but what its author wrote (no die, no seed) while a match is played."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from cacho.models import ChatMessage, DiceSeed, Match
from cacho.routing import websocket_urlpatterns
from cacho.services import matches
from cacho.talk import phrases, service
from project.edge.socket_sessions import socket_auth_stack
from tests.cacho.helpers import legal_bidding_move, state_of

pytestmark = [pytest.mark.usefixtures("committed_db"), pytest.mark.sqlite_too]

User = get_user_model()
PLAYERS = ("ana", "beto", "caro")
MESSAGE_KEYS = {"id", "c", "seat", "author", "phrase", "text", "at"}


@pytest.fixture(autouse=True)
def in_memory_layer(settings: Any) -> None:
    """One process: the in-memory channel layer carries the notices to the sockets."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def new_match() -> Match:
    match = matches.create_match("dudo", list(PLAYERS), first_seat=0)
    for index, name in enumerate(PLAYERS):
        matches.take_seat(match.pk, index, User.objects.get_or_create(username=name)[0])
    return match


def cookies(names: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for name in names:
        client = Client()
        client.force_login(User.objects.get_or_create(username=name)[0])
        out[name] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return out


class Communicator(ApplicationCommunicator):  # type: ignore[misc]
    """A websocket client of the ASGI app in this process (channels.testing's needs daphne)."""

    def __init__(self, app: Any, path: str, headers: list[tuple[bytes, bytes]]) -> None:
        scope = {
            "type": "websocket",
            "path": path,
            "headers": headers,
            "subprotocols": [],
            "query_string": b"",
        }
        super().__init__(app, scope)

    async def connect(self) -> bool:
        await self.send_input({"type": "websocket.connect"})
        return bool((await self.receive_output(5))["type"] == "websocket.accept")

    async def send_to(self, text_data: str) -> None:
        await self.send_input({"type": "websocket.receive", "text": text_data})

    async def receive_from(self, timeout: float) -> str:
        out = await self.receive_output(timeout)
        assert out["type"] == "websocket.send", out
        return str(out["text"])

    async def disconnect(self) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": 1000})
        await self.wait(2)


class Sock:
    def __init__(self, communicator: Communicator) -> None:
        self.c = communicator
        self.frames: list[dict[str, Any]] = []

    async def send(self, frame: dict[str, Any]) -> None:
        await self.c.send_to(text_data=json.dumps(frame))

    async def until(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 5) -> dict[str, Any]:
        while True:
            frame = json.loads(await self.c.receive_from(timeout))
            self.frames.append(frame)
            if wanted(frame):
                return frame

    def chats(self) -> list[dict[str, Any]]:
        return [frame["d"] for frame in self.frames if frame["t"] == "chat"]


async def connect(match: Match, cookie: str | None) -> Sock:
    app = socket_auth_stack(URLRouter(websocket_urlpatterns))
    headers = [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())] if cookie else []
    communicator = Communicator(app, f"/ws/matches/{match.pk}/", headers)
    assert await communicator.connect()
    sock = Sock(communicator)
    await sock.until(lambda f: f["t"] == "state")
    return sock


def chat_with(text: str) -> Callable[[dict[str, Any]], bool]:
    return lambda f: f["t"] == "chat" and f["d"]["text"] == text


def test_the_gallery_never_reaches_the_players_while_the_table_plays() -> None:
    match = new_match()
    jar = cookies((*PLAYERS, "watcher"))

    async def scenario() -> dict[str, Sock]:
        socks = {name: await connect(match, jar[name]) for name in (*PLAYERS, "watcher")}
        socks["anonymous"] = await connect(match, None)
        await socks["ana"].send({"t": "chat-history"})
        history = await socks["ana"].until(lambda f: f["t"] == "chat-history")
        assert history["d"]["messages"] == [] and history["d"]["settings"]["can_post"] == ["players"]

        await socks["watcher"].send({"t": "chat", "id": "w1", "c": "spectators", "text": "ana has two fives"})
        ack = await socks["watcher"].until(lambda f: f["t"] == "chat-ack")
        assert ack["ok"] and ack["id"] == "w1"
        await socks["ana"].send({"t": "chat", "c": "players", "phrase": "good-luck"})
        await socks["ana"].until(lambda f: f["t"] == "chat-ack")
        await socks["beto"].send({"t": "chat", "c": "players", "text": "<img src=x onerror=alert(1)>"})
        await socks["beto"].until(lambda f: f["t"] == "chat-ack")
        # A player's last word: every socket has what came before it once it has this one.
        await socks["caro"].send({"t": "chat", "c": "players", "text": "the end"})
        for sock in socks.values():
            await sock.until(chat_with("the end"))

        # A player asks for the spectators' chat anyway: still not theirs to read.
        await socks["ana"].send({"t": "chat", "c": "spectators", "text": "hello gallery"})
        refused = await socks["ana"].until(lambda f: f["t"] == "chat-ack")
        assert (refused["ok"], refused["code"]) == (False, "chat-players-elsewhere")
        await socks["ana"].send({"t": "chat-history"})
        history = await socks["ana"].until(lambda f: f["t"] == "chat-history")
        assert [m["c"] for m in history["d"]["messages"]] == ["players"] * 3
        for sock in socks.values():
            await sock.c.disconnect()
        return socks

    socks = asyncio.run(scenario())
    for name in PLAYERS:
        assert [m["c"] for m in socks[name].chats()] == ["players"] * 3, name
    for name in ("watcher", "anonymous"):
        assert socks[name].chats()[0]["text"] == "ana has two fives"
        assert len(socks[name].chats()) == 4
    assert socks["ana"].chats()[1]["text"] == "<img src=x onerror=alert(1)>"  # stored as typed, drawn as text


def test_after_the_end_the_players_read_the_gallery() -> None:
    match = new_match()
    jar = cookies(("ana", "watcher"))
    for index, name in enumerate(PLAYERS[:-1]):
        matches.submit(match.pk, name, {"type": "abandon"}, f"leave-{index}", None)

    async def scenario() -> tuple[Sock, Sock]:
        ana, watcher = await connect(match, jar["ana"]), await connect(match, jar["watcher"])
        await watcher.send({"t": "chat", "c": "spectators", "phrase": "good-game"})
        await ana.until(lambda f: f["t"] == "chat")
        await ana.send({"t": "chat-history"})
        history = await ana.until(lambda f: f["t"] == "chat-history")
        assert [m["phrase"] for m in history["d"]["messages"]] == ["good-game"]
        await ana.c.disconnect()
        await watcher.c.disconnect()
        return ana, watcher

    ana, _ = asyncio.run(scenario())
    assert ana.chats()[0]["c"] == "spectators"


def test_a_muted_seat_is_silent_for_the_player_who_muted_it() -> None:
    match = new_match()
    jar = cookies(PLAYERS)

    async def scenario() -> dict[str, Sock]:
        socks = {name: await connect(match, jar[name]) for name in PLAYERS}

        def mute() -> list[str]:
            who = service.speaker(Match.objects.get(pk=match.pk), User.objects.get(username="ana"))
            return service.mute(Match.objects.get(pk=match.pk), who, "beto", True)

        assert await database_sync_to_async(mute)() == ["beto"]
        await socks["beto"].send({"t": "chat", "c": "players", "text": "can you hear me"})
        await socks["caro"].until(chat_with("can you hear me"))
        await socks["caro"].send({"t": "chat", "c": "players", "text": "yes"})
        for sock in socks.values():
            await sock.until(chat_with("yes"))
        for sock in socks.values():
            await sock.c.disconnect()
        return socks

    socks = asyncio.run(scenario())
    assert [m["text"] for m in socks["ana"].chats()] == ["yes"]
    assert [m["text"] for m in socks["caro"].chats()] == ["can you hear me", "yes"]


def test_the_socket_refuses_past_the_rate_and_the_length_and_stores_nothing(settings: Any) -> None:
    settings.CACHO_RATES = {**settings.CACHO_RATES, "chat": "2/min"}
    match = new_match()
    jar = cookies(("ana",))

    async def scenario() -> list[dict[str, Any]]:
        ana = await connect(match, jar["ana"])
        acks = []
        for n, text in enumerate(["one", "x" * 281, "two", "three"]):
            await ana.send({"t": "chat", "id": f"m{n}", "c": "players", "text": text})
            acks.append(await ana.until(lambda f: f["t"] == "chat-ack"))
        await ana.send({"t": "chat", "c": "players", "text": "hi", "colour": "red"})
        acks.append(await ana.until(lambda f: f["t"] == "error"))
        await ana.c.disconnect()
        return acks

    acks = asyncio.run(scenario())
    assert [(a.get("ok"), a.get("code")) for a in acks] == [
        (True, None),
        (False, "chat-too-long"),
        (True, None),
        (False, "chat-rate-limited"),
        (None, "unknown-field"),
    ]
    assert acks[3]["retry_after"] >= 1
    assert list(ChatMessage.objects.values_list("text", flat=True).order_by("pk")) == ["one", "two"]


# ---------------------------------------------------------------- hidden dice

SPEAKERS = (*PLAYERS, "watcher")
words = st.one_of(
    st.sampled_from(sorted(phrases.phrases())).map(lambda key: {"phrase": key}),
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40)
    .filter(str.strip)
    .map(lambda text: {"text": text}),
)


def dice_shown(frame: dict[str, Any]) -> set[str]:
    if frame.get("t") == "round_started":
        return set(frame["d"]["dice"])
    if frame.get("t") == "state" and frame["d"]["state"].get("round"):
        return set(frame["d"]["state"]["round"]["dice"])
    return set()


@hypothesis_settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    script=st.lists(st.tuples(st.sampled_from(SPEAKERS), words), min_size=1, max_size=6),
    seed=st.integers(0, 99),
)
def test_chat_frames_carry_what_was_written_and_nothing_hidden(script: list[Any], seed: int) -> None:
    """Chat interleaved with moves: every chat frame is exactly the message as written (its
    seven fields), no frame shows a player another seat's dice, no unrevealed seed appears
    in any frame, and no seated player receives a spectators' message while the table plays."""
    from cacho.edge.limits import clear

    clear()
    rng = random.Random(seed)
    match = new_match()
    jar = cookies(SPEAKERS)

    def move() -> None:
        state = state_of(Match.objects.get(pk=match.pk))
        if state.phase != "over":
            player, command = legal_bidding_move(state, rng)
            matches.submit(match.pk, player, command, f"m{rng.random()}", None)

    def secrets() -> list[str]:
        return list(DiceSeed.objects.filter(match=match, revealed=False).values_list("seed", flat=True))

    async def scenario() -> tuple[dict[str, Sock], list[str]]:
        socks = {name: await connect(match, jar[name]) for name in SPEAKERS}
        seen_secrets: list[str] = []
        for n, (name, body) in enumerate(script):
            channel = "spectators" if name == "watcher" else "players"
            await socks[name].send({"t": "chat", "id": f"s{n}", "c": channel, **body})
            ack = await socks[name].until(lambda f: f["t"] == "chat-ack")
            assert ack["ok"], ack
            await database_sync_to_async(move)()
            seen_secrets += await database_sync_to_async(secrets)()
        await socks["ana"].send({"t": "chat", "c": "players", "text": "sentinel"})
        for sock in socks.values():
            await sock.until(chat_with("sentinel"))
        for sock in socks.values():
            await sock.c.disconnect()
        return socks, seen_secrets

    socks, seen_secrets = asyncio.run(scenario())
    written = [(name, body) for name, body in script]
    for name, sock in socks.items():
        me = name if name in PLAYERS else None
        for frame in sock.frames:
            assert dice_shown(frame) <= ({me} if me else set()), frame
            if frame["t"] == "chat":
                assert set(frame) == {"t", "d"} and set(frame["d"]) == MESSAGE_KEYS, frame
                text = json.dumps(frame)
                assert not any(secret in text for secret in seen_secrets)
                if me is not None:
                    assert frame["d"]["c"] == "players", (name, frame)
        chats = [m for m in sock.chats() if m["text"] != "sentinel"]
        expected = [
            (who, body)
            for who, body in written
            if me is None or who != "watcher"  # the players never get the gallery during play
        ]
        assert len(chats) == len(expected)
        for message, (who, body) in zip(chats, expected, strict=True):
            assert message["author"] == who
            assert (message["phrase"], message["text"]) == (body.get("phrase"), body.get("text", "").strip())
