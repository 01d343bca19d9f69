"""`decide(state, command) -> events`: every rule of a round, and nothing else.

Pure: dice and time arrive in the commands. An illegal command raises RuleError
with a stable code and leaves nothing changed (the state is immutable).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cacho.engine.bidding.bids import Bid, check_opening, check_raise
from cacho.engine.bidding.commands import (
    Abandon,
    AnnouncePaso,
    AnnounceSalpicon,
    CallCalza,
    CallDudo,
    Command,
    DenySalpicon,
    PlaceBid,
    PlayerCommand,
    RecordOutcome,
    StartRound,
    StateAtTime,
    TimeOut,
)
from cacho.engine.bidding.counting import counted_positions, paso_claim_holds, salpicon_claim_holds
from cacho.engine.bidding.events import (
    BidMade,
    Event,
    PasoAnnounced,
    PlayerAbandoned,
    RoundResolved,
    RoundStarted,
    SalpiconAnnounced,
)
from cacho.engine.bidding.rules import MAX_DICE, Mode, Rules
from cacho.engine.bidding.setup import default_mode
from cacho.engine.bidding.state import (
    Direction,
    MatchState,
    ResultKind,
    RoundState,
    dropped_to_one,
    next_live,
)
from cacho.engine.errors import RuleError
from cacho.engine.timers import turn_seconds
from cacho.engine.undo import Undo

# The commands a player may be offered besides a bid (`refusal`).
Answer = CallDudo | CallCalza | AnnouncePaso | AnnounceSalpicon | DenySalpicon | Abandon


def decide(state: MatchState, command: Command) -> list[Event]:
    """A player's (or the server's) command; a referee's ruling is `rulings.decide`'s."""
    _check_open(state, command)
    if isinstance(command, StartRound):
        return [_start_round(state, command)]
    if isinstance(command, Abandon):
        return [_abandon(state, command)]
    # a physical table's entries: bidding/outcomes.py, bidding/at_time.py
    if isinstance(command, RecordOutcome | StateAtTime | Undo):
        raise RuleError("outcome-not-physical", "this entry is made only at a physical table")
    if isinstance(command, TimeOut):
        if state.config.physical and command.at is not None:
            # no clock runs at a physical table; a record may still state a past timeout
            raise RuleError("timeout-at-physical-table", "a physical table has no clock: nobody times out")
        return _time_out(state, command)
    return _act(state, command, timed_out=False)


def _check_open(state: MatchState, command: Command) -> None:
    if state.paused is not None and not isinstance(command, StartRound):
        raise RuleError("match-paused", f"the match is paused: {state.paused}")
    if state.phase == "over":
        raise RuleError("match-over", "the match is over")


def refusal(state: MatchState, command: Answer) -> RuleError | None:
    """Why `decide` refuses `command` (None: it takes it), found by the very checks
    `decide` runs before it builds an event, without resolving the round: what the table
    offers a player (`legal_actions`) is asked here, so the hint and the judge never
    disagree, and a dudo offered costs no reveal."""
    try:
        _check_open(state, command)
        _ANSWER_CHECKS[type(command)](state, command.player)
    except RuleError as error:
        return error
    return None


# --- turns -------------------------------------------------------------------


def seat_turn_seconds(state: MatchState, seat: int) -> int:
    """The match's turn time; 5 s after three timeouts in a row (§9, CO-7)."""
    return turn_seconds(state.timeouts[seat], state.config.turn_seconds)


def _deadline(
    state: MatchState, seat: int, at: int, actor: int | None = None, timed_out: bool = False
) -> int:
    """When `seat`'s turn ends, counting the timeout the actor may have just had."""
    timeouts = state.timeouts[seat]
    if seat == actor:
        timeouts = timeouts + 1 if timed_out else 0
    return at + turn_seconds(timeouts, state.config.turn_seconds) * 1000


def _live_seat(state: MatchState, player: str) -> int:
    if player not in state.config.players:
        raise RuleError("unknown-player", f"{player!r} is not seated in this match")
    seat = state.config.seat(player)
    if state.dice_counts[seat] == 0:
        raise RuleError("player-out", f"{player} holds no dice")
    return seat


live_seat = _live_seat  # the seat of a player who holds dice (RuleError otherwise)


def _current_round(state: MatchState) -> RoundState:
    if state.round is None:
        raise RuleError("no-round-in-progress", "the next round has not started")
    return state.round


def _on_turn(state: MatchState, player: str) -> tuple[int, RoundState]:
    seat = _live_seat(state, player)
    current = _current_round(state)
    if seat != current.to_act:
        raise RuleError("not-your-turn", f"it is {state.config.players[current.to_act]}'s turn")
    return seat, current


# --- starting a round ----------------------------------------------------------


def _start_round(state: MatchState, command: StartRound) -> RoundStarted:
    if state.round is not None:
        raise RuleError("round-in-progress", "a round is being played")
    assert state.next_starter is not None
    dice = tuple(tuple(hand) for hand in command.dice)
    if len(dice) != len(state.dice_counts):
        raise RuleError("dice-mismatch", "one list of dice per seat")
    for name, hand, count in zip(state.config.players, dice, state.dice_counts, strict=True):
        if len(hand) != count:
            raise RuleError("dice-mismatch", f"{name} holds {count} dice, not {len(hand)}")
        if any(type(face) is not int or not 1 <= face <= 6 for face in hand):
            raise RuleError("invalid-face", f"{name}'s dice must show faces 1 to 6")
    return RoundStarted(
        number=state.rounds_started + 1,
        starter=state.config.players[state.next_starter],
        mode=state.next_mode,
        dice=dice,
        deadline=None if command.at is None else _deadline(state, state.next_starter, command.at),
    )


# --- actions on turn ---------------------------------------------------------------


def _act(state: MatchState, command: PlayerCommand, *, timed_out: bool) -> list[Event]:
    if isinstance(command, PlaceBid):
        return [_bid(state, command, timed_out)]
    if isinstance(command, CallDudo):
        return [_dudo(state, command, timed_out)]
    if isinstance(command, CallCalza):
        return [_calza(state, command)]
    if isinstance(command, AnnouncePaso):
        return [_paso(state, command)]
    if isinstance(command, AnnounceSalpicon):
        return [_salpicon(state, command)]
    if isinstance(command, DenySalpicon):
        return [_deny(state, command, timed_out)]
    raise RuleError("unknown-command", f"unknown command {type(command).__name__}")


def _after_action_deadline(
    state: MatchState, current: RoundState, seat: int, at: int | None, timed_out: bool
) -> int | None:
    if at is None:
        return None
    next_seat = next_live(state.dice_counts, seat, current.direction)
    return _deadline(state, next_seat, at, seat, timed_out)


def right_after_aces_opening(rules: Rules, current: RoundState) -> bool:
    """cacho-chileno's free conversion: only the action right after an opening on aces."""
    return (
        rules.opening_aces_free_conversion
        and current.mode != "obligado"
        and len(current.actions) == 1
        and current.bid is not None
        and current.bid.face == 1
    )


def check_bid(state: MatchState, current: RoundState, seat: int, bid: Bid) -> None:
    rules = state.rules
    if current.bid is None:
        check_opening(rules, current.mode, bid, state.total_dice)
        return
    check_raise(
        rules,
        current.mode,
        current.bid,
        bid,
        state.total_dice,
        bidder_dice=state.dice_counts[seat],
        right_after_aces_opening=right_after_aces_opening(rules, current),
    )


def _bid(state: MatchState, command: PlaceBid, timed_out: bool) -> BidMade:
    seat, current = _on_turn(state, command.player)
    if type(command.quantity) is not int or type(command.face) is not int:
        raise RuleError("invalid-bid", "quantity and face are whole numbers")
    bid = Bid(command.quantity, command.face)
    direction = None
    if current.bid is None:
        direction = command.direction or state.direction
        if direction not in ("cw", "ccw"):
            raise RuleError("invalid-direction", "direction is cw or ccw")
        if direction != state.direction and not state.rules.starter_chooses_direction:
            raise RuleError("direction-not-choosable", f"{state.rules.ruleset} is played clockwise")
    elif command.direction is not None and command.direction != current.direction:
        raise RuleError("direction-not-choosable", "only the opening bid sets the direction")
    check_bid(state, current, seat, bid)
    round_direction = direction or current.direction
    deadline = None
    if command.at is not None:
        following = next_live(state.dice_counts, seat, round_direction)
        deadline = _deadline(state, following, command.at, seat, timed_out)
    return BidMade(
        player=command.player,
        quantity=bid.quantity,
        face=bid.face,
        direction=direction,
        timed_out=timed_out,
        deadline=deadline,
    )


def _standing_bid(current: RoundState) -> tuple[Bid, int]:
    if current.bid is None or current.bidder is None:
        raise RuleError("no-standing-bid", "there is no bid to answer yet")
    return current.bid, current.bidder


def _refuse_while_salpicon_pending(current: RoundState, what: str) -> None:
    if current.salpicon_pending:
        raise RuleError("must-answer-salpicon", f"after a salpicón, raise or deny it; no {what}")


def _dudo_checks(state: MatchState, player: str) -> tuple[int, RoundState, Bid, int]:
    seat, current = _on_turn(state, player)
    bid, bidder = _standing_bid(current)
    _refuse_while_salpicon_pending(current, "dudo")
    return seat, current, bid, bidder


def _dudo(state: MatchState, command: CallDudo, timed_out: bool) -> RoundResolved:
    seat, current, bid, bidder = _dudo_checks(state, command.player)
    last = current.last_action
    if last is not None and last.kind == "paso":
        passer = last.seat
        holds = paso_claim_holds(state.rules, current.dice[passer])
        loser = seat if holds else passer
        return _resolve(
            state, current, "paso", seat, passer, None, None, {loser: -1}, loser, (passer,), timed_out
        )
    counted = counted_positions(state.rules, current.mode, current.dice, bid.face)
    count = _total(counted)
    loser = seat if count >= bid.quantity else bidder
    return _resolve(state, current, "dudo", seat, bidder, bid, counted, {loser: -1}, loser, None, timed_out)


def calza_refusal(state: MatchState, current: RoundState, seat: int) -> RuleError | None:
    """Why `seat` may not call calza now (None: it may), whoever's turn it is."""
    rules = state.rules
    if not rules.has_calza:
        return RuleError("action-not-in-ruleset", f"{rules.ruleset} has no calza")
    if current.bid is None or current.bidder is None:
        return RuleError("no-standing-bid", "there is no bid to match yet")
    last = current.last_action
    if seat != current.to_act and not (
        rules.calza_out_of_turn and last is not None and last.kind == "bid" and seat != current.bidder
    ):
        return RuleError("not-your-turn", f"it is {state.config.players[current.to_act]}'s turn")
    if current.salpicon_pending:
        return RuleError("must-answer-salpicon", "after a salpicón, raise or deny it; no calza")
    refusal = calza_table_refusal(state, current.mode, seat)
    if refusal is not None:
        return refusal
    if last is not None and last.kind == "paso" and not rules.calzo_after_paso:
        return RuleError("calza-after-paso", "no calzo right after a paso")
    return calza_threshold_refusal(state)


def calza_table_refusal(state: MatchState, mode: Mode, seat: int) -> RuleError | None:
    """Why `seat` may not call calza in a round of `mode`, whatever was bid (None: it may)."""
    rules = state.rules
    held = state.dice_counts[seat]
    if held >= MAX_DICE and not rules.calza_at_five:
        return RuleError("calza-with-five-dice", "calza needs fewer than 5 dice")
    if mode == "palifico" and rules.no_calza_in_palifico:
        return RuleError("calza-in-palifico", "no calza in a palifico round")
    if mode == "obligado":
        return RuleError("calza-in-obligado", "no calzo in an obligado round")
    if rules.no_palifico_or_calza_with_two_players and len(state.live_seats()) == 2:
        return RuleError("calza-with-two-players", "no calza while two players hold dice")
    return None


def calza_threshold_refusal(state: MatchState) -> RuleError | None:
    """cacho-online's threshold: calzo is off once the dice fall below it (§6)."""
    rules = state.rules
    if rules.calza_threshold and (
        state.calzo_disabled or state.total_dice < rules.calzo_threshold(state.config.initial_players)
    ):
        return RuleError("calza-disabled", "calzo is off: fewer dice than the threshold are left")
    return None


def _calza_checks(state: MatchState, player: str) -> tuple[int, RoundState]:
    seat = _live_seat(state, player)
    current = _current_round(state)
    refused = calza_refusal(state, current, seat)
    if refused is not None:
        raise refused
    return seat, current


def _calza(state: MatchState, command: CallCalza) -> RoundResolved:
    seat, current = _calza_checks(state, command.player)
    bid, bidder = _standing_bid(current)
    counted = counted_positions(state.rules, current.mode, current.dice, bid.face)
    change = 1 if _total(counted) == bid.quantity else -state.rules.calza_penalty
    return _resolve(state, current, "calza", seat, bidder, bid, counted, {seat: change}, seat, None, False)


def _paso_checks(state: MatchState, player: str) -> tuple[int, RoundState]:
    seat, current = _on_turn(state, player)
    if not state.rules.has_paso:
        raise RuleError("action-not-in-ruleset", f"{state.rules.ruleset} has no paso")
    _standing_bid(current)
    if current.mode == "obligado":
        raise RuleError("paso-in-obligado", "no paso in an obligado round")
    if seat in current.pasos:
        raise RuleError("paso-already-used", "a player passes once a round")
    return seat, current


def _paso(state: MatchState, command: AnnouncePaso) -> PasoAnnounced:
    seat, current = _paso_checks(state, command.player)
    return PasoAnnounced(
        player=command.player, deadline=_after_action_deadline(state, current, seat, command.at, False)
    )


def _salpicon_checks(state: MatchState, player: str) -> tuple[int, RoundState]:
    seat, current = _on_turn(state, player)
    if not state.rules.has_salpicon:
        raise RuleError("action-not-in-ruleset", f"{state.rules.ruleset} has no salpicón")
    _standing_bid(current)
    if current.salpicon_by is not None:
        raise RuleError("salpicon-already-announced", "one salpicón a round")
    if state.dice_counts[seat] != MAX_DICE:
        raise RuleError("salpicon-needs-five-dice", "a salpicón needs all 5 dice")
    return seat, current


def _salpicon(state: MatchState, command: AnnounceSalpicon) -> SalpiconAnnounced:
    seat, current = _salpicon_checks(state, command.player)
    return SalpiconAnnounced(
        player=command.player, deadline=_after_action_deadline(state, current, seat, command.at, False)
    )


def _deny_checks(state: MatchState, player: str) -> tuple[int, RoundState, int]:
    seat, current = _on_turn(state, player)
    if not state.rules.has_salpicon:
        raise RuleError("action-not-in-ruleset", f"{state.rules.ruleset} has no salpicón")
    if not current.salpicon_pending or current.salpicon_by is None:
        raise RuleError("no-salpicon-to-deny", "there is no salpicón to deny")
    return seat, current, current.salpicon_by


def _deny(state: MatchState, command: DenySalpicon, timed_out: bool) -> RoundResolved:
    seat, current, announcer = _deny_checks(state, command.player)
    holds = salpicon_claim_holds(current.dice[announcer])
    loser = seat if holds else announcer
    return _resolve(
        state, current, "salpicon", seat, announcer, None, None, {loser: -1}, loser, (announcer,), timed_out
    )


# --- timeouts and abandonment --------------------------------------------------------------


def automatic_command(state: MatchState) -> PlayerCommand:
    """What the server plays for the player on turn when their time runs out (§9)."""
    current = _current_round(state)
    player = state.config.players[current.to_act]
    if current.bid is None:
        return PlaceBid(player, 1, 2, direction=state.direction)
    raised = Bid(current.bid.quantity + 1, current.bid.face)
    try:
        check_bid(state, current, current.to_act, raised)
    except RuleError:
        if current.salpicon_pending:
            return DenySalpicon(player)
        return CallDudo(player)
    return PlaceBid(player, raised.quantity, raised.face)


def _time_out(state: MatchState, command: TimeOut) -> list[Event]:
    seat, current = _on_turn(state, command.player)
    if command.at is not None and current.deadline is not None and command.at < current.deadline:
        raise RuleError("deadline-not-reached", "the turn has time left")
    automatic = automatic_command(state)
    if isinstance(automatic, PlaceBid):
        automatic = PlaceBid(
            automatic.player, automatic.quantity, automatic.face, automatic.direction, command.at
        )
    elif isinstance(automatic, CallDudo):
        automatic = CallDudo(automatic.player, command.at)
    elif isinstance(automatic, DenySalpicon):
        automatic = DenySalpicon(automatic.player, command.at)
    del seat
    return _act(state, automatic, timed_out=True)


def restart_mode(rules: Rules, mode: Mode, counts: tuple[int, ...]) -> Mode:
    """The type of a round restarted after an abandonment (CO-6, §9)."""
    if rules.one_die_mode == "obligado" and not rules.obligado_first_round_only:
        return default_mode(rules, counts)
    if mode == "palifico" and rules.palifico_barred(counts):
        return "normal"
    return mode


def _abandoned_round_direction(state: MatchState, current: RoundState, command: Abandon) -> Direction:
    """The direction the restarted round's starter is found in (X-6b): the round's own, which
    a record states even before the opening bid; the round before plays no part."""
    given = command.direction
    if given is None or given == current.direction:
        return current.direction
    if given not in ("cw", "ccw"):
        raise RuleError("invalid-direction", "direction is cw or ccw")
    if current.bid is not None:
        raise RuleError("direction-not-choosable", "only the opening bid sets the direction")
    if given != "cw" and not state.rules.starter_chooses_direction:
        raise RuleError("direction-not-choosable", f"{state.rules.ruleset} is played clockwise")
    return given


def _abandon_checks(state: MatchState, player: str) -> tuple[int, RoundState]:
    # The direction a record may state is checked with the rest of the abandonment:
    # an abandonment offered to a player states none.
    return _live_seat(state, player), _current_round(state)


def _abandon(state: MatchState, command: Abandon) -> PlayerAbandoned:
    """The leaver's dice leave the table and the round restarts (§9). The service
    starts every round as soon as the last one resolves, so there is always one."""
    seat, current = _abandon_checks(state, command.player)
    direction = _abandoned_round_direction(state, current, command)
    counts = list(state.dice_counts)
    lost = counts[seat]
    counts[seat] = 0
    after = tuple(counts)
    live = [index for index, count in enumerate(after) if count > 0]
    calzo_disabled = _calzo_disabled_after(state, after)
    winner = state.config.players[live[0]] if len(live) == 1 else None
    next_starter: str | None = None
    next_mode: Mode | None = None
    if winner is None:
        starter = current.starter
        if after[starter] == 0:
            starter = next_live(after, starter, direction)
        next_starter = state.config.players[starter]
        next_mode = restart_mode(state.rules, current.mode, after)
    return PlayerAbandoned(
        player=command.player,
        dice_lost=lost,
        next_starter=next_starter,
        next_mode=next_mode,
        calzo_disabled=calzo_disabled,
        winner=winner,
        direction=direction,
    )


# --- resolution ------------------------------------------------------------------------


def _total(counted: tuple[tuple[int, ...], ...]) -> int:
    return sum(len(positions) for positions in counted)


def _calzo_disabled_after(state: MatchState, counts: tuple[int, ...]) -> bool:
    rules = state.rules
    if not rules.calza_threshold:
        return False
    return state.calzo_disabled or sum(counts) < rules.calzo_threshold(state.config.initial_players)


def next_round_mode(state: MatchState, before: tuple[int, ...], after: tuple[int, ...]) -> Mode:
    """Palifico, obligado or blind for the round after a resolution (§4–§6)."""
    rules = state.rules
    dropped = dropped_to_one(before, after)
    if rules.one_die_mode == "palifico":
        if rules.palifico_once_per_player:
            dropped = tuple(seat for seat in dropped if seat not in state.palifico_used)
        if rules.palifico_barred(after):
            return "normal"
        return "palifico" if dropped else "normal"
    if rules.one_die_mode == "obligado":
        if rules.obligado_first_round_only:
            return "obligado" if dropped else "normal"
        return default_mode(rules, after)
    if rules.one_die_mode == "blind":
        return "blind" if dropped else "normal"
    return "normal"


@dataclass(frozen=True, slots=True)
class Consequences:
    """What a resolution does to the table: the dice changes actually applied (by name),
    who went out, who wins, and who opens the next round in which mode."""

    dice_change: tuple[tuple[str, int], ...]
    eliminated: tuple[str, ...]
    next_starter: str | None
    next_mode: Mode | None
    calzo_disabled: bool
    winner: str | None


def consequences(
    state: MatchState, direction: Direction, changes: dict[int, int], designated_starter: int
) -> Consequences:
    """The table after `changes` (seat: dice won or lost, held to 0–5): the designated
    starter opens next, or the next player holding dice in `direction` if they went out."""
    players = state.config.players
    before = state.dice_counts
    counts = list(before)
    applied: list[tuple[str, int]] = []
    for seat, delta in changes.items():
        new = max(0, min(MAX_DICE, counts[seat] + delta))
        if new != counts[seat]:
            applied.append((players[seat], new - counts[seat]))
            counts[seat] = new
    after = tuple(counts)
    eliminated = tuple(players[seat] for seat in changes if after[seat] == 0 and before[seat] > 0)
    live = [seat for seat, held in enumerate(after) if held > 0]
    winner = players[live[0]] if len(live) == 1 else None
    next_starter: str | None = None
    next_mode: Mode | None = None
    if winner is None:
        starter = designated_starter
        if after[starter] == 0:
            starter = next_live(after, starter, direction)
        next_starter = players[starter]
        next_mode = next_round_mode(state, before, after)
    return Consequences(
        tuple(applied), eliminated, next_starter, next_mode, _calzo_disabled_after(state, after), winner
    )


def _resolve(
    state: MatchState,
    current: RoundState,
    result: ResultKind,
    caller: int,
    target: int,
    bid: Bid | None,
    counted: tuple[tuple[int, ...], ...] | None,
    changes: dict[int, int],
    designated_starter: int,
    revealed_seats: tuple[int, ...] | None,
    timed_out: bool,
) -> RoundResolved:
    players = state.config.players
    facts = consequences(state, current.direction, changes, designated_starter)
    shown = range(len(players)) if revealed_seats is None else revealed_seats
    revealed = tuple((players[seat], current.dice[seat]) for seat in shown if current.dice[seat])
    matched = None
    if counted is not None:
        matched = tuple((players[seat], counted[seat]) for seat in shown if current.dice[seat])
    return RoundResolved(
        result=result,
        caller=players[caller],
        target=players[target],
        quantity=bid.quantity if bid else None,
        face=bid.face if bid else None,
        count=None if counted is None else _total(counted),
        revealed=revealed,
        dice_change=facts.dice_change,
        eliminated=facts.eliminated,
        next_starter=facts.next_starter,
        next_mode=facts.next_mode,
        calzo_disabled=facts.calzo_disabled,
        winner=facts.winner,
        timed_out=timed_out,
        counted=matched,
    )


# The answers a player may be offered, each with the checks its `decide` runs first.
_ANSWER_CHECKS: dict[type, Callable[[MatchState, str], object]] = {
    CallDudo: _dudo_checks,
    CallCalza: _calza_checks,
    AnnouncePaso: _paso_checks,
    AnnounceSalpicon: _salpicon_checks,
    DenySalpicon: _deny_checks,
    Abandon: _abandon_checks,
}
