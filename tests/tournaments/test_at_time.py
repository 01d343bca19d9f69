"""Rounds at time through the API (docs/tournaments.md, "Rounds at time"; rules.md §9.1):
the director calls time on a round, each table still playing ends by the tournament's
policy as events of its match, its result marks it decided at time, and the refusals
(twice, a finished round, a player) store nothing. Every match is played through the real
match service."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from cacho.models import Event, Seat
from cacho.services import matches as match_service
from tests.cacho.helpers import state_of
from tournaments.clubs.members import create_club
from tournaments.models import Round, Table, Tournament, TournamentEvent
from tournaments.services import at_time, register, start_tournament
from tournaments.services.results import sweep

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

_commands = itertools.count(1)


def organise(ruleset: str = "dudo", players: int = 3, **settings: Any) -> tuple[Tournament, Any, list[Any]]:
    """A running tournament of one table of `players`, its organiser and its players."""
    users = get_user_model()
    organiser = users.objects.create(username=f"director-{ruleset}")
    club = create_club(f"Club {ruleset}", f"club-{ruleset}", organiser)
    client = APIClient()
    client.force_authenticate(organiser)
    fmt = {"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": players}}
    body = {"club": club.pk, "name": "Night", "ruleset": ruleset, "stages": [fmt], "turn_seconds": 600}
    response = client.post("/api/tournaments", {**body, **settings}, format="json")
    assert response.status_code == 201, response.json()
    tournament = Tournament.objects.get(pk=response.json()["id"])
    people = []
    for i in range(players):
        user = users.objects.create(username=f"{ruleset}-p{i}")
        register(tournament.pk, organiser, name=f"P{i}", user=user)
        people.append(user)
    start_tournament(tournament.pk, organiser)
    return tournament, organiser, people


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def current_round(tournament: Tournament) -> Round:
    rnd = tournament.rounds.order_by("-number").first()
    assert rnd is not None
    return rnd


def finish_bidding_round(match_id: Any) -> None:
    """The round in play ends: the opener bids one die, the next player doubts it."""
    state = state_of(match_id)
    opener = state.config.players[state.round.to_act]
    match_service.submit(match_id, opener, {"type": "bid", "quantity": 1, "face": 2}, f"t-{next(_commands)}")
    state = state_of(match_id)
    doubter = state.config.players[state.round.to_act]
    match_service.submit(match_id, doubter, {"type": "dudo"}, f"t-{next(_commands)}")


def stored(tournament: Tournament, rnd: Round) -> tuple[int, int, Any]:
    """What a refused call must leave as it was: the log, the matches' events, the round."""
    rnd.refresh_from_db()
    return (
        TournamentEvent.objects.filter(tournament=tournament).count(),
        Event.objects.count(),
        rnd.time_called_at,
    )


def test_the_default_policy_ends_a_table_on_dice_left_with_shared_places() -> None:
    tournament, organiser, _ = organise()
    assert tournament.time_policy == "" and tournament.call_time_automatically is False
    rnd = current_round(tournament)
    table = rnd.tables.get()
    response = client_of(organiser).post(f"/api/rounds/{rnd.pk}/call-time")
    assert response.status_code == 200, response.json()
    assert response.json()["time_policy"] == "dice-left"
    assert response.json()["time_called_at"] is not None

    # the round under way plays on: the table is live, and its players see the call
    table.refresh_from_db()
    assert table.status == Table.PLAYING
    match = client_of(organiser).get(f"/api/matches/{table.match_id}").json()
    assert match["state"]["time_called"] == {"policy": "dice-left", "decided_at_time": False, "set_aside": {}}

    finish_bidding_round(table.match_id)
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    assert all(row["at_time"] for row in table.result)
    places = sorted(row["placement"] for row in table.result)
    assert places == [1, 1, 3]  # the two on five dice share the first place
    by_dice = {row["dice_left"]: row["placement"] for row in table.result}
    assert by_dice == {5: 1, 4: 3}

    # the match's events say who called time and by which rule
    types = list(Event.objects.filter(stream_id=table.match_id).values_list("type", "metadata"))
    called = [meta for kind, meta in types if kind == "time_called"]
    assert called and called[0]["actor"].startswith("referee:user:")
    assert [kind for kind, _ in types][-1] == "decided_at_time"

    # the log, the console and the tables' JSON carry it
    logged = TournamentEvent.objects.filter(tournament=tournament, type="time-called").get()
    assert logged.payload == {"round": 1, "policy": "dice-left", "automatic": False, "tables": [1]}
    console = client_of(organiser).get(f"/api/tournaments/{tournament.pk}/console").json()
    assert console["rounds"][0]["time_called_at"] is not None
    rounds = client_of(organiser).get(f"/api/tournaments/{tournament.pk}/rounds").json()
    first = next(r for r in rounds if r["number"] == 1)
    assert first["time_called_at"] is not None
    assert first["tables"][0]["decided_at_time"] is True


def test_calling_time_twice_on_a_finished_round_or_as_a_player_stores_nothing() -> None:
    tournament, organiser, players = organise()
    rnd = current_round(tournament)
    before = stored(tournament, rnd)
    refused = client_of(players[0]).post(f"/api/rounds/{rnd.pk}/call-time")
    assert refused.status_code == 403
    assert refused.json()["code"] == "forbidden"
    assert stored(tournament, rnd) == before

    assert client_of(organiser).post(f"/api/rounds/{rnd.pk}/call-time").status_code == 200
    before = stored(tournament, rnd)
    again = client_of(organiser).post(f"/api/rounds/{rnd.pk}/call-time")
    assert again.status_code == 409
    assert again.json()["code"] == "time-already-called"
    assert stored(tournament, rnd) == before

    finish_bidding_round(rnd.tables.get().match_id)
    rnd.refresh_from_db()
    assert rnd.status == Round.FINISHED
    before = stored(tournament, rnd)
    late = client_of(organiser).post(f"/api/rounds/{rnd.pk}/call-time")
    assert late.status_code == 409
    assert late.json()["code"] == "round-finished"
    assert stored(tournament, rnd) == before
    assert client_of(organiser).post("/api/rounds/999999/call-time").json()["code"] == "not-found"


def test_the_time_policy_is_checked_per_game_and_frozen_at_the_start() -> None:
    users = get_user_model()
    organiser = users.objects.create(username="policy-director")
    club = create_club("Club policy", "club-policy", organiser)
    client = client_of(organiser)
    body = {"club": club.pk, "name": "Night", "ruleset": "dudo"}
    wrong = client.post("/api/tournaments", {**body, "time_policy": "sheet-as-it-stands"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "time-policy-invalid"
    made = client.post("/api/tournaments", {**body, "time_policy": "sudden-death"}, format="json").json()
    assert made["time_policy"] == "sudden-death"
    changed = client.patch(
        f"/api/tournaments/{made['id']}",
        {"time_policy": "two-more-rounds", "call_time_automatically": True},
        format="json",
    )
    assert changed.status_code == 200
    assert changed.json()["time_policy"] == "two-more-rounds" and changed.json()["call_time_automatically"]
    logged = TournamentEvent.objects.filter(tournament_id=made["id"], type="settings-changed").get()
    assert logged.payload["changes"] == {"time_policy": "two-more-rounds", "call_time_automatically": True}

    tournament, organiser, _ = organise()
    frozen = client_of(organiser).patch(
        f"/api/tournaments/{tournament.pk}", {"time_policy": "sudden-death"}, format="json"
    )
    assert frozen.status_code == 400 and frozen.json()["code"] == "tournament-frozen"


def test_the_round_clock_calls_time_at_zero_when_the_tournament_says_so() -> None:
    tournament, organiser, _ = organise(call_time_automatically=True)
    rnd = current_round(tournament)
    client = client_of(organiser)
    assert client.post(f"/api/rounds/{rnd.pk}/clock", {"action": "start", "minutes": 1}).status_code == 200
    assert at_time.call_due() == 0  # a minute left: nothing to do
    later = timezone.now() + dt.timedelta(minutes=2)
    assert at_time.call_due(later) == 1
    assert at_time.call_due(later) == 0  # called once, left alone after
    rnd.refresh_from_db()
    assert rnd.time_called_at is not None
    logged = TournamentEvent.objects.filter(tournament=tournament, type="time-called").get()
    assert logged.actor == "clock" and logged.payload["automatic"] is True
    sweep()  # the sweep runs the same check, and finds nothing left to call
    assert TournamentEvent.objects.filter(tournament=tournament, type="time-called").count() == 1


def test_an_alalay_table_ends_with_its_sheet_as_it_stands() -> None:
    tournament, organiser, _ = organise("alalay", players=2)
    rnd = current_round(tournament)
    table = rnd.tables.get()
    assert client_of(organiser).post(f"/api/rounds/{rnd.pk}/call-time").json()["time_policy"] == (
        "sheet-as-it-stands"
    )
    state = state_of(table.match_id)
    entry = state.entries[state.turn.seat].name
    name = Seat.objects.get(match_id=table.match_id, name=entry).name
    match_service.submit(table.match_id, name, {"type": "throw"}, f"t-{next(_commands)}")
    state = state_of(table.match_id)
    if not state.over:  # a dormida would have ended it at once
        from cacho.engine.alalay import legal_actions

        legal = legal_actions(state, name)
        box = {"type": "score", "box": legal.score[0]} if legal.score else None
        if box is None:
            match_service.submit(table.match_id, name, {"type": "reroll", "keep": []}, f"t-{next(_commands)}")
            state = state_of(table.match_id)
            legal = legal_actions(state, name)
            for position in legal.turn_positions[:1] if legal.must_turn else []:
                match_service.submit(
                    table.match_id, name, {"type": "turn", "position": position}, f"t-{next(_commands)}"
                )
            legal = legal_actions(state_of(table.match_id), name)
            kind = "score" if legal.score else "scratch"
            box = {"type": kind, "box": (legal.score or legal.scratch)[0]}
        match_service.submit(table.match_id, name, box, f"t-{next(_commands)}")
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    if state_of(table.match_id).win_reason == "at-time":
        assert all(row["at_time"] for row in table.result)
