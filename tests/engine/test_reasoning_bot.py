"""The bidding games' thinking bot (`strength="reasoning"`): always legal, plays every
match to its end, decides from its own player's view only (another hand never changes
its choice), and beats the plain policy."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cacho.engine.bidding.reasoning import at_least, exactly
from cacho.engine.errors import RuleError
from cacho.engine.games import GAMES, DiceNeeded, Game, game_for
from cacho.engine.viewer import Viewer
from tests.engine.test_bots import FAST, _apply

BIDDING = ["dudo", "cacho-chileno", "cacho-online", "liars-dice"]


def _roll(dice: random.Random, count: int) -> tuple[int, ...]:
    return tuple(dice.randint(1, 6) for _ in range(count))


def _play(game: Game, ruleset: str, strengths: dict[str, str], seed: int, check: bool = False) -> Any:
    seats = list(strengths)
    dice = random.Random(seed)
    state = game.initial_state(game.start(ruleset, {}, seats, seed % len(seats), 30)[0])
    for step in range(4000):
        if game.is_over(state):
            return state
        need = game.dice_needed(state, 0)
        if need is not None:
            state = _apply(game, state, need.build(_roll(dice, need.count)))
            continue
        seat = game.to_act(state)
        assert seat is not None
        payload = game.bot_payload(state, seat, random.Random(step), strengths[seat])
        if check:
            wire = json.loads(json.dumps(game.view(state, Viewer.of_player(seat))))
            assert game.bot_payload_for_view(wire, random.Random(step), strengths[seat]) == payload
        assert payload is not None and payload["type"] != "abandon"
        command = game.parse_command(seat, payload, 0)
        if isinstance(command, DiceNeeded):
            command = command.build(_roll(dice, command.count))
        state = _apply(game, state, command)
    raise AssertionError("the match did not end")


@FAST
@given(st.sampled_from(BIDDING), st.integers(2, 5), st.integers(0, 2**32 - 1))
def test_the_thinking_bot_plays_every_match_to_its_end(ruleset: str, players: int, seed: int) -> None:
    game = game_for(ruleset)
    state = _play(game, ruleset, {f"p{i}": "reasoning" for i in range(players)}, seed, check=True)
    assert game.is_over(state)


@FAST
@given(st.sampled_from(BIDDING), st.integers(0, 2**32 - 1))
def test_another_hand_never_changes_its_choice(ruleset: str, seed: int) -> None:
    game = game_for(ruleset)
    dice = random.Random(seed)
    state = game.initial_state(game.start(ruleset, {}, ["a", "b", "c"], 0, 30)[0])
    state = _apply(game, state, game.dice_needed(state, 0).build(_roll(dice, 15)))  # type: ignore[union-attr]
    seat = game.to_act(state)
    assert seat is not None
    me = state.config.players.index(seat)
    hands = tuple(hand if i == me else _roll(dice, len(hand)) for i, hand in enumerate(state.round.dice))
    other = dataclasses.replace(state, round=dataclasses.replace(state.round, dice=hands))
    assert game.bot_payload(state, seat, random.Random(1), "reasoning") == game.bot_payload(
        other, seat, random.Random(1), "reasoning"
    )


def test_the_thinking_bot_beats_the_plain_one() -> None:
    """Measured: two-player Dudo, seats alternating, 200 matches."""
    game = GAMES["dudo"]
    wins = 0
    for seed in range(200):
        seats = (
            {"think": "reasoning", "plain": "random"}
            if seed % 2
            else {"plain": "random", "think": "reasoning"}
        )
        state = _play(game, "dudo", seats, seed)
        wins += game.winners(state) == ("think",)
    assert wins > 140, wins


def test_binomial_chances() -> None:
    assert at_least(0, 5, 1 / 6) == 1.0
    assert at_least(6, 5, 1 / 6) == 0.0
    assert abs(sum(exactly(k, 10, 1 / 3) for k in range(11)) - 1) < 1e-12
    assert abs(at_least(1, 2, 0.5) - 0.75) < 1e-12


def test_strengths_are_the_games() -> None:
    assert GAMES["dudo"].bot_strengths == ("random", "reasoning")
    assert GAMES["alalay"].bot_strengths == ("random",)
    state = GAMES["alalay"].initial_state(GAMES["alalay"].start("alalay", {}, ["a", "b"], 0, 30)[0])
    with pytest.raises(RuleError) as caught:
        GAMES["alalay"].bot_payload(state, "a", random.Random(0), "reasoning")
    assert caught.value.code == "unknown-bot-strength"
