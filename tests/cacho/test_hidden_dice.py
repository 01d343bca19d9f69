"""No API response ever carries a hidden die to a viewer who may not see it.

Seeded random matches of every bidding ruleset are played through the API; after every
command each endpoint is read as every seated player, an unseated user and an anonymous
spectator, and every die found is compared with what the rules let that viewer see
(`visible_hands`). The seed of the round in progress must never appear anywhere.
"""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from cacho.engine.bidding.rules import make_rules
from cacho.engine.bidding.view import visible_hands
from cacho.engine.viewer import Viewer
from cacho.models import DiceSeed, Event, Match
from cacho.services import matches
from tests.cacho.helpers import legal_bidding_move, state_of

pytestmark = pytest.mark.usefixtures("committed_db")

User = get_user_model()


def clients(names: list[str]) -> dict[str, tuple[APIClient, Viewer]]:
    out: dict[str, tuple[APIClient, Viewer]] = {}
    for name in names:
        client = APIClient()
        client.force_authenticate(User.objects.get_or_create(username=name)[0])
        out[name] = (client, Viewer.of_player(name))
    stranger = APIClient()
    stranger.force_authenticate(User.objects.get_or_create(username="stranger")[0])
    out["stranger"] = (stranger, Viewer.spectator())
    out["anonymous"] = (APIClient(), Viewer.spectator())
    return out


def stored_round_dice(match: Match) -> dict[int, tuple[str, tuple[tuple[int, ...], ...]]]:
    """Version of each round_started -> (mode, dice) as stored (the truth)."""
    return {
        event.version: (event.payload["mode"], tuple(tuple(hand) for hand in event.payload["dice"]))
        for event in Event.objects.filter(stream=match, type="round_started")
    }


def check_responses(match: Match, players: tuple[str, ...], who: dict[str, tuple[APIClient, Viewer]]) -> None:
    state = state_of(match)
    rounds = stored_round_dice(match)
    secret = DiceSeed.objects.filter(match=match, revealed=False).values_list("seed", flat=True)
    base = f"/api/matches/{match.pk}"
    for client, viewer in who.values():
        responses = [
            client.get(base),
            client.get(f"{base}/events?after=0"),
            client.get(f"{base}/verify"),
            client.get(f"{base}/chat"),  # table talk (its socket frames: tests/cacho/test_talk_socket.py)
        ]
        for response in responses:
            assert response.status_code == 200, response.content
            text = response.content.decode()
            for seed in secret:
                assert seed not in text, "an unrevealed seed left the server"
        detail, events = responses[0].json(), responses[1].json()
        current = state.round
        shown = detail["state"]["round"]
        if current is None:
            assert shown is None
        else:
            assert shown["dice"] == visible_hands(players, current.mode, current.dice, viewer)
        for event in events["events"]:
            if event["t"] == "round_started":
                mode, dice = rounds[event["v"]]
                assert event["d"]["dice"] == visible_hands(players, mode, dice, viewer), (viewer, event)
            else:
                assert "dice" not in event["d"] or event["t"] != "round_started"


# On SQLite (`sqlite_too`) one ruleset, the one with every kind of hidden die (blind rounds):
# what a viewer is shown is decided above the database, the same on both; what SQLite
# changes is how the match is stored and read, which every ruleset reads alike.
@pytest.mark.parametrize(
    ("ruleset", "seed"),
    [
        ("dudo", 1),
        ("cacho-chileno", 2),
        pytest.param("cacho-online", 3, marks=pytest.mark.sqlite_too),
        ("liars-dice", 4),
    ],
)
def test_no_response_carries_a_die_its_viewer_may_not_see(ruleset: str, seed: int) -> None:
    rng = random.Random(seed)
    players = ("ana", "beto", "caro")
    make_rules(ruleset)
    match = matches.create_match(ruleset, list(players), first_seat=rng.randrange(3))
    for index, name in enumerate(players):
        matches.take_seat(match.pk, index, User.objects.get_or_create(username=name)[0])
    who = clients(list(players))
    steps = 0
    while steps < 60:
        check_responses(match, players, who)
        state = state_of(match)
        if state.phase == "over":
            break
        player, command = legal_bidding_move(state, rng)
        client = who[player][0]
        response = client.post(
            f"/api/matches/{match.pk}/commands",
            {"command_id": f"p{steps}", **command},
            format="json",
        )
        assert response.status_code == 201, response.content
        body = response.json()
        # The command's own response: the acting player's view of each new event.
        rounds = stored_round_dice(match)
        for event in body["events"]:
            if event["t"] == "round_started":
                mode, dice = rounds[event["v"]]
                assert event["d"]["dice"] == visible_hands(players, mode, dice, Viewer.of_player(player))
        json.dumps(body)
        steps += 1
    assert steps > 5
