"""What the shells draw differently, said by the games (cacho.engine.traits): the traits, and
a live table in one line from its spectator view, the same from the view as JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cacho.engine.alalay.scorecard import BOXES
from cacho.engine.errors import RuleError
from cacho.engine.games import GAMES, DiceNeeded, Game, game_named
from cacho.engine.viewer import Viewer


def _play(game: Game, state: Any, seat: str, payload: dict[str, Any], dice: tuple[int, ...] = ()) -> Any:
    command = game.parse_command(seat, payload, 0)
    if isinstance(command, DiceNeeded):
        command = command.build(dice[: command.count])
    for event in game.decide(state, command):
        state = game.evolve(state, event)
    return state


def test_each_game_says_what_its_seats_hold_and_whether_it_bids() -> None:
    assert GAMES["dudo"].traits.as_json() == {
        "standing": "dice",
        "bids": True,
        "scoresheet": False,
        "terms": ["dudo", "calza", "paso", "salpicon", "palifico", "obligado", "aces"],
        "team_seats": False,
        "sheet_columns": [],
        "sheet_foot": [],
    }
    alalay = GAMES["alalay"].traits
    assert (alalay.standing, alalay.bids, alalay.scoresheet, alalay.team_seats) == (
        "total",
        False,
        True,
        True,
    )
    assert "turning" in alalay.terms and "dudo" not in alalay.terms
    # the card as the table writes it: every box once, three columns, the grandes under them
    assert [len(column) for column in alalay.sheet_columns] == [3, 3, 3]
    written = [box for column in alalay.sheet_columns for box in column] + list(alalay.sheet_foot)
    assert sorted(written) == sorted(BOXES)
    assert game_named("alalay") is GAMES["alalay"]
    with pytest.raises(RuleError) as error:
        game_named("poker")
    assert error.value.code == "unknown-game"


def test_a_seat_is_a_team_only_where_the_game_says_so() -> None:
    alalay = GAMES["alalay"]
    (started,) = alalay.start("alalay", {}, ["Reds", "Blues"], 0, 30, members=[["ana", "beto"], []])
    state = alalay.initial_state(started)
    assert [(e.name, e.members) for e in state.entries] == [("Reds", ("ana", "beto")), ("Blues", ())]
    assert state.turn.member == "ana"  # a team's members take its turns in rotation (AL-8)
    with pytest.raises(RuleError) as error:
        alalay.start("alalay", {}, ["Reds", "Blues"], 0, 30, members=[["ana"]])
    assert error.value.code == "setup-members"
    with pytest.raises(RuleError) as error:
        GAMES["dudo"].start("dudo", {}, ["Reds", "Blues"], 0, 30, members=[["ana", "beto"], []])
    assert error.value.code == "setup-members"


def test_a_bidding_table_in_one_line() -> None:
    game = GAMES["dudo"]
    (started,) = game.start("dudo", {}, ["ana", "beto", "caro"], 0, 30)
    state = game.initial_state(started)
    need = game.dice_needed(state, 0)
    assert need is not None
    for event in game.decide(state, need.build((1, 2, 3, 4, 5) * 3)):
        state = game.evolve(state, event)
    state = _play(game, state, "ana", {"type": "bid", "quantity": 6, "face": 4})
    view = game.view(state, Viewer.spectator())
    line = game.table_line(view)
    assert line == game.table_line(json.loads(json.dumps(view)))
    assert [seat["name"] for seat in line.seats] == ["ana", "beto", "caro"]
    assert [seat["dice"] for seat in line.seats] == [5, 5, 5] and not any(s["out"] for s in line.seats)
    assert line.bid == {"quantity": 6, "face": 4, "by": "ana"}
    assert line.to_act == "beto" and line.round == 1
    assert line.pressure == 6 / 15
    assert line.standings(game.traits.standing) == [5.0, 5.0, 5.0]


def test_an_alalay_table_in_one_line() -> None:
    game = GAMES["alalay"]
    (started,) = game.start("alalay", {}, ["ana", "beto"], 0, 30)
    state = game.initial_state(started)
    state = _play(game, state, "ana", {"type": "throw"}, (6, 6, 6, 2, 3))
    state = _play(game, state, "ana", {"type": "score", "box": "sixes"})
    line = game.table_line(json.loads(json.dumps(game.view(state, Viewer.spectator()))))
    assert [(seat["name"], seat["total"], seat["out"]) for seat in line.seats] == [
        ("ana", 18, False),
        ("beto", 0, False),
    ]
    assert line.bid is None and line.to_act == "beto"
    assert 0 < line.pressure < 0.1  # one box of the two cards written
    assert line.standings(game.traits.standing) == [18.0, 0.0]
