"""Hypothesis fuzz at the edges: random socket frames (to the parser, and to a seated
player's real consumer) and random match records (to the import API). Nothing may crash:
every frame gets an answer and the socket stays open, every record gets a 201 or a coded
400, and no stored event ever changes (the chain verifies, the old events are the same)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.routing import URLRouter
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cacho.live.protocol import FrameError, parse_client_frame
from cacho.models import Event, Match
from cacho.routing import websocket_urlpatterns
from cacho.services import matches
from cacho.services.verify import verify_match
from tests.cacho.test_api import RECORD, client_for, referee_ref  # noqa: F401  (a fixture)

# "keeper" may import records (the import check `referee_ref` configures).
pytestmark = pytest.mark.usefixtures("committed_db", "referee_ref")

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
commands = st.fixed_dictionaries(
    {"type": st.sampled_from(["bid", "dudo", "calza", "paso", "salpicon", "deny", "abandon", "x"])},
    optional={"quantity": values, "face": values, "direction": values, "extra": values},
)
frames = (
    st.one_of(
        st.builds(
            lambda i, d, v: {"t": "command", "id": i, "d": d, **({"v": v} if v is not None else {})},
            st.text(max_size=70),
            commands | values,
            st.none() | values,
        ),
        st.builds(lambda v: {"t": "sync", "v": v}, values),
        st.dictionaries(st.sampled_from(["t", "v", "id", "d", "x"]), values, max_size=4),
    ).map(lambda frame: json.dumps(frame))
    | st.text(max_size=200)
    | st.binary(max_size=50)
)


@FUZZ
@given(frames)
def test_the_frame_parser_refuses_with_a_code_or_parses(text: Any) -> None:
    try:
        parse_client_frame(text if isinstance(text, str) else None)
    except FrameError as error:
        assert error.code and error.message


def stored(match_id: Any) -> list[tuple[int, str]]:
    return list(Event.objects.filter(stream_id=match_id).order_by("version").values_list("version", "hash"))


def test_random_frames_to_a_players_socket_never_drop_it_nor_change_a_stored_event(settings: Any) -> None:
    from django.contrib.auth import get_user_model

    settings.CACHO_LIVE_FRAME_RATE, settings.CACHO_LIVE_FRAME_BURST = 1e6, 1e6  # every frame is handled
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    ana = get_user_model().objects.create_user("ana")
    matches.take_seat(match.pk, 0, ana)
    loop = asyncio.new_event_loop()
    scope = {"type": "websocket", "path": f"/ws/matches/{match.pk}/", "headers": [], "user": ana}
    communicator = ApplicationCommunicator(URLRouter(websocket_urlpatterns), scope)

    async def receive() -> dict[str, Any]:
        message = await communicator.receive_output(10)
        assert message["type"] == "websocket.send", message
        return json.loads(message["text"])  # type: ignore[no-any-return]

    async def connect() -> dict[str, Any]:
        await communicator.send_input({"type": "websocket.connect"})
        assert (await communicator.receive_output(10))["type"] == "websocket.accept"
        return await receive()

    assert loop.run_until_complete(connect())["t"] == "state"
    history: list[list[tuple[int, str]]] = [stored(match.pk)]

    async def exchange(frame: Any) -> list[dict[str, Any]]:
        key = "bytes" if isinstance(frame, bytes) else "text"
        await communicator.send_input({"type": "websocket.receive", key: frame})
        await communicator.send_input({"type": "websocket.receive", "text": '{"t": "ping"}'})
        answers = []
        while (answer := await receive()).get("t") != "pong":
            answers.append(answer)
        return answers

    @FUZZ
    @given(frames)
    def one(frame: Any) -> None:
        answers = loop.run_until_complete(exchange(frame))
        # Every frame has an answer (an error, an ack, events, a state), but a valid `sync`
        # from a socket that has everything: there is nothing to send.
        assert answers or json.loads(frame).get("t") == "sync", frame
        for answer in answers:
            assert answer.get("t") != "error" or answer["code"] != "server-error", (frame, answer)
        now = stored(match.pk)
        assert now[: len(history[-1])] == history[-1]  # appended to, never changed
        history.append(now)

    try:
        one()
    finally:
        loop.run_until_complete(communicator.send_input({"type": "websocket.disconnect", "code": 1000}))
        loop.run_until_complete(communicator.wait(10))
        loop.close()
    assert verify_match(Match.objects.get(pk=match.pk))["valid"]


def mutate(record: Any, path: list[Any], value: Any, drop: bool) -> Any:
    """The record with the value at `path` (as far as it leads) replaced, or dropped."""
    copy = json.loads(json.dumps(record))
    node = copy
    for step in path[:-1]:
        if isinstance(node, dict) and node:
            node = node[sorted(node)[step % len(node)]]
        elif isinstance(node, list) and node:
            node = node[step % len(node)]
    last = path[-1]
    if isinstance(node, dict) and node:
        key = sorted(node)[last % len(node)]
        if drop:
            del node[key]
        else:
            node[key] = value
    elif isinstance(node, list) and node:
        if drop:
            node.pop(last % len(node))
        else:
            node[last % len(node)] = value
    return copy


@FUZZ
@given(st.lists(st.integers(0, 20), min_size=1, max_size=6), values, st.booleans())
@example(path=[0], value=float("inf"), drop=False)  # sent as `Infinity`
@example(path=[1], value=float("nan"), drop=False)  # sent as `NaN`
def test_random_records_are_imported_or_refused_with_a_code(path: list[int], value: Any, drop: bool) -> None:
    kept = Match.objects.first() or matches.import_record(RECORD)
    before = stored(kept.pk)
    record = mutate(RECORD, path, value, drop)
    # Encoded here, not by the client: Python's JSON writes an infinite or NaN float as
    # `Infinity` or `NaN`, which the client refuses to send and the server must refuse.
    body_text = json.dumps(record)
    response = client_for("keeper").post("/api/matches/import", body_text, content_type="application/json")
    assert response.status_code in (201, 400), (record, response.status_code, response.content[:300])
    body = response.json()
    if response.status_code == 400:
        assert isinstance(body["code"], str) and body["code"] and isinstance(body["message"], str)
    else:
        assert verify_match(Match.objects.get(pk=body["id"]))["valid"]
    assert stored(kept.pk) == before
