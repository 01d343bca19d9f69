"""Pairs and teams end to end, through the HTTP API: created only where the game's seats can
be teams, registered with members by username or as guests, played to the finish at real
tables (each move sent by the account holding the team's seat, the match naming which
member throws), a member substituted between rounds (refused while the team's table plays),
rated per member, and the champion team first, with its members, in every output.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
from typing import Any

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from cacho.engine.alalay.bots import bot_payload
from cacho.models import Event, Match, Player, Seat
from tests.cacho.helpers import state_of
from tests.tournaments.helpers import club_with_organiser
from tournaments.models import Entry, EntryMember, RatingChange, Table, TableSeat, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db(transaction=True)

_commands = itertools.count(1)


def client_for(user: Any = None) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_authenticate(user)
    return client


def create(
    client: APIClient, club: Any, ruleset: str, entry_type: str, size: int, stages: Any, **more: Any
) -> Any:
    body = {
        **more,
        "club": club.pk,
        "name": f"{entry_type} open",
        "ruleset": ruleset,
        "entry_type": entry_type,
        "team_size": size,
        "turn_seconds": 600,
        "stages": stages,
    }
    return client.post("/api/tournaments", body, format="json")


@pytest.mark.sqlite_too
def test_pairs_and_teams_play_alalay_only(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user)
    organiser = client_for(owner)
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
    for ruleset in ("dudo", "cacho-chileno", "liars-dice"):
        for entry_type, size in (("pair", 2), ("team", 3)):
            refused = create(organiser, club, ruleset, entry_type, size, stages)
            assert refused.status_code == 400 and refused.json()["code"] == "entry-type-game"
    assert not Tournament.objects.exists()
    for entry_type, size in (("individual", 1), ("pair", 2), ("team", 4)):
        made = create(organiser, club, "alalay", entry_type, size, stages)
        assert made.status_code == 201, made.content
        assert made.json()["entry_type"] == entry_type
    dudo = create(organiser, club, "dudo", "individual", 1, stages)
    assert dudo.status_code == 201


@pytest.mark.sqlite_too
def test_members_by_username_or_as_guests_and_what_is_refused(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user)
    organiser = client_for(owner)
    stages = [{"name": "final", "format": "final_table", "params": {}}]
    tid = create(organiser, club, "alalay", "team", 3, stages).json()["id"]
    ana, beto = make_user("ana"), make_user("beto")
    url = f"/api/tournaments/{tid}/entries"
    made = organiser.post(
        url, {"name": "Reds", "members": [{"username": "ana"}, "Caro", {"name": "Dani"}]}, format="json"
    )
    assert made.status_code == 201, made.content
    assert made.json()["members"] == ["ana", "Caro", "Dani"]
    assert made.json()["lineup"] == [
        {"name": "ana", "username": "ana"},
        {"name": "Caro", "username": None},
        {"name": "Dani", "username": None},
    ]
    refusals = [
        ({"name": "Blues", "members": ["Eva", "Flor"]}, "entry-members-invalid"),
        ({"name": "Blues", "members": ["Eva", "eva", "Flor"]}, "member-name-twice"),
        ({"name": "Blues", "members": [{"username": "nobody"}, "Eva", "Flor"]}, "user-unknown"),
        ({"name": "Blues", "members": [{"username": "ana"}, "Eva", "Flor"]}, "member-already-entered"),
        ({"name": "Blues", "members": [{"user": 1}, "Eva", "Flor"]}, "member-invalid"),
        ({"name": "Blues", "members": ["", "Eva", "Flor"]}, "member-invalid"),
        ({"name": "Blues", "members": ["x" * 65, "Eva", "Flor"]}, "member-invalid"),
    ]
    for body, code in refusals:
        refused = organiser.post(url, body, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == code, (body, refused.content)
    assert Entry.objects.filter(tournament_id=tid).count() == 1
    assert EntryMember.objects.filter(entry__tournament_id=tid).count() == 3
    # A player registers their own team, captained by their account; a member of another
    # team cannot captain one.
    mine = client_for(beto).post(url, {"name": "Blues", "members": ["beto", "Eva", "Flor"]}, format="json")
    assert mine.status_code == 201 and mine.json()["username"] == "beto"
    theirs = client_for(ana).post(url, {"name": "Greens", "members": ["Gus", "Hana", "Ines"]}, format="json")
    assert theirs.status_code == 400 and theirs.json()["code"] == "member-already-entered"
    assert Entry.objects.filter(tournament_id=tid).count() == 2
    # Nor does a guest team become the account of a member of another team.
    greens = organiser.post(url, {"name": "Greens", "members": ["Gus", "Hana", "Ines"]}, format="json").json()
    claimed = organiser.post(f"/api/entries/{greens['id']}/claim", {"username": "ana"}, format="json")
    assert claimed.status_code == 400 and claimed.json()["code"] == "member-already-entered"
    assert Entry.objects.get(pk=greens["id"]).user is None


# ---------------------------------------------------------------- playing through the API


def play_table(table: Table, rng: random.Random) -> set[str]:
    """Every move of the table's match, each sent over HTTP by the account of the member
    whose throw it is when that member has one, else by the account holding the team's
    seat (the engine's plain bot chooses the move from that account's view). The members
    who sent moves from their own accounts, by username."""
    seats = list(Seat.objects.filter(match_id=table.match_id).order_by("index"))
    # An account's seat is named by its player id; its label is the team's entry name.
    holders = {seat.label or seat.name: seat.user for seat in seats}
    table_entry_names = [seat.label or seat.name for seat in seats]
    # The match names a member with an account by its player id.
    player_ids = dict(Player.objects.values_list("user_id", "pk"))
    accounts = {
        seat.entry.name: {
            f"p{player_ids[m['user']]}": m["user"] for m in seat.members if m["user"] is not None
        }
        for seat in table.seats.select_related("entry")
    }
    users = get_user_model().objects.in_bulk([u for team in accounts.values() for u in team.values()])
    sent_by: set[str] = set()
    for _ in range(2000):
        if Match.objects.get(pk=table.match_id).status != Match.STATUS_LIVE:
            return sent_by
        turn = state_of(table.match_id).turn  # whose throw it is (read, not sent: no rate spent)
        entry = table_entry_names[turn.seat]
        account = accounts[entry].get(turn.member)
        client = client_for(users[account] if account is not None else holders[entry])
        mine = client.get(f"/api/matches/{table.match_id}").json()["state"]
        assert mine["you"] == seats[turn.seat].name and mine["turn"]["member"] == turn.member
        payload = bot_payload(mine, rng)
        assert payload is not None, mine
        sent = client.post(
            f"/api/matches/{table.match_id}/commands",
            {"command_id": f"teams-{next(_commands)}", **payload},
            format="json",
        )
        assert sent.status_code == 201, sent.content
        if account is not None:
            sent_by.add(users[account].username)
    raise AssertionError("a match that does not end")


def members_at(table: Table) -> dict[str, list[str]]:
    """Each team's members as the match page shows them: the match names a member with an
    account by its player id, and the document's seats give its label."""
    match = client_for().get(f"/api/matches/{table.match_id}").json()
    labels = {seat.name: seat.label or seat.name for seat in Seat.objects.filter(match_id=table.match_id)}
    shown = {seat["name"]: {m["name"]: m["label"] for m in seat["members"]} for seat in match["seats"]}
    return {
        labels[e["name"]]: [shown[e["name"]].get(m, m) for m in e["members"]]
        for e in match["state"]["entries"]
    }


def logged_members(table: Table) -> dict[str, list[str]]:
    """Each team's members as the match's events name them (`match_started`)."""
    view = client_for().get(f"/api/matches/{table.match_id}").json()["state"]
    labels = {seat.name: seat.label or seat.name for seat in Seat.objects.filter(match_id=table.match_id)}
    return {labels[e["name"]]: e["members"] for e in view["entries"]}


PLANS = {
    "pair": [
        {
            "name": "alalay",
            "format": "alalay_event",
            "params": {"table_size": 2, "qualifying_rounds": 2, "finalists": 2},
        }
    ],
    "team": [{"name": "swiss", "format": "swiss", "params": {"rounds": 3, "table_size": 3}}],
}


# On SQLite (`sqlite_too`) the pairs: their tables seat partners and rate members as the
# teams' do, in a shorter tournament; the teams' longer Swiss writes nothing else.
@pytest.mark.parametrize(
    ("entry_type", "size"), [pytest.param("pair", 2, marks=pytest.mark.sqlite_too), ("team", 3)]
)
def test_a_tournament_of_pairs_or_teams_is_played_to_the_finish(
    make_user: Any, entry_type: str, size: int
) -> None:
    rng = random.Random(7 if entry_type == "pair" else 11)
    club, owner = club_with_organiser(make_user)
    organiser = client_for(owner)
    # Each round waits out its appeal period before the next is drawn: the time between
    # rounds, when the desk substitutes; the director then draws the next round.
    created = create(organiser, club, "alalay", entry_type, size, PLANS[entry_type], round_appeal_minutes=5)
    tid = created.json()["id"]
    teams = 4 if entry_type == "pair" else 6
    for t in range(teams):
        # The first member of each team has an account (it holds the team's seat); the
        # others are guests, but for one more account in the first team.
        make_user(f"m{t}-0")
        members: list[Any] = [{"username": f"m{t}-0"}]
        for m in range(1, size):
            if t == 0 and m == 1:
                make_user(f"m{t}-{m}")
                members.append({"username": f"m{t}-{m}"})
            else:
                members.append(f"Guest {t}-{m}")
        made = organiser.post(
            f"/api/tournaments/{tid}/entries", {"name": f"Team {t}", "members": members}, format="json"
        )
        assert made.status_code == 201, made.content
    substitute = make_user("sub")
    assert organiser.post(f"/api/tournaments/{tid}/start", {}, format="json").status_code == 200
    base = f"/api/tournaments/{tid}"
    # The teammate who does not hold the team's seat finds the team's table among its matches.
    first_team = Entry.objects.get(tournament_id=tid, name="Team 0")
    at_table = TableSeat.objects.get(entry=first_team).table
    partner = client_for(get_user_model().objects.get(username="m0-1"))
    listed = partner.get("/api/me/matches").json()
    assert [(row["id"], row["label"]) for row in listed] == [(str(at_table.match_id), "Team 0")]

    substituted = False
    played_by: set[str] = set()
    for _ in range(50):
        tournament = Tournament.objects.get(pk=tid)
        if tournament.status == Tournament.FINISHED:
            break
        playing = list(Table.objects.filter(round__tournament_id=tid, status=Table.PLAYING).order_by("pk"))
        if not playing:  # between rounds
            drawn = organiser.post(f"{base}/draw-now", {}, format="json")
            assert drawn.status_code == 200, drawn.content
            continue
        first = playing[0]
        seat = first.seats.select_related("entry").first()
        assert seat is not None
        entry = seat.entry
        # The match seats each team's members, in turn order, as the table recorded them.
        at_table = members_at(first)
        assert at_table[entry.name] == [m["name"] for m in seat.members]
        assert at_table[entry.name] == list(entry.members.values_list("name", flat=True))
        # Its events name a member with an account by its player id, a guest by its name.
        assert logged_members(first)[entry.name] == [
            m["name"] if m["user"] is None else f"p{Player.objects.get(user_id=m['user']).pk}"
            for m in seat.members
        ]
        # The round's printables name each team with the members it plays this table with.
        label = f"{entry.name} ({', '.join(m['name'] for m in seat.members)})"
        for kind in ("cards", "pairings", "sheets", "slips"):
            assert label in organiser.get(f"{base}/print/{kind}").content.decode(), kind
        if not substituted:
            # While its table plays, a team keeps its members: refused, nothing changes.
            leaving = seat.members[-1]["name"]
            body = {"out": leaving, "incoming": {"username": "sub"}}
            busy = organiser.post(f"/api/entries/{entry.pk}/substitute", body, format="json")
            assert busy.status_code == 409 and busy.json()["code"] == "substitution-table-playing"
            assert leaving in entry.members.values_list("name", flat=True)
        for table in playing:
            played_by |= play_table(table, rng)
        if not substituted and Tournament.objects.get(pk=tid).status != Tournament.FINISHED:
            # Between rounds the substitution goes through: the next table seats the newcomer
            # in the leaver's place of the rotation; the table played keeps who played it.
            done = organiser.post(f"/api/entries/{entry.pk}/substitute", body, format="json")
            assert done.status_code == 200, done.content
            assert done.json()["members"][-1] == "sub"
            assert TableSeat.objects.get(pk=seat.pk).members[-1]["name"] == leaving
            logged = TournamentEvent.objects.get(tournament_id=tid, type="member-substituted").payload
            left = seat.members[-1]["user"]
            assert logged["out"] == (
                {"name": leaving, "guest": True}
                if left is None
                else {"player": Player.objects.get(user_id=left).public_id}
            )
            assert logged["in"] == {"player": Player.objects.get(user=substitute).public_id}
            substituted_entry, substituted = entry, True
    tournament = Tournament.objects.get(pk=tid)
    assert tournament.status == Tournament.FINISHED
    assert substituted
    # Teammates with accounts played their own throws: each account the matches name as a
    # member who threw sent that turn itself, the first team's second member among them
    # (unless it was substituted out before its first turn: a dormida ends a match at once).
    thrown = Event.objects.filter(
        stream_id__in=list(Table.objects.filter(round__tournament_id=tid).values_list("match_id", flat=True)),
        type="dice_thrown",
    ).values_list("payload", flat=True)
    by_player = {
        p.public_id: p.user.username for p in Player.objects.filter(user__isnull=False).select_related("user")
    }
    assert played_by == {by_player[t["member"]] for t in thrown if t["member"] in by_player}
    assert "m0-0" in played_by
    assert "m0-1" in played_by or substituted_entry.name == "Team 0"

    seated_later = TableSeat.objects.filter(
        entry=substituted_entry, table__round__number__gt=seat.table.round.number
    )
    if seated_later.exists():
        assert all("sub" in [m["name"] for m in s.members] for s in seated_later)
        assert RatingChange.objects.filter(user=substitute).exists()

    # Ratings per member: every member with an account who played a table is rated.
    accounts = {
        m["user"]
        for s in TableSeat.objects.filter(table__round__tournament_id=tid)
        for m in s.members
        if m["user"]
    }
    rated = set(RatingChange.objects.filter(tournament_id=tid).values_list("user_id", flat=True))
    assert accounts <= rated and len(accounts) > teams

    # No event names a member's account but by its player id: the tournament's log and its
    # tables' matches carry no username.
    logged = json.dumps(
        list(TournamentEvent.objects.filter(tournament_id=tid).values_list("payload", flat=True))
    )
    match_ids = Table.objects.filter(round__tournament_id=tid).values_list("match_id", flat=True)
    played = json.dumps(
        list(Event.objects.filter(stream_id__in=list(match_ids)).values_list("payload", flat=True))
    )
    for username in get_user_model().objects.filter(pk__in=accounts).values_list("username", flat=True):
        assert f'"{username}"' not in logged and f'"{username}"' not in played, username

    check_champion_team_first(tid)


def check_champion_team_first(tid: int) -> None:
    """The champion (first in the log's `tournament-finished`) is first, with its members,
    on the API's ranking, the standings JSON, the CSV, the XLSX and the printable page."""
    finished = TournamentEvent.objects.get(tournament_id=tid, type="tournament-finished").payload
    champion_id = next(entry for place, entry in finished["places"] if place == 1)
    champion = Entry.objects.get(pk=champion_id)
    played = [
        m["name"]
        for s in TableSeat.objects.filter(entry=champion).order_by("table__round__number")
        for m in s.members
    ]
    members = list(dict.fromkeys([*played, *champion.members.values_list("name", flat=True)]))
    client = client_for()
    base = f"/api/tournaments/{tid}"
    ranking = client.get(f"{base}/ranking").json()["ranking"]
    assert ranking[0]["place"] == 1 and ranking[0]["entry"] == champion_id
    assert ranking[0]["members"] == members
    assert all(item["members"] for item in ranking)
    standings = client.get(f"{base}/standings").json()
    assert standings["final_ranking"] == ranking
    assert all("members" in row for row in standings["standings"])
    rows = list(csv.reader(io.StringIO(client.get(f"{base}/standings/csv").content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Place", "Entry", "Members"]
    assert rows[1][:3] == ["1", champion.name, ", ".join(members)]
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"{base}/standings/xlsx").content))
    sheet = list(book.worksheets[0].iter_rows(values_only=True))
    assert [str(v) for v in sheet[1][:3]] == ["1", champion.name, ", ".join(members)]
    page = client.get(f"{base}/standings/print").content.decode("utf-8")
    body = page[page.index("<tbody") :]
    first_row = body[: body.index("</tr>")]
    assert champion.name in first_row and ", ".join(members) in first_row
    spanish = client_for()
    spanish.credentials(HTTP_ACCEPT_LANGUAGE="es")
    header = spanish.get(f"{base}/standings/csv").content.decode("utf-8-sig").splitlines()[0]
    assert "Miembros" in header


@pytest.mark.sqlite_too
def test_a_team_table_moved_to_a_physical_one_keeps_its_members_and_accounts(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user)
    organiser = client_for(owner)
    stages = [{"name": "final", "format": "final_table", "params": {}}]
    tid = create(organiser, club, "alalay", "pair", 2, stages).json()["id"]
    for t in range(2):
        make_user(f"p{t}-a"), make_user(f"p{t}-b")
        members = [{"username": f"p{t}-a"}, {"username": f"p{t}-b"}]
        made = organiser.post(
            f"/api/tournaments/{tid}/entries", {"name": f"Pair {t}", "members": members}, format="json"
        )
        assert made.status_code == 201, made.content
    assert organiser.post(f"/api/tournaments/{tid}/start", {}, format="json").status_code == 200
    table = Table.objects.get(round__tournament_id=tid)
    before = table.match_id
    moved = organiser.post(f"/api/tables/{table.pk}/physical", {}, format="json")
    assert moved.status_code == 200, moved.content
    table.refresh_from_db()
    assert table.match_id != before and table.physical
    # The new match seats the same members, each pair's seat held and partnered as before.
    assert members_at(table) == {"Pair 0": ["p0-a", "p0-b"], "Pair 1": ["p1-a", "p1-b"]}
    for t in range(2):
        for who in ("a", "b"):
            user = get_user_model().objects.get(username=f"p{t}-{who}")
            view = client_for(user).get(f"/api/matches/{table.match_id}").json()["state"]
            assert view["you"] == f"Pair {t}"
