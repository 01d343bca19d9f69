"""Referee rulings in the engine (docs/engine.md, "Rulings"): each kind's effect and
refusals, and properties over random play with rulings interleaved."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cacho.engine import bidding
from cacho.engine.alalay import BOXES
from cacho.engine.errors import RuleError
from cacho.engine.games import GAMES, DiceNeeded, Game
from cacho.engine.rulings import PARAMS, REFEREE_KINDS
from cacho.engine.viewer import Viewer

RULESETS = ("dudo", "cacho-chileno", "cacho-online", "liars-dice", "alalay")


@dataclass
class Table:
    """A match driven through the game adapter, as the match service drives it."""

    game: Game
    rng: random.Random
    events: list[Any] = field(default_factory=list)
    state: Any = None
    at: int = 1_000

    @classmethod
    def start(cls, ruleset: str, players: int = 3, seed: int = 0) -> Table:
        game = GAMES["alalay" if ruleset == "alalay" else "dudo"]
        table = cls(game, random.Random(seed))
        names = ["ana", "beto", "caro", "dani", "eva"][:players]
        table.events = list(game.start(ruleset, {}, names, 0, 30))
        table.state = game.initial_state(table.events[0])
        table.settle()
        return table

    def apply(self, step: Any) -> list[Any]:
        if isinstance(step, DiceNeeded):
            step = step.build(tuple(self.rng.randint(1, 6) for _ in range(step.count)))
        events = self.game.decide(self.state, step)
        for event in events:
            self.state = self.game.evolve(self.state, event)
        self.events += events
        return events

    def settle(self) -> None:
        while (need := self.game.dice_needed(self.state, self.at)) is not None:
            self.apply(need)

    def play(self) -> bool:
        """One move of whoever is on turn (False: nobody is)."""
        seat = self.game.to_act(self.state)
        if seat is None:
            return False
        payload = self.game.bot_payload(self.state, seat, self.rng)
        if payload is None:
            return False
        self.at += 1_000
        self.apply(self.game.parse_command(seat, payload, self.at))
        self.settle()
        return True

    def rule(self, ruling: dict[str, Any], reason: str = "because") -> list[Any]:
        self.at += 1_000
        events = self.apply(self.game.parse_ruling(self.state, ruling, self.at, reason))
        self.settle()
        return events


def code_of(table: Table, ruling: dict[str, Any]) -> str:
    before = (table.state, list(table.events))
    with pytest.raises(RuleError) as error:
        table.rule(ruling)
    assert (table.state, table.events) == before  # an illegal ruling changes nothing
    return error.value.code


# ------------------------------------------------------------------ pause and resume


@pytest.mark.parametrize("ruleset", ["dudo", "alalay"])
def test_a_paused_match_refuses_play_and_has_no_clock(ruleset: str) -> None:
    table = Table.start(ruleset)
    table.play()
    game = table.game
    (paused,) = table.rule({"kind": "pause"}, "checking the dice")
    assert game.event_to_dict(paused) == {"type": "match_paused", "reason": "checking the dice"}
    for viewer in (Viewer.spectator(), Viewer.of_player("ana"), Viewer.referee()):
        assert game.view(table.state, viewer)["paused"] == {"reason": "checking the dice"}
    assert game.turn_key(table.state) is None and game.to_act(table.state) is None
    assert game.deadline(table.state, 5_000, 30) is None
    assert game.timeout_step(table.state, "any", 10**12) is None
    seat = game.seats(table.state)[0]
    with pytest.raises(RuleError) as error:
        game.decide(table.state, game.parse_command(seat, {"type": "abandon"}, table.at))
    assert error.value.code == "match-paused"
    assert code_of(table, {"kind": "pause"}) == "ruling-already-paused"
    table.rule({"kind": "resume"})
    assert game.view(table.state, Viewer.spectator())["paused"] is None
    assert game.turn_key(table.state) is not None
    assert code_of(table, {"kind": "resume"}) == "ruling-not-paused"
    assert table.play()


def test_resume_gives_the_player_on_turn_a_fresh_full_turn() -> None:
    table = Table.start("dudo")
    table.rule({"kind": "pause"})
    table.at = 50_000
    (resumed,) = table.rule({"kind": "resume"})
    assert resumed.deadline == 51_000 + 30_000
    assert table.game.deadline(table.state, None, 30) == 81_000


# ------------------------------------------------------------------ void-round and reopen


def test_void_round_restores_the_table_of_that_rounds_start() -> None:
    table = Table.start("dudo", players=3, seed=4)
    while table.state.rounds_started < 4 and table.play():
        pass
    start_2 = next(start for start in table.state.table.round_starts if start.number == 2)
    numbers = table.state.rounds_started
    table.rule({"kind": "void-round", "round": 2})
    state = table.state
    assert state.dice_counts == start_2.table.dice_counts
    assert state.round is not None and state.round.number == numbers + 1  # fresh dice, new number
    assert state.round.starter == start_2.table.next_starter
    assert state.round.mode == start_2.table.next_mode
    assert state.palifico_used == start_2.table.palifico_used
    assert [start.number for start in state.table.round_starts] == [1, numbers + 1]
    assert code_of(table, {"kind": "void-round", "round": 3}) == "ruling-round-unknown"
    assert code_of(table, {"kind": "void-round", "round": 99}) == "ruling-round-unknown"
    assert code_of(table, {"kind": "reopen", "round": 1}) == "ruling-match-not-over"


def test_reopen_a_finished_bidding_match() -> None:
    table = Table.start("dudo", players=2, seed=1)
    while table.play():
        pass
    assert table.game.is_over(table.state)
    assert code_of(table, {"kind": "void-round", "round": 1}) == "ruling-match-over"
    assert code_of(table, {"kind": "pause"}) == "ruling-match-over"
    table.rule({"kind": "reopen", "round": 2})
    assert not table.game.is_over(table.state)
    assert table.state.round is not None
    while table.play():
        pass
    assert table.game.is_over(table.state)


def test_reopen_an_alalay_match_replays_its_turns() -> None:
    table = Table.start("alalay", players=2, seed=3)
    for _ in range(30):
        table.play()
    filled = table.state.filled
    assert len(filled) >= 4
    scope = table.game.dice_scope(table.state)
    table.rule({"kind": "reopen", "turn": 3})
    state = table.state
    assert len(state.filled) == 2
    assert state.turn is not None and state.turn.seat == filled[2][0]
    assert sum(value is not None for card in state.cards for value in card) == 2
    assert table.game.dice_scope(state) != scope and table.game.dice_scope(state).endswith("-r1")
    assert code_of(table, {"kind": "reopen", "turn": 3}) == "ruling-turn-unknown"
    assert code_of(table, {"kind": "reopen", "round": 1}) == "ruling-not-in-game"


# ------------------------------------------------------------------ results


@pytest.mark.parametrize("ruleset", ["dudo", "alalay"])
def test_award_result_ends_the_match_with_its_places(ruleset: str) -> None:
    table = Table.start(ruleset)
    table.play()
    table.rule({"kind": "award-result", "placements": {"ana": 2, "beto": 1, "caro": 3}})
    assert table.game.is_over(table.state)
    assert table.game.winners(table.state) == ("beto",)
    assert [r.placement for r in table.game.results(table.events)] == [2, 1, 3]
    assert (
        code_of(table, {"kind": "award-result", "placements": {"ana": 1, "zoe": 2}}) == "ruling-seat-unknown"
    )
    assert (
        code_of(table, {"kind": "award-result", "placements": {"ana": 1}}) == "ruling-placements-incomplete"
    )
    bad = {"ana": 2, "beto": 3, "caro": 3}
    assert code_of(table, {"kind": "award-result", "placements": bad}) == "ruling-placement-invalid"


@pytest.mark.parametrize("ruleset", ["dudo", "alalay"])
def test_disqualified_seats_place_last(ruleset: str) -> None:
    table = Table.start(ruleset)
    table.rule({"kind": "disqualify", "seat": "ana"})
    assert code_of(table, {"kind": "disqualify", "seat": "zoe"}) == "ruling-seat-unknown"
    while table.play():
        pass
    results = table.game.results(table.events)
    assert results[0].placement == 3
    assert sorted(r.placement for r in results[1:]) == [1, 2]


def test_adjust_dice_and_penalty_in_a_bidding_match() -> None:
    table = Table.start("dudo", players=3)
    (changed,) = table.rule({"kind": "adjust-dice", "player": "beto", "delta": -2})
    assert table.game.event_to_dict(changed)["type"] == "dice_changed"
    assert table.state.dice_counts == (5, 3, 5)
    assert table.state.round is not None and table.state.round.dice[1].__len__() == 3
    table.rule({"kind": "penalty", "seat": "caro", "dice": 5})
    assert table.state.dice_counts == (5, 3, 0)
    assert code_of(table, {"kind": "adjust-dice", "player": "ana", "delta": 1}) == "ruling-dice-out-of-range"
    assert code_of(table, {"kind": "adjust-dice", "player": "caro", "delta": 1}) == "ruling-player-out"
    assert code_of(table, {"kind": "penalty", "seat": "ana", "points": 3}) == "ruling-not-in-game"
    assert (
        code_of(table, {"kind": "correct-turn", "turn": 1, "box": "ones", "points": 1})
        == "ruling-not-in-game"
    )
    table.rule({"kind": "adjust-dice", "player": "beto", "delta": -3})
    assert table.game.is_over(table.state) and table.game.winners(table.state) == ("ana",)
    assert [r.placement for r in table.game.results(table.events)] == [1, 2, 3]


def test_correct_turn_and_penalty_in_alalay() -> None:
    table = Table.start("alalay", players=2, seed=5)
    while len(table.state.filled) < 3:
        table.play()
    seat, box = table.state.filled[0]
    open_box = next(
        name
        for name, value in zip(BOXES, table.state.cards[seat], strict=False)
        if value is None and name in ("ones", "twos", "threes")
    )
    points = {"ones": 3, "twos": 6, "threes": 9}[open_box]
    (corrected,) = table.rule({"kind": "correct-turn", "turn": 1, "box": open_box, "points": points})
    assert corrected.replaced == box and corrected.box == open_box
    card = table.state.cards[seat]
    assert card[index_of(box)] is None and card[index_of(open_box)] == points
    total = table.state.totals[seat]
    table.rule({"kind": "penalty", "seat": table.state.entries[seat].name, "points": 4})
    assert table.state.totals[seat] == total - 4
    assert (
        code_of(table, {"kind": "correct-turn", "turn": 9, "box": "ones", "points": 1})
        == "ruling-turn-unknown"
    )
    assert (
        code_of(table, {"kind": "correct-turn", "turn": 1, "box": "pairs", "points": 1})
        == "ruling-box-unknown"
    )
    assert (
        code_of(table, {"kind": "correct-turn", "turn": 1, "box": "ones", "points": 7})
        == "ruling-points-invalid"
    )
    assert code_of(table, {"kind": "void-round", "round": 1}) == "ruling-not-in-game"
    assert code_of(table, {"kind": "adjust-dice", "player": "ana", "delta": 1}) == "ruling-not-in-game"


def index_of(box: str) -> int:
    return BOXES.index(box)


@pytest.mark.parametrize(
    ("ruling", "code"),
    [
        ({"kind": "fold"}, "ruling-kind-unknown"),
        ({}, "ruling-kind-unknown"),
        ({"kind": "pause", "round": 1}, "ruling-field-unknown"),
        ({"kind": "void-round"}, "ruling-field-missing"),
        ({"kind": "void-round", "round": "1"}, "ruling-field-invalid"),
        ({"kind": "adjust-dice", "player": "ana", "delta": True}, "ruling-field-invalid"),
    ],
)
def test_rulings_are_parsed_strictly(ruling: dict[str, Any], code: str) -> None:
    table = Table.start("dudo")
    assert code_of(table, ruling) == code


# ------------------------------------------------------------------ properties

BIDDING_RULINGS = (
    "pause",
    "resume",
    "uphold",
    "void-round",
    "adjust-dice",
    "penalty",
    "disqualify",
    "reopen",
)
ALALAY_RULINGS = ("pause", "resume", "uphold", "correct-turn", "penalty", "disqualify", "reopen")


def random_ruling(table: Table, rng: random.Random) -> dict[str, Any]:
    seats = list(table.game.seats(table.state))
    if table.game.name == "dudo":
        kind = rng.choice(BIDDING_RULINGS)
        rounds = [start.number for start in table.state.table.round_starts] or [1]
        return {
            "pause": {},
            "resume": {},
            "uphold": {},
            "void-round": {"round": rng.choice(rounds)},
            "reopen": {"round": rng.choice(rounds)},
            "adjust-dice": {"player": rng.choice(seats), "delta": rng.choice((-2, -1, 1, 2))},
            "penalty": {"seat": rng.choice(seats), "dice": rng.randint(1, 2)},
            "disqualify": {"seat": rng.choice(seats)},
        }[kind] | {"kind": kind}
    kind = rng.choice(ALALAY_RULINGS)
    turns = max(1, len(table.state.filled))
    box = rng.choice(("ones", "twos", "sixes", "straight", "full", "four", "grande"))
    points = {"ones": 2, "twos": 4, "sixes": 12, "straight": 20, "full": 30, "four": 40, "grande": 50}[box]
    correction = {"points": points} if rng.random() < 0.7 else {"scratch": True}
    return {
        "pause": {},
        "resume": {},
        "uphold": {},
        "correct-turn": {"turn": rng.randint(1, turns), "box": box, **correction},
        "penalty": {"seat": rng.choice(seats), "points": rng.randint(1, 10)},
        "disqualify": {"seat": rng.choice(seats)},
        "reopen": {"turn": rng.randint(1, turns)},
    }[kind] | {"kind": kind}


def hidden_dice_leak(table: Table) -> bool:
    """Whether a spectator sees a die the round keeps hidden."""
    if table.game.name != "dudo":
        return False
    view = table.game.view(table.state, Viewer.spectator())
    return bool(view["round"] and view["round"]["dice"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=st.sampled_from(RULESETS),
    seed=st.integers(0, 10_000),
    steps=st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=1, max_size=25),
)
def test_play_with_rulings_replays_to_the_live_state(
    ruleset: str, seed: int, steps: list[tuple[int, bool]]
) -> None:
    table = Table.start(ruleset, players=3, seed=seed)
    rng = random.Random(seed)
    game = table.game
    for moves, ruling in steps:
        for _ in range(moves):
            if game.view(table.state, Viewer.referee()).get("paused"):
                break
            before = list(table.events)
            counts = table.state.dice_counts if game.name == "dudo" else None
            if not table.play():
                break
            if counts is not None:
                assert_dice_conserved(counts, table.state.dice_counts, table.events[len(before) :])
        if ruling:
            try:
                table.rule(random_ruling(table, rng))
            except RuleError as error:
                assert error.code.startswith("ruling-")
        assert game.replay(table.events) == table.state
        assert [game.event_from_dict(game.event_to_dict(e)) for e in table.events] == table.events
        assert not hidden_dice_leak(table)
        for event in table.events:
            frame = game.view_event(event, table.state, Viewer.spectator())
            if frame["type"] == "round_started":
                assert frame["dice"] == {}
        game.results(table.events)  # every state has results
    assert_record_round_trips(table)


def without_deadlines(state: Any) -> Any:
    """A record keeps no clock: the state a record replays to, but for deadlines."""
    if getattr(state, "round", None) is not None:
        return replace(state, round=replace(state.round, deadline=None))
    return state


def assert_record_round_trips(table: Table) -> None:
    game = table.game
    record = game.write_record(table.events)
    outcome = game.replay_record(json.loads(json.dumps(record)))
    assert outcome["valid"], (outcome, record)
    replayed = game.replay(game.record_events(record))
    assert without_deadlines(replayed) == without_deadlines(table.state)


def assert_dice_conserved(before: tuple[int, ...], after: tuple[int, ...], events: list[Any]) -> None:
    """Play changes dice only by resolutions and abandonments, by what they say."""
    counts = list(before)
    for event in events:
        if isinstance(event, bidding.RoundResolved):
            for name, delta in event.dice_change:
                counts[["ana", "beto", "caro"].index(name)] += delta
        elif isinstance(event, bidding.PlayerAbandoned):
            counts[["ana", "beto", "caro"].index(event.player)] -= event.dice_lost
    assert tuple(counts) == after


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_ruling_form_offers_what_the_game_decides(name: str) -> None:
    """A referee's form (`ruling_fields`, `ruling_choices`) offers only rulings the game
    decides, each asking only fields that ruling takes, and a listed box is one it accepts."""
    game = GAMES[name]
    assert set(game.ruling_fields) == set(REFEREE_KINDS) & game.ruling_kinds
    for kind, fields in game.ruling_fields.items():
        required, optional = PARAMS[kind]
        assert set(required) <= set(fields) <= {*required, *optional}, kind
    for listed, values in game.ruling_choices.items():
        assert any(listed in fields for fields in game.ruling_fields.values()), listed
        assert len(set(values)) == len(values)
