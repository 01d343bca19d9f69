"""A tournament's life: created, its settings changed while registration is open, started
(seeded by its committed draw, rules frozen), round after round drawn until its stages end.

Each function runs in one transaction, locks the tournament row (SELECT … FOR UPDATE),
checks, changes rows and appends to the tournament log. `advance` is idempotent: it draws
the next round only when the latest one has finished, so a repeated or late call (the
task scheduled after a round ends, the periodic sweep) does nothing more.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Sequence
from typing import Any

from celery import shared_task
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.engine.errors import RuleError
from tournaments import matches
from tournaments.competition import seeding
from tournaments.competition.entries import Entry as CoreEntry
from tournaments.competition.errors import CompetitionError
from tournaments.models import Club, Entry, Membership, Round, Stage, Table, TableSeat, Tournament
from tournaments.notices.triggers import round_drawn_after_commit
from tournaments.services import appeals, failures, formats, log, rankings, standings, tables, team_members
from tournaments.services.clubs import require_role
from tournaments.services.errors import NotFound, TournamentError
from tournaments.services.stage_data import ALALAY_EVENT, standings_config, table_size
from tournaments.services.stage_rows import stage_input

# A tournament that names no stages plays the usual event of its game.
DEFAULT_STAGE: dict[str, dict[str, Any]] = {
    "dudo": {"name": "swiss", "format": "swiss", "params": {"rounds": 3, "table_size": 6}},
    "alalay": {"name": "alalay", "format": ALALAY_EVENT, "params": {}},
}
MAX_APPEAL_MINUTES = 24 * 60
ENTRY_SIZES = {Tournament.INDIVIDUAL: (1, 1), Tournament.PAIR: (2, 2), Tournament.TEAM: (2, 8)}
PLAYING_STATUSES = (Entry.REGISTERED, Entry.CHECKED_IN, Entry.ACTIVE)
# Entries the draw leaves out (a fixed schedule or a bracket seats them as forfeits).
OUT_OF_PLAY = (Entry.WITHDRAWN, Entry.DISQUALIFIED)


def locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFound(_("No such tournament.")) from exc


def competition_error(exc: CompetitionError) -> TournamentError:
    return TournamentError(exc.code, exc.message, field=exc.field)


# ---------------------------------------------------------------- creating and settings


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
    plan = stages or [dict(DEFAULT_STAGE[game])]
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


# ---------------------------------------------------------------- starting


def close_check_in_locked(tournament: Tournament, by: Any, now: dt.datetime) -> None:
    """Check-in ends at `now` (the caller holds the row lock and has checked that it is
    open): the deadline moves to now, so the start drops those not checked in as no-shows.
    Logged (`check-in-closed`, with the deadline it replaces)."""
    deadline = tournament.checkin_deadline
    tournament.checkin_deadline = now
    tournament.save(update_fields=["checkin_deadline"])
    statuses = list(tournament.entries.values_list("status", flat=True))
    payload = {
        "deadline": deadline.isoformat() if deadline else None,
        "closed_at": now.isoformat(),
        "checked_in": statuses.count(Entry.CHECKED_IN),
        "not_checked_in": statuses.count(Entry.REGISTERED),
    }
    log.record(tournament, log.CHECK_IN_CLOSED, payload, log.actor_of(by))


def start_tournament(
    tournament_id: int,
    by: Any,
    *,
    now: dt.datetime | None = None,
    manual_order: Sequence[int] = (),
    close_check_in: bool = False,
) -> Tournament:
    """Close registration, drop no-shows, seed (revealing the committed draw), freeze the
    rules and start the first stage (its first round's matches are created). Before the
    check-in deadline the start is refused, unless `close_check_in` closes check-in first
    (in the same transaction: both happen, or neither)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament_id)
        require_role(by, tournament.club_id, Membership.MANAGERS)
        if tournament.status != Tournament.REGISTRATION:
            raise TournamentError("already-started", _("The tournament has already started."))
        deadline = tournament.checkin_deadline
        if deadline is not None and now <= deadline:
            if not close_check_in:
                raise TournamentError(
                    "checkin-open",
                    _("Check-in is still open: close it first, or close check-in and start in one step."),
                )
            close_check_in_locked(tournament, by, now)
        playing = list(tournament.entries.filter(status__in=PLAYING_STATUSES).order_by("pk"))
        if deadline is not None:
            absent = [e for e in playing if e.status != Entry.CHECKED_IN]
            Entry.objects.filter(pk__in=[e.pk for e in absent]).update(status=Entry.NO_SHOW)
            playing = [e for e in playing if e.status == Entry.CHECKED_IN]
            log.record(tournament, log.NO_SHOWS_DROPPED, {"entries": [e.pk for e in absent]}, "system")
        try:
            formats.check_plan(tournament.stage_plan, len(playing))
        except CompetitionError as exc:
            raise competition_error(exc) from exc
        core = [CoreEntry(str(e.pk), e.name, e.rating) for e in playing]
        if tournament.seeding == seeding.MANUAL and not manual_order:
            # The order set at the desk (`desk.set_seeds`); entries registered after it follow.
            manual_order = [e.pk for e in sorted(playing, key=lambda e: (e.seed is None, e.seed or 0, e.pk))]
        request = seeding.SeedingRequest(
            tournament.seeding, tuple(str(i) for i in manual_order), tournament.draw_seed or None
        )
        try:
            seeded = seeding.seed_entries(core, request)
        except CompetitionError as exc:
            raise competition_error(exc) from exc
        for item in seeded:
            Entry.objects.filter(pk=int(item.id)).update(seed=item.seed, status=Entry.ACTIVE)
        tournament.status, tournament.started_at = Tournament.RUNNING, now
        tournament.options_hash = log.sha256_json(tournament.options)
        tournament.save(update_fields=["status", "started_at", "options_hash"])
        log.record(
            tournament,
            log.STARTED,
            {
                "ruleset": tournament.ruleset,
                "options": tournament.options,
                "options_hash": tournament.options_hash,
                "turn_seconds": tournament.turn_seconds,
            },
            log.actor_of(by),
        )
        log.record(
            tournament,
            log.SEEDED,
            {
                "method": tournament.seeding,
                "entries": [e.id for e in core],
                "order": [e.id for e in seeded],
                "commitment": tournament.draw_commitment or None,
                "seed": tournament.draw_seed or None,
            },
            "system",
        )
        for number, item in enumerate(tournament.stage_plan, start=1):
            Stage.objects.create(
                tournament=tournament,
                number=number,
                name=str(item.get("name") or item["format"]),
                format=item["format"],
                params=item.get("params") or {},
            )
        _play_from(tournament, tournament.stages.get(number=1), [e.id for e in seeded])
    return tournament


# ---------------------------------------------------------------- rounds and stages


def _start_stage(tournament: Tournament, stage: Stage, entrants: list[str]) -> None:
    stage.entrants = entrants
    stage.status = Stage.RUNNING
    try:
        stage.plan = formats.start_plan(stage_input(tournament, stage))
    except CompetitionError as exc:
        raise competition_error(exc) from exc
    stage.save(update_fields=["entrants", "status", "plan"])
    payload = {
        "stage": stage.number,
        "name": stage.name,
        "format": stage.format,
        "params": stage.params,
        "entrants": entrants,
        "plan": stage.plan,
    }
    log.record(tournament, log.STAGE_STARTED, payload, "system")


def _play_from(tournament: Tournament, stage: Stage, entrants: list[str] | None = None) -> int | None:
    """Start `stage` (with `entrants`, unless it is running already) and draw rounds until
    one is in play; stages that end meanwhile (every table a walkover, too few left to
    play) hand over to the next, and the last ends the tournament. The round in play, or
    None when the tournament has finished."""
    if entrants is not None:
        _start_stage(tournament, stage, entrants)
    while True:
        data = stage_input(tournament, stage)
        planned = formats.next_round(data) if len(data.active(data.entrants)) >= 2 or data.rounds else None
        if planned is not None:
            rnd = _create_round(tournament, stage, planned)
            if rnd.status == Round.PLAYING:
                return rnd.number
            continue  # nothing to play in it (byes, walkovers): it has finished already
        _finish_stage(tournament, stage, data)
        following = tournament.stages.filter(number=stage.number + 1).first()
        if following is None:
            _finish_tournament(tournament)
            return None
        going_on = rankings.advancing(data, stage.name, following.format)
        gone = set(stage.entrants) - set(going_on)
        Entry.objects.filter(pk__in=[int(e) for e in gone], status=Entry.ACTIVE).update(
            status=Entry.ELIMINATED
        )
        stage = following
        _start_stage(tournament, stage, going_on)


def _finish_stage(tournament: Tournament, stage: Stage, data: Any) -> None:
    ranking = rankings.stage_ranking(data)
    stage.status, stage.ranking = Stage.FINISHED, ranking
    stage.save(update_fields=["status", "ranking"])
    places = [[place, int(e)] for place, e in rankings.places(rankings.stage_tiers(data))]
    log.record(
        tournament,
        log.STAGE_FINISHED,
        {"stage": stage.number, "ranking": ranking, "places": places},
        "system",
    )


def _create_round(tournament: Tournament, stage: Stage, planned: formats.PlannedRound) -> Round:
    """The round's tables and their matches. A withdrawn entry seated by a fixed schedule or
    a bracket forfeits its seat (no seat in the match); a table left with one entry is a
    walkover, with none a forfeit by all: both finish at once."""
    last = tournament.rounds.order_by("-number").first()
    number = last.number + 1 if last else 1
    rnd = Round.objects.create(
        tournament=tournament,
        stage=stage,
        number=number,
        stage_round=stage.rounds.count() + 1,
        byes=[int(b) for b in planned.byes],
    )
    entries = {str(e.pk): e for e in tournament.entries.select_related("user").prefetch_related("members")}
    members = {e.pk: team_members.seat_members(e) for e in entries.values()}
    accounts = team_members.accounts_of(members.values())
    described = []
    walkovers: list[tuple[Table, list[Entry], list[Entry]]] = []
    for index, item in enumerate(planned.tables, start=1):
        seated = [entries[e] for e in item.seats]
        playing = [e for e in seated if e.status not in OUT_OF_PLAY]
        forfeits = [e for e in seated if e.status in OUT_OF_PLAY]
        match_id = None
        if len(playing) >= 2:
            holders = [team_members.seat_user(e, members[e.pk], accounts) for e in playing]
            match_id = matches.create_table_match(
                tournament.ruleset,
                [e.name for e in playing],
                holders,
                options=tournament.options,
                turn_seconds=tournament.turn_seconds,
                ref=f"t{tournament.pk}-r{number}-t{index}",
                physical=tournament.physical,
                members=[team_members.match_members(members[e.pk], accounts) for e in playing],
                partners=[
                    team_members.seat_partners(members[e.pk], holder, accounts)
                    for e, holder in zip(playing, holders, strict=True)
                ],
            )
        table = Table.objects.create(
            round=rnd,
            number=index,
            group=item.group,
            bracket_ref=item.bracket_ref,
            match_id=match_id,
            physical=tournament.physical,
        )
        in_match = {e.pk: i for i, e in enumerate(playing)} if match_id else {}
        TableSeat.objects.bulk_create(
            TableSeat(
                table=table,
                index=i,
                entry=e,
                match_seat=in_match.get(e.pk),
                forfeited=e.status in OUT_OF_PLAY,
                members=members[e.pk],
            )
            for i, e in enumerate(seated)
        )
        if match_id is None:
            walkovers.append((table, playing, forfeits))
        line: dict[str, Any] = {
            "table": index,
            "group": item.group,
            "bracket": item.bracket_ref,
            "match": str(match_id) if match_id else None,
            "seats": [e.pk for e in seated],
            "forfeits": [e.pk for e in forfeits],
        }
        if tournament.entry_type != Tournament.INDIVIDUAL:
            # Who plays for each pair or team at this table, in turn order (an account by
            # its player id: the names are labels kept outside the log).
            line["members"] = {
                str(e.pk): [
                    team_members.logged_member(name, user)
                    for name, user in team_members.match_members(members[e.pk], accounts)
                ]
                for e in seated
            }
        described.append(line)
    log.record(
        tournament,
        log.ROUND_CREATED,
        {
            "round": number,
            "stage": stage.number,
            "stage_round": rnd.stage_round,
            "tables": described,
            "byes": [int(b) for b in planned.byes],
            "bye_points": planned.bye_points,  # whether the byes earn the standings' bye points
        },
        "system",
    )
    round_drawn_after_commit(rnd.pk)  # "your next table is ready" (tournaments.notices)
    for table, playing, forfeits in walkovers:
        winner = [{"entry": e.pk, "placement": 1, "dice_left": 0, "eliminations": 0} for e in playing]
        result = tables.forfeit_result(winner, [e.pk for e in forfeits], len(playing) + len(forfeits))
        tables.finish_table(
            tournament,
            table,
            result,
            match_version=None,
            actor="system",
            walkover=True,
        )
    if planned.byes or walkovers:
        standings.write_standings(tournament, stage)  # byes and walkovers count at once
    tables.finish_round_if_done(tournament, rnd)
    return rnd


def advance(tournament_id: int) -> int | None:
    """Draw the next round once the latest one has finished (idempotent: under the
    tournament row lock, only when the latest round is finished). Finishes stages and the
    tournament as they end. Returns the number of the round drawn, or None."""
    with transaction.atomic():
        try:
            tournament = locked(tournament_id)
        except NotFound:
            return None
        if tournament.status != Tournament.RUNNING:
            return None
        last = tournament.rounds.order_by("-number").select_related("stage").first()
        if last is None or last.status != Round.FINISHED:
            return None
        if not appeals.may_draw(last):
            return None  # the round's appeal period, a referee's hold or a dispute
        try:
            return _play_from(tournament, last.stage)
        except CompetitionError as exc:
            raise competition_error(exc) from exc


@shared_task(name="tournaments.advance_tournament", ignore_result=True)
def advance_tournament(tournament_id: int) -> int | None:
    """`advance`, its failure noted on the tournament (the sweep tries again)."""
    return failures.run_noted(int(tournament_id), "advance", lambda: advance(int(tournament_id)))


def _finish_tournament(tournament: Tournament) -> None:
    tournament.status, tournament.finished_at = Tournament.FINISHED, timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    tournament.entries.filter(status=Entry.ACTIVE).update(status=Entry.FINISHED)
    standings.write_standings(tournament)
    placings = standings.final_ranking(tournament)
    log.record(
        tournament,
        log.FINISHED,
        {
            "ranking": [str(p.entry_id) for p in placings],
            "places": [[p.place, p.entry_id] for p in placings],
        },
        "system",
    )
