"""Properties of rulings over the real services and database, for sequences of
disputes drawn by hypothesis on a live 1v1 Dudo tournament table (few examples: each plays
through PostgreSQL):

* any sequence of rulings (engine refusals included) leaves every stream verifiable: the
  match's hash chain and its dice seeds (`verify_match`, as `GET /api/matches/<id>/verify`
  answers), and the tournament's log; the replay of the stored events equals the live state;
* no hidden die reaches a non-referee (the seated players, a spectator, another club's
  referee) through the dispute endpoints or the preview: neither a hand still under the cups
  nor its unrevealed seed appears in anything they are answered. Positive control: the
  club's referee, reviewing the match, does receive those hands.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from cacho.engine.games import game_for
from cacho.models import DiceSeed, Event, Match
from cacho.services import matches as match_service
from cacho.services.verify import verify_match
from tests.cacho.helpers import bot_move, state_of
from tests.tournaments.helpers import club_with_organiser
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Dispute, Membership, Table
from tournaments.services import (
    TournamentError,
    create_tournament,
    disputes,
    log,
    register,
    rulings,
    start_tournament,
)

pytestmark = pytest.mark.django_db(transaction=True)

ONE_ROUND_1V1 = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
_evenings = itertools.count(1)
_moves = itertools.count(1)


def _client(user: Any) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _evening(make_user: Any) -> dict[str, Any]:
    n = next(_evenings)
    club, owner = club_with_organiser(make_user, f"props{n}")
    referee = make_user(f"rita{n}")
    add_member(club.pk, referee, Membership.REFEREE, owner)
    other_club, other_owner = club_with_organiser(make_user, f"other{n}")
    outsider = make_user(f"otto{n}")
    add_member(other_club.pk, outsider, Membership.REFEREE, other_owner)
    tournament = create_tournament(club.pk, owner, name=f"Props {n}", ruleset="dudo", stages=ONE_ROUND_1V1)
    players = {name: make_user(f"{name}{n}") for name in ("ana", "beto")}
    for name, user in players.items():
        register(tournament.pk, owner, name=name, user=user)
    start_tournament(tournament.pk, owner)
    table = Table.objects.get(round__tournament=tournament)
    return {
        "tournament": tournament,
        "table": table,
        "referee": referee,
        "players": players,
        "outsiders": {"spectator": make_user(f"zoe{n}"), "other-referee": outsider, "anonymous": None},
    }


def _ruling(data: st.DataObject, state: Any) -> dict[str, Any]:
    """A ruling that may or may not fit the match (the engine judges it)."""
    players = list(state.config.players)
    started = [start.number for start in state.table.round_starts] or [1]
    over = state.phase == "over"
    live = ["uphold", "void-round", "adjust-dice", "penalty", "award-result"]
    kinds = ["uphold", "reopen"] if over else live
    kind = data.draw(st.sampled_from(kinds), label="kind")
    if kind in ("void-round", "reopen"):
        return {"kind": kind, "round": data.draw(st.sampled_from(started), label="round")}
    if kind == "adjust-dice":
        return {
            "kind": kind,
            "player": data.draw(st.sampled_from(players), label="player"),
            "delta": data.draw(st.sampled_from([-2, -1, 1]), label="delta"),
        }
    if kind == "penalty":
        return {"kind": kind, "seat": data.draw(st.sampled_from(players), label="seat"), "dice": 1}
    if kind == "award-result":
        order = data.draw(st.permutations(players), label="placements")
        return {"kind": kind, "placements": {name: place for place, name in enumerate(order, 1)}}
    return {"kind": kind}


def _hidden(match_id: Any) -> tuple[list[str], list[str]]:
    """The hands still under the cups (as compact JSON lists, 3 dice or more: shorter ones
    could be any small list) and the seeds not yet revealed."""
    unrevealed = DiceSeed.objects.filter(match_id=match_id, revealed=False)
    secret = dict(unrevealed.values_list("scope", "seed"))
    hands = []
    for event in Event.objects.filter(stream_id=match_id, type="round_started"):
        if f"round-{event.payload['number']}" in secret:
            shown = [hand for hand in event.payload["dice"] if len(hand) >= 3]
            hands += [json.dumps(hand, separators=(",", ":")) for hand in shown]
    return hands, list(secret.values())


def _answers_for(user: Any, dispute_id: int, match_id: Any, ruling: dict[str, Any]) -> list[str]:
    client = _client(user)
    answers = [
        client.get(f"/api/disputes/{dispute_id}"),
        client.get("/api/disputes?status=all"),
        client.get(f"/api/matches/{match_id}/disputes"),
        client.post(f"/api/disputes/{dispute_id}/preview", {"ruling": ruling}, format="json"),
        client.post(f"/api/disputes/{dispute_id}/comments", {"text": "Any news?"}, format="json"),
        # the referees' tools and the end screen's place in the tournament
        client.get(f"/api/disputes/{dispute_id}/notes"),
        client.post(f"/api/disputes/{dispute_id}/appeal", {"text": "Again"}, format="json"),
        client.get(f"/api/matches/{match_id}/tournament"),
    ]
    return [answer.content.decode() for answer in answers]


def _check_streams(evening: dict[str, Any]) -> None:
    match = Match.objects.get(pk=evening["table"].match_id)
    report = verify_match(match)
    assert report["valid"], report
    assert _client(None).get(f"/api/matches/{match.pk}/verify").json()["valid"] is True
    valid, head = log.verify_chain(evening["tournament"].pk)
    assert valid
    assert head == type(evening["tournament"]).objects.get(pk=evening["tournament"].pk).head_hash
    game = game_for(match.ruleset)
    stored = [
        game.event_from_dict({"type": e.type, **e.payload})
        for e in Event.objects.filter(stream=match).order_by("version")
    ]
    assert game.replay(stored) == state_of(match)  # the corrected record replays to the live state


def _check_no_hidden_die(evening: dict[str, Any], dispute_id: int, ruling: dict[str, Any]) -> int:
    """How many hands were under the cups (each checked)."""
    match_id = evening["table"].match_id
    hands, seeds = _hidden(match_id)
    party = list(evening["players"].values())
    for user in [*party, *evening["outsiders"].values()]:
        for text in _answers_for(user, dispute_id, match_id, ruling):
            for secret in hands + seeds:
                assert secret not in text, (getattr(user, "username", "anonymous"), secret)
    # positive control: the referee's review of the same match shows every hand under the cups
    reviewed = _client(evening["referee"]).get(f"/api/matches/{match_id}/events?after=0").content.decode()
    assert all(hand in reviewed for hand in hands), hands
    return len(hands)


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_sequence_of_rulings_keeps_every_stream_verifiable_and_no_die_leaks(
    make_user: Any, data: st.DataObject
) -> None:
    evening = _evening(make_user)
    match_id = evening["table"].match_id
    rng = random.Random(data.draw(st.integers(0, 10_000), label="bots"))
    filer_name, filer = next(iter(evening["players"].items()))
    checked = []
    for _ in range(data.draw(st.integers(1, 4), label="disputes")):
        for _ in range(data.draw(st.integers(0, 8), label="moves")):
            state = state_of(match_id)
            if state.phase == "over" or state.paused is not None:
                break
            player, command = bot_move(state, rng)
            match_service.submit(match_id, player, command, f"props-{next(_moves)}")
        dispute = disputes.file_dispute(match_id, filer, reason="other", text=f"{filer_name} asks")
        if data.draw(st.booleans(), label="pause") and state_of(match_id).phase != "over":
            disputes.pause(dispute.pk, evening["referee"], "Reviewing")
        ruling = _ruling(data, state_of(match_id))
        checked.append(_check_no_hidden_die(evening, dispute.pk, ruling))
        try:
            rulings.rule(dispute.pk, evening["referee"], ruling, "the referee's reason")
        except TournamentError as refused:
            assert refused.code.startswith("ruling-"), refused.code  # the engine's own refusal
            if Dispute.objects.get(pk=dispute.pk).paused:
                disputes.resume(dispute.pk, evening["referee"])
            disputes.withdraw(dispute.pk, filer)
        _check_streams(evening)
    assert checked[0] > 0  # the first dispute comes while a round is under the cups: a real check
