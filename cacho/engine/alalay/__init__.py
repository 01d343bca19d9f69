"""Cacho Alalay (docs/rules.md §8): a pure, event-sourced rules engine.

Commands in, events out; dice are inputs (server roll or scorekeeper entry alike).
"""

from cacho.engine.alalay.autoplay import AutoStep, RollRequest, auto_play, auto_play_turn
from cacho.engine.alalay.commands import Abandon, Command, Reroll, Score, Scratch, Throw, TimeOut, TurnDie
from cacho.engine.alalay.events import (
    BoxScored,
    BoxScratched,
    DiceRerolled,
    DiceThrown,
    DieTurned,
    Entry,
    EntryAbandoned,
    Event,
    MatchEnded,
    MatchStarted,
    Options,
    TurnTimedOut,
    event_from_dict,
    event_to_dict,
)
from cacho.engine.alalay.legal import LegalActions, legal_actions
from cacho.engine.alalay.record import replay_record, write_record
from cacho.engine.alalay.rules import apply, decide, evolve, initial_state, new_match, replay, start_match
from cacho.engine.alalay.scorecard import BOXES, box_points
from cacho.engine.alalay.state import State, TurnState
from cacho.engine.alalay.view import view

__all__ = [
    "BOXES",
    "Abandon",
    "AutoStep",
    "BoxScored",
    "BoxScratched",
    "Command",
    "DiceRerolled",
    "DiceThrown",
    "DieTurned",
    "Entry",
    "EntryAbandoned",
    "Event",
    "LegalActions",
    "MatchEnded",
    "MatchStarted",
    "Options",
    "Reroll",
    "RollRequest",
    "Score",
    "Scratch",
    "State",
    "Throw",
    "TimeOut",
    "TurnDie",
    "TurnState",
    "TurnTimedOut",
    "apply",
    "auto_play",
    "auto_play_turn",
    "box_points",
    "decide",
    "event_from_dict",
    "event_to_dict",
    "evolve",
    "initial_state",
    "legal_actions",
    "new_match",
    "replay",
    "replay_record",
    "start_match",
    "view",
    "write_record",
]
