"""Small builders for bidding-game records used by the table-driven tests."""

from __future__ import annotations

from typing import Any

from cacho.engine.record import replay_record


def record(
    ruleset: str,
    rounds: list[dict[str, Any]],
    *,
    players: list[str] | None = None,
    options: dict[str, Any] | None = None,
    setup: dict[str, Any] | None = None,
) -> dict[str, Any]:
    if players is None:
        first = rounds[0]["dice"] if rounds else {"A": [], "B": []}
        players = list(first)
    data: dict[str, Any] = {
        "format": "cacho-match/1",
        "game": "dudo",
        "ruleset": ruleset,
        "options": options or {},
        "players": players,
        "rounds": rounds,
    }
    if setup is not None:
        data["setup"] = setup
    return data


def one_round(
    ruleset: str,
    dice: dict[str, list[int]],
    actions: list[dict[str, Any]],
    *,
    options: dict[str, Any] | None = None,
    mode: str | None = None,
    starter: str | None = None,
    direction: str | None = None,
    extra_setup: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Replay a one-round record whose setup gives each player the dice listed."""
    setup: dict[str, Any] = {"dice": {name: len(hand) for name, hand in dice.items()}}
    if mode is not None:
        setup["mode"] = mode
    if starter is not None:
        setup["starter"] = starter
    setup.update(extra_setup or {})
    round_data: dict[str, Any] = {"dice": {k: v for k, v in dice.items() if v}, "actions": actions}
    if direction is not None:
        round_data["direction"] = direction
    return replay_record(record(ruleset, [round_data], players=list(dice), options=options, setup=setup))


def bid(by: str, quantity: int, face: int) -> dict[str, Any]:
    return {"by": by, "bid": [quantity, face]}


def dudo(by: str) -> dict[str, Any]:
    return {"by": by, "call": "dudo"}


def calza(by: str) -> dict[str, Any]:
    return {"by": by, "call": "calza"}


def paso(by: str) -> dict[str, Any]:
    return {"by": by, "paso": True}


def salpicon(by: str) -> dict[str, Any]:
    return {"by": by, "salpicon": True}


def deny(by: str) -> dict[str, Any]:
    return {"by": by, "deny": True}


def timeout(by: str) -> dict[str, Any]:
    return {"by": by, "timeout": True}


def abandon(by: str) -> dict[str, Any]:
    return {"by": by, "abandon": True}


def bot_match(
    ruleset: str, players: list[str], seed: int, options: dict[str, Any] | None = None
) -> list[Any]:
    """The events of a whole match the engine's bot policy plays at every seat
    (`Game.bot_payload`), its dice drawn from `random.Random(seed)`."""
    import random

    from cacho.engine.games import DiceNeeded, game_for

    game = game_for(ruleset)
    rng = random.Random(seed)
    events = list(game.start(ruleset, options or {}, players, rng.randrange(len(players)), 30))
    state = game.replay(events)
    for at in range(1, 20_000):
        if game.is_over(state):
            return events
        needed = game.dice_needed(state, at)
        if needed is not None:
            command = needed.build(tuple(rng.randint(1, 6) for _ in range(needed.count)))
        else:
            seat = game.to_act(state)
            assert seat is not None
            payload = game.bot_payload(state, seat, rng)
            assert payload is not None
            command = game.parse_command(seat, payload, at)
            if isinstance(command, DiceNeeded):
                command = command.build(tuple(rng.randint(1, 6) for _ in range(command.count)))
        for event in game.decide(state, command):
            events.append(event)
            state = game.evolve(state, event)
    raise AssertionError("the match does not end")
