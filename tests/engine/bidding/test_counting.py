"""Which dice counted at a reveal: the engine says it, per player, by position, with the
counting rules of every ruleset and round (§2, §4 palifico, §5 obligado and options)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

from cacho.engine.bidding import (
    AnnounceSalpicon,
    CallCalza,
    CallDudo,
    DenySalpicon,
    Event,
    PlaceBid,
    RoundResolved,
    StartRound,
    decide,
    event_to_dict,
    evolve,
    initial_state,
    make_rules,
    start_match,
    view,
    view_event,
)
from cacho.engine.bidding.counting import counted_positions
from cacho.engine.bidding.state import MatchState
from cacho.engine.viewer import Viewer
from tests.engine.bidding.test_properties import FAST, games, play

HANDS = ((1, 3, 3, 5, 6), (5, 3, 1, 1), (4, 4))

CASES: list[tuple[str, str, dict[str, Any], str, int, tuple[tuple[int, ...], ...]]] = [
    ("§2 ones are wild for another face", "dudo", {}, "normal", 3, ((0, 1, 2), (1, 2, 3), ())),
    ("§2 a bid on ones counts ones only", "dudo", {}, "normal", 1, ((0,), (2, 3), ())),
    ("§4 palifico: pacos are plain", "dudo", {}, "palifico", 3, ((1, 2), (1,), ())),
    (
        "§4 palifico_wild_pacos",
        "dudo",
        {"palifico_wild_pacos": True},
        "palifico",
        3,
        ((0, 1, 2), (1, 2, 3), ()),
    ),
    ("§5 obligado: aces are plain", "cacho-chileno", {}, "obligado", 4, ((), (), (0, 1))),
    ("§5 aces count for a face on the table", "cacho-chileno", {}, "normal", 4, ((0,), (2, 3), (0, 1))),
    (
        "§5 aces_need_natural, a natural on the table",
        "cacho-chileno",
        {"aces_need_natural": True},
        "normal",
        6,
        ((0, 4), (2, 3), ()),
    ),
    (
        "§5 aces_need_natural, no natural: nothing counts",
        "cacho-chileno",
        {"aces_need_natural": True},
        "normal",
        2,
        ((), (), ()),
    ),
    ("§6 blind round: ones stay wild", "cacho-online", {}, "blind", 5, ((0, 3), (0, 2, 3), ())),
    ("§7 liars-dice: ones are ordinary", "liars-dice", {}, "normal", 3, ((1, 2), (1,), ())),
]


@pytest.mark.parametrize(
    ("ruleset", "options", "mode", "face", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_counted_positions(
    ruleset: str, options: dict[str, Any], mode: Any, face: int, expected: tuple[tuple[int, ...], ...]
) -> None:
    assert counted_positions(make_rules(ruleset, options), mode, HANDS, face) == expected


def _round(ruleset: str, hands: tuple[tuple[int, ...], ...]) -> tuple[MatchState, list[Event]]:
    first = start_match(ruleset, ["A", "B", "C"], starter="A", dice={"A": 5, "B": 4, "C": 5})
    state = initial_state(first)
    (started,) = decide(state, StartRound(hands))
    return evolve(state, started), [first, started]


def _resolve(state: MatchState, *commands: Any) -> tuple[MatchState, RoundResolved]:
    events: list[Event] = []
    for command in commands:
        events = decide(state, command)
        for event in events:
            state = evolve(state, event)
    resolved = events[-1]
    assert isinstance(resolved, RoundResolved)
    return state, resolved


def test_a_dudo_says_which_dice_counted_in_the_event_and_the_view() -> None:
    state, _ = _round("dudo", ((1, 3, 3, 5, 6), (2, 3, 1, 1), (4, 4, 2, 6, 6)))
    state, resolved = _resolve(state, PlaceBid("A", 4, 3), CallDudo("B"))
    assert resolved.count == 6
    assert resolved.counted == (("A", (0, 1, 2)), ("B", (1, 2, 3)), ("C", ()))
    assert event_to_dict(resolved)["counted"] == [["A", [0, 1, 2]], ["B", [1, 2, 3]], ["C", []]]
    for viewer in (Viewer.spectator(), Viewer.of_player("C")):
        assert view_event(resolved, ("A", "B", "C"), viewer)["counted"] == event_to_dict(resolved)["counted"]
        assert view(state, viewer)["last_round"]["counted"] == {"A": [0, 1, 2], "B": [1, 2, 3], "C": []}


def test_a_calza_says_which_dice_counted() -> None:
    state, _ = _round("dudo", ((1, 3, 3, 5, 6), (2, 3, 1, 1), (4, 4, 2, 6, 6)))
    _, resolved = _resolve(state, PlaceBid("A", 3, 6), CallCalza("B"))
    assert resolved.count == 6 and resolved.counted == (("A", (0, 4)), ("B", (2, 3)), ("C", (3, 4)))


def test_a_denied_salpicon_counts_nothing() -> None:
    first = start_match("cacho-online", ["A", "B"], starter="A")
    state = initial_state(first)
    for command in (StartRound(((1, 2, 3, 4, 5), (6, 6, 2, 2, 1))), PlaceBid("A", 2, 2)):
        for event in decide(state, command):
            state = evolve(state, event)
    state, resolved = _resolve(state, AnnounceSalpicon("B"), DenySalpicon("A"))
    assert resolved.count is None and resolved.counted is None
    assert view(state, Viewer.spectator())["last_round"]["counted"] is None


@FAST
@given(games())
def test_the_counted_dice_add_up_to_the_count(game: tuple[Any, ...]) -> None:
    ruleset, options, players, seed = game
    for _before, _command, events, _after in play(ruleset, options, players, seed):
        for event in events:
            if not isinstance(event, RoundResolved):
                continue
            if event.result in ("paso", "salpicon"):
                assert event.count is None and event.counted is None
                continue
            assert event.counted is not None and event.count is not None
            assert sum(len(positions) for _, positions in event.counted) == event.count
            revealed = dict(event.revealed)
            assert [name for name, _ in event.counted] == list(revealed)
            counted = {(name, p) for name, positions in event.counted for p in positions}
            dice = {(name, p): face for name, hand in revealed.items() for p, face in enumerate(hand)}
            # every natural die of the face counts, unless aces_need_natural left none to count;
            # the ones count all together or not at all, and nothing else counts
            naturals = {key for key, face in dice.items() if face == event.face}
            ones = {key for key, face in dice.items() if face == 1} - naturals
            assert naturals <= counted or event.count == 0
            assert counted - naturals in (set(), ones)
