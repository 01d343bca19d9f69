"""The round clock: the organisers (and referees) start it for the round in play, pause,
resume, extend or reset it; each action is an event of the tournament's log
(`clock-started` …) and the round row keeps the clock's state as a projection. The rules
of the clock are the pure `competition.clock`; this module locks, checks roles, applies
and logs. Readers (the console, the tournament page, each table's match page) get
`clock_view`: the time left at the server's now, which the page counts down itself.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.edge.inputs import plain_digits
from tournaments.clubs.roles import DESK, require_role
from tournaments.competition import clock as core
from tournaments.competition.errors import CompetitionError
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Round, Table, Tournament
from tournaments.services import log
from tournaments.services.lifecycle import locked
from tournaments.services.tables import table_of

ACTIONS = ("start", "pause", "resume", "extend", "reset")
EVENTS = {
    "start": log.CLOCK_STARTED,
    "pause": log.CLOCK_PAUSED,
    "resume": log.CLOCK_RESUMED,
    "extend": log.CLOCK_EXTENDED,
    "reset": log.CLOCK_RESET,
}


def _ms(at: dt.datetime) -> int:
    return int(at.timestamp() * 1000)


def clock_of(rnd: Round) -> core.Clock:
    since = rnd.clock_running_since
    return core.Clock(rnd.clock_seconds, rnd.clock_used_ms, _ms(since) if since else None)


def clock_view(rnd: Round | None, now: dt.datetime | None = None) -> dict[str, Any]:
    """The clock of `rnd` at `now`: `state` idle, running or paused (`finished` once the
    round is over; `none` without a round), its length, the milliseconds left (negative in
    overtime) and, while it runs, when it reaches zero."""
    now = now or timezone.now()
    if rnd is None:  # no round drawn yet, or a casual match
        return {
            "round_id": None,
            "round": None,
            "state": "none",
            "seconds": None,
            "remaining_ms": 0,
            "ends_at": None,
            "server_time": now.isoformat(),
        }
    clock = clock_of(rnd)
    left = clock.remaining(_ms(now))
    state = clock.state if rnd.status != Round.FINISHED else "finished"
    ends = now + dt.timedelta(milliseconds=left) if clock.state == core.RUNNING else None
    return {
        "round_id": rnd.pk,
        "round": rnd.number,
        "state": state,
        "seconds": clock.seconds,
        "remaining_ms": left,
        "ends_at": ends.isoformat() if ends else None,
        "server_time": now.isoformat(),
    }


def _minutes(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise TournamentError("clock-time-invalid", _("Give the time in minutes."))
    if abs(value) * 60 > core.MAX_SECONDS:
        raise TournamentError("clock-time-invalid", _("A round clock runs at most 12 hours."))
    return round(float(value) * 60)


def act(round_id: Any, by: Any, action: str, minutes: Any = None, now: dt.datetime | None = None) -> Round:
    """Start (`minutes`), pause, resume, extend (`minutes`, negative to take time back) or
    reset the clock of a round in play."""
    now = now or timezone.now()
    if action not in ACTIONS:
        raise TournamentError(
            "clock-action-unknown", _("The clock starts, pauses, resumes, extends or resets.")
        )
    tournament_id = tournament_of_round(round_id)
    with transaction.atomic():
        tournament = locked(tournament_id)
        require_role(by, tournament.club_id, DESK)
        rnd = Round.objects.select_for_update().get(pk=int(round_id))
        if rnd.status != Round.PLAYING or tournament.status != Tournament.RUNNING:
            raise TournamentError("round-finished", _("This round is over: its clock is stopped."))
        clock, at = clock_of(rnd), _ms(now)
        payload: dict[str, Any] = {"round": rnd.number}
        try:
            if action == "start":
                seconds = _minutes(minutes)
                clock = core.start(clock, seconds, at)
                payload["seconds"] = seconds
            elif action == "pause":
                clock = core.pause(clock, at)
                payload["used_ms"] = clock.used_ms
            elif action == "resume":
                clock = core.resume(clock, at)
            elif action == "extend":
                seconds = _minutes(minutes)
                clock = core.extend(clock, seconds, at)
                payload.update({"seconds": seconds, "total_seconds": clock.seconds})
            else:
                clock = core.reset(clock)
        except CompetitionError as exc:
            raise _refusal(exc, action, clock_of(rnd), at, minutes) from exc
        rnd.clock_seconds, rnd.clock_used_ms = clock.seconds, clock.used_ms
        since = clock.running_since_ms
        rnd.clock_running_since = dt.datetime.fromtimestamp(since / 1000, tz=dt.UTC) if since else None
        rnd.save(update_fields=["clock_seconds", "clock_used_ms", "clock_running_since"])
        log.record(tournament, EVENTS[action], payload, log.actor_of(by))
    return rnd


def _clock_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _refusal(exc: CompetitionError, action: str, clock: core.Clock, at: int, minutes: Any) -> TournamentError:
    """The pure clock's refusal in the director's words, with what to do instead (its code
    kept): the core speaks English for logs, the console speaks the request's language."""
    if exc.code == "clock-time-invalid" and action == "extend" and clock.seconds is not None:
        used = -(-clock.used(at) // 1000)
        most = max(0, clock.seconds - max(1, used))
        asked = round(float(minutes) * 60)
        if asked != 0 and clock.seconds + asked < max(1, used):
            if most < 60:
                text = _(
                    "The clock cannot end before the time already used (%(used)s): no time can be "
                    "taken back now. To stop the round, end it at time instead."
                )
            else:
                text = _(
                    "The clock cannot end before the time already used (%(used)s). Take back at "
                    "most %(most)s minutes; to stop the round now, end it at time instead."
                )
            return TournamentError(exc.code, text % {"used": _clock_text(used), "most": most // 60})
        if clock.seconds + asked > core.MAX_SECONDS:
            return TournamentError(exc.code, _("A round clock runs at most 12 hours."))
        return TournamentError(exc.code, _("An extension is 1 to 720 minutes, more or less."))
    words = {
        "clock-started": _("The clock is running already: pause it, add time or reset it instead."),
        "clock-not-running": _("The clock is not running: resume it, or start it, first."),
        "clock-not-paused": _("The clock is not paused: it is running already."),
        "clock-not-started": _("The clock has not been started: start it with the round's length first."),
        "clock-time-invalid": _("A round clock runs 1 minute to 12 hours."),
    }
    return TournamentError(exc.code, words.get(exc.code, exc.message))


def latest_round(tournament_id: Any) -> Round | None:
    if not plain_digits(tournament_id):
        raise NotFound(_("No such tournament."))
    if not Tournament.objects.filter(pk=int(tournament_id)).exists():
        raise NotFound(_("No such tournament."))
    return Round.objects.filter(tournament_id=int(tournament_id)).order_by("-number").first()


def round_of_match(match_id: Any) -> Round | None:
    table: Table | None = table_of(str(match_id))
    return table.round if table is not None else None


def tournament_of_round(round_id: Any) -> int:
    """The tournament id of a round id from a URL; NotFound for none."""
    try:
        tournament_id = Round.objects.filter(pk=int(round_id)).values_list("tournament_id", flat=True).first()
    except (TypeError, ValueError):
        tournament_id = None
    if tournament_id is None:
        raise NotFound(_("No such round."))
    return int(tournament_id)
