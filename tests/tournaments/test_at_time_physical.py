"""A physical table at time (docs/physical.md, "At time"; docs/rules.md §9.1): the director's
call reaches the scorekeeper's sheet, the scorekeeper enters the play under way as usual
and the engine applies the tournament's policy to the state the entries give; the players
confirm the sheet and the table's result is marked decided at time, in the standings too.
Every step through the API."""

from __future__ import annotations

from typing import Any

import pytest

from cacho.engine.games import GAMES
from tests.tournaments.test_physical import client, evening, post_entry, sheet
from tournaments.models import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

ALALAY_EVENT = [
    {
        "name": "a",
        "format": "alalay_event",
        "params": {"table_size": 3, "qualifying_rounds": 1, "finalists": 2},
    }
]


def call_time(night: dict[str, Any], table: Table) -> None:
    response = client(night["owner"]).post(f"/api/rounds/{table.round_id}/call-time")
    assert response.status_code == 200, response.content


def confirm_all(keeper: Any, table: Table, current: dict[str, Any]) -> None:
    seats = {seat["name"]: seat["entry"] for seat in current["seats"]}
    confirm = f"/api/tables/{table.pk}/confirm"
    assert (
        keeper.post(confirm, {"entry": seats["Ana"], "password": "pw-1234567"}, format="json").status_code
        == 200
    )
    for guest in ("Beto", "Caro"):
        assert keeper.post(confirm, {"entry": seats[guest], "name": guest}, format="json").status_code == 200


def test_a_bidding_table_plays_its_round_under_way_then_dice_left_decides_it(make_user: Any) -> None:
    night = evening(make_user)
    table, keeper = night["table"], client(night["keeper"])
    dice = {"Ana": [2, 2, 3, 4, 5], "Beto": [2, 2, 6, 6, 3], "Caro": [4, 4, 4, 1, 6]}
    assert post_entry(keeper, table, type="dice", dice=dice).status_code == 201  # the round begins
    call_time(night, table)

    current = sheet(keeper, table)
    assert current["match"]["state"]["time_called"]["decided_at_time"] is False and not current["over"]
    to_act = current["options"]["to_act"]
    assert post_entry(keeper, table, type="bid", by=to_act, quantity=12, face=2).status_code == 201
    doubter = sheet(keeper, table)["options"]["to_act"]
    ended = post_entry(keeper, table, type="dudo", by=doubter)  # 6 twos (aces wild): the bid is false
    assert ended.status_code == 201, ended.content
    current = ended.json()
    assert current["over"] and current["match"]["state"]["time_called"]["decided_at_time"] is True

    # the decision is the engine's: the scorekeeper cannot undo past it
    undo = post_entry(keeper, table, type="undo")
    assert undo.status_code == 400

    confirm_all(keeper, table, current)
    table.refresh_from_db()
    assert table.status == Table.FINISHED and all(line["at_time"] for line in table.result)
    assert sorted(line["placement"] for line in table.result) == [1, 1, 3]
    standings = client(night["owner"]).get(f"/api/tournaments/{night['tournament'].pk}/standings").json()
    assert sorted(row["decided_at_time"] for row in standings["standings"]) == [1, 1, 1]


def enter_first_dudo(keeper: Any, table: Table) -> dict[str, Any]:
    """The scorekeeper enters a round by its outcome: a dudo whose caller loses the die."""
    choice = next(
        o
        for o in sheet(keeper, table)["options"]["outcomes"]
        if o["call"] == "dudo" and o["loser"] == o["by"]
    )
    entered = post_entry(
        keeper,
        table,
        type="outcome",
        call="dudo",
        by=choice["by"],
        loser=choice["loser"],
        direction=choice["direction"],
    )
    assert entered.status_code == 201, entered.content
    return dict(choice)


def test_a_table_entered_by_outcomes_waits_for_the_round_under_way(make_user: Any) -> None:
    night = evening(make_user)
    table, keeper = night["table"], client(night["keeper"])
    enter_first_dudo(keeper, table)
    call_time(night, table)
    current = sheet(keeper, table)
    # the engine sees no round between two entries, yet the table is playing one (T-1)
    assert not current["over"] and current["match"]["state"]["time_called"]["decided_at_time"] is False
    assert current["options"]["state_at_time"] == current["options"]["dice"]
    enter_first_dudo(keeper, table)  # the round under way, by its outcome: dice-left decides
    current = sheet(keeper, table)
    assert current["over"] and current["match"]["state"]["time_called"]["decided_at_time"] is True
    refused = post_entry(keeper, table, type="dice", dice={"Ana": [1] * 5})
    assert refused.status_code == 400 and refused.json()["code"] == "match-over"


def test_the_state_at_time_decides_a_table_entered_by_outcomes(make_user: Any) -> None:
    night = evening(make_user)
    table, keeper = night["table"], client(night["keeper"])
    first = enter_first_dudo(keeper, table)
    call_time(night, table)
    held = dict(sheet(keeper, table)["options"]["state_at_time"])
    other = next(name for name in held if name != first["by"])
    held[other] -= 1  # the round under way ended with a die lost by another player
    entered = post_entry(keeper, table, type="state-at-time", dice=held)
    assert entered.status_code == 201, entered.content
    current = entered.json()
    assert current["over"] and current["match"]["state"]["time_called"]["decided_at_time"] is True
    assert current["record"]["rounds"][-1]["outcome"] == {"at_time": held}
    confirm_all(keeper, table, current)
    table.refresh_from_db()
    assert table.status == Table.FINISHED and all(line["at_time"] for line in table.result)
    places = {line["dice_left"]: line["placement"] for line in table.result}
    assert places == {5: 1, 4: 2}  # the two players on 4 dice share the second place


def test_time_called_before_anything_is_entered_owes_the_first_round_and_the_record_exports(
    make_user: Any,
) -> None:
    night = evening(make_user)
    table, keeper = night["table"], client(night["keeper"])
    call_time(night, table)  # nothing entered yet: the table's first round is under way
    current = sheet(keeper, table)  # the sheet writes the match's record: no 500
    assert not current["over"] and current["match"]["state"]["time_called"]["decided_at_time"] is False
    assert current["record"]["rounds"] == []
    assert current["record"]["rulings"][0]["ruling"]["round_under_way"] is True
    held = dict(current["options"]["state_at_time"])
    assert held == {"Ana": 5, "Beto": 5, "Caro": 5}
    held["Beto"] -= 1  # the first round ended with Beto a die fewer
    entered = post_entry(keeper, table, type="state-at-time", dice=held)
    assert entered.status_code == 201, entered.content
    current = entered.json()
    assert current["over"] and current["match"]["state"]["time_called"]["decided_at_time"] is True
    assert current["record"]["rounds"] == [{"outcome": {"at_time": held}, "direction": "cw"}]
    assert current["outcome"]["valid"] and current["outcome"]["rounds"][0]["result"] == "at-time"
    confirm_all(keeper, table, current)
    table.refresh_from_db()
    assert table.status == Table.FINISHED and all(line["at_time"] for line in table.result)
    places = {line["dice_left"]: line["placement"] for line in table.result}
    assert places == {5: 1, 4: 3}  # Ana and Caro share the first place
    exported = client(None).get(f"/api/matches/{table.match_id}/record")  # anyone, once finished
    assert exported.status_code == 200, exported.content
    record = exported.json()
    assert (
        record["rulings"] == current["record"]["rulings"] and record["rounds"] == current["record"]["rounds"]
    )
    assert GAMES["dudo"].replay_record(record)["time_called"]["placements"] == {
        "Ana": 1,
        "Caro": 1,
        "Beto": 3,
    }
    imported = keeper.post("/api/matches/import", record, format="json")  # and it reads back
    assert imported.status_code == 201, imported.content
    again = client(night["owner"]).get(f"/api/matches/{imported.json()['id']}/record")
    assert again.status_code == 200 and again.json() == record
    twice = {**record, "rulings": record["rulings"] * 2, "rounds": []}  # judged as live play would
    refused = keeper.post("/api/matches/import", twice, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "time-already-called"
    assert refused.json()["message"].startswith("ruling 2 before the first round: ")


def test_a_state_at_time_no_round_could_leave_is_refused_and_nothing_stored(make_user: Any) -> None:
    night = evening(make_user)
    table, keeper = night["table"], client(night["keeper"])
    enter_first_dudo(keeper, table)
    early = post_entry(keeper, table, type="state-at-time", dice={"Ana": 5, "Beto": 5, "Caro": 5})
    assert early.status_code == 400 and early.json()["code"] == "time-no-round-owed"
    call_time(night, table)
    before = sheet(keeper, table)
    held = {name: count - 1 for name, count in before["options"]["state_at_time"].items()}
    refused = post_entry(keeper, table, type="state-at-time", dice=held)  # everyone a die fewer
    assert refused.status_code == 400
    assert set(refused.json()) >= {"code", "message"} and refused.json()["code"] == "state-at-time-impossible"
    after = sheet(keeper, table)
    assert after["version"] == before["version"] and not after["over"]


def test_an_alalay_table_finishes_the_turn_under_way_then_ends_with_its_sheet_as_it_stands(
    make_user: Any,
) -> None:
    night = evening(make_user, ruleset="alalay", stages=ALALAY_EVENT)
    table = Table.objects.filter(round__tournament=night["tournament"]).first()
    assert table is not None
    keeper = client(night["keeper"])
    by = sheet(keeper, table)["options"]["to_act"]
    assert post_entry(keeper, table, type="throw", by=by, dice=[2, 3, 4, 5, 6]).status_code == 201
    call_time(night, table)
    assert not sheet(keeper, table)["over"]  # the turn under way is finished first
    ended = post_entry(keeper, table, type="score", by=by, box="straight")
    assert ended.status_code == 201, ended.content
    current = ended.json()
    assert current["over"] and current["match"]["state"]["time_called"]["decided_at_time"] is True
    confirm_all(keeper, table, current)
    table.refresh_from_db()
    assert table.status == Table.FINISHED and all(line["at_time"] for line in table.result)
    places = {line["alalay_total"]: line["placement"] for line in table.result}
    assert places[25] == 1 and places[0] == 2  # the two empty sheets share the second place
