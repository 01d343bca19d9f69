"""The bidding games: dudo, cacho-chileno, cacho-online and liars-dice (docs/rules.md §2–§7).

Commands go in, events come out: `decide(state, command) -> list[Event]`,
`evolve(state, event) -> state`, `replay(events) -> state`. `view` is the only way
state leaves the engine.
"""

from cacho.engine.bidding.bids import Bid
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
from cacho.engine.bidding.decide import automatic_command, seat_turn_seconds
from cacho.engine.bidding.events import (
    BidMade,
    Event,
    MatchStarted,
    PasoAnnounced,
    PlayerAbandoned,
    RoundRecorded,
    RoundResolved,
    RoundStarted,
    SalpiconAnnounced,
)
from cacho.engine.bidding.evolve import evolve, initial_state, replay
from cacho.engine.bidding.legal import legal_actions
from cacho.engine.bidding.record import replay_record, write_record
from cacho.engine.bidding.rules import RULESETS, Rules, make_rules
from cacho.engine.bidding.rulings import decide
from cacho.engine.bidding.serialization import event_from_dict, event_to_dict
from cacho.engine.bidding.setup import start_match
from cacho.engine.bidding.state import MatchState
from cacho.engine.bidding.view import view, view_event

__all__ = [
    "RULESETS",
    "Abandon",
    "AnnouncePaso",
    "AnnounceSalpicon",
    "Bid",
    "BidMade",
    "CallCalza",
    "CallDudo",
    "Command",
    "DenySalpicon",
    "Event",
    "MatchStarted",
    "MatchState",
    "PasoAnnounced",
    "PlaceBid",
    "PlayerAbandoned",
    "PlayerCommand",
    "RecordOutcome",
    "RoundRecorded",
    "RoundResolved",
    "RoundStarted",
    "Rules",
    "SalpiconAnnounced",
    "StartRound",
    "StateAtTime",
    "TimeOut",
    "automatic_command",
    "decide",
    "event_from_dict",
    "event_to_dict",
    "evolve",
    "initial_state",
    "legal_actions",
    "make_rules",
    "replay",
    "replay_record",
    "seat_turn_seconds",
    "start_match",
    "view",
    "view_event",
    "write_record",
]
