"""Rounds at time (docs/tournaments.md, "Rounds at time"; docs/rules.md §9.1).

The director (an organiser or a referee) calls time on a round, or the round clock does at
zero when the tournament calls time automatically. Calling time puts a `call-time` ruling
on every table of the round still playing, through the match write path (the director as
its actor, the tournament's policy in it); each table then plays on as the policy says and
ends, and its result flows like any other. The round keeps when time was called
(`time_called_at`) and the tournament's log a `time-called` event. A refused call
(`time-already-called`, `round-finished`, `forbidden`) stores nothing: the round, the log
and every match stay as they were.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.engine.errors import RuleError
from tournaments import matches
from tournaments.clubs.roles import DESK, require_role
from tournaments.errors import TournamentError
from tournaments.models import Round, Table, Tournament
from tournaments.services import clock, log
from tournaments.services.lifecycle import locked

AUTOMATIC = "clock"  # who calls time when the round clock does


def policy_of(tournament: Tournament) -> str:
    """The tournament's time policy: its own, or its game's default."""
    return tournament.time_policy or matches.time_policies(tournament.ruleset)[0]


def call_time(round_id: Any, by: Any, *, now: dt.datetime | None = None, automatic: bool = False) -> Round:
    """Call time on the round (`by` an organiser or a referee; `automatic`: the round clock
    at zero, which needs no role). Every table still playing is put at time in one
    transaction: all of them and the log, or nothing."""
    now = now or timezone.now()
    tournament_id = clock.tournament_of_round(round_id)
    with transaction.atomic():
        tournament = locked(tournament_id)
        if not automatic:
            require_role(by, tournament.club_id, DESK)
        rnd = Round.objects.select_for_update().get(pk=int(round_id))
        if rnd.status != Round.PLAYING or tournament.status != Tournament.RUNNING:
            raise TournamentError("round-finished", _("This round is over: there is no time to call."), 409)
        if rnd.time_called_at is not None:
            raise TournamentError(
                "time-already-called", _("Time has already been called on this round."), 409
            )
        policy = policy_of(tournament)
        director = AUTOMATIC if automatic else log.actor_of(by)
        reason = _("Time called by the round clock.") if automatic else _("Time called by the director.")
        called: list[int] = []
        playing = rnd.tables.filter(status=Table.PLAYING, match_id__isnull=False).order_by("number")
        for table in playing:
            try:
                matches.call_time(
                    table.match_id, policy, director=director, reason=reason, command_id=f"call-time:{rnd.pk}"
                )
            except RuleError as exc:
                if exc.code == "ruling-match-over":
                    continue  # the table ended before time: its result is being recorded
                raise TournamentError(exc.code, exc.message, 409) from exc
            called.append(table.number)
        rnd.time_called_at = now
        rnd.save(update_fields=["time_called_at"])
        payload = {"round": rnd.number, "policy": policy, "automatic": automatic, "tables": called}
        log.record(tournament, log.TIME_CALLED, payload, director)
    return rnd


def call_due(now: dt.datetime | None = None) -> int:
    """Call time on every round whose clock has reached zero in a tournament that calls
    time automatically (the sweep's safety net, every few seconds; idempotent: a round
    called once is left alone). The number of rounds called."""
    now = now or timezone.now()
    due = Round.objects.filter(
        status=Round.PLAYING,
        time_called_at__isnull=True,
        clock_running_since__isnull=False,
        tournament__status=Tournament.RUNNING,
        tournament__call_time_automatically=True,
    )
    count = 0
    for rnd in due:
        if clock.clock_view(rnd, now)["remaining_ms"] > 0:
            continue
        try:
            call_time(rnd.pk, None, now=now, automatic=True)
        except TournamentError:
            continue  # finished or called meanwhile: nothing left to do
        count += 1
    return count


def round_view(rnd: Round) -> dict[str, Any]:
    """What a round says of its time call (the console, the API)."""
    return {"time_called_at": rnd.time_called_at.isoformat() if rnd.time_called_at else None}
