"""The synchronous side of the match socket: who is connecting and what they may see (the
commands they send go through cacho.live.commands)."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

import orjson
from django.conf import settings
from django.utils import timezone

from cacho.engine.games import Game, game_for
from cacho.engine.viewer import Viewer
from cacho.eventlog.store import Head, read_stream
from cacho.live import presence_log
from cacho.live.models import LiveConnection
from cacho.models import Match
from cacho.process.lru import LRU
from cacho.services import match_reads, matches, referees, seat_holders
from cacho.services.presentation import (
    event_json,
    fixed_fields,
    frame_from_wire,
    match_document,
    seats_json,
)

# Further behind than this, a client gets a full state instead of the events it missed
# (`CACHO_LIVE_CATCH_UP_EVENTS`): what a resync costs is bounded whatever the match's length.
CATCH_UP_LIMIT = 20


def catch_up_limit() -> int:
    return int(getattr(settings, "CACHO_LIVE_CATCH_UP_EVENTS", CATCH_UP_LIMIT))


@dataclass(frozen=True)
class Connection:
    match_id: str
    viewer: Viewer
    seat: str | None
    user_id: int | None
    game: Game
    # The state when the socket opened: what `view_event` needs of it (the seats) never changes.
    seating: Any
    fixed: dict[str, Any]  # the match document's fields that never change


def dumps(frame: dict[str, Any]) -> str:
    """A frame as compact JSON text. orjson writes a player's state frame (2 KB) about
    seven times as fast as the standard encoder (bench/engine.py); what it refuses (a lone
    surrogate, an integer past 64 bits) the standard encoder writes, the same text."""
    try:
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


def _match(match_id: str) -> Match | None:
    try:
        key = uuid.UUID(str(match_id))
    except ValueError:
        return None
    return match_reads.match(key)


def viewer_of(match: Match, user: Any, session: Any = None) -> tuple[Viewer, str | None]:
    """Seated: that player (by account, or by a seat the browser's session holds:
    `cacho.services.seat_holders`); otherwise the match's referees
    (`cacho.services.referees`) see every die; everyone else is a spectator."""
    if user is not None and getattr(user, "is_authenticated", False):
        seat = matches.seat_of_user(match, user)
        if seat is not None:
            return Viewer.of_player(seat.name), seat.name
    held = seat_holders.session_seat(match.pk, session)
    if held is not None:
        return Viewer.of_player(held), held
    if user is None or not getattr(user, "is_authenticated", False):
        return Viewer.spectator(), None
    if referees.referees(match.pk, user):
        return Viewer.referee(), None
    return Viewer.spectator(), None


def open_connection(match_id: str, user: Any, channel_name: str, session: Any = None) -> Connection | None:
    match = _match(match_id)
    if match is None:
        return None
    viewer, seat = viewer_of(match, user, session)
    user_id = user.pk if user is not None and getattr(user, "is_authenticated", False) else None
    LiveConnection.objects.update_or_create(
        channel_name=channel_name, defaults={"match": match, "seat_name": seat or "", "user_id": user_id}
    )
    game = game_for(match.ruleset)
    state = matches.load_state(match, game)
    return Connection(str(match.pk), viewer, seat, user_id, game, state, fixed_fields(match))


def close_connection(channel_name: str) -> None:
    LiveConnection.objects.filter(channel_name=channel_name).delete()


def touch_connection(channel_name: str) -> None:
    LiveConnection.objects.filter(channel_name=channel_name).update(last_seen=timezone.now())


def presence(match_id: str) -> dict[str, Any]:
    rows = LiveConnection.objects.filter(match_id=match_id).values_list("seat_name", flat=True)
    seats = sorted({name for name in rows if name})
    return {"players": seats, "spectators": sum(1 for name in rows if not name)}


def seat_presence_changed(match_id: str) -> dict[str, Any]:
    """The presence after a seated player's socket opened or closed, its change to be
    recorded durably (`presence_log`, off this thread)."""
    now = presence(match_id)
    presence_log.note(match_id, now["players"], timezone.now())
    return now


def state_frame(
    match_id: str, connection: Connection, seats: list[dict[str, Any]] | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the state frame, the seats) read from the store: one query when the socket has the
    seats (they change only when someone takes a seat, which the group is told)."""
    match = match_reads.match(uuid.UUID(str(match_id)))
    if match is None:
        raise Match.DoesNotExist(match_id)
    if seats is None:
        seats = seats_json(match, connection.user_id)
    return cached_state_frame(connection, match, matches.load_state(match, connection.game), seats), seats


def cached_state_frame(
    connection: Connection, row: Match | Head, state: Any, seats: list[dict[str, Any]]
) -> dict[str, Any]:
    """A state frame from a match row (or a cached head) and its state at the same version
    (no database)."""
    view = connection.game.view(state, connection.viewer)
    shown = match_document(connection.fixed, row, seats, connection.viewer, view)
    return {"t": "state", "v": row.version, "d": shown}


def state_text(
    connection: Connection, head: Match | Head, state: Any, seats: list[dict[str, Any]], seats_key: str
) -> str:
    """`cached_state_frame` serialised. A viewer who is no player (a spectator, a referee)
    sees what every other such viewer of its kind sees: one text per process and version
    for all of them (`seats_key`: the seats as shown, serialised), where each of a watched
    table's spectators asking after an event cost a view and its serialisation."""
    if connection.viewer.player is not None:
        return dumps(cached_state_frame(connection, head, state, seats))
    key = (connection.match_id, head.version, head.last_hash, connection.viewer.kind, seats_key)
    text = SHARED_STATES.get(key)
    if text is None:
        text = dumps(cached_state_frame(connection, head, state, seats))
        SHARED_STATES.put(key, text)
    return text


def frames_after(
    match_id: str, connection: Connection, after: int
) -> tuple[list[dict[str, Any]] | None, int]:
    """The events after `after` as this viewer may see them (None: too many, send a state)."""
    match = Match.objects.get(pk=match_id)
    if match.version <= after:
        return [], after
    if match.version - after > catch_up_limit():
        return None, match.version
    game = game_for(match.ruleset)
    state = matches.load_state(match, game)
    events = read_stream(match.pk, after=after)
    return [event_json(event, game, state, connection.viewer) for event in events], events[-1].version


def uses_state(connection: Connection, views: bool) -> bool:
    """Whether `frames_from_wire` may put a view in a frame for this socket (a player's, or
    one that asked for views): only then need its caller look up the state after the events."""
    return views or connection.viewer.player is not None


def frames_from_wire(
    connection: Connection,
    wire: list[dict[str, Any]],
    state: Any = None,
    head: Head | None = None,
    views: bool = False,
) -> list[str]:
    """The events of a notice as this viewer may see them, serialised (pure: no database).

    Each event's spectator frame is built and serialised once per process; every spectator
    receives that text, and so does a player whose cut of the event is the same (a bid,
    most of a match): only a player shown something of their own (their dice) gets a text
    of their own. Referees (every die) share one text per event as well.

    `state`, `head`: the match's state and head after the last event, when the caller has
    them. The last frame then carries the view after it as `state`, with the head's
    `status` and `deadline` (what a state frame's `d` holds under those names, the seats
    aside), for the player it puts on turn, and with `views` (the socket asked for them:
    the match page) for every player and for a spectator, one text per process for all
    spectators: none of them needs a state request (the match page asks for one only
    after a frame that has none: a referee's, a catch-up's)."""
    viewer = connection.viewer
    out = []
    last = wire[-1] if wire else None
    for item in wire:
        public = _public_frame(connection, item)
        if (
            item is last
            and state is not None
            and viewer.player is not None
            and (views or item["public"].get("to_act") == viewer.player)
        ):
            shown = connection.game.view_event(public.event, connection.seating, viewer)
            view = connection.game.view(state, viewer)
            frame = {**public.frame, "d": shown, "state": view}
            if head is not None:
                frame.update(status=head.status, deadline=head.deadline_ms)
            out.append(dumps(frame))
            continue
        if viewer.player is None and viewer.kind == SPECTATOR.kind:
            current = views and item is last and state is not None and head is not None
            out.append(
                _spectator_text_with_state(connection, public, item, state, head) if current else public.text
            )
            continue
        if viewer.player is None:  # a referee
            key = (connection.match_id, item["v"], item["hash"], viewer.kind)
            text = SHARED_FRAMES.get(key)
            if text is None:
                text = _text_for(connection, public, viewer)
                SHARED_FRAMES.put(key, text)
            out.append(text)
            continue
        out.append(_text_for(connection, public, viewer))
    return out


def _spectator_text_with_state(
    connection: Connection, public: PublicFrame, item: dict[str, Any], state: Any, head: Any
) -> str:
    key = (connection.match_id, item["v"], item["hash"], "spectator+state")
    text = SHARED_FRAMES.get(key)
    if text is None:
        view = connection.game.view(state, SPECTATOR)
        text = dumps({**public.frame, "state": view, "status": head.status, "deadline": head.deadline_ms})
        SHARED_FRAMES.put(key, text)
    return text


@dataclass(frozen=True, slots=True)
class PublicFrame:
    event: Any  # the engine's event
    frame: dict[str, Any]  # as a spectator receives it
    text: str  # that frame serialised


SPECTATOR = Viewer.spectator()


def _public_frame(connection: Connection, item: dict[str, Any]) -> PublicFrame:
    # The event's hash in the key: never a stale frame.
    key = (connection.match_id, item["v"], item["hash"])
    public = PUBLIC_FRAMES.get(key)
    if public is None:
        event = connection.game.event_from_dict({"type": item["t"], **item["payload"]})
        frame = frame_from_wire(item, connection.game, connection.seating, SPECTATOR, event)
        public = PublicFrame(event, frame, dumps(frame))
        PUBLIC_FRAMES.put(key, public)
    return public


def _text_for(connection: Connection, public: PublicFrame, viewer: Viewer) -> str:
    shown = connection.game.view_event(public.event, connection.seating, viewer)
    if shown == public.frame["d"]:
        return public.text  # nothing hidden from the public in it: the public text
    return dumps({**public.frame, "d": shown})


PUBLIC_FRAMES: LRU[tuple[Any, ...], PublicFrame] = LRU(4096)
# Serialised frames shared by a process's referees.
SHARED_FRAMES: LRU[tuple[Any, ...], str] = LRU(4096)
# Serialised state frames shared by a process's spectators, and by its referees.
SHARED_STATES: LRU[tuple[Any, ...], str] = LRU(1024)
