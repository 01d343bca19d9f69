"""Invariants of the bidding engine over random legal games (hypothesis)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cacho.engine.bidding import (
    RULESETS,
    CallCalza,
    CallDudo,
    DenySalpicon,
    Event,
    MatchState,
    PlaceBid,
    RoundResolved,
    RoundStarted,
    StartRound,
    decide,
    event_from_dict,
    event_to_dict,
    evolve,
    initial_state,
    legal_actions,
    replay,
    replay_record,
    start_match,
    view,
    view_event,
    write_record,
)
from cacho.engine.bidding.bots import random_command
from cacho.engine.bidding.commands import Abandon, AnnouncePaso, AnnounceSalpicon, Command, TimeOut
from cacho.engine.bidding.decide import refusal
from cacho.engine.bidding.events import PlayerAbandoned
from cacho.engine.bidding.state import Direction, next_live
from cacho.engine.bidding.view import may_see_own_dice
from cacho.engine.errors import RuleError
from cacho.engine.viewer import Viewer

KEBAB = re.compile(r"^[a-z]+(-[a-z]+)*$")
OPTION_CHOICES: dict[str, dict[str, list[Any]]] = {
    "dudo": {
        "raise_rule": ["standard", "strict"],
        "calza_only_if_lost_dice": [False, True],
        "calza_out_of_turn": [False, True],
        "palifico_wild_pacos": [False, True],
        "loser_chooses_direction": [False, True],
        "palifico_once_per_player": [False, True],
        "no_palifico_or_calza_with_two_players": [False, True],
        "no_calza_in_palifico": [False, True],
        "palifico_one_die_players_may_change_face": [False, True],
    },
    "cacho-chileno": {
        "obligado_first_round_only": [False, True],
        "aces_need_natural": [False, True],
        "opening_aces_free_conversion": [False, True],
        "paso_aces_wild": [False, True],
        "calzo_after_paso": [False, True],
    },
    "cacho-online": {},
    "liars-dice": {"bidding_rule": ["reset-face", "reset-quantity", "strict"]},
}


@st.composite
def games(draw: st.DrawFn) -> tuple[str, dict[str, Any], list[str], int]:
    ruleset = draw(st.sampled_from(RULESETS))
    options = {name: draw(st.sampled_from(values)) for name, values in OPTION_CHOICES[ruleset].items()}
    count = draw(st.integers(min_value=2, max_value=6))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    return ruleset, options, [f"p{i}" for i in range(count)], seed


def play(ruleset: str, options: dict[str, Any], players: list[str], seed: int, *, abandon_rate: float = 0.0):
    """Yield (state_before, command, events, state_after) for a whole random game."""
    rng = random.Random(seed)
    first = start_match(ruleset, players, starter=players[rng.randrange(len(players))], options=options)
    state = initial_state(first)
    yield None, None, [first], state
    steps = 0
    while state.phase != "over":
        steps += 1
        assert steps < 5000, "a game must end"
        command: Command = random_command(state, rng)
        if state.round is not None and rng.random() < abandon_rate:
            live = state.live_seats()
            direction: Direction | None = None
            if state.round.bid is None and state.rules.starter_chooses_direction:
                # as a record states the direction of a round nobody has opened (X-6b)
                direction = rng.choice([None, "cw", "ccw"])
            command = Abandon(players[live[rng.randrange(len(live))]], direction=direction)
        events = decide(state, command)
        after = state
        for event in events:
            after = evolve(after, event)
        yield state, command, events, after
        state = after


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(games())
def test_random_play_ends_with_exactly_one_winner_and_dice_stay_in_bounds(game: tuple[Any, ...]) -> None:
    ruleset, options, players, seed = game
    state: MatchState | None = None
    for before, _command, events, after in play(ruleset, options, players, seed):
        assert all(0 <= held <= 5 for held in after.dice_counts)
        if before is not None:
            pairs = zip(before.dice_counts, after.dice_counts, strict=True)
            gained = [seat for seat, (old, new) in enumerate(pairs) if new > old]
            if gained:
                # dice only increase through a successful calza, by one, for the caller
                assert len(events) == 1 and isinstance(events[0], RoundResolved)
                assert events[0].result == "calza" and events[0].count == events[0].quantity
                assert [players[s] for s in gained] == [events[0].caller]
                assert after.dice_counts[gained[0]] - before.dice_counts[gained[0]] == 1
            # the dice on the table never grow except by that calza
            assert sum(after.dice_counts) <= sum(before.dice_counts) + (1 if gained else 0)
        state = after
    assert state is not None and state.phase == "over"
    live = [seat for seat, held in enumerate(state.dice_counts) if held > 0]
    assert len(live) == 1 and state.winner == live[0]


@FAST
@given(games(), st.floats(min_value=0.0, max_value=0.05))
def test_replay_equals_live_state_at_every_step(game: tuple[Any, ...], abandon_rate: float) -> None:
    ruleset, options, players, seed = game
    log: list[Event] = []
    for _before, _command, events, after in play(ruleset, options, players, seed, abandon_rate=abandon_rate):
        log.extend(events)
        assert replay(log) == after
        # events survive the store: to JSON and back, unchanged
        for event in events:
            assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event


@FAST
@given(games(), st.floats(min_value=0.0, max_value=0.05))
def test_written_record_replays_to_the_same_outcome(game: tuple[Any, ...], abandon_rate: float) -> None:
    ruleset, options, players, seed = game
    log: list[Event] = []
    final: MatchState | None = None
    resolutions = 0
    for _before, _command, events, after in play(ruleset, options, players, seed, abandon_rate=abandon_rate):
        log.extend(events)
        final = after
        resolutions += sum(
            1
            for e in events
            if not isinstance(e, RoundStarted) and e.TYPE in ("round_resolved", "player_abandoned")
        )
    assert final is not None
    record = json.loads(json.dumps(write_record(log)))
    outcome = replay_record(record)
    assert outcome["valid"] is True, outcome
    assert outcome["winner"] == players[final.winner]
    assert outcome["dice"] == dict(zip(players, final.dice_counts, strict=False))
    assert len(outcome["rounds"]) == resolutions


@FAST
@given(games(), st.floats(min_value=0.02, max_value=0.2))
def test_a_starter_leaving_before_opening_is_replaced_in_the_written_direction(
    game: tuple[Any, ...], abandon_rate: float
) -> None:
    """X-6b: `next_live(leaver, d)`, `d` the direction the record writes on that round."""
    ruleset, options, players, seed = game
    log: list[Event] = []
    checks: list[tuple[int, int, tuple[int, ...], str | None]] = []  # round, leaver, counts, starter
    for before, _command, events, after in play(ruleset, options, players, seed, abandon_rate=abandon_rate):
        log.extend(events)
        for event in events:
            current = None if before is None else before.round
            if isinstance(event, PlayerAbandoned) and current is not None and current.bid is None:
                leaver = players.index(event.player)
                if leaver == current.starter and event.next_starter is not None:
                    checks.append((current.number - 1, leaver, after.dice_counts, event.next_starter))
    rounds = json.loads(json.dumps(write_record(log)))["rounds"]
    for index, leaver, counts, starter in checks:
        direction = rounds[index].get("direction", "cw")
        assert starter == players[next_live(counts, leaver, direction)]


ANSWERS = {
    "dudo": CallDudo,
    "calza": CallCalza,
    "paso": AnnouncePaso,
    "salpicon": AnnounceSalpicon,
    "deny": DenySalpicon,
    "abandon": Abandon,
}


@FAST
@given(games(), st.floats(min_value=0.0, max_value=0.1))
def test_the_actions_offered_are_exactly_those_decide_takes(
    game: tuple[Any, ...], abandon_rate: float
) -> None:
    """`legal_actions` asks `decide`'s own checks, not `decide`: whatever the state and the
    player (on turn or not, out, a stranger), an answer is offered exactly when `decide`
    takes it, and `refusal` gives the code `decide` raises."""
    ruleset, options, players, seed = game
    for _before, _command, _events, state in play(ruleset, options, players, seed, abandon_rate=abandon_rate):
        for player in [*players, "nobody"]:
            offered = set(legal_actions(state, player)["actions"])
            for name, kind in ANSWERS.items():
                command = kind(player)
                try:
                    decide(state, command)
                    raised = None
                except RuleError as error:
                    raised = error.code
                refused = refusal(state, command)
                assert (None if refused is None else refused.code) == raised, (name, player)
                live = state.phase != "over" and state.paused is None and state.round is not None
                if live and player in players and state.dice_counts[players.index(player)] > 0:
                    assert (name in offered) == (raised is None), (name, player, raised)
                else:
                    assert not offered


def _random_commands(state: MatchState, rng: random.Random) -> list[Command]:
    players = [*list(state.config.players), "nobody"]
    who = players[rng.randrange(len(players))]
    return [
        PlaceBid(who, rng.randrange(-1, 33), rng.randrange(0, 8), direction=rng.choice([None, "cw", "ccw"])),
        CallDudo(who),
        CallCalza(who),
        AnnouncePaso(who),
        AnnounceSalpicon(who),
        DenySalpicon(who),
        TimeOut(who),
        StartRound(((1, 2, 3),)),
    ]


@FAST
@given(games())
def test_every_command_is_either_legal_and_listed_or_refused_with_a_code(game: tuple[Any, ...]) -> None:
    ruleset, options, players, seed = game
    rng = random.Random(seed + 1)
    for _before, _command, _events, state in play(ruleset, options, players, seed):
        snapshot = repr(state)
        for command in _random_commands(state, rng):
            try:
                decide(state, command)
            except RuleError as error:
                assert KEBAB.match(error.code), error.code
                assert error.message
                continue
            finally:
                assert repr(state) == snapshot  # nothing changed
            # accepted: the table must have offered it
            if isinstance(command, StartRound | TimeOut):
                continue
            legal = legal_actions(state, command.player)
            if isinstance(command, PlaceBid):
                minimum = legal["bid_minimums"][command.face]
                maximum = legal["bid_maximums"][command.face]
                assert minimum is not None and minimum <= command.quantity <= maximum
            else:
                name = {
                    CallDudo: "dudo",
                    CallCalza: "calza",
                    AnnouncePaso: "paso",
                    AnnounceSalpicon: "salpicon",
                    DenySalpicon: "deny",
                }[type(command)]
                assert name in legal["actions"], (name, legal)


@FAST
@given(games())
def test_bid_minimums_are_exact(game: tuple[Any, ...]) -> None:
    ruleset, options, players, seed = game
    for _before, _command, _events, state in play(ruleset, options, players, seed):
        if state.round is None:
            continue
        player = players[state.round.to_act]
        legal = legal_actions(state, player)
        minimums = legal["bid_minimums"] or {}
        maximums = legal["bid_maximums"] or {}
        for face, least in minimums.items():
            for quantity in range(1, state.total_dice + 1):
                try:
                    decide(state, PlaceBid(player, quantity, face, direction=None))
                    accepted = True
                except RuleError:
                    accepted = False
                expected = least is not None and least <= quantity <= maximums[face]
                assert accepted == expected, (face, quantity, least, maximums[face])


def _allowed_hands(state: MatchState, viewer: Viewer) -> set[str]:
    current = state.round
    if current is None:
        return set()
    players = state.config.players
    if viewer.kind == "referee":
        return {name for name, hand in zip(players, current.dice, strict=False) if hand}
    if viewer.kind == "player" and viewer.player in players:
        seat = players.index(viewer.player)
        if may_see_own_dice(current.mode, len(current.dice[seat])):
            return {viewer.player}
    return set()


@FAST
@given(games())
def test_views_never_show_a_die_the_viewer_may_not_see(game: tuple[Any, ...]) -> None:
    ruleset, options, players, seed = game
    viewers = [Viewer.spectator(), Viewer.referee(), *(Viewer.of_player(p) for p in players)]
    for before, _command, events, state in play(ruleset, options, players, seed):
        for viewer in viewers:
            seen = view(state, viewer)
            json.dumps(seen)
            hands = seen["round"]["dice"] if seen["round"] else {}
            assert set(hands) == _allowed_hands(state, viewer)
            for name, hand in hands.items():
                assert tuple(hand) == state.round.dice[players.index(name)]  # type: ignore[union-attr]
            for event in events:
                shown = view_event(event, tuple(players), viewer)
                if isinstance(event, RoundStarted):
                    allowed = _allowed_hands(state, viewer)
                    assert set(shown["dice"]) == allowed
                if isinstance(event, RoundResolved):
                    # a resolution shows all dice, or only the passer's / announcer's
                    assert before is not None and before.round is not None
                    revealed = {name for name, _ in event.revealed}
                    if event.result in ("paso", "salpicon"):
                        assert revealed == {event.target}
                    else:
                        live = {p for p, hand in zip(players, before.round.dice, strict=False) if hand}
                        assert revealed == live
