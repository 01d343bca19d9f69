"""What follows a committed append: the process's cache, the projections, the notice to
the match's sockets, the turn's timer, the turn listeners and the match-finished listeners.

None of it can undo the commit: each part's failure is logged, and each has a way back
(projections are rebuilt from the log, clients catch up by version, the sweep plays a
turn whose timer was lost, listeners have their own sweeps).

Blocking work goes to the dispatch thread (services.dispatch), held back so that a newer
version of the same match replaces it. A match's projections are written by a process at
most once every `CACHO_PROJECTION_HOLD` seconds (2 by default) and lag by at most that (a
replacement keeps the pending write's time; the last one of a finished match is not
held): they serve lists (the lobby's, refreshed every 15 s), the admin and rebuild checks,
while live play and standings read the log. Each write is a commit of its own and the
engine's spectator view, so a table moving every second costs a process at most one
every two seconds, not one a move. A turn's Celery timer needs to reach the broker well
before its deadline, not at once: held TIMER_HOLD (less when the deadline is nearer), a
turn played within it never costs a broker publish (more CPU than the append); the sweep
covers a process that dies meanwhile.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from cacho.database import databases
from cacho.engine.games import Game
from cacho.eventlog import projections, snapshots
from cacho.eventlog.rows import AppendedEvent
from cacho.eventlog.store import Head
from cacho.observability import metrics
from cacho.process.clock import now_ms
from cacho.process.hot_settings import setting
from cacho.services import bot_turns, deadlines, finished, notices, turns
from cacho.services.dispatch import DISPATCH, Queued
from cacho.services.presentation import wire_event
from cacho.services.state_cache import STATES, Cached

logger = logging.getLogger(__name__)

TIMER_HOLD = 2.0


@dataclass(frozen=True, slots=True)
class Committed:
    """An append that has committed: the match's head after it (the cache takes it over:
    nobody changes it any more), the state its events left, and the events."""

    head: Head
    state: Any
    game: Game
    events: Sequence[AppendedEvent]
    finished: bool = False  # this append ended the match


def run(done: Committed) -> None:
    """Everything that follows the commit of `done`, in the caller's thread (the blocking
    parts queued for the dispatch thread)."""
    head = done.head
    metrics.appended(len(done.events))
    STATES.put(Cached(done.state, head))
    queued: list[Queued] = []  # for the dispatch thread, handed over together
    if databases.postgresql():
        # Off the caller's thread (its own connection); a newer version replaces it.
        written_within = 0.0 if done.finished else setting("CACHO_PROJECTION_HOLD", 2.0)
        projection = partial(project, done)
        queued.append(Queued(projection, ("project", head.key), "projections", written_within, restart=False))
    else:  # SQLite allows one writer: no second writing thread in embedded mode
        _logged(partial(project, done), "projection update")
    notices.publish(head, [wire_event(event) for event in done.events])
    if head.deadline_ms is not None and head.turn_key:
        if deadlines.mode() == "celery":
            # Held at most half the time left: at the broker well before the deadline, and
            # dropped unsent if the turn is played meanwhile.
            hold = max(0.0, min(TIMER_HOLD, (head.deadline_ms - now_ms()) / 2000))
            timer = partial(_timer_if_current, head.id, head.version, head.deadline_ms)
            queued.append(Queued(timer, ("timer", head.key), None, hold))
        else:
            _logged(partial(deadlines.schedule, head.id, head.version, head.deadline_ms), "turn timer")
    if head.turn_key and not done.finished and turns.listeners():
        player = done.game.to_act(done.state)
        if player is not None:
            heard = partial(turns.turn_started, head.id, head.version, player)
            if databases.postgresql():  # held: a turn played within the hold is never told
                queued.append(Queued(heard, ("turn", head.key), None, turns.HOLD))
            else:
                _logged(heard, "turn listeners")
    if queued:
        DISPATCH.call_each(queued)
    _logged(partial(bot_turns.after_commit, head, done.game, done.state, done.finished), "bot turn")
    if done.finished:
        finished.match_finished(head.id)


def project(done: Committed) -> None:
    """The match's projections and, every so many events, its snapshot."""
    head = done.head
    projections.update(head.id, head.version, done.state, done.game, done.events[-1].recorded_at)
    snapshots.maybe_store(head.id, head.version, done.state)


def _timer_if_current(match_id: Any, version: int, deadline_ms: int) -> None:
    """A held timer, unless its turn was played meanwhile: the process's cache says so when
    it has moved past `version` (it never runs ahead of the store; the notices move it when
    another process writes), with no read; else `deadlines.schedule_if_current` asks the
    store."""
    cached = STATES.get(str(match_id))
    if cached is not None and cached.version > version:
        return
    deadlines.schedule_if_current(match_id, version, deadline_ms)


def _logged(function: Callable[[], Any], what: str) -> None:
    try:
        function()
    except Exception:
        logger.exception("%s failed after a commit", what)
