"""Creating a match: who sits, how many dice each holds, who opens, in which mode.

A match usually starts with 5 dice each, but a record (like a FEN) may start
mid-way; every such setup is checked against the rules here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cacho.engine.bidding.events import MatchStarted
from cacho.engine.bidding.rules import MAX_DICE, Mode, Rules, make_rules
from cacho.engine.bidding.state import Direction
from cacho.engine.errors import RuleError
from cacho.engine.timers import DEFAULT_TURN_SECONDS


def default_mode(rules: Rules, counts: Sequence[int]) -> Mode:
    """The mode implied by the dice alone: obligado in cacho-chileno whenever someone holds one die."""
    if rules.one_die_mode == "obligado" and not rules.obligado_first_round_only and 1 in counts:
        return "obligado"
    return "normal"


def start_match(
    ruleset: str,
    players: Sequence[str],
    *,
    starter: str,
    options: Mapping[str, object] | None = None,
    dice: Mapping[str, int] | None = None,
    mode: str | None = None,
    initial_players: int | None = None,
    calzo_disabled: bool | None = None,
    turn_seconds: int = DEFAULT_TURN_SECONDS,
) -> MatchStarted:
    """The first event of a match; raises RuleError (code `setup-…`) for a setup the rules rule out."""
    rules = make_rules(ruleset, options)
    names = tuple(players)
    if len(names) < 2:
        raise RuleError("setup-too-few-players", "a match needs at least 2 players")
    if rules.max_players is not None and len(names) > rules.max_players:
        raise RuleError(
            "setup-too-many-players", f"{ruleset} is played by {rules.max_players} players at most"
        )
    if len(set(names)) != len(names) or any(not name for name in names):
        raise RuleError("setup-bad-names", "player names must be unique and non-empty")
    if dice is None:
        counts = tuple(MAX_DICE for _ in names)
    else:
        if set(dice) != set(names):
            raise RuleError("setup-dice-players", "setup dice must list every player, and only them")
        counts = tuple(dice[name] for name in names)
    if any(count < 0 or count > MAX_DICE for count in counts):
        raise RuleError("setup-dice-count", f"each player holds 0 to {MAX_DICE} dice")
    if sum(1 for count in counts if count > 0) < 1:
        raise RuleError("setup-no-dice", "nobody holds dice")
    if starter not in names or counts[names.index(starter)] == 0:
        raise RuleError("setup-starter", f"the starter {starter!r} must be a player holding dice")
    n0 = len(names) if initial_players is None else initial_players
    if n0 < len(names) or (rules.max_players is not None and n0 > rules.max_players):
        raise RuleError(
            "setup-initial-players", f"initial players {n0} does not fit {len(names)} seated players"
        )
    chosen_mode = default_mode(rules, counts) if mode is None else mode
    _check_mode(rules, chosen_mode, counts)
    total = sum(counts)
    below_threshold = rules.calza_threshold and total < rules.calzo_threshold(n0)
    if calzo_disabled is None:
        calzo_disabled = below_threshold
    if calzo_disabled != below_threshold:
        raise RuleError(
            "setup-calzo-disabled", "calzo_disabled must say whether the dice are below the threshold"
        )
    if turn_seconds < 1:
        raise RuleError("setup-turn-seconds", "a turn lasts at least one second")
    if rules.fixed_turn_seconds is not None and turn_seconds != rules.fixed_turn_seconds:
        raise RuleError(
            "setup-turn-seconds", f"{ruleset} turns last {rules.fixed_turn_seconds} s (rules.md §9)"
        )
    direction: Direction = "cw"
    return MatchStarted(
        ruleset=rules.ruleset,
        options=rules.options,
        players=names,
        dice=counts,
        starter=starter,
        mode=chosen_mode,  # type: ignore[arg-type]
        initial_players=n0,
        calzo_disabled=calzo_disabled,
        turn_seconds=turn_seconds,
        direction=direction,
    )


def _check_mode(rules: Rules, mode: str, counts: Sequence[int]) -> None:
    if mode not in ("normal", "palifico", "obligado", "blind") or not rules.has_mode(mode):
        raise RuleError("setup-mode", f"{rules.ruleset} has no {mode!r} round")
    someone_at_one = 1 in counts
    if mode != "normal" and not someone_at_one:
        raise RuleError("setup-mode", f"a {mode} round needs a player holding one die")
    if mode == "palifico" and rules.palifico_barred(list(counts)):
        raise RuleError("setup-mode", "no palifico round while two players hold dice")
    if default_mode(rules, counts) == "obligado" and mode != "obligado":
        raise RuleError("setup-mode", "a round is obligado exactly when someone holds one die")
