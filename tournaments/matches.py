"""The one module of `tournaments` that talks to the match server (`cacho`).

Everything the competition layer needs from a match goes through here: create the
match of a table (`create_table_match`), read a finished match's result from its
event stream (`match_result`, one line per seat, by the seat's index in the match),
forfeit what a withdrawn entry has left (`forfeit_seat`), and play bots (`bot_move`).
Seats are known by their index in the match: the names a match shows are labels fixed
when it was created. When `cacho` changes shape, this is the file to fix. The dependency
points one way: `cacho` never imports `tournaments`.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cacho.engine.errors import RuleError
from cacho.engine.games import game_for
from cacho.engine.round_facts import RoundFacts
from cacho.eventlog.store import read_stream
from cacho.models import Event, Match, MatchSummary, Seat
from cacho.services import matches as match_service
from cacho.services import players
from cacho.services.bot_play import mark_bots


def game_of(ruleset: str) -> str:
    """ "dudo" or "alalay" for a ruleset; RuleError `unknown-ruleset` otherwise."""
    return game_for(ruleset).name


def traits(ruleset: str) -> dict[str, Any]:
    """What the pages draw differently for this ruleset's game (`cacho.engine.traits`)."""
    return game_for(ruleset).traits.as_json()


def option_specs(ruleset: str) -> tuple[Any, ...]:
    """The options of a ruleset, from the engine (name, values, default)."""
    return game_for(ruleset).options(ruleset)


def rulesets() -> dict[str, tuple[str, ...]]:
    from cacho.engine.games import GAMES

    return {name: game.rulesets() for name, game in GAMES.items()}


def create_table_match(
    ruleset: str,
    seat_names: Sequence[str],
    users: Sequence[Any],
    *,
    options: dict[str, Any],
    turn_seconds: int,
    ref: str,
    physical: bool = False,
    members: Sequence[Sequence[tuple[str, Any]]] = (),
    partners: Sequence[Sequence[Any]] = (),
) -> uuid.UUID:
    """A live match for a table; `seat_names[0]` opens. Users (or None) take their seats.
    `physical`: its scorekeeper enters it (no die rolled, no clock). `members`: per seat,
    the players of a pair or team, in the order they take its turns, each a name with its
    account (None: a guest); `partners`: per seat, the other accounts among them, which
    play the seat too.

    An online table seats an account by its player id, never by the entry's name, and
    names a member with an account by its player id too (its events then name no person;
    the match document shows their labels, `cacho.services.players`); a guest keeps its
    name. A physical table's seats and members are the names its paper sheet and record
    file carry (docs/leaving.md)."""
    labels: dict[int, str] = {}
    if not physical:
        held = enumerate(zip(seat_names, users, strict=True))
        labels = {index: name for index, (name, user) in held if user is not None}
        seat_names = [
            name if user is None else players.seat_name(user)
            for name, user in zip(seat_names, users, strict=True)
        ]
    member_names = [
        [name if physical or user is None else players.seat_name(user) for name, user in seat]
        for seat in members
    ]
    match = match_service.create_match(
        ruleset,
        list(seat_names),
        options=options,
        turn_seconds=turn_seconds,
        first_seat=0,
        tournament_ref=ref,
        physical=physical,
        members=member_names,
    )
    for index, user in enumerate(users):
        if user is not None:
            match_service.take_seat(match.pk, index, user)
    match_service.add_partners(match.pk, dict(enumerate(partners)))
    players.label_seats(match.pk, labels)  # pages show the entry's name (a team's) beside its id
    return match.pk


def player_id(user: Any) -> str:
    """The account's pseudonymous player id (`p7`): what matches and the tournament log
    name it by (docs/leaving.md)."""
    return players.seat_name(user)


def time_policies(ruleset: str) -> tuple[str, ...]:
    """The policies that decide a table of this ruleset at time, its default first
    (docs/rules.md §9.1)."""
    return game_for(ruleset).time_policies


def call_time(match_id: Any, policy: str, *, director: str, reason: str, command_id: str) -> int:
    """Call time on the match (an engine event of its stream, the director as its actor):
    a table still playing plays on as `policy` says, then ends. The match's version after
    it; RuleError (`time-already-called`, `ruling-match-over`) leaves the stream as it was."""
    ruling = {"kind": "call-time", "policy": policy}
    result = match_service.rule(match_id, ruling, referee=director, reason=reason, command_id=command_id)
    return int(result.version)


def team_seats(ruleset: str) -> bool:
    """Whether a seat of this ruleset's game may be a pair or a team (`Traits.team_seats`)."""
    return game_for(ruleset).traits.team_seats


def check_setup(ruleset: str, options: dict[str, Any], table_size: int, turn_seconds: int) -> None:
    """Raise RuleError when the engine refuses these rules for a table of `table_size`."""
    game = game_for(ruleset)
    names = [f"p{i}" for i in range(table_size)]
    game.start(ruleset, options, names, 0, turn_seconds)


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class SeatResult:
    """A seat's line in a finished match's result, as the engine decides it."""

    seat: int  # the seat's index in the match
    placement: int
    dice_left: int = 0
    eliminations: int = 0
    alalay_total: int | None = None
    instant_win: bool = False
    at_time: bool = False  # decided at time (docs/rules.md §9.1), not played to its end
    left: bool = False  # the seat abandoned the match (not in `as_dict`: tables keep their lines)

    def as_dict(self) -> dict[str, Any]:
        line = {
            "placement": self.placement,
            "dice_left": self.dice_left,
            "eliminations": self.eliminations,
            "alalay_total": self.alalay_total,
            "instant_win": self.instant_win,
        }
        if self.at_time:  # only then: the lines of every other table stay as they were
            line["at_time"] = True
        return line


@dataclass
class MatchOutcome:
    over: bool
    results: list[SeatResult] = field(default_factory=list)
    last_version: int = 0


def match_result(match_id: Any) -> MatchOutcome:
    """The result of a match read from its event stream (`Game.results`: placements, 1 is
    the winner, shared placements for players out at the same moment), or `over=False`
    while it is live."""
    match = Match.objects.get(pk=match_id)
    game = game_for(match.ruleset)
    rows = read_stream(match_id)
    if not rows:
        return MatchOutcome(False)
    events = [game.event_from_dict({"type": e.type, **e.payload}) for e in rows]
    if not game.is_over(game.replay(events)):
        return MatchOutcome(False, last_version=rows[-1].version)
    results = [
        SeatResult(
            r.seat,
            r.placement,
            dice_left=r.dice_left,
            eliminations=r.eliminations,
            alalay_total=r.alalay_total,
            instant_win=r.instant_win,
            at_time=r.at_time,
            left=r.left,
        )
        for r in game.results(events)
    ]
    return MatchOutcome(True, results, rows[-1].version)


def finished_among(match_ids: Sequence[Any]) -> list[Any]:
    """The ids of the finished matches among `match_ids`."""
    return list(
        Match.objects.filter(pk__in=match_ids, status=Match.STATUS_FINISHED).values_list("pk", flat=True)
    )


def finish_times(match_ids: Sequence[Any]) -> list[Any]:
    """When each finished match among `match_ids` ended (the metrics' standings lag)."""
    return list(
        Match.objects.filter(pk__in=match_ids, status=Match.STATUS_FINISHED).values_list(
            "finished_at", flat=True
        )
    )


def verified_matches() -> Iterator[tuple[Any, int, dict[str, Any]]]:
    """Every match's (id, head version, `verify_match` report), oldest first (the restore check)."""
    from cacho.services.verify import verify_match

    for match in Match.objects.order_by("created_at", "pk").iterator():
        yield match.pk, match.version, verify_match(match)


def event_hash(match_id: Any, version: int | None) -> str | None:
    """The chain hash of a match's event at `version` (None: no match, no such event)."""
    if match_id is None or not version:
        return None
    found = Event.objects.filter(stream_id=match_id, version=version).values_list("hash", flat=True).first()
    return str(found) if found is not None else None


def match_summaries() -> dict[str, tuple[Any, ...]]:
    """Each match's summary projection: (version, status, winners, scores), by match id."""
    rows = MatchSummary.objects.values_list("match_id", "version", "status", "winners", "scores")
    return {str(row[0]): tuple(row[1:]) for row in rows}


def rebuild_match_projection(match_id: Any) -> None:
    """A match's projections (summary, live table) replaced with what its events say."""
    from cacho.eventlog import projections

    projections.rebuild(Match.objects.get(pk=match_id))


def match_events(match_id: Any) -> list[Event]:
    return read_stream(match_id)


# ---------------------------------------------------------------- disputes and rulings


@dataclass(frozen=True)
class MatchInfo:
    """What a dispute's pin is checked against: the match's rounds or turns so far (from
    its record) and its last version, and when it ended."""

    version: int
    rounds: int
    turns: int
    finished_at: Any


def match_info(match_id: Any) -> MatchInfo:
    """Reads the whole stream (filing a dispute); `seat_users` and `ended_at` are cheap."""
    match = Match.objects.get(pk=match_id)
    game = game_for(match.ruleset)
    rows = read_stream(match_id)
    record = game.write_record([game.event_from_dict({"type": e.type, **e.payload}) for e in rows])
    return MatchInfo(
        match.version,
        len(record.get("rounds") or ()),
        # An Alalay record lists the finished turns; a live match has one more in play.
        len(record.get("turns") or ())
        + (1 if "turns" in record and match.status == Match.STATUS_LIVE else 0),
        ended_at(match_id),
    )


def seat_users(match_id: Any) -> set[Any]:
    """The users seated in the match."""
    return set(Seat.objects.filter(match_id=match_id, user__isnull=False).values_list("user_id", flat=True))


def ended_at(match_id: Any) -> Any:
    """When a finished match ended (its last event), or None while it is live."""
    if not Match.objects.filter(pk=match_id, status=Match.STATUS_FINISHED).exists():
        return None
    last = Event.objects.filter(stream_id=match_id).order_by("-version").values_list("recorded_at", flat=True)
    return last.first()


def match_exists(match_id: Any) -> bool:
    return Match.objects.filter(pk=match_id).exists()


def seat_names(match_id: Any) -> list[str]:
    return list(Seat.objects.filter(match_id=match_id).order_by("index").values_list("name", flat=True))


def seat_name_and_user(match_id: Any, seat: int) -> tuple[str, Any] | None:
    """The name of seat `seat` of the match and the id of the account holding it (or None):
    a seat link seats a guest only where no account sits."""
    row = Seat.objects.filter(match_id=match_id, index=seat).values_list("name", "user_id").first()
    return None if row is None else (row[0], row[1])


def seated_by_account(match_ids: Sequence[Any]) -> set[tuple[str, int]]:
    """(match id, seat index) of every seat of these matches that an account holds."""
    held = Seat.objects.filter(match_id__in=list(match_ids), user__isnull=False)
    rows = held.values_list("match_id", "index")
    return {(str(match_id), index) for match_id, index in rows}


def rule_match(match_id: Any, ruling: dict[str, Any], *, referee: str, reason: str, command_id: str) -> int:
    """Apply a referee's ruling to the match (an engine event of its stream); the match's
    version after it. RuleError (an illegal ruling) leaves the stream as it was."""
    result = match_service.rule(match_id, ruling, referee=referee, reason=reason, command_id=command_id)
    return int(result.version)


# ---------------------------------------------------------------- integrity signals


@dataclass(frozen=True)
class PlayedMatch:
    """A finished match's round facts (the engine's), with what joins them to the stream:
    each event's version and recording time by its position, and the seats' users."""

    match_id: Any
    live_clock: bool  # played online: not a physical table's, not an imported record
    users: dict[str, Any]  # seat name -> user id (seats without an account left out)
    facts: tuple[RoundFacts, ...]
    versions: tuple[int, ...]
    recorded_at: tuple[Any, ...]


def played_matches(match_ids: Sequence[Any]) -> Iterator[PlayedMatch]:
    """The finished matches among `match_ids`, newest first, each read from its stream."""
    found = Match.objects.filter(pk__in=list(match_ids), status=Match.STATUS_FINISHED)
    for match in found.order_by("-finished_at"):
        game = game_for(match.ruleset)
        rows = read_stream(match.pk)
        events = [game.event_from_dict({"type": e.type, **e.payload}) for e in rows]
        facts = game.round_facts(events)
        seats = Seat.objects.filter(match=match, user__isnull=False).values_list("name", "user_id")
        yield PlayedMatch(
            match.pk,
            not match.imported and not any(f.physical for f in facts),
            dict(seats),
            facts,
            tuple(e.version for e in rows),
            tuple(e.recorded_at for e in rows),
        )


# ---------------------------------------------------------------- forfeits and bots


def _seat_name(match_id: Any, seat: int) -> str | None:
    return Seat.objects.filter(match_id=match_id, index=seat).values_list("name", flat=True).first()


def forfeit_seat(match_id: Any, seat: int, command_id: str) -> bool:
    """The player at seat `seat` leaves the match for good (an abandon); False when it
    cannot (the match is over or the seat has already left)."""
    name = _seat_name(match_id, seat)
    if name is None:
        return False
    try:
        match_service.submit(match_id, name, {"type": "abandon"}, command_id, actor="tournament")
    except (RuleError, match_service.VersionConflict, match_service.MatchNotFound):
        return False
    return True


def bot_move(match_id: Any, bots: Iterable[int], rng: random.Random, command_id: str) -> bool:
    """If a bot (by seat index) is on turn in this match, make it act through the write path."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.STATUS_LIVE:
        return False
    game = game_for(match.ruleset)
    state = match_service.load_state(match, game)
    seat = game.to_act(state)
    names = set(Seat.objects.filter(match=match, index__in=list(bots)).values_list("name", flat=True))
    if seat is None or seat not in names:
        return False
    payload = game.bot_payload(state, seat, rng)
    if payload is None:
        return False
    try:
        match_service.submit(match_id, seat, payload, command_id, expected_version=match.version)
    except match_service.VersionConflict:
        return False
    return True


# Events a match is created with (before anyone at the table has acted).
SETUP_EVENTS = ("match_started", "round_started")


def under_way_among(match_ids: Sequence[Any]) -> set[Any]:
    """The matches among `match_ids` in which something was played (an event beyond the
    setup), for the console's waiting / playing tables."""
    rows = Event.objects.filter(stream_id__in=list(match_ids)).exclude(type__in=SETUP_EVENTS)
    return set(rows.values_list("stream_id", flat=True).distinct())


# ---------------------------------------------------------------- physical tables


def enter(
    match_id: Any, payload: dict[str, Any], *, scorekeeper: str, command_id: str, expected_version: int | None
) -> int:
    """A scorekeeper's entry through the match's write path; the match's version after it.
    RuleError (illegal: nothing stored) and VersionConflict pass through."""
    result = match_service.enter(
        match_id, payload, scorekeeper=scorekeeper, command_id=command_id, expected_version=expected_version
    )
    return int(result.version)


def check_entry(match_id: Any, payload: dict[str, Any]) -> list[dict[str, Any]]:
    """What an entry would do now (the engine's events), storing nothing; RuleError if illegal."""
    return match_service.check_entry(match_id, payload)


def pause_match(match_id: Any, *, referee: str, reason: str, command_id: str) -> bool:
    """Stop a table's match for good where a new one replaces it (a `pause` ruling: no clock,
    no move); False when it is over or paused already."""
    try:
        match_service.rule(match_id, {"kind": "pause"}, referee=referee, reason=reason, command_id=command_id)
    except RuleError:
        return False
    return True


def import_table_record(record: Any, users: Sequence[Any], *, by: Any, ref: str) -> uuid.UUID:
    """A physical table's record stored as the table's match (RecordFormatError, RuleError
    when the engine refuses it); users (or None) take their seats."""
    match = match_service.import_record(
        record, created_by=by, actor=f"import:user:{getattr(by, 'pk', '')}", tournament_ref=ref
    )
    for index, user in enumerate(users):
        if user is not None:
            match_service.take_seat(match.pk, index, user)
    return match.pk


def record_seat_names(record: Any) -> list[str] | None:
    """The seats a record names, in the match's seat order (None: not a record's shape)."""
    if not isinstance(record, dict) or not isinstance(record.get("players"), list):
        return None
    return [str(name) for name in record["players"]]


@dataclass(frozen=True)
class Sheet:
    """A physical table's match as its scorekeeper works on it."""

    match: dict[str, Any]  # the match document, every die shown (the referee's view)
    options: dict[str, Any]  # what may be entered now (the engine's)
    record: dict[str, Any]  # the match so far as a record (undone entries left out)
    outcome: dict[str, Any]  # the record's replay: each round's or turn's result
    version: int
    over: bool
    undo: dict[str, Any] | None  # the last entry, when the scorekeeper may undo it


def sheet(match_id: Any) -> Sheet:
    from cacho.engine.viewer import Viewer
    from cacho.services.presentation import match_json
    from cacho.services.state_cache import engine_events

    match = Match.objects.get(pk=match_id)
    game = game_for(match.ruleset)
    state = match_service.load_state(match, game)
    record = game.write_record(engine_events(match, game))
    options = game.entry_options(state)
    undo = None
    if options.get("undo") and match_service.last_entry_is_scorekeepers(match_id, match.version):
        rows = read_stream(match_id, after=match.version - 2)
        entry = next(e for e in reversed(rows) if e.type != "match_ended")
        undo = {"version": entry.version, "type": entry.type, "payload": entry.payload}
    options["undo"] = undo is not None
    return Sheet(
        match=match_json(match, Viewer.referee()),
        options=options,
        record=record,
        outcome=game.replay_record(record),
        version=match.version,
        over=game.is_over(state),
        undo=undo,
    )


def match_version(match_id: Any) -> int:
    return int(Match.objects.filter(pk=match_id).values_list("version", flat=True).first() or 0)


# ---------------------------------------------------------------- ratings


def rating_key(match_id: Any) -> int | None:
    """A finished match's place in the ratings' order: the global position of its last
    event that is not a referee's (a ruling on a finished table keeps it where it was
    played; a reopened one moves to where it ends again). None for a match with no events."""
    rows = Event.objects.filter(stream_id=match_id).exclude(metadata__actor__startswith="referee:")
    return rows.order_by("-position").values_list("position", flat=True).first()


def rating_keys(match_ids: Sequence[Any]) -> dict[str, int]:
    """`rating_key` for many matches in one query (a rebuild), by match id."""
    from django.db.models import Max

    rows = (
        Event.objects.filter(stream_id__in=list(match_ids))
        .exclude(metadata__actor__startswith="referee:")
        .values("stream_id")
        .annotate(last=Max("position"))
    )
    return {str(row["stream_id"]): int(row["last"]) for row in rows}


def seat_users_of(match_ids: Sequence[Any]) -> dict[str, set[Any]]:
    """`seat_users` for many matches in one query, by match id."""
    found: dict[str, set[Any]] = {}
    rows = Seat.objects.filter(match_id__in=list(match_ids), user__isnull=False)
    for match_id, user_id in rows.values_list("match_id", "user_id"):
        found.setdefault(str(match_id), set()).add(user_id)
    return found


# ---------------------------------------------------------------- open tables


def bot_strengths(ruleset: str) -> tuple[str, ...]:
    """The strengths of the game's bots, the plainest first."""
    return game_for(ruleset).bot_strengths


def create_open_match(
    ruleset: str,
    seat_names: Sequence[str],
    users: Sequence[Any],
    bots: dict[int, str],
    *,
    options: dict[str, Any],
    turn_seconds: int,
    created_by: Any,
) -> uuid.UUID:
    """A casual match for an open table, its accounts seated by their player ids: users
    (or None) take their seats and bots of
    their strengths play the seats in `bots`, all in the caller's transaction (the bots
    must be known before the first commit's work runs). The opener is drawn."""
    names = [
        name if user is None else players.seat_name(user)
        for name, user in zip(seat_names, users, strict=True)
    ]
    match = match_service.create_match(
        ruleset, names, options=options, turn_seconds=turn_seconds, created_by=created_by
    )
    for index, user in enumerate(users):
        if user is not None:
            match_service.take_seat(match.pk, index, user)
    mark_bots(match.pk, bots)
    return match.pk


def seat_users_by_index(match_id: Any) -> dict[int, Any]:
    """Seat index -> the id of the account holding it."""
    rows = Seat.objects.filter(match_id=match_id, user__isnull=False).values_list("index", "user_id")
    return dict(rows)


def has_bots(match_id: Any) -> bool:
    return Seat.objects.filter(match_id=match_id).exclude(bot="").exists()


def match_status(match_id: Any) -> str | None:
    """The match's status, `live` or `finished` (None: no such match)."""
    return Match.objects.filter(pk=match_id).values_list("status", flat=True).first()


# ---------------------------------------------------------------- leaving


def live_matches_of(user: Any) -> list[str]:
    """The matches still played where the account plays a seat: its own, or a team's it
    partners."""
    seats = match_service.seats_of_user(user).filter(match__status=Match.STATUS_LIVE)
    return [str(match_id) for match_id in seats.values_list("match_id", flat=True)]


def forget_player(user: Any) -> int:
    """Mark the account's player deleted (`cacho.services.players`): from now on every
    seat it held shows as "deleted player N", N the number answered. No event changes."""
    return players.forget(user)


def seat_labels(seats: Sequence[Seat]) -> dict[tuple[str, str], str]:
    """(match id, seat name) -> the name shown for it (`cacho.services.players`)."""
    return players.labels_by_match(seats)


def player_deleted(user: Any) -> bool:
    return players.forgotten(user)


def deleted_player_label(number: int) -> str:
    return players.deleted_label(number)
