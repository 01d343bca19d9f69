"""Every format, at several sizes, played to its end through the services, with random
withdrawals (before the start, during a match, between two tables of a round), no-shows (at
check-in and at a table) and reinstatements; on PostgreSQL with the suite and on SQLite in a
process of its own, each format once, in its largest field up to 13 entries (`sqlite_too`:
tests/test_foundation/test_sqlite_run.py).

Each run checks: the tournament finishes; its champion (the winner of the deciding table, or
the leader of a points stage) is placed 1 in the API's ranking, the standings JSON, the
CSV, the XLSX and the printable page; no withdrawn entry gains a place (it sits at no table
and gets no bye once withdrawn, goes on to no later stage, earns nothing from a forfeit, and
in an elimination ranks below everyone who played on after it); and a Swiss round small
enough for a brute-force search (at most 12 seated) has no avoidable repeat meeting.
"""

from __future__ import annotations

import csv
import io
import itertools
import random
import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from cacho.engine.errors import RuleError
from cacho.models import Match, Seat
from cacho.services import matches as match_service
from tests.tournaments.helpers import play_bidding_match
from tournaments import matches
from tournaments.clubs.members import create_club
from tournaments.competition import stages, tables
from tournaments.competition.meetings import opponents, pair
from tournaments.models import Entry, StandingRow, Table, Tournament, TournamentEvent
from tournaments.services import (
    TournamentError,
    check_in,
    create_tournament,
    forfeit_table,
    log,
    register,
    reinstate,
    start_tournament,
    withdraw,
)

pytestmark = pytest.mark.django_db(transaction=True)
# Each format also on SQLite, once, in its largest field up to 13 entries: enough for two
# withdrawn entries at one new table (the writes SQLite takes differently). A format's
# smaller fields make the same statements on fewer rows, and its fields of 32 and 64 run
# on PostgreSQL only.
SQLITE_LIMIT = 13


def sqlite_size(sizes: tuple[int, ...]) -> int | None:
    return max((size for size in sizes if size <= SQLITE_LIMIT), default=None)


_commands = itertools.count(1)
ELIMINATIONS = (
    stages.SINGLE_ELIMINATION,
    stages.DOUBLE_ELIMINATION,
    stages.TABLE_ELIMINATION,
    stages.FINAL_TABLE,
)
ORACLE_LIMIT = 12


def stage(fmt: str, name: str = "", **params: Any) -> dict[str, Any]:
    return {"name": name or fmt, "format": fmt, "params": params}


# (id, ruleset, stage plan, sizes)
PLANS: list[tuple[str, str, list[dict[str, Any]], tuple[int, ...]]] = [
    ("swiss-1v1", "dudo", [stage("swiss", rounds=4, table_size=2)], (2, 7, 13, 64)),
    ("swiss-tables", "liars-dice", [stage("swiss", rounds=3, table_size=5, min_size=3)], (7, 13, 64)),
    ("round-robin-1v1", "dudo", [stage("round_robin", table_size=2)], (2, 7)),
    ("round-robin-groups", "dudo", [stage("round_robin", groups=2, table_size=2)], (13,)),
    ("round-robin-tables", "cacho-online", [stage("round_robin", table_size=4)], (7,)),
    ("round-robin-many-groups", "dudo", [stage("round_robin", groups=8, table_size=2)], (32,)),
    ("single-elimination", "dudo", [stage("single_elimination", third_place=True)], (2, 7, 13, 32)),
    ("double-elimination", "dudo", [stage("double_elimination")], (2, 7, 13, 64)),
    ("table-elimination", "cacho-chileno", [stage("table_elimination", table_size=6)], (2, 7, 13, 64)),
    ("final-table", "dudo", [stage("final_table")], (2, 6)),
    (
        "alalay-event",
        "alalay",
        [stage("alalay_event", table_size=4, qualifying_rounds=2, finalists=4)],
        (7, 13),
    ),
    (
        "groups-then-double-elimination",
        "dudo",
        [
            stage("round_robin", "groups", groups=2, table_size=2, advance={"per_group": 3}),
            stage("double_elimination", "playoffs"),
        ],
        (13,),
    ),
    (
        "swiss-then-table-elimination",
        "dudo",
        [
            stage("swiss", "swiss", rounds=3, table_size=4, advance={"overall": 12}),
            stage("table_elimination", "final", table_size=6, advance_per_table=3),
        ],
        (13, 64),
    ),
]
CASES = [
    pytest.param(
        ruleset,
        plan,
        size,
        id=f"{name}-{size}",
        marks=[pytest.mark.sqlite_too] if size == sqlite_size(sizes) else [],
    )
    for name, ruleset, plan, sizes in PLANS
    for size in sizes
]


@dataclass
class Run:
    tournament: Tournament
    organiser: Any
    rng: random.Random
    entries: list[Entry]
    withdrawals: Counter[int] = field(default_factory=Counter)

    @property
    def pk(self) -> int:
        return self.tournament.pk

    def refresh(self) -> Tournament:
        self.tournament.refresh_from_db()
        return self.tournament


def organise(ruleset: str, plan: list[dict[str, Any]], size: int, seed: int) -> Run:
    """A club, an organiser, `size` players checked in, an absentee (a no-show at check-in),
    and, in larger fields, one entry that withdraws before the start."""
    users = get_user_model()
    rng = random.Random(seed)
    organiser = users.objects.create(username=f"organiser-{seed}")
    club = create_club(f"Club {seed}", f"club-{seed}", organiser)
    deadline = timezone.now() + dt_hours(1)
    tournament = create_tournament(
        club.pk,
        organiser,
        name=f"Open {seed}",
        ruleset=ruleset,
        stages=plan,
        checkin_deadline=deadline,
        seeding_method="rating",
        turn_seconds=30 if ruleset == "cacho-online" else 600,  # cacho-online's turn is fixed (§9)
    )
    extra = 2 if size >= 7 else 0  # an absentee and a withdrawal before the start
    entries = []
    for i in range(1, size + extra + 1):
        user = users.objects.create(username=f"p{seed}-{i}")
        entries.append(register(tournament.pk, organiser, name=f"P{i:02d}", user=user, rating=1000.0 - i))
    for entry in entries[: size + (1 if extra else 0)]:
        check_in(entry.pk, organiser)
    if extra:
        withdraw(entries[size].pk, organiser)  # registered, checked in, then gone before the start
    Tournament.objects.filter(pk=tournament.pk).update(checkin_deadline=timezone.now() - dt_hours(0.001))
    start_tournament(tournament.pk, organiser)
    run = Run(tournament, organiser, rng, entries[:size])
    return run


def dt_hours(hours: float) -> Any:
    import datetime as dt

    return dt.timedelta(hours=hours)


# ---------------------------------------------------------------- playing


def seat_names(match_id: Any) -> list[str]:
    return list(Seat.objects.filter(match_id=match_id).order_by("index").values_list("name", flat=True))


def live(match_id: Any) -> bool:
    return Match.objects.filter(pk=match_id, status=Match.STATUS_LIVE).exists()


def play_out(match_id: Any, rng: random.Random, real: bool) -> None:
    """To the end of the match: random legal moves (`real`), or the players leaving one by
    one in a random order (the last one left wins, in every game: rules.md §9 P-3)."""
    game = Match.objects.get(pk=match_id).game
    if real and game == "dudo":
        play_bidding_match(match_id, rng)
        return
    names = seat_names(match_id)
    rng.shuffle(names)
    for name in names[:-1]:
        if not live(match_id):
            return
        try:
            match_service.submit(match_id, name, {"type": "abandon"}, f"every-{next(_commands)}")
        except RuleError:
            continue  # this seat had left already (a withdrawal)
    for _ in range(200):
        if not live(match_id):
            return
        everyone = range(len(seat_names(match_id)))
        if not matches.bot_move(match_id, everyone, rng, f"every-{next(_commands)}"):
            raise AssertionError("nobody can move in a live match")
    raise AssertionError("an Alalay match that does not end")


def disrupt(run: Run, table: Table) -> None:
    """What happens at a club evening: an entry withdraws mid-match, one does not show up at
    its table, a withdrawn one is reinstated."""
    rng = run.rng
    seated = [s.entry for s in table.seats.select_related("entry") if not s.forfeited]
    roll = rng.random()
    if roll < 0.07 and seated:
        entry = rng.choice(seated)
        if entry.status != Entry.WITHDRAWN:
            withdraw(entry.pk, run.organiser)
            run.withdrawals[entry.pk] += 1
    elif roll < 0.11 and seated:
        entry = rng.choice(seated)
        try:
            forfeit_table(table.pk, entry.pk, run.organiser)
        except TournamentError as exc:
            assert exc.code in ("seat-not-in-play", "table-finished"), exc.code
    elif roll < 0.13:
        gone = [e for e in Entry.objects.filter(tournament_id=run.pk, status=Entry.WITHDRAWN)]
        if gone:
            try:
                reinstate(rng.choice(gone).pk, run.organiser)
            except TournamentError as exc:
                assert exc.code in ("reinstate-too-late", "entry-out-of-stage"), exc.code


def play_tournament(run: Run) -> None:
    rng = run.rng
    for _ in range(2000):
        if run.refresh().status == Tournament.FINISHED:
            return
        playing = list(Table.objects.filter(round__tournament_id=run.pk, status=Table.PLAYING).order_by("pk"))
        assert playing, "a running tournament with no table in play is stuck"
        for number, table in enumerate(playing):
            if Table.objects.get(pk=table.pk).status != Table.PLAYING:
                continue
            disrupt(run, table)
            if table.match_id and live(table.match_id):
                play_out(table.match_id, rng, real=len(run.entries) <= 7 and rng.random() < 0.5)
            if number == 0 and len(playing) > 1 and rng.random() < 0.2:
                # Between two tables of a round: the winner of a finished table withdraws.
                done = Table.objects.get(pk=table.pk)
                won = [line["entry"] for line in done.result if line["placement"] == 1]
                if won and Entry.objects.get(pk=won[0]).status != Entry.WITHDRAWN:
                    withdraw(won[0], run.organiser)
                    run.withdrawals[won[0]] += 1
    raise AssertionError("the tournament does not finish")


# ---------------------------------------------------------------- checking


def places(run: Run) -> dict[int, int]:
    finished = TournamentEvent.objects.get(tournament_id=run.pk, type=log.FINISHED).payload
    return {entry: place for place, entry in finished["places"]}


def champions(run: Run) -> set[int]:
    """Who won, read from the tables themselves: the last stage's deciding table (a bracket's
    final, the last table of an elimination or of an Alalay event), or the leaders of a
    stage ranked on points."""
    tournament = run.refresh()
    last = tournament.stages.order_by("-number").first()
    rounds = list(tournament.rounds.filter(stage=last).order_by("-number"))
    if last.format in ELIMINATIONS or last.format == "alalay_event":
        if not rounds:
            return {int(e) for e in last.entrants[:1]}
        if last.format == stages.SINGLE_ELIMINATION:
            finals = [
                t
                for r in rounds
                for t in r.tables.all()
                if t.bracket_ref and not t.bracket_ref.startswith("3")
            ]
            deciding = max(finals, key=lambda t: int(t.bracket_ref[1:].split("-")[0]))
        elif last.format == stages.DOUBLE_ELIMINATION:
            refs = {t.bracket_ref: t for r in rounds for t in r.tables.all()}
            deciding = refs.get("GF2") or refs.get("GF")
            if deciding is None:  # two entrants: one winners-bracket final is all there is
                deciding = max(refs.values(), key=lambda t: t.round.number)
        else:
            deciding = rounds[0].tables.get() if rounds[0].tables.count() == 1 else None
            assert deciding is not None, "an elimination ends at one table"
        return {line["entry"] for line in deciding.result if line["placement"] == 1}
    rows = StandingRow.objects.filter(tournament=tournament, stage=last.number, rank=1)
    return set(rows.values_list("entry_id", flat=True))


def check_champion_everywhere(run: Run) -> None:
    won = champions(run)
    assert won, "somebody won"
    placed = places(run)
    first = {e for e, p in placed.items() if p == 1}
    last = run.tournament.stages.order_by("-number").first()
    if last.format == stages.ROUND_ROBIN and last.params.get("groups", 1) > 1:
        assert first and first <= won  # the best of the group winners
        won = first
    if last.format == "alalay_event" and len(won) > 1:
        # Equal totals share the final's win (AL-9); the event breaks that tie by the
        # qualifying order (docs/tournaments.md): the first place is one of them.
        assert len(first) == 1 and first <= won
        won = first
    assert first == won
    names = {e.pk: e.name for e in Entry.objects.filter(tournament_id=run.pk)}
    winners = {names[e] for e in won}
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    base = f"/api/tournaments/{run.pk}"
    ranking = client.get(f"{base}/ranking").json()["ranking"]
    assert {item["entry"] for item in ranking if item["place"] == 1} == won
    assert [item["entry"] for item in ranking] == sorted(
        placed, key=lambda e: (placed[e], list(placed).index(e))
    )
    standings = client.get(f"{base}/standings").json()
    assert standings["final_ranking"] == ranking
    rows = list(csv.reader(io.StringIO(client.get(f"{base}/standings/csv").content.decode("utf-8-sig"))))
    assert rows[1][0] == "1" and rows[1][1] in winners, rows[:3]
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"{base}/standings/xlsx").content))
    first = list(book.worksheets[0].iter_rows(values_only=True))
    assert str(first[1][0]) == "1" and first[1][1] in winners, first[:3]
    page = client.get(f"{base}/standings/print").content.decode("utf-8")
    top = page.index("<tbody")
    assert any(page.find(name, top) != -1 for name in winners)
    first_row = page[top : page.index("</tr>", top)]
    assert any(name in first_row for name in winners), first_row


def check_withdrawn_gain_nothing(run: Run) -> None:
    """Once withdrawn (until reinstated) an entry sits at no table but as a forfeit, gets no
    bye, goes on to no later stage, wins no table, and a forfeit earns it a last place. In
    an elimination by tables or a single elimination, and across stages, everyone who played
    on after the round it went out in (by its last game or its forfeit) is placed ahead of it
    (or shares its place): a finalist who withdraws before the final is still its loser."""
    events = list(TournamentEvent.objects.filter(tournament_id=run.pk).order_by("version"))
    placed = places(run)
    away: dict[int, list[tuple[int, int | None]]] = {}  # entry -> [(from version, to version)]
    for event in events:
        if event.type == log.WITHDRAWN:
            away.setdefault(event.payload["entry"], []).append((event.version, None))
        elif event.type == log.REINSTATED:
            spans = away[event.payload["entry"]]
            spans[-1] = (spans[-1][0], event.version)

    def gone(entry: int, version: int) -> bool:
        return any(start < version and (end is None or version < end) for start, end in away.get(entry, []))

    seated_in: dict[int, list[tuple[int, int]]] = {}  # entry -> [(stage, round)] where it played
    out_at: dict[int, tuple[int, int]] = {}  # entry -> its last (stage, round), a forfeit included
    for event in events:
        data = event.payload
        if event.type == log.STAGE_STARTED:
            assert not any(gone(int(e), event.version) for e in data["entrants"]), "a withdrawn entry went on"
        if event.type == log.ROUND_CREATED:
            assert not any(gone(int(b), event.version) for b in data["byes"]), "a withdrawn entry got a bye"
            for table in data["tables"]:
                for entry in table["seats"]:
                    out_at[entry] = (data["stage"], data["round"])
                    if entry in table["forfeits"]:
                        assert gone(entry, event.version)
                        continue
                    assert not gone(entry, event.version), "a withdrawn entry was seated"
                    seated_in.setdefault(entry, []).append((data["stage"], data["round"]))
        if event.type == log.TABLE_FINISHED:
            size = len(data["result"])
            for line in data["result"]:
                if line.get("forfeit"):
                    assert line["placement"] == size, "a forfeit earns a last place"
                if gone(line["entry"], event.version):
                    assert line["placement"] != 1 or line.get("forfeit"), "a withdrawn entry won a table"
    formats_of = dict(run.tournament.stages.values_list("number", "format"))
    for entry in away:
        if entry not in placed or not seated_in.get(entry):
            continue
        last_stage, last_round = out_at[entry]
        by_round = formats_of[last_stage] in (
            stages.TABLE_ELIMINATION,
            stages.FINAL_TABLE,
            stages.SINGLE_ELIMINATION,
        )
        for other, seats in seated_in.items():
            if other in away or other not in placed:
                continue
            later_stage = any(s > last_stage for s, _ in seats)
            later_round = by_round and any((s, r) > (last_stage, last_round) for s, r in seats)
            if later_stage or later_round:
                assert placed[other] <= placed[entry], (other, entry, placed[other], placed[entry])


def repeats_minimum(seated: list[str], previous: list[tuple[str, ...]], sizes: list[int]) -> int:
    """The fewest repeat meetings of any seating of `seated` at tables of `sizes` (brute force)."""
    met = opponents(previous)
    best = [len(seated) ** 2]

    def search(free: list[str], pool: list[int], repeats: int) -> None:
        if repeats >= best[0]:
            return
        if not free:
            best[0] = repeats
            return
        first, rest = free[0], free[1:]
        for size in sorted(set(pool)):
            left = list(pool)
            left.remove(size)
            for others in itertools.combinations(rest, size - 1):
                group = (first, *others)
                added = sum(1 for a, b in itertools.combinations(group, 2) if b in met.get(a, ()))
                search([f for f in rest if f not in others], left, repeats + added)

    search(seated, sizes, 0)
    return best[0]


def check_swiss_repeats(run: Run) -> None:
    for swiss_stage in run.tournament.stages.filter(format=stages.SWISS):
        params = swiss_stage.params
        previous: list[tuple[str, ...]] = []
        for rnd in swiss_stage.rounds.order_by("stage_round"):
            seatings = [tuple(str(s.entry_id) for s in t.seats.all()) for t in rnd.tables.all()]
            seated = [e for t in seatings for e in t]
            if seatings and len(seated) <= ORACLE_LIMIT:
                size = params.get("table_size", 6)
                sizes = tables.table_sizes(len(seated), params.get("min_size", 2), size, size)
                met = opponents(previous)
                actual = len(
                    {
                        pair(a, b)
                        for t in seatings
                        for a, b in itertools.combinations(t, 2)
                        if b in met.get(a, ())
                    }
                )
                assert actual == repeats_minimum(seated, previous, sizes), (rnd.number, seatings, previous)
            previous += seatings


def check_standings_equal_a_rebuild(run: Run) -> None:
    """The standings rows, written again after each table as the tournament was played,
    are those a rebuild from nothing writes once it is over."""
    from tournaments.services.standings import write_standings

    def stored() -> list[tuple[Any, ...]]:
        rows = StandingRow.objects.filter(tournament=run.tournament).order_by("stage", "position")
        return list(rows.values_list(*STANDING_COLUMNS))

    kept = stored()
    assert kept
    StandingRow.objects.filter(tournament=run.tournament).delete()
    write_standings(run.tournament)
    assert stored() == kept


STANDING_COLUMNS = (
    "stage",
    "group",
    "position",
    "rank",
    "entry_id",
    "played",
    "points",
    "values",
    "tiebreak",
    "tiebreak_reason",
    "tiebreak_against_id",
    "tiebreak_values",
)


@pytest.mark.parametrize(("ruleset", "plan", "size"), CASES)
def test_a_tournament_finishes_and_crowns_its_champion_everywhere(
    ruleset: str, plan: list[dict[str, Any]], size: int
) -> None:
    seed = zlib.crc32(f"{ruleset}-{size}-{[p['format'] for p in plan]}".encode()) % 10**6
    run = organise(ruleset, plan, size, seed)
    play_tournament(run)
    assert run.refresh().status == Tournament.FINISHED
    placed = places(run)
    players = {e.pk for e in run.entries}
    assert set(placed) <= players and len(placed) >= min(size, 2)
    check_champion_everywhere(run)
    check_withdrawn_gain_nothing(run)
    check_swiss_repeats(run)
    check_standings_equal_a_rebuild(run)
    assert log.verify_chain(run.pk)[0]
