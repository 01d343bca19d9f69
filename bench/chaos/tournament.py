"""The chaos bench's tournament: a Swiss of entries with accounts, its rounds' tables as the
bots find them, and the checks made once it is over (bench/chaos)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass


@dataclass
class Swiss:
    id: int
    owner: int  # the organiser's user id
    cookies: dict[int, str]  # a session cookie per entry
    keeper: str  # the scorekeeper's session cookie


def session(user: object) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def make_swiss(entries: int, rounds: int, turn_seconds: int, prefix: str) -> Swiss:
    """A Swiss of `entries` players at tables of 4 to 6, started, and a scorekeeper of its club."""
    from django.contrib.auth import get_user_model

    from tournaments.clubs.members import create_club
    from tournaments.models import Membership
    from tournaments.services import create_tournament, register, start_tournament

    users = get_user_model().objects
    owner = users.create_user(f"{prefix}-owner")
    club = create_club(f"Club {prefix}", f"club-{prefix}", owner)
    stage = {"name": "swiss", "format": "swiss", "params": {"rounds": rounds, "table_size": 6, "min_size": 4}}
    tournament = create_tournament(
        club.pk,
        owner,
        name=f"Chaos {prefix}",
        ruleset="dudo",
        turn_seconds=turn_seconds,
        stages=[stage],
        round_appeal_minutes=0,
        appeal_minutes=0,
    )
    cookies: dict[int, str] = {}
    for number in range(entries):
        user = users.create_user(f"{prefix}{number:02d}")
        entry = register(tournament.pk, owner, name=user.username, user=user)
        cookies[entry.pk] = session(user)
    keeper = users.create_user(f"{prefix}-keeper")
    Membership.objects.create(club=club, user=keeper, role=Membership.SCOREKEEPER)
    start_tournament(tournament.pk, owner)
    return Swiss(tournament.pk, owner.pk, cookies, session(keeper))


def make_physical(table_id: int, owner: int) -> str | None:
    """The organiser moves a table to a physical one before its first move; its new match
    (None when play there has begun: it stays online)."""
    from django.contrib.auth import get_user_model

    from tournaments.errors import TournamentError
    from tournaments.services.physical import make_table_physical

    try:
        return str(make_table_physical(table_id, get_user_model().objects.get(pk=owner)).match_id)
    except TournamentError:
        return None


def round_in_play(tournament_id: int, after: int) -> tuple[int, list[tuple[int, str, list[int]]]] | None:
    """The first round numbered above `after` (its number and, per table, the table, its
    match and the seated entries), or None when the tournament is over without one."""
    from tournaments.models import Round, Tournament

    rnd = Round.objects.filter(tournament_id=tournament_id, number__gt=after).order_by("number").first()
    if rnd is None:
        if Tournament.objects.get(pk=tournament_id).status == Tournament.FINISHED:
            return None
        return (after, [])
    tables = [
        (table.pk, str(table.match_id), [seat.entry_id for seat in table.seats.order_by("index")])
        for table in rnd.tables.order_by("number")
    ]
    return rnd.number, tables


def sizes(tournament_id: int) -> dict[int, list[int]]:
    """Per round, the size of each table."""
    from tournaments.models import Table

    found: dict[int, list[int]] = {}
    for table in Table.objects.filter(round__tournament_id=tournament_id).order_by("round__number", "number"):
        found.setdefault(table.round.number, []).append(table.seats.count())
    return found


def check_tournament(tournament_id: int) -> dict[str, list[str]]:
    """Over, every table finished exactly once, the log's chain whole, the standings equal to
    a rebuild from the tables' matches."""
    from tournaments.models import StandingRow, Table, Tournament, TournamentEvent
    from tournaments.services import log
    from tournaments.services.rebuild import rebuild
    from tournaments.services.standings import standing_rows

    tournament = Tournament.objects.get(pk=tournament_id)
    problems: dict[str, list[str]] = {"tournament": [], "tables": [], "standings": []}
    if tournament.status != Tournament.FINISHED:
        problems["tournament"].append(f"status {tournament.status}")
    valid, head = log.verify_chain(tournament_id)
    if not valid or head != tournament.head_hash:
        problems["tournament"].append("log chain broken")
    finished = Counter(
        (event.payload.get("round"), event.payload.get("table"))
        for event in TournamentEvent.objects.filter(tournament=tournament, type=log.TABLE_FINISHED)
    )
    for table in Table.objects.filter(round__tournament=tournament).select_related("round"):
        times = finished[(table.round.number, table.number)]
        if table.status != Table.FINISHED or times != 1:
            problems["tables"].append(
                f"{table.round.number}.{table.number} {table.status}, finished {times}x"
            )
    before = standing_rows(tournament)
    StandingRow.objects.filter(tournament=tournament).delete()
    report = rebuild(tournament)
    problems["standings"] += report.mismatches
    if standing_rows(tournament) != before:
        problems["standings"].append("the standings differ from a rebuild")
    return problems


def check_timers(match_ids: list[str]) -> list[str]:
    """No turn timer fired twice, nor early: each batch the server plays by itself without a
    command (a timeout) answers one deadline of the event before it, once, at or after it."""
    from cacho.models import Event

    doubles = []
    for match_id in match_ids:
        fired: Counter[int] = Counter()
        deadline, at = None, None
        for metadata in (
            Event.objects.filter(stream_id=match_id).order_by("version").values_list("metadata", flat=True)
        ):
            timeout = metadata.get("actor") == "server" and "causation" not in metadata
            if timeout and metadata.get("at") != at and deadline is not None:  # a batch's first event
                fired[deadline] += 1
                if metadata["at"] < deadline:
                    doubles.append(f"{match_id}: fired at {metadata['at']} before {deadline}")
            at = metadata.get("at")
            if "deadline" in metadata:
                deadline = metadata["deadline"]
        doubles += [f"{match_id}: deadline {d} fired {n}x" for d, n in fired.items() if n > 1]
    return doubles
