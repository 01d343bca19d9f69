"""The write path of clubs and tournaments: every caller (API, admin, tasks, commands) goes here.

Each function runs in one transaction, locks the tournament row (SELECT … FOR UPDATE),
checks, changes rows, appends to the tournament event log, and schedules its side
effects (the advancement task) with `transaction.on_commit`.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.engine.errors import RuleError
from tournaments import matches
from tournaments.competition import seeding
from tournaments.competition.entries import Entry as CoreEntry
from tournaments.competition.errors import CompetitionError
from tournaments.competition.standings import EntryResult
from tournaments.models import (
    Club,
    Entry,
    EntryMember,
    Membership,
    Round,
    Stage,
    Table,
    TableSeat,
    Tournament,
)
from tournaments.services import formats, log
from tournaments.services.errors import Forbidden, NotFound, TournamentError

ENTRY_SIZES = {Tournament.INDIVIDUAL: (1, 1), Tournament.PAIR: (2, 2), Tournament.TEAM: (2, 8)}
PLAYING_STATUSES = (Entry.REGISTERED, Entry.CHECKED_IN, Entry.ACTIVE)


# ---------------------------------------------------------------- roles


def roles_of(user: Any, club: Club | int) -> set[str]:
    if user is None or not getattr(user, "is_authenticated", False):
        return set()
    club_id = club.pk if isinstance(club, Club) else club
    return set(Membership.objects.filter(club_id=club_id, user=user).values_list("role", flat=True))


def has_role(user: Any, club: Club | int, roles: Sequence[str]) -> bool:
    if user is not None and getattr(user, "is_superuser", False):
        return True
    return bool(roles_of(user, club) & set(roles))


def require_role(user: Any, club: Club | int, roles: Sequence[str]) -> None:
    if not has_role(user, club, roles):
        raise Forbidden(_("You do not have a role in this club that allows this."))


# ---------------------------------------------------------------- clubs


def create_club(name: str, slug: str, owner: Any) -> Club:
    if not name or not slug:
        raise TournamentError("club-invalid", _("A club has a name and a slug."))
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug)
            Membership.objects.create(club=club, user=owner, role=Membership.OWNER)
    except IntegrityError as exc:
        raise TournamentError("club-slug-taken", _("That club slug is taken.")) from exc
    return club


def add_member(club_id: int, user: Any, role: str, by: Any) -> Membership:
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFound(_("No such club."))
    if role not in dict(Membership.ROLE_CHOICES):
        raise TournamentError("role-unknown", _("Unknown role."))
    self_join = by is not None and user is not None and by.pk == user.pk and role == Membership.PLAYER
    if not self_join:
        require_role(by, club, (Membership.OWNER,) if role == Membership.OWNER else Membership.MANAGERS)
    membership, _created = Membership.objects.get_or_create(club=club, user=user, role=role)
    return membership


# ---------------------------------------------------------------- tournaments


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFound(_("No such tournament.")) from exc


def _competition(exc: CompetitionError) -> TournamentError:
    return TournamentError(exc.code, exc.message)


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
) -> Tournament:
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFound(_("No such club."))
    require_role(by, club, Membership.MANAGERS)
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
    if type(turn_seconds) is not int or not 5 <= turn_seconds <= 3600:
        raise TournamentError("turn-seconds-invalid", _("Turn time is 5 to 3600 seconds."))
    if seeding_method not in seeding.METHODS:
        raise TournamentError("seeding-method-unknown", _("Seeding is manual, by rating or a draw."))
    plan = stages or [
        {"name": "swiss", "format": "swiss", "params": {"rounds": 3, "table_size": 6}}
        if game == "dudo"
        else {"name": "alalay", "format": formats.ALALAY_EVENT, "params": {}}
    ]
    try:
        formats.check_plan(plan)
        formats.standings_config(standings, game)
        for item in plan:
            params = item.get("params") or {}
            matches.check_setup(ruleset, options, formats.table_size(item["format"], params), turn_seconds)
    except CompetitionError as exc:
        raise _competition(exc) from exc
    except RuleError as exc:
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
            created_by=by,
            status=Tournament.REGISTRATION,
        )
        tournament = _locked(tournament.pk)
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


def update_settings(tournament_id: int, by: Any, **changes: Any) -> Tournament:
    """Change name, options, turn time or check-in deadline; frozen once the tournament starts."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        require_role(by, tournament.club_id, Membership.MANAGERS)
        if tournament.status not in (Tournament.DRAFT, Tournament.REGISTRATION):
            raise TournamentError("tournament-frozen", _("The rules are frozen once the tournament starts."))
        allowed = {"name", "options", "turn_seconds", "checkin_deadline"}
        unknown = set(changes) - allowed
        if unknown:
            raise TournamentError("field-frozen", _("These settings cannot be changed: %s") % sorted(unknown))
        for key, value in changes.items():
            setattr(tournament, key, value)
        tournament.options_hash = log.sha256_json(tournament.options)
        tournament.save()
    return tournament


# ---------------------------------------------------------------- entries


def register(
    tournament_id: int,
    by: Any,
    *,
    name: str,
    user: Any = None,
    members: Sequence[str] = (),
    rating: float | None = None,
    is_bot: bool = False,
) -> Entry:
    """Register an entry: players register themselves; organisers register anyone."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        manager = has_role(by, tournament.club_id, Membership.MANAGERS)
        if not manager and (by is None or user is None or by.pk != user.pk):
            raise Forbidden(_("Players register themselves; organisers register others."))
        if tournament.status != Tournament.REGISTRATION:
            raise TournamentError("registration-closed", _("Registration is closed."))
        name = (name or "").strip()
        if not name or len(name) > 64:
            raise TournamentError("entry-name-invalid", _("An entry has a name of 1 to 64 characters."))
        members = [m.strip() for m in members if m and m.strip()]
        if tournament.entry_type != Tournament.INDIVIDUAL and len(members) != tournament.team_size:
            raise TournamentError(
                "entry-members-invalid", _("This entry needs %d named members.") % tournament.team_size
            )
        if tournament.entry_type == Tournament.INDIVIDUAL and members:
            raise TournamentError("entry-members-invalid", _("An individual entry has no members."))
        if Entry.objects.filter(tournament=tournament, name=name).exists():
            raise TournamentError("entry-name-taken", _("That name is taken in this tournament."))
        if user is not None and Entry.objects.filter(tournament=tournament, user=user).exists():
            raise TournamentError("already-registered", _("You are already registered."))
        entry = Entry.objects.create(
            tournament=tournament, name=name, user=user, rating=rating, is_bot=is_bot
        )
        EntryMember.objects.bulk_create(EntryMember(entry=entry, name=m) for m in members)
        log.record(
            tournament,
            log.REGISTERED,
            {"entry": entry.pk, "name": name, "members": members, "rating": rating, "bot": is_bot},
            log.actor_of(by),
        )
    return entry


def _entry_locked(entry_id: int) -> tuple[Tournament, Entry]:
    tournament_id = Entry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise NotFound(_("No such entry."))
    tournament = _locked(tournament_id)
    return tournament, Entry.objects.get(pk=entry_id)


def _own_or_manager(by: Any, tournament: Tournament, entry: Entry, roles: Sequence[str]) -> None:
    if by is not None and entry.user_id is not None and entry.user_id == by.pk:
        return
    require_role(by, tournament.club_id, roles)


def check_in(entry_id: int, by: Any, now: dt.datetime | None = None) -> Entry:
    now = now or timezone.now()
    with transaction.atomic():
        tournament, entry = _entry_locked(entry_id)
        _own_or_manager(by, tournament, entry, (*Membership.MANAGERS, Membership.REFEREE))
        if tournament.status != Tournament.REGISTRATION:
            raise TournamentError("registration-closed", _("Registration is closed."))
        if tournament.checkin_deadline is None:
            raise TournamentError("checkin-not-required", _("This tournament has no check-in."))
        if now > tournament.checkin_deadline:
            raise TournamentError("checkin-closed", _("The check-in deadline has passed."))
        if entry.status == Entry.CHECKED_IN:
            return entry
        if entry.status != Entry.REGISTERED:
            raise TournamentError("entry-not-registered", _("This entry is not registered."))
        entry.status, entry.checked_in_at = Entry.CHECKED_IN, now
        entry.save(update_fields=["status", "checked_in_at"])
        log.record(tournament, log.CHECKED_IN, {"entry": entry.pk}, log.actor_of(by))
    return entry


def withdraw(entry_id: int, by: Any) -> Entry:
    """Withdraw an entry. During the tournament (a late withdrawal) it forfeits what is left:
    it leaves its live table for good and is paired no more."""
    with transaction.atomic():
        tournament, entry = _entry_locked(entry_id)
        _own_or_manager(by, tournament, entry, (*Membership.MANAGERS, Membership.REFEREE))
        if entry.status not in PLAYING_STATUSES:
            raise TournamentError("entry-not-playing", _("This entry is not in play."))
        if tournament.status == Tournament.FINISHED:
            raise TournamentError("tournament-finished", _("The tournament is over."))
        last = tournament.rounds.order_by("-number").first()
        after = last.number if last else 0
        if last is not None and last.status == Round.PLAYING:
            after = last.number - 1
        entry.status, entry.withdrawn_after_round = Entry.WITHDRAWN, after
        entry.save(update_fields=["status", "withdrawn_after_round"])
        forfeited = []
        for seat in TableSeat.objects.filter(entry=entry, table__status=Table.PLAYING).select_related(
            "table"
        ):
            if seat.table.match_id and matches.forfeit_seat(
                seat.table.match_id, entry.name, f"withdraw-{entry.pk}-{seat.table_id}"
            ):
                forfeited.append(seat.table_id)
        log.record(
            tournament,
            log.WITHDRAWN,
            {"entry": entry.pk, "after_round": after, "forfeited_tables": forfeited},
            log.actor_of(by),
        )
    return entry


# ---------------------------------------------------------------- start, rounds, results


def start_tournament(
    tournament_id: int, by: Any, *, now: dt.datetime | None = None, manual_order: Sequence[int] = ()
) -> Tournament:
    """Close registration, drop no-shows, seed (revealing the committed draw), freeze the
    rules and start the first stage (its first round's matches are created)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        require_role(by, tournament.club_id, Membership.MANAGERS)
        if tournament.status != Tournament.REGISTRATION:
            raise TournamentError("already-started", _("The tournament has already started."))
        deadline = tournament.checkin_deadline
        if deadline is not None and now <= deadline:
            raise TournamentError("checkin-open", _("Check-in is still open."))
        playing = list(tournament.entries.filter(status__in=PLAYING_STATUSES).order_by("pk"))
        if deadline is not None:
            absent = [e for e in playing if e.status != Entry.CHECKED_IN]
            Entry.objects.filter(pk__in=[e.pk for e in absent]).update(status=Entry.NO_SHOW)
            playing = [e for e in playing if e.status == Entry.CHECKED_IN]
            log.record(tournament, log.NO_SHOWS_DROPPED, {"entries": [e.pk for e in absent]}, "system")
        try:
            formats.check_plan(tournament.stage_plan, len(playing))
        except CompetitionError as exc:
            raise _competition(exc) from exc
        core = [CoreEntry(str(e.pk), e.name, e.rating) for e in playing]
        request = seeding.SeedingRequest(
            tournament.seeding,
            tuple(str(i) for i in manual_order),
            tournament.draw_seed or None,
        )
        try:
            seeded = seeding.seed_entries(core, request)
        except CompetitionError as exc:
            raise _competition(exc) from exc
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
        _start_stage(tournament, tournament.stages.get(number=1), [e.id for e in seeded])
    return tournament


def _start_stage(tournament: Tournament, stage: Stage, entrants: list[str]) -> None:
    stage.entrants = entrants
    stage.status = Stage.RUNNING
    data = stage_input(tournament, stage)
    try:
        stage.plan = formats.start_plan(data)
    except CompetitionError as exc:
        raise _competition(exc) from exc
    stage.save(update_fields=["entrants", "status", "plan"])
    _record_stage_started(tournament, stage, entrants)
    planned = formats.next_round(stage_input(tournament, stage))
    if planned is None:
        raise TournamentError("stage-empty", _("This stage has no round to play."))
    _create_round(tournament, stage, planned)


def _results_of(table: Table) -> tuple[EntryResult, ...]:
    return tuple(
        EntryResult(
            entry_id=str(r["entry"]),
            placement=r["placement"],
            dice_left=r.get("dice_left", 0),
            eliminations=r.get("eliminations", 0),
            alalay_total=r.get("alalay_total"),
            instant_win=bool(r.get("instant_win")),
        )
        for r in table.result
    )


def stage_input(tournament: Tournament, stage: Stage) -> formats.StageInput:
    rounds = []
    for rnd in stage.rounds.order_by("stage_round").prefetch_related("tables__seats"):
        if rnd.status != Round.FINISHED:
            continue
        tables = tuple(
            formats.TableRecord(
                number=t.number,
                seats=tuple(str(s.entry_id) for s in t.seats.all()),
                results=_results_of(t),
                group=t.group,
                bracket_ref=t.bracket_ref,
                match_id=str(t.match_id or ""),
            )
            for t in rnd.tables.all()
        )
        rounds.append(
            formats.RoundRecord(
                rnd.stage_round,
                tables,
                tuple(str(b) for b in rnd.byes),
                bye_points=formats.byes_score(stage.format),
            )
        )
    entries = tournament.entries.all()
    return formats.StageInput(
        format=stage.format,
        params=stage.params,
        entrants=tuple(stage.entrants),
        names={str(e.pk): e.name for e in entries},
        rounds=tuple(rounds),
        withdrawn=frozenset(str(e.pk) for e in entries if e.status == Entry.WITHDRAWN),
        standings=formats.standings_config(tournament.standings_config, tournament.game),
        plan=stage.plan,
    )


def _create_round(tournament: Tournament, stage: Stage, planned: formats.PlannedRound) -> Round:
    last = tournament.rounds.order_by("-number").first()
    number = last.number + 1 if last else 1
    stage_round = stage.rounds.count() + 1
    rnd = Round.objects.create(
        tournament=tournament, stage=stage, number=number, stage_round=stage_round, byes=list(planned.byes)
    )
    entries = {str(e.pk): e for e in tournament.entries.select_related("user")}
    described = []
    for index, item in enumerate(planned.tables, start=1):
        seated = [entries[e] for e in item.seats]
        match_id = matches.create_table_match(
            tournament.ruleset,
            [e.name for e in seated],
            [e.user for e in seated],
            options=tournament.options,
            turn_seconds=tournament.turn_seconds,
            ref=f"t{tournament.pk}-r{number}-t{index}",
        )
        table = Table.objects.create(
            round=rnd, number=index, group=item.group, bracket_ref=item.bracket_ref, match_id=match_id
        )
        TableSeat.objects.bulk_create(TableSeat(table=table, index=i, entry=e) for i, e in enumerate(seated))
        described.append(
            {
                "table": index,
                "group": item.group,
                "bracket": item.bracket_ref,
                "match": str(match_id),
                "seats": [e.pk for e in seated],
            }
        )
    log.record(
        tournament,
        log.ROUND_CREATED,
        {
            "round": number,
            "stage": stage.number,
            "stage_round": stage_round,
            "tables": described,
            "byes": [int(b) for b in planned.byes],
            "bye_points": planned.bye_points,  # whether the byes earn the standings' bye points
        },
        "system",
    )
    # Late withdrawals seated by a fixed schedule or bracket forfeit at once.
    for table in rnd.tables.all():
        for seat in table.seats.select_related("entry"):
            if seat.entry.status == Entry.WITHDRAWN and table.match_id:
                matches.forfeit_seat(table.match_id, seat.entry.name, f"withdraw-{seat.entry_id}-{table.pk}")
    if not planned.tables:
        _finish_round(tournament, rnd)
    return rnd


def _finish_round(tournament: Tournament, rnd: Round) -> None:
    rnd.status, rnd.finished_at = Round.FINISHED, timezone.now()
    rnd.save(update_fields=["status", "finished_at"])
    log.record(tournament, log.ROUND_FINISHED, {"round": rnd.number}, "system")
    tournament_id = tournament.pk
    transaction.on_commit(lambda: schedule_advance(tournament_id))


def schedule_advance(tournament_id: int) -> None:
    from tournaments.tasks import advance_tournament

    advance_tournament.delay(tournament_id)


def record_table_result(table_id: int, outcome: matches.MatchOutcome) -> bool:
    """Record a finished match as its table's result (projection step); idempotent.
    When the round's last table finishes, the round finishes and advancement is scheduled."""
    with transaction.atomic():
        tournament_id = (
            Table.objects.filter(pk=table_id).values_list("round__tournament_id", flat=True).first()
        )
        if tournament_id is None:
            return False
        tournament = _locked(tournament_id)
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status == Table.FINISHED or not outcome.over:
            return False
        by_name = {s.entry.name: s.entry_id for s in table.seats.select_related("entry")}
        table.result = [{"entry": by_name[r.seat], **r.as_dict()} for r in outcome.results]
        table.status, table.finished_at = Table.FINISHED, timezone.now()
        table.save(update_fields=["result", "status", "finished_at"])
        rnd = table.round
        log.record(
            tournament,
            log.TABLE_FINISHED,
            {
                "round": rnd.number,
                "table": table.number,
                "match": str(table.match_id),
                "match_version": outcome.last_version,
                "result": table.result,
            },
            "projection",
        )
        from tournaments import projections

        projections.write_standings(tournament)
        if not rnd.tables.exclude(status=Table.FINISHED).exists():
            _finish_round(tournament, rnd)
    return True


def advance(tournament_id: int) -> int | None:
    """Create the next round once the latest one has finished (idempotent: under the
    tournament row lock, only when the latest round is finished). Finishes stages and the
    tournament as they end. Returns the number of the round created, or None."""
    with transaction.atomic():
        try:
            tournament = _locked(tournament_id)
        except NotFound:
            return None
        if tournament.status != Tournament.RUNNING:
            return None
        last = tournament.rounds.order_by("-number").select_related("stage").first()
        if last is None or last.status != Round.FINISHED:
            return None
        stage = last.stage
        while True:
            data = stage_input(tournament, stage)
            planned = formats.next_round(data)
            if planned is not None:
                return _create_round(tournament, stage, planned).number
            ranking = formats.stage_ranking(data)
            stage.status, stage.ranking = Stage.FINISHED, ranking
            stage.save(update_fields=["status", "ranking"])
            log.record(tournament, log.STAGE_FINISHED, {"stage": stage.number, "ranking": ranking}, "system")
            following = tournament.stages.filter(number=stage.number + 1).first()
            if following is None:
                _finish_tournament(tournament)
                return None
            entrants = formats.advancing(data, stage.name, ranking)
            eliminated = set(stage.entrants) - set(entrants)
            Entry.objects.filter(pk__in=[int(e) for e in eliminated], status=Entry.ACTIVE).update(
                status=Entry.ELIMINATED
            )
            stage = following
            stage.entrants, stage.status = entrants, Stage.RUNNING
            stage.plan = formats.start_plan(stage_input(tournament, stage))
            stage.save(update_fields=["entrants", "status", "plan"])
            _record_stage_started(tournament, stage, entrants)


def final_ranking(tournament: Tournament) -> list[str]:
    """The final ranking of everyone who played, from the finished stages' rankings: the last
    stage's order first, then those eliminated in each earlier stage (later stages ahead of
    earlier ones), within a stage by their standing in it (`formats.final_ranking`)."""
    finished = [
        (stage_input(tournament, stage), stage.ranking)
        for stage in tournament.stages.filter(status=Stage.FINISHED).order_by("number")
    ]
    return formats.final_ranking(finished)


def _finish_tournament(tournament: Tournament) -> None:
    from tournaments import projections

    tournament.status, tournament.finished_at = Tournament.FINISHED, timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    standings = projections.write_standings(tournament)
    log.record(
        tournament,
        log.FINISHED,
        {"ranking": final_ranking(tournament), "standings": standings.ranking()},
        "system",
    )


def _record_stage_started(tournament: Tournament, stage: Stage, entrants: Any) -> None:
    payload = {
        "stage": stage.number,
        "name": stage.name,
        "format": stage.format,
        "params": stage.params,
        "entrants": entrants,
        "plan": stage.plan,
    }
    log.record(tournament, log.STAGE_STARTED, payload, "system")
