"""Referee rulings through the match service (`matches.rule`): the batch path, the log,
the clock, the finished listeners, and what viewers receive."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cacho.engine.errors import RuleError
from cacho.engine.games import game_for
from cacho.engine.viewer import Viewer
from cacho.eventlog.store import read_stream
from cacho.models import DiceSeed, Event, Match
from cacho.services import matches
from cacho.services.presentation import event_json, match_json
from cacho.services.verify import verify_match
from tests.cacho.helpers import command_id, legal_bidding_move, state_of

pytestmark = [pytest.mark.usefixtures("committed_db"), pytest.mark.sqlite_too]

heard: list[str] = []


def record(match_id: Any) -> None:
    heard.append(str(match_id))


@pytest.fixture(autouse=True)
def listeners(settings: Any) -> None:
    heard.clear()
    settings.CACHO_MATCH_FINISHED = [f"{__name__}.record"]


def rule(match: Match, ruling: dict[str, Any], reason: str = "dispute 7", **extra: Any) -> matches.Result:
    return matches.rule(
        match.pk,
        ruling,
        referee="rita",
        reason=reason,
        command_id=extra.pop("command_id", command_id()),
        **extra,
    )


def play_moves(match: Match, count: int, rng: random.Random) -> None:
    for _ in range(count):
        state = state_of(match)
        if state.phase == "over":
            return
        player, payload = legal_bidding_move(state, rng)
        matches.submit(match.pk, player, payload, command_id())


def play_out(match: Match, rng: random.Random) -> None:
    while Match.objects.get(pk=match.pk).status == Match.STATUS_LIVE:
        play_moves(match, 1, rng)


def test_a_paused_match_refuses_commands_and_has_no_deadline() -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    result = rule(match, {"kind": "pause"}, "looking at the dice")
    (event,) = result.events
    assert event.type == "match_paused" and event.payload == {"reason": "looking at the dice"}
    assert event.metadata["actor"] == "referee:rita" and event.metadata["reason"] == "looking at the dice"
    stored = Match.objects.get(pk=match.pk)
    assert stored.deadline_ms is None and stored.turn_key == ""
    assert matches.expire_turn(match.pk, stored.version, at=10**15) is None
    with pytest.raises(RuleError) as error:
        matches.submit(match.pk, "ana", {"type": "bid", "quantity": 1, "face": 2}, command_id())
    assert error.value.code == "match-paused"
    for viewer in (Viewer.spectator(), Viewer.of_player("ana"), Viewer.referee()):
        assert match_json(stored, viewer)["state"]["paused"] == {"reason": "looking at the dice"}
    result = rule(match, {"kind": "resume"})
    stored = Match.objects.get(pk=match.pk)
    assert stored.turn_key and stored.deadline_ms == result.events[-1].payload["deadline"]
    assert stored.deadline_ms >= result.events[-1].metadata["at"] + 30_000
    matches.submit(match.pk, "ana", {"type": "bid", "quantity": 1, "face": 2}, command_id())
    assert verify_match(stored)["valid"]


def test_an_alalay_turn_resumes_with_a_fresh_full_turn_and_its_dice_scope() -> None:
    match = matches.create_match("alalay", ["ana", "beto"], first_seat=0, turn_seconds=30)
    matches.submit(match.pk, "ana", {"type": "throw"}, command_id())
    scope = Match.objects.get(pk=match.pk).pending_scope
    rule(match, {"kind": "pause"})
    stored = Match.objects.get(pk=match.pk)
    assert stored.deadline_ms is None and stored.pending_scope == scope  # the turn's seed stays secret
    result = rule(match, {"kind": "resume"})
    stored = Match.objects.get(pk=match.pk)
    assert stored.deadline_ms == result.events[-1].metadata["at"] + 30_000
    matches.submit(match.pk, "ana", {"type": "reroll", "keep": []}, command_id())
    assert verify_match(stored)["valid"]


def test_a_ruling_sent_twice_is_applied_once() -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    first = rule(match, {"kind": "uphold"}, command_id="ruling-1")
    again = rule(match, {"kind": "uphold"}, command_id="ruling-1")
    assert again.repeated and again.version == first.version
    assert Event.objects.filter(stream=match, type="ruling_upheld").count() == 1
    rule(match, {"kind": "pause"}, command_id="ruling-2")
    assert rule(match, {"kind": "pause"}, command_id="ruling-2").repeated


@pytest.mark.parametrize(
    ("ruling", "code"),
    [
        ({"kind": "void-round", "round": 5}, "ruling-round-unknown"),
        ({"kind": "adjust-dice", "player": "zoe", "delta": 1}, "ruling-seat-unknown"),
        ({"kind": "correct-turn", "turn": 1, "box": "ones", "points": 1}, "ruling-not-in-game"),
        ({"kind": "resume"}, "ruling-not-paused"),
        ({"kind": "shrug"}, "ruling-kind-unknown"),
    ],
)
def test_an_illegal_ruling_stores_nothing(ruling: dict[str, Any], code: str) -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    before = [(event.version, event.hash) for event in read_stream(match.pk)]
    with pytest.raises(RuleError) as error:
        rule(match, ruling)
    assert error.value.code == code
    assert [(event.version, event.hash) for event in read_stream(match.pk)] == before
    with pytest.raises(matches.VersionConflict):
        rule(match, {"kind": "uphold"}, expected_version=before[-1][0] - 1)


def test_void_round_deals_fresh_committed_dice_and_verifies() -> None:
    rng = random.Random(3)
    match = matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=0)
    while state_of(match).rounds_started < 3:
        play_moves(match, 1, rng)
    play_moves(match, 1, rng)
    result = rule(match, {"kind": "void-round", "round": 2})
    types = [event.type for event in result.events]
    assert types == ["round_voided", "round_started"]
    voided, started = result.events
    assert voided.metadata["reveal"]["scope"] == "round-3"  # the interrupted round's seed
    assert started.metadata["dice"]["scope"] == "round-4" and started.metadata["actor"] == "server"
    assert started.payload["number"] == 4
    assert not DiceSeed.objects.filter(match=match, scope="round-3", revealed=False).exists()
    assert verify_match(Match.objects.get(pk=match.pk))["valid"]
    play_out(match, rng)
    assert verify_match(Match.objects.get(pk=match.pk))["valid"]
    assert heard == [str(match.pk)]


def test_award_reopen_and_finish_again_tell_the_listeners_each_time() -> None:
    rng = random.Random(5)
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    play_moves(match, 3, rng)
    rule(match, {"kind": "award-result", "placements": {"ana": 1, "beto": 2}})
    stored = Match.objects.get(pk=match.pk)
    assert stored.status == Match.STATUS_FINISHED and stored.deadline_ms is None
    assert heard == [str(match.pk)]
    game = game_for("dudo")
    events = [game.event_from_dict({"type": e.type, **e.payload}) for e in read_stream(match.pk)]
    assert [r.placement for r in game.results(events)] == [1, 2]
    rule(match, {"kind": "reopen", "round": 1})
    stored = Match.objects.get(pk=match.pk)
    assert stored.status == Match.STATUS_LIVE and stored.deadline_ms is not None and stored.turn_key
    assert heard == [str(match.pk)]
    play_out(match, rng)
    assert heard == [str(match.pk)] * 2
    assert verify_match(Match.objects.get(pk=match.pk))["valid"]


def test_an_alalay_correction_of_a_finished_match_is_heard_of_again() -> None:
    match = matches.create_match("alalay", ["ana", "beto", "caro"], first_seat=0)
    rule(match, {"kind": "disqualify", "seat": "beto"})  # the others play on, as after an abandonment
    assert Match.objects.get(pk=match.pk).status == Match.STATUS_LIVE
    rule(match, {"kind": "award-result", "placements": {"ana": 1, "beto": 3, "caro": 2}})
    stored = Match.objects.get(pk=match.pk)
    assert stored.status == Match.STATUS_FINISHED and heard == [str(match.pk)]
    rule(match, {"kind": "penalty", "seat": "ana", "points": 5})
    assert heard == [str(match.pk)] * 2
    assert verify_match(Match.objects.get(pk=match.pk))["valid"]


def test_no_frame_shows_a_non_referee_a_hidden_die() -> None:
    rng = random.Random(11)
    match = matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=1)
    play_moves(match, 4, rng)
    rule(match, {"kind": "pause"})
    rule(match, {"kind": "adjust-dice", "player": "ana", "delta": -1})
    rule(match, {"kind": "resume"})
    play_moves(match, 3, rng)
    rule(match, {"kind": "void-round", "round": 1})
    rule(match, {"kind": "penalty", "seat": "caro", "dice": 2})
    rule(match, {"kind": "disqualify", "seat": "beto"})
    stored = Match.objects.get(pk=match.pk)
    game = game_for(stored.ruleset)
    state = state_of(stored)
    secret = list(DiceSeed.objects.filter(match=match, revealed=False).values_list("seed", flat=True))
    for viewer in (Viewer.spectator(), Viewer.of_player("ana")):
        for event in read_stream(match.pk):
            frame = event_json(event, game, state, viewer)
            text = json.dumps(frame)
            assert not any(seed in text for seed in secret)
            if frame["t"] == "round_started":
                assert set(frame["d"]["dice"]) <= ({"ana"} if viewer.kind == "player" else set())
            else:
                assert "dice" not in frame["d"] or frame["t"] == "match_started"
        shown = match_json(stored, viewer)["state"]
        if shown["round"] is not None:
            assert set(shown["round"]["dice"]) <= {viewer.player}
    assert verify_match(stored)["valid"]
