"""How a match and its events are shown to one viewer: shared by the REST API and the
websocket consumer. State and events leave only through the game's `view`/`view_event`;
fairness metadata is reduced to its public part (commitments; seeds once revealed)."""

from __future__ import annotations

from typing import Any

from cacho.engine.games import Game, game_for
from cacho.engine.viewer import Viewer
from cacho.eventlog.chain import micros
from cacho.eventlog.rows import StoredEvent
from cacho.eventlog.store import Head
from cacho.models import Match
from cacho.services import players
from cacho.services.state_cache import load_state


def seats_json(
    match: Match, user_id: Any = None, seated: players.Seating | None = None
) -> list[dict[str, Any]]:
    """The seats: `name` as the events know it, `label` as the pages show it (resolved
    outside the chain, `services.players`), `deleted` the number of a deleted player (the
    pages say "deleted player N" in their own language), `player` the holder's name. A
    seat played by a pair or team has `members`, in turn order, each `{name, label,
    deleted}` alike: `name` as the events know it (`turn.member`, `dice_thrown`).
    `seated`: the match's `players.seating`, when the caller has read it."""
    seated = seated if seated is not None else players.seating(match)
    seats = seated.seats
    accounts = players.players_by_user(seated.users())
    shown = players.seat_players(seats, accounts)
    game = game_for(match.ruleset)
    teams = game.seat_members(load_state(match, game)) if game.traits.team_seats else {}
    members = players.member_players(seated, accounts) if teams else {}
    rows = []
    for seat in seats:
        player = shown[(str(seat.match_id), seat.name)]
        label = seat.name if player is None else players.label_of(player, seat.label)
        deleted = player is not None and player.deleted_at is not None
        rows.append(
            {
                "index": seat.index,
                "name": seat.name,
                "label": label,
                "deleted": player.pk if player is not None and deleted else None,
                # a deleted account's seat is shown by its label, never by the row left behind
                "player": label if deleted else _username(seat),
                "you": user_id is not None and seat.user_id == user_id,
                "bot": seat.bot or None,  # a bot's strength: a bot plays this seat
            }
        )
        if seat.name in teams:
            named = {p.public_id: p for p in members.get(seat.index, [])}
            rows[-1]["members"] = [_member_json(name, named.get(name)) for name in teams[seat.name]]
    return rows


def _member_json(name: str, player: Any) -> dict[str, Any]:
    """A member named by the player id of an account playing its seat is shown as that
    player; any other name (a guest's, or a name an older match gave) as itself."""
    if player is None:
        return {"name": name, "label": name, "deleted": None}
    deleted = player.deleted_at is not None or player.user is None
    return {"name": name, "label": players.label_of(player), "deleted": player.pk if deleted else None}


def _username(seat: Any) -> str | None:
    return None if seat.user is None else str(seat.user.get_username())


def match_json(
    match: Match, viewer: Viewer, user_id: Any = None, seats: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The match as `viewer` may see it (`seats`: `seats_json` of it, when the caller has them)."""
    game = game_for(match.ruleset)
    state = load_state(match, game)
    seats = seats if seats is not None else seats_json(match, user_id)
    return match_document(fixed_fields(match), match, seats, viewer, game.view(state, viewer))


def fixed_fields(match: Match) -> dict[str, Any]:
    """What a match document holds that never changes once the match exists."""
    return {
        "id": str(match.pk),
        "game": match.game,
        "traits": game_for(match.ruleset).traits.as_json(),
        "ruleset": match.ruleset,
        "options": match.options,
        "options_hash": match.options_hash,
        "turn_seconds": match.turn_seconds,
        "imported": match.imported,
    }


def match_document(
    fixed: dict[str, Any],
    head: Match | Head,
    seats: list[dict[str, Any]],
    viewer: Viewer,
    view: dict[str, Any],
) -> dict[str, Any]:
    """The one shape of a match shown to a viewer, from its fixed fields and its row at
    the version shown (REST, or a socket's state from the store or from the process's
    cache of the match)."""
    return {
        "id": fixed["id"],
        "game": fixed["game"],
        # what the pages draw differently for this game (cacho.engine.traits): they never
        # branch on its name
        "traits": fixed["traits"],
        "ruleset": fixed["ruleset"],
        "options": fixed["options"],
        "options_hash": fixed["options_hash"],
        "status": head.status,
        "version": head.version,
        "turn_seconds": fixed["turn_seconds"],
        "deadline": head.deadline_ms,
        "imported": fixed["imported"],
        "seats": seats,
        "viewer": {"kind": viewer.kind, "player": viewer.player},
        "state": view,
    }


def fairness_json(metadata: dict[str, Any]) -> dict[str, Any] | None:
    """The public fairness data of an event: commitments always, seeds only once revealed."""
    out: dict[str, Any] = {}
    dice = metadata.get("dice")
    if isinstance(dice, dict):
        out["commit"] = {key: dice[key] for key in ("scope", "commitment", "offset", "count") if key in dice}
    reveal = metadata.get("reveal")
    if isinstance(reveal, dict):
        out["reveal"] = {key: reveal[key] for key in ("scope", "seed", "commitment") if key in reveal}
    return out or None


def wire_event(event: StoredEvent) -> dict[str, Any]:
    """A stored event reduced to what may travel to any process: its payload (cut per viewer
    before it reaches a client) and the public part of its metadata. Never a secret seed."""
    public = {key: event.metadata[key] for key in ("deadline", "to_act") if key in event.metadata}
    fairness = fairness_json(event.metadata)
    if fairness is not None:
        public["fairness"] = fairness
    return {
        "v": event.version,
        "t": event.type,
        "payload": event.payload,
        "public": public,
        "at": micros(event.recorded_at) // 1000,
        "hash": event.hash,
    }


def frame_from_wire(
    wire: dict[str, Any], game: Game, state: Any, viewer: Viewer, engine_event: Any = None
) -> dict[str, Any]:
    """`{"v", "t", "d", ...}`: one event as `viewer` may receive it (`d` from the game's
    view_event; `engine_event`: the wire's event as the engine's, when the caller has it)."""
    if engine_event is None:
        engine_event = game.event_from_dict({"type": wire["t"], **wire["payload"]})
    public = wire["public"]
    frame: dict[str, Any] = {
        "v": wire["v"],
        "t": wire["t"],
        "d": game.view_event(engine_event, state, viewer),
        "at": wire["at"],
        "hash": wire["hash"],
        "fairness": public.get("fairness"),
    }
    for key in ("to_act", "deadline"):
        if key in public:
            frame[key] = public[key]
    return frame


def event_json(event: StoredEvent, game: Game, state: Any, viewer: Viewer) -> dict[str, Any]:
    """One stored event as `viewer` may receive it."""
    return frame_from_wire(wire_event(event), game, state, viewer)
