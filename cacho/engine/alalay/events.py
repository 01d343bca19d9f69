"""Events: the facts the engine records, and their (de)serialisation for the event store."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from cacho.engine.alalay.ruling_events import RULING_EVENTS, RULING_TYPES, RulingEvent
from cacho.engine.alalay.scorecard import BOXES, Card
from cacho.engine.rulings import ruling_event_from_dict, ruling_event_to_dict
from cacho.engine.undo import EntryUndone


@dataclass(frozen=True)
class Options:
    """Alalay options (docs/rules.md §8)."""

    dormida_on_full_reroll: bool = True
    turn_exempt_if_made_hand: bool = False


OPTION_NAMES: tuple[str, ...] = ("dormida_on_full_reroll", "turn_exempt_if_made_hand")


@dataclass(frozen=True)
class Entry:
    """One scorecard: a person (no members), a pair or a team.

    Members take the throws in this order; an entry without members throws as itself.
    """

    name: str
    members: tuple[str, ...] = ()

    @property
    def throwers(self) -> tuple[str, ...]:
        return self.members or (self.name,)


@dataclass(frozen=True)
class MatchStarted:
    TYPE: ClassVar[str] = "match_started"
    entries: tuple[Entry, ...]
    options: Options
    cards: tuple[Card, ...]  # one per entry, seat order; boxes filled before the match (setup)
    first: int  # seat of the entry that throws first
    # Played at a physical table: a scorekeeper enters every throw; no clock (stored when true).
    physical: bool = False


@dataclass(frozen=True)
class TurnTimedOut:
    TYPE: ClassVar[str] = "turn_timed_out"
    entry: str


@dataclass(frozen=True)
class DiceThrown:
    TYPE: ClassVar[str] = "dice_thrown"
    entry: str
    member: str
    dice: tuple[int, ...]


@dataclass(frozen=True)
class DiceRerolled:
    TYPE: ClassVar[str] = "dice_rerolled"
    entry: str
    keep: tuple[int, ...]
    dice: tuple[int, ...]


@dataclass(frozen=True)
class DieTurned:
    TYPE: ClassVar[str] = "die_turned"
    entry: str
    position: int


@dataclass(frozen=True)
class BoxScored:
    TYPE: ClassVar[str] = "box_scored"
    entry: str
    box: str
    points: int
    de_mano: bool


@dataclass(frozen=True)
class BoxScratched:
    TYPE: ClassVar[str] = "box_scratched"
    entry: str
    box: str


@dataclass(frozen=True)
class EntryAbandoned:
    TYPE: ClassVar[str] = "entry_abandoned"
    entry: str


@dataclass(frozen=True)
class MatchEnded:
    """`reason`: dormida, panza-de-oro, four-in-every-number, points, last-standing (the others
    left), or None (everyone left)."""

    TYPE: ClassVar[str] = "match_ended"
    winners: tuple[str, ...]
    reason: str | None


Event = (
    MatchStarted
    | TurnTimedOut
    | DiceThrown
    | DiceRerolled
    | DieTurned
    | BoxScored
    | BoxScratched
    | EntryAbandoned
    | MatchEnded
    | EntryUndone
    | RulingEvent
)


def _card_to_list(card: Card) -> list[int | None]:
    return list(card)


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-able dict with a "type" key; `event_from_dict` inverts it exactly."""
    if isinstance(event, RULING_EVENTS):
        return ruling_event_to_dict(event)
    out: dict[str, Any] = {"type": event.TYPE}
    if isinstance(event, MatchStarted):
        out["entries"] = [{"name": e.name, "members": list(e.members)} for e in event.entries]
        out["options"] = {name: getattr(event.options, name) for name in OPTION_NAMES}
        out["cards"] = [_card_to_list(card) for card in event.cards]
        out["first"] = event.first
        if event.physical:
            out["physical"] = True
    elif isinstance(event, DiceThrown):
        out.update(entry=event.entry, member=event.member, dice=list(event.dice))
    elif isinstance(event, DiceRerolled):
        out.update(entry=event.entry, keep=list(event.keep), dice=list(event.dice))
    elif isinstance(event, DieTurned):
        out.update(entry=event.entry, position=event.position)
    elif isinstance(event, BoxScored):
        out.update(entry=event.entry, box=event.box, points=event.points, de_mano=event.de_mano)
    elif isinstance(event, BoxScratched):
        out.update(entry=event.entry, box=event.box)
    elif isinstance(event, (TurnTimedOut, EntryAbandoned)):
        out["entry"] = event.entry
    elif isinstance(event, EntryUndone):
        pass
    else:
        assert isinstance(event, MatchEnded)
        out.update(winners=list(event.winners), reason=event.reason)
    return out


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in value)


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from `event_to_dict`'s output; ValueError on an unknown type."""
    kind = data.get("type")
    if kind in RULING_TYPES:
        event: Event = ruling_event_from_dict(RULING_TYPES[kind], data)
        return event
    if kind == MatchStarted.TYPE:
        cards = tuple(tuple(None if v is None else int(v) for v in card) for card in data["cards"])
        if any(len(card) != len(BOXES) for card in cards):
            raise ValueError("a card has 11 boxes")
        return MatchStarted(
            entries=tuple(
                Entry(str(e["name"]), tuple(str(m) for m in e["members"])) for e in data["entries"]
            ),
            options=Options(**{name: bool(data["options"][name]) for name in OPTION_NAMES}),
            cards=cards,
            first=int(data["first"]),
            physical=bool(data.get("physical", False)),
        )
    if kind == DiceThrown.TYPE:
        return DiceThrown(str(data["entry"]), str(data["member"]), _ints(data["dice"]))
    if kind == DiceRerolled.TYPE:
        return DiceRerolled(str(data["entry"]), _ints(data["keep"]), _ints(data["dice"]))
    if kind == DieTurned.TYPE:
        return DieTurned(str(data["entry"]), int(data["position"]))
    if kind == BoxScored.TYPE:
        return BoxScored(str(data["entry"]), str(data["box"]), int(data["points"]), bool(data["de_mano"]))
    if kind == BoxScratched.TYPE:
        return BoxScratched(str(data["entry"]), str(data["box"]))
    if kind == TurnTimedOut.TYPE:
        return TurnTimedOut(str(data["entry"]))
    if kind == EntryAbandoned.TYPE:
        return EntryAbandoned(str(data["entry"]))
    if kind == EntryUndone.TYPE:
        return EntryUndone()
    if kind == MatchEnded.TYPE:
        reason = data["reason"]
        return MatchEnded(tuple(str(w) for w in data["winners"]), None if reason is None else str(reason))
    raise ValueError(f"unknown alalay event type {kind!r}")
