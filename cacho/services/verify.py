"""Verification of a stored match: the hash chain, the events themselves, and every
round's (turn's) dice against its revealed seed and commitment.

The first problem found is reported with the event's version and a stable reason:
`version-gap`, `hash-mismatch`, `chain-head-mismatch`, `unreadable-event`,
`dice-without-commitment`, `commitment-changed`, `offset-gap`,
`seed-does-not-match-commitment`, `dice-do-not-match-seed`; then the heads anchored
outside the match: `anchor-mismatch`, `anchored-event-missing`, `anchor-not-signed`.
Only public data is used (events and their metadata): anyone can repeat it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cacho.anchors import service as anchors
from cacho.engine import fairness
from cacho.engine.games import game_for
from cacho.eventlog.chain import stored_hash
from cacho.models import Event, Match


class Broken(Exception):
    def __init__(self, event: Event, reason: str, message: str) -> None:
        super().__init__(message)
        self.version = event.version
        self.type = event.type
        self.reason = reason
        self.message = message


@dataclass
class _Scope:
    commitment: str
    drawn: int = 0
    rolls: list[tuple[Event, int, tuple[int, ...]]] = field(default_factory=list)


def verify_match(match: Match) -> dict[str, Any]:
    match = Match.objects.get(pk=match.pk)  # the stored head, not a caller's stale copy
    events = list(Event.objects.filter(stream=match).order_by("version"))
    report: dict[str, Any] = {
        "match": str(match.pk),
        "ruleset": match.ruleset,
        "events": len(events),
        "valid": True,
        "verified_scopes": [],
        "unrevealed_scopes": [],
        "error": None,
        # A physical table's dice are entered by its scorekeeper: nothing to check them against.
        "dice_entered": False,
    }
    try:
        _check_chain(match, events)
        verified, unrevealed, entered = _check_dice(match, events)
        report["dice_entered"] = entered
        report["verified_scopes"] = verified
        report["unrevealed_scopes"] = unrevealed
    except Broken as broken:
        report["valid"] = False
        report["error"] = {
            "version": broken.version,
            "type": broken.type,
            "reason": broken.reason,
            "message": broken.message,
        }
        return report
    # A chain computed again after its events were changed or cut holds together: the
    # heads anchored outside the match (signed digests) do not (cacho.anchors).
    if (anchored := anchors.check_match(match.pk, events)) is not None:
        version, reason, message = anchored
        found = events[version - 1].type if 0 < version <= len(events) else None
        report["valid"] = False
        report["error"] = {"version": version, "type": found, "reason": reason, "message": message}
    return report


def _check_chain(match: Match, events: list[Event]) -> None:
    previous = ""
    for expected, event in enumerate(events, start=1):
        if event.version != expected:
            raise Broken(event, "version-gap", f"expected version {expected}, found {event.version}")
        if stored_hash(event, previous) != event.hash:
            raise Broken(event, "hash-mismatch", "the event does not hash to its stored hash")
        previous = event.hash
    if events and match.last_hash and match.last_hash != previous:
        raise Broken(events[-1], "chain-head-mismatch", "the stream's head hash differs from the last event")


def _check_dice(match: Match, events: list[Event]) -> tuple[list[str], list[str], bool]:
    """The scopes verified, those not revealed yet, and whether the dice were entered at a
    physical table (no commitment to check)."""
    game = game_for(match.ruleset)
    scopes: dict[str, _Scope] = {}
    verified: list[str] = []
    state: Any = None
    for event in events:
        try:
            engine_event = game.event_from_dict({"type": event.type, **event.payload})
            state = game.initial_state(engine_event) if state is None else game.evolve(state, engine_event)
        except Exception as exc:
            raise Broken(event, "unreadable-event", f"the engine cannot read this event: {exc}") from exc
        dice = game.event_dice(engine_event, state)
        meta = event.metadata.get("dice") if isinstance(event.metadata, dict) else None
        if dice is not None:
            if not isinstance(meta, dict):
                if match.imported or game.is_physical(state):
                    continue  # a physical table's dice: entered, not rolled
                raise Broken(event, "dice-without-commitment", "dice rolled without a committed seed")
            scope_name = str(meta.get("scope"))
            scope = scopes.setdefault(scope_name, _Scope(str(meta.get("commitment"))))
            if meta.get("commitment") != scope.commitment:
                raise Broken(event, "commitment-changed", f"scope {scope_name} changed its commitment")
            if meta.get("offset") != scope.drawn:
                raise Broken(event, "offset-gap", f"dice of {scope_name} do not follow on from the last roll")
            scope.rolls.append((event, scope.drawn, dice))
            scope.drawn += len(dice)
        reveal = event.metadata.get("reveal") if isinstance(event.metadata, dict) else None
        if isinstance(reveal, dict):
            scope_name = str(reveal.get("scope"))
            seed = str(reveal.get("seed"))
            scope = scopes.get(scope_name) or _Scope(str(reveal.get("commitment")))
            if not fairness.check(seed, scope.commitment):
                message = f"the seed of {scope_name} is not the one committed"
                raise Broken(event, "seed-does-not-match-commitment", message)
            for rolled_event, offset, rolled in scope.rolls:
                if fairness.dice(seed, len(rolled), offset) != rolled:
                    raise Broken(
                        rolled_event, "dice-do-not-match-seed", f"the dice of {scope_name} are not the seed's"
                    )
            verified.append(scope_name)
            scopes.pop(scope_name, None)
    entered = bool(match.imported or (state is not None and game.is_physical(state)))
    return verified, sorted(scopes), entered
