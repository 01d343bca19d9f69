"""Physical tables (docs/physical.md): who may keep score, entries judged by the engine and
stored at once, the undo, the players' confirmation, no clock ever, and the result in the
standings like an online table's."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from rest_framework.test import APIClient

from cacho.engine.errors import RuleError
from cacho.eventlog import store
from cacho.models import DiceSeed, Event, Match
from cacho.services import deadlines
from cacho.services import matches as match_service
from tests.tournaments.helpers import club_with_organiser
from tournaments.models import Membership, StandingRow, Table, Tournament, TournamentEvent
from tournaments.services import create_tournament, register, start_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

_ids = itertools.count(1)
ONE_TABLE_OF_3 = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 3}}]
SCHEDULED: list[tuple[Any, int, int]] = []


@pytest.fixture(autouse=True)
def recorded_timers(settings: Any) -> None:
    """Any turn timer the write path asks for is recorded here instead of being kept."""
    SCHEDULED.clear()
    deadlines.register(
        "recorded", lambda match, version, deadline: SCHEDULED.append((match, version, deadline))
    )
    settings.CACHO_TIMERS = "recorded"


def client(user: Any) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def evening(
    make_user: Any, *, ruleset: str = "dudo", stages: Any = None, physical: bool = True
) -> dict[str, Any]:
    """A club with a scorekeeper, a tournament of one table (ana has an account, beto and
    caro are guests), started."""
    club, owner = club_with_organiser(make_user)
    keeper = make_user("keeper")
    Membership.objects.create(club=club, user=keeper, role=Membership.SCOREKEEPER)
    ana = make_user("ana")
    tournament = create_tournament(
        club.pk, owner, name="Evening", ruleset=ruleset, stages=stages or ONE_TABLE_OF_3, physical=physical
    )
    for name, user in (("Ana", ana), ("Beto", None), ("Caro", None)):
        register(tournament.pk, owner, name=name, user=user)
    start_tournament(tournament.pk, owner)
    table = Table.objects.get(round__tournament=tournament)
    return {
        "club": club,
        "owner": owner,
        "keeper": keeper,
        "ana": ana,
        "tournament": tournament,
        "table": table,
    }


def post_entry(api: APIClient, table: Table, **entry: Any) -> Any:
    return api.post(
        f"/api/tables/{table.pk}/entries", {"command_id": f"e{next(_ids)}", **entry}, format="json"
    )


def sheet(api: APIClient, table: Table) -> dict[str, Any]:
    response = api.get(f"/api/tables/{table.pk}/sheet")
    assert response.status_code == 200, response.content
    return dict(response.json())


def by_outcome_until_over(api: APIClient, table: Table, spare: str) -> dict[str, Any]:
    """The scorekeeper enters round after round by its outcome (a button the sheet offers),
    `spare` never losing, until the match is over."""
    current = sheet(api, table)
    while not current["over"]:
        choice = next(
            o for o in current["options"]["outcomes"] if o["call"] == "dudo" and o["loser"] != spare
        )
        response = post_entry(
            api,
            table,
            type="outcome",
            call="dudo",
            by=choice["by"],
            loser=choice["loser"],
            direction=choice["direction"],
            expected_version=current["version"],
        )
        assert response.status_code == 201, response.content
        current = response.json()
    return current


def test_a_table_entered_by_outcome_is_confirmed_by_its_players_and_reaches_the_standings(
    make_user: Any,
) -> None:
    night = evening(make_user)
    table, keeper = night["table"], client(night["keeper"])
    assert table.physical
    listed = client(None).get(f"/api/tournaments/{night['tournament'].pk}/rounds").json()[0]["tables"][0]
    assert listed["physical"] is True and listed["scorekeeper_url"] == f"/scorekeeper/tables/{table.pk}/"
    match = Match.objects.get(pk=table.match_id)
    assert match.version == 1 and match.turn_key == "" and match.deadline_ms is None
    assert not DiceSeed.objects.filter(match=match).exists()  # nothing is rolled at a physical table

    # who may keep score: the club's scorekeeper; not a player, another club's keeper, nobody
    other_club, _ = club_with_organiser(make_user, slug="other")
    stranger = make_user("stranger")
    Membership.objects.create(club=other_club, user=stranger, role=Membership.SCOREKEEPER)
    first_seat, second, third = match_service_seats(table.match_id)  # the draw seated them
    entry = {"type": "outcome", "call": "dudo", "by": second, "loser": first_seat}
    for api, status, code in (
        (client(night["ana"]), 403, "forbidden"),
        (client(stranger), 403, "forbidden"),
        (client(None), 403, "not-authenticated"),
    ):
        refused = post_entry(api, table, **entry)
        assert (refused.status_code, refused.json()["code"]) == (status, code)
        assert api.get(f"/api/tables/{table.pk}/sheet").status_code == status
    assert Event.objects.filter(stream=match).count() == 1

    # an illegal entry is refused on the spot with the rule's words, and changes nothing
    refused = post_entry(keeper, table, type="outcome", call="dudo", by=second, loser=third)
    assert refused.status_code == 400 and refused.json()["code"] == "outcome-loser"
    assert f"{second} or {first_seat}" in refused.json()["message"]
    judged = keeper.post(f"/api/tables/{table.pk}/check", {**entry}, format="json")
    assert judged.status_code == 200 and judged.json()["events"][0]["type"] == "round_recorded"
    assert Event.objects.filter(stream=match).count() == 1

    # each entry is an event at once; the last one can be undone, once
    first = post_entry(keeper, table, **entry, expected_version=1)
    assert first.status_code == 201 and first.json()["version"] == 2 and first.json()["undo"]
    stale = post_entry(keeper, table, **entry, expected_version=1)
    assert (stale.status_code, stale.json()["code"]) == (409, "version-conflict")
    undone = post_entry(keeper, table, type="undo")
    assert undone.status_code == 201 and undone.json()["version"] == 3 and undone.json()["undo"] is None
    assert undone.json()["record"]["rounds"] == []
    again = post_entry(keeper, table, type="undo")
    assert (again.status_code, again.json()["code"]) == (400, "nothing-to-undo")

    refused = client(night["keeper"]).post(f"/api/tables/{table.pk}/confirm", {"entry": 1}, format="json")
    assert refused.status_code in (400, 409)
    finished = by_outcome_until_over(keeper, table, spare="Ana")
    assert finished["outcome"]["winner"] == "Ana"
    assert not SCHEDULED  # no turn timer, ever
    table.refresh_from_db()
    assert (
        table.status == Table.PLAYING and not StandingRow.objects.exists()
    )  # not before the players confirm

    seats = {seat["name"]: seat["entry"] for seat in finished["seats"]}
    confirm = f"/api/tables/{table.pk}/confirm"
    wrong = keeper.post(confirm, {"entry": seats["Beto"], "name": "Bruno"}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (400, "confirm-name-mismatch")
    wrong = keeper.post(confirm, {"entry": seats["Ana"], "password": "guess"}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (403, "confirm-password-wrong")
    assert (
        keeper.post(confirm, {"entry": seats["Ana"], "password": "pw-1234567"}, format="json").status_code
        == 200
    )
    assert keeper.post(confirm, {"entry": seats["Beto"], "name": " béto "}, format="json").status_code == 200
    # an undo now makes the confirmations stale: the sheet changed under them
    keeper_sheet = post_entry(keeper, table, type="undo").json()
    assert not keeper_sheet["over"] and not any(seat["confirmed"] for seat in keeper_sheet["seats"])
    finished = by_outcome_until_over(keeper, table, spare="Ana")
    for name, proof in (("Ana", {"password": "pw-1234567"}), ("Beto", {"name": "Beto"})):
        done = keeper.post(confirm, {"entry": seats[name], **proof}, format="json").json()
        assert done["closed"] is False
    done = keeper.post(confirm, {"entry": seats["Caro"], "name": "caro"}, format="json").json()
    assert done["closed"] is True and done["sheet"]["closed"] is True

    table.refresh_from_db()
    assert table.status == Table.FINISHED
    ana_line = next(line for line in table.result if line["entry"] == seats["Ana"])
    assert ana_line["placement"] == 1
    types = list(
        TournamentEvent.objects.filter(tournament=night["tournament"]).values_list("type", flat=True)
    )
    assert types.count("sheet-confirmed") == 5 and "table-finished" in types
    rows = StandingRow.objects.filter(tournament=night["tournament"]).order_by("position")
    assert rows.first().entry_id == seats["Ana"]
    closed = post_entry(keeper, table, type="undo")
    assert (closed.status_code, closed.json()["code"]) == (409, "table-closed")


def test_full_entry_takes_the_dice_and_every_move_and_nothing_runs_on_a_clock(make_user: Any) -> None:
    night = evening(make_user)
    table, keeper = night["table"], client(night["keeper"])
    dice = {"Ana": [1, 2, 3, 4, 5], "Beto": [2, 2, 6, 6, 3], "Caro": [4, 4, 4, 1, 6]}
    short = post_entry(keeper, table, type="dice", dice={**dice, "Caro": [4, 4]})
    assert short.status_code == 400 and short.json()["code"] == "dice-mismatch"
    assert post_entry(keeper, table, type="dice", dice=dice).status_code == 201
    to_act = sheet(keeper, table)["options"]["to_act"]
    low = post_entry(keeper, table, type="bid", by=to_act, quantity=0, face=3)
    assert low.status_code == 400 and low.json()["code"] in ("invalid-quantity", "bid-not-higher")
    assert post_entry(keeper, table, type="bid", by=to_act, quantity=3, face=4).status_code == 201
    after = sheet(keeper, table)["options"]["to_act"]
    resolved = post_entry(keeper, table, type="dudo", by=after)
    assert resolved.status_code == 201, resolved.content
    match = Match.objects.get(pk=table.match_id)
    assert match.turn_key == "" and match.deadline_ms is None and not SCHEDULED
    assert all(
        event.metadata["actor"] == f"scorekeeper:{night['keeper'].pk}"
        for event in Event.objects.filter(stream=match, version__gt=1)
    )
    assert (match.pk, match.version) not in store.due_turns(10**15)
    verified = client(None).get(f"/api/matches/{match.pk}/verify").json()
    assert verified["valid"] is True and verified["dice_entered"] is True
    # the players at a physical table send no moves; a bot plays none
    with pytest.raises(RuleError) as refused:
        match_service.submit(match.pk, "Ana", {"type": "bid", "quantity": 1, "face": 2}, "p1")
    assert refused.value.code == "physical-table"


def test_an_alalay_table_turn_by_turn(make_user: Any) -> None:
    night = evening(
        make_user,
        ruleset="alalay",
        stages=[
            {
                "name": "a",
                "format": "alalay_event",
                "params": {"table_size": 3, "qualifying_rounds": 1, "finalists": 2},
            }
        ],
    )
    table, keeper = (
        Table.objects.filter(round__tournament=night["tournament"]).first(),
        client(night["keeper"]),
    )
    current = sheet(keeper, table)
    by = current["options"]["to_act"]
    four = post_entry(keeper, table, type="throw", by=by, dice=[1, 2, 3, 4])
    assert four.status_code == 400 and four.json()["code"] == "wrong-dice-count"
    assert post_entry(keeper, table, type="throw", by=by, dice=[2, 3, 4, 5, 6]).status_code == 201
    zero = post_entry(keeper, table, type="score", by=by, box="ones")
    assert zero.status_code == 400 and zero.json()["code"] == "score-is-zero"
    scored = post_entry(keeper, table, type="score", by=by, box="straight")
    assert scored.status_code == 201
    assert (
        scored.json()["match"]["state"]["entries"][
            [e["name"] for e in scored.json()["match"]["state"]["entries"]].index(by)
        ]["card"]["straight"]
        == 25
    )
    match = Match.objects.get(pk=table.match_id)
    assert match.deadline_ms is None and match.turn_key == "" and not SCHEDULED
    assert not DiceSeed.objects.filter(match=match).exists()


def test_an_organiser_makes_a_table_physical_and_a_record_file_can_be_its_match(make_user: Any) -> None:
    night = evening(make_user, physical=False)
    table = night["table"]
    referee = make_user("ref")
    Membership.objects.create(club=night["club"], user=referee, role=Membership.REFEREE)
    online = table.match_id
    refused = client(referee).post(f"/api/tables/{table.pk}/physical")
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    made = client(night["owner"]).post(f"/api/tables/{table.pk}/physical")
    assert made.status_code == 200 and made.json()["physical"] is True
    again = client(night["owner"]).post(f"/api/tables/{table.pk}/physical")
    assert (again.status_code, again.json()["code"]) == (409, "table-already-physical")
    table.refresh_from_db()
    assert table.match_id != online and table.physical
    old = Match.objects.get(pk=online)
    assert old.turn_key == "" and old.deadline_ms is None  # paused for good: no clock plays it out
    assert TournamentEvent.objects.filter(tournament=night["tournament"], type="table-made-physical").exists()

    keeper = client(night["keeper"])
    names = [
        seat["seat_name"]
        for seat in sorted(sheet(keeper, table)["seats"], key=lambda s: s["seat_name"] or "")
    ]
    players = match_service_seats(table.match_id)
    record = {
        "format": "cacho-match/1",
        "game": "dudo",
        "ruleset": "dudo",
        "players": players,
        "rounds": [{"outcome": {"by": players[1], "call": "dudo", "loser": players[0]}}],
    }
    wrong = keeper.post(
        f"/api/tables/{table.pk}/import", {**record, "players": list(reversed(players))}, format="json"
    )
    assert (wrong.status_code, wrong.json()["code"]) == (400, "import-players-mismatch")
    broken = {**record, "rounds": [{"outcome": {"by": players[1], "call": "dudo", "loser": players[2]}}]}
    wrong = keeper.post(f"/api/tables/{table.pk}/import", broken, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "outcome-loser"
    assert wrong.json()["message"].startswith("round 1: ")
    assert (
        client(night["ana"]).post(f"/api/tables/{table.pk}/import", record, format="json").status_code == 403
    )
    imported = keeper.post(f"/api/tables/{table.pk}/import", record, format="json")
    assert imported.status_code == 201, imported.content
    assert len(imported.json()["record"]["rounds"]) == 1 and imported.json()["match"]["state"]["physical"]
    assert sorted(names) == sorted(players)
    full = keeper.post(f"/api/tables/{table.pk}/import", record, format="json")
    assert (full.status_code, full.json()["code"]) == (409, "sheet-not-empty")
    assert {match for match, _, _ in SCHEDULED} == {online}  # the online match's timers only


def match_service_seats(match_id: Any) -> list[str]:
    from tournaments import matches

    return matches.seat_names(match_id)


def test_physical_is_set_at_creation_and_changeable_until_the_start(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user)
    api = client(owner)
    created = api.post(
        "/api/tournaments",
        {"club": club.pk, "name": "Cup", "ruleset": "dudo", "physical": True},
        format="json",
    )
    assert created.status_code == 201 and created.json()["physical"] is True
    tournament_id = created.json()["id"]
    assert (
        api.patch(f"/api/tournaments/{tournament_id}", {"physical": False}, format="json").json()["physical"]
        is False
    )
    changed = TournamentEvent.objects.filter(tournament_id=tournament_id, type="settings-changed").last()
    assert changed.payload == {"changes": {"physical": False}}
    for name in ("a", "b"):
        register(tournament_id, owner, name=name)
    start_tournament(tournament_id, owner)
    frozen = api.patch(f"/api/tournaments/{tournament_id}", {"physical": True}, format="json")
    assert (frozen.status_code, frozen.json()["code"]) == (400, "tournament-frozen")
    assert Tournament.objects.get(pk=tournament_id).physical is False


def test_a_withdrawal_leaves_a_physical_table_and_confirms_nothing(make_user: Any) -> None:
    from tournaments.models import Entry
    from tournaments.services import withdraw

    night = evening(make_user)
    table, keeper = night["table"], client(night["keeper"])
    caro = Entry.objects.get(tournament=night["tournament"], name="Caro")
    withdraw(caro.pk, night["owner"])  # between two rounds: Caro's dice leave the table
    current = sheet(keeper, table)
    assert current["record"]["rounds"] == [{"outcome": {"by": "Caro", "abandon": True}, "direction": "cw"}]
    assert current["undo"] is None  # the organiser's withdrawal is not the scorekeeper's to undo
    refused = post_entry(keeper, table, type="undo")
    assert (refused.status_code, refused.json()["code"]) == (400, "undo-not-an-entry")
    finished = by_outcome_until_over(keeper, table, spare="Ana")
    confirming = {seat["name"] for seat in finished["seats"] if seat["confirms"]}
    assert confirming == {"Ana", "Beto"}
    confirm = f"/api/tables/{table.pk}/confirm"
    seats = {seat["name"]: seat["entry"] for seat in finished["seats"]}
    gone = keeper.post(confirm, {"entry": seats["Caro"], "name": "Caro"}, format="json")
    assert (gone.status_code, gone.json()["code"]) == (400, "confirm-not-at-table")
    assert not keeper.post(confirm, {"entry": seats["Ana"], "password": "pw-1234567"}, format="json").json()[
        "closed"
    ]
    assert keeper.post(confirm, {"entry": seats["Beto"], "name": "Beto"}, format="json").json()["closed"]
    table.refresh_from_db()
    last = max(table.result, key=lambda line: line["placement"])
    assert last["entry"] == caro.pk and table.status == Table.FINISHED


def test_a_player_confirms_from_their_own_session_and_is_answered_without_the_sheet(make_user: Any) -> None:
    night = evening(make_user)
    table, keeper = night["table"], client(night["keeper"])
    finished = by_outcome_until_over(keeper, table, spare="Ana")
    seats = {seat["name"]: seat["entry"] for seat in finished["seats"]}
    confirm = f"/api/tables/{table.pk}/confirm"

    own = client(night["ana"]).post(confirm, {"entry": seats["Ana"]}, format="json")
    assert own.status_code == 200, own.content
    assert own.json() == {"entry": seats["Ana"], "how": "session", "closed": False, "sheet": None}
    assert [c["entry"] for c in Table.objects.get(pk=table.pk).confirmations] == [seats["Ana"]]
    # not Ana's to confirm for another (nothing stored)
    other = client(night["ana"]).post(confirm, {"entry": seats["Beto"], "name": "Beto"}, format="json")
    assert (other.status_code, other.json()["code"]) == (403, "forbidden")
    assert len(Table.objects.get(pk=table.pk).confirmations) == 1
    for name in ("Beto", "Caro"):
        done = keeper.post(confirm, {"entry": seats[name], "name": name}, format="json").json()
    assert done["closed"] is True and done["sheet"]["closed"] is True
