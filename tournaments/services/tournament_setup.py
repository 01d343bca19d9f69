"""Creating a tournament and changing its settings: the ruleset, options and stages checked
against the engine and the formats, the draw's commitment, and which settings change before
the start and which at any time (`tournament-created`, `draw-committed`, `settings-changed`)."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from cacho.engine.errors import RuleError
from tournaments import matches
from tournaments.clubs.roles import require_role
from tournaments.competition import seeding
from tournaments.competition.errors import CompetitionError
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Club, Membership, Tournament
from tournaments.services import appeals, formats, log, team_members
from tournaments.services.lifecycle import (
    ENTRY_SIZES,
    MAX_APPEAL_MINUTES,
    competition_error,
    locked,
)
from tournaments.services.stage_data import default_stage, standings_config, table_size


def create_tournament(
    club_id: int,
    by: Any,
    *,
    name: str,
    ruleset: str,
    options: dict[str, Any] | None = None,
    turn_seconds: int = 30,
    entry_type: str = Tournament.INDIVIDUAL,
    team_size: int = 1,
    checkin_deadline: dt.datetime | None = None,
    seeding_method: str = seeding.DRAW,
    standings: dict[str, Any] | None = None,
    stages: list[dict[str, Any]] | None = None,
    appeal_minutes: int = 15,
    round_appeal_minutes: int | None = None,
    physical: bool = False,
    rated: bool = True,
    time_policy: str = "",
    call_time_automatically: bool = False,
    player_chat: bool = False,
) -> Tournament:
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFound(_("No such club."))
    require_role(by, club, Membership.MANAGERS)
    name = (name or "").strip()
    if not name:
        raise TournamentError("name-missing", _("A tournament has a name."))
    options = dict(options or {})
    try:
        game = matches.game_of(ruleset)
    except RuleError as exc:
        raise TournamentError("ruleset-unknown", _("Unknown ruleset.")) from exc
    if entry_type not in ENTRY_SIZES:
        raise TournamentError("entry-type-unknown", _("Entries are individuals, pairs or teams."))
    low, high = ENTRY_SIZES[entry_type]
    team_size = (
        1 if entry_type == Tournament.INDIVIDUAL else 2 if entry_type == Tournament.PAIR else team_size
    )
    if not low <= team_size <= high:
        raise TournamentError("team-size-invalid", _("That team size is not allowed."))
    team_members.check_entry_type(ruleset, entry_type)
    if type(turn_seconds) is not int or not 5 <= turn_seconds <= 3600:
        raise TournamentError("turn-seconds-invalid", _("Turn time is 5 to 3600 seconds."))
    _check_appeal_minutes(appeal_minutes)
    if round_appeal_minutes is None:
        round_appeal_minutes = appeals.default_minutes()
    _check_appeal_minutes(round_appeal_minutes, "round-appeal-minutes-invalid")
    if not isinstance(physical, bool):
        raise TournamentError("physical-invalid", _("Physical tables is true or false."))
    if not isinstance(rated, bool):
        raise TournamentError("rated-invalid", _("Rated is true or false."))
    _check_time_settings(ruleset, time_policy, call_time_automatically)
    _check_player_chat(player_chat)
    if seeding_method not in seeding.METHODS:
        raise TournamentError("seeding-method-unknown", _("Seeding is manual, by rating or a draw."))
    plan = stages or [default_stage(game)]
    if (standings or {}).get("scale") == "reported":
        # No result carries points yet (a physical table's scorekeeper will report them).
        raise TournamentError("scale-unavailable", _("No result reports points: choose another scale."))
    try:
        formats.check_plan(plan)
        standings_config(standings, game)
        for item in plan:
            params = item.get("params") or {}
            matches.check_setup(ruleset, options, table_size(item["format"], params), turn_seconds)
    except CompetitionError as exc:
        raise competition_error(exc) from exc
    except RuleError as exc:
        if exc.code == "setup-turn-seconds":  # cacho-online's turn is the seed's 30 s
            raise TournamentError("turn-seconds-invalid", exc.message) from exc
        raise TournamentError("options-invalid", f"{exc.code}: {exc.message}") from exc
    with transaction.atomic():
        tournament = Tournament.objects.create(
            club=club,
            name=name,
            game=game,
            ruleset=ruleset,
            options=options,
            options_hash=log.sha256_json(options),
            turn_seconds=turn_seconds,
            entry_type=entry_type,
            team_size=team_size,
            checkin_deadline=checkin_deadline,
            seeding=seeding_method,
            standings_config=standings or {},
            stage_plan=plan,
            appeal_minutes=appeal_minutes,
            round_appeal_minutes=round_appeal_minutes,
            physical=physical,
            rated=rated,
            time_policy=time_policy,
            call_time_automatically=call_time_automatically,
            player_chat=player_chat,
            created_by=by,
            status=Tournament.REGISTRATION,
        )
        tournament = locked(tournament.pk)
        log.record(
            tournament,
            log.CREATED,
            {
                "club": club.pk,
                "name": name,
                "game": game,
                "ruleset": ruleset,
                "options": options,
                "options_hash": tournament.options_hash,
                "turn_seconds": turn_seconds,
                "entry_type": entry_type,
                "team_size": team_size,
                "checkin_deadline": checkin_deadline.isoformat() if checkin_deadline else None,
                "seeding": seeding_method,
                "standings": standings or {},
                "stages": plan,
                "appeal_minutes": appeal_minutes,
                "round_appeal_minutes": round_appeal_minutes,
                "physical": physical,
                "rated": rated,
                "time_policy": time_policy,
                "call_time_automatically": call_time_automatically,
                "player_chat": player_chat,
            },
            log.actor_of(by),
        )
        if seeding_method in (seeding.DRAW, seeding.RATING):
            seed = secrets.token_hex(32)
            tournament.draw_seed = seed
            tournament.draw_commitment = seeding.commitment(seed)
            Tournament.objects.filter(pk=tournament.pk).update(
                draw_seed=seed, draw_commitment=tournament.draw_commitment
            )
            log.record(tournament, log.DRAW_COMMITTED, {"commitment": tournament.draw_commitment}, "system")
    return tournament


SETTINGS_BEFORE_START = (
    "name",
    "options",
    "turn_seconds",
    "checkin_deadline",
    "appeal_minutes",
    "round_appeal_minutes",
    "physical",
    "rated",
    "time_policy",
    "call_time_automatically",
    "player_chat",
)
# A label, and how long finished rounds may be disputed: none of them changes a result.
SETTINGS_ANY_TIME = ("name", "appeal_minutes", "round_appeal_minutes", "player_chat")


def _check_time_settings(ruleset: str, policy: Any, automatic: Any) -> None:
    """A time policy of the tournament's game ("" for its default), and a yes or no."""
    if not isinstance(policy, str) or (policy and policy not in matches.time_policies(ruleset)):
        raise TournamentError(
            "time-policy-invalid",
            _("That is not a way to decide a table at time in this game: %s")
            % ", ".join(matches.time_policies(ruleset)),
        )
    if not isinstance(automatic, bool):
        raise TournamentError(
            "call-time-automatically-invalid", _("Call time automatically is true or false.")
        )


def _check_player_chat(on: Any) -> None:
    if not isinstance(on, bool):
        raise TournamentError("player-chat-invalid", _("The players' chat is on or off (true or false)."))


def _check_appeal_minutes(minutes: Any, code: str = "appeal-minutes-invalid") -> None:
    if type(minutes) is not int or not 0 <= minutes <= MAX_APPEAL_MINUTES:
        raise TournamentError(code, _("The appeal window is 0 to 1440 minutes."))


def update_settings(tournament_id: int, by: Any, **changes: Any) -> Tournament:
    """Change the name and the appeal window (any time), the options, turn time or check-in
    deadline (until the start, when the rules freeze); each change is logged
    (`settings-changed`)."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        require_role(by, tournament.club_id, Membership.MANAGERS)
        unknown = sorted(set(changes) - set(SETTINGS_BEFORE_START))
        if unknown:
            raise TournamentError("field-frozen", _("These settings cannot be changed: %s") % unknown)
        started = tournament.status not in (Tournament.DRAFT, Tournament.REGISTRATION)
        if started and set(changes) - set(SETTINGS_ANY_TIME):
            raise TournamentError("tournament-frozen", _("The rules are frozen once the tournament starts."))
        if "name" in changes:
            changes["name"] = str(changes["name"] or "").strip()
            if not changes["name"]:
                raise TournamentError("name-missing", _("A tournament has a name."))
        if "appeal_minutes" in changes:
            _check_appeal_minutes(changes["appeal_minutes"])
        if "round_appeal_minutes" in changes:
            _check_appeal_minutes(changes["round_appeal_minutes"], "round-appeal-minutes-invalid")
        if "physical" in changes and not isinstance(changes["physical"], bool):
            raise TournamentError("physical-invalid", _("Physical tables is true or false."))
        if "player_chat" in changes:
            _check_player_chat(changes["player_chat"])
        if "rated" in changes and not isinstance(changes["rated"], bool):
            raise TournamentError("rated-invalid", _("Rated is true or false."))
        if "time_policy" in changes or "call_time_automatically" in changes:
            _check_time_settings(
                tournament.ruleset,
                changes.get("time_policy", tournament.time_policy),
                changes.get("call_time_automatically", tournament.call_time_automatically),
            )
        if "options" in changes:
            try:
                for item in tournament.stage_plan:
                    size = table_size(item["format"], item.get("params") or {})
                    matches.check_setup(tournament.ruleset, changes["options"], size, tournament.turn_seconds)
            except RuleError as exc:
                raise TournamentError("options-invalid", f"{exc.code}: {exc.message}") from exc
        changed = {key: value for key, value in changes.items() if getattr(tournament, key) != value}
        if not changed:
            return tournament
        for key, value in changed.items():
            setattr(tournament, key, value)
        tournament.options_hash = log.sha256_json(tournament.options)
        tournament.save(update_fields=[*changed, "options_hash"])
        logged = {k: v.isoformat() if isinstance(v, dt.datetime) else v for k, v in changed.items()}
        log.record(tournament, log.SETTINGS_CHANGED, {"changes": logged}, log.actor_of(by))
    return tournament
