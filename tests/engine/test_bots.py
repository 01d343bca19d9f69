"""One bot policy per game (`Game.bot_payload`, `Game.bot_payload_for_view`): what it sends
is always legal, the same from the engine state as from the view a client receives, and
it plays every match to its end."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cacho.engine import alalay
from cacho.engine.alalay.autoplay import auto_play
from cacho.engine.bidding.bots import random_command
from cacho.engine.games import GAMES, DiceNeeded, Game, game_for
from cacho.engine.viewer import Viewer
from tests.engine.bidding.test_properties import OPTION_CHOICES

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RULESETS = ["dudo", "cacho-chileno", "cacho-online", "liars-dice", "alalay"]


@st.composite
def matches(draw: st.DrawFn) -> tuple[str, dict[str, Any], list[str], int]:
    ruleset = draw(st.sampled_from(RULESETS))
    choices = OPTION_CHOICES.get(ruleset, {})
    options = {name: draw(st.sampled_from(values)) for name, values in choices.items()}
    count = draw(st.integers(min_value=2, max_value=5))
    return ruleset, options, [f"p{i}" for i in range(count)], draw(st.integers(0, 2**32 - 1))


def _apply(game: Game, state: Any, command: Any) -> Any:
    for event in game.decide(state, command):
        state = game.evolve(state, event)
    return state


def _wire_view(game: Game, state: Any, seat: str) -> dict[str, Any]:
    view: dict[str, Any] = json.loads(json.dumps(game.view(state, Viewer.of_player(seat))))
    return view


@FAST
@given(matches())
def test_the_bot_plays_every_match_to_its_end_with_legal_payloads(match: tuple[Any, ...]) -> None:
    ruleset, options, seats, seed = match
    game = game_for(ruleset)
    dice = random.Random(seed)
    state = game.initial_state(game.start(ruleset, options, seats, 0, 30)[0])
    for _ in range(3000):
        if game.is_over(state):
            break
        need = game.dice_needed(state, 0)
        if need is not None:
            state = _apply(game, state, need.build(tuple(dice.randint(1, 6) for _ in range(need.count))))
            continue
        to_act = game.to_act(state)
        assert to_act is not None
        for seat in seats:
            if seat != to_act:
                assert game.bot_payload(state, seat, random.Random(seed)) is None
        payload = game.bot_payload(state, to_act, random.Random(seed))
        # the same choice from the view the player's socket receives (JSON: string keys)
        assert game.bot_payload_for_view(_wire_view(game, state, to_act), random.Random(seed)) == payload
        assert payload is not None and payload["type"] != "abandon"
        command = game.parse_command(to_act, payload, 0)
        if isinstance(command, DiceNeeded):
            command = command.build(tuple(dice.randint(1, 6) for _ in range(command.count)))
        state = _apply(game, state, command)
        seed += 1
    assert game.is_over(state)
    assert all(game.bot_payload(state, seat, random.Random(seed)) is None for seat in seats)


def test_the_alalay_bot_fills_the_box_auto_play_would() -> None:
    game = GAMES["alalay"]
    state, _ = alalay.new_match(["A", "B"])
    state, _ = alalay.apply(state, alalay.Throw("A", (3, 3, 6, 2, 1)))
    scores = {json.dumps(game.bot_payload(state, "A", random.Random(seed))) for seed in range(40)}
    # a re-roll or the box auto-play scores (threes before the equal sixes)
    assert auto_play(state) == alalay.Score("A", "threes")
    assert json.dumps({"type": "score", "box": "threes"}) in scores
    assert {json.loads(s)["type"] for s in scores} == {"score", "reroll"}
    assert all(len(json.loads(s).get("keep", [])) <= 4 for s in scores)


def test_random_command_is_the_policy_as_a_command() -> None:
    game = GAMES["dudo"]
    state = game.initial_state(game.start("cacho-online", {}, ["a", "b", "c"], 0, 30)[0])
    state = _apply(game, state, random_command(state, random.Random(3)))  # the round's dice
    for seed in range(30):
        payload = game.bot_payload(state, "a", random.Random(seed))
        assert payload is not None
        parsed = replace(game.parse_command("a", payload, 0), at=None)
        assert random_command(state, _NoTimeout(seed), timeout_rate=0.0) == parsed


class _NoTimeout:
    """`random_command` draws once for the clock first; this source answers that draw
    itself and passes every other to `random.Random(seed)`."""

    def __init__(self, seed: int) -> None:
        self.source = random.Random(seed)
        self.clock_drawn = False

    def random(self) -> float:
        if not self.clock_drawn:
            self.clock_drawn = True
            return 1.0
        return self.source.random()

    def randrange(self, start: int, stop: int, /) -> int:
        return self.source.randrange(start, stop)
