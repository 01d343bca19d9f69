"""A tournament's life once created (`tournament_setup`): started (seeded by its committed
draw, rules frozen), round after round drawn until its stages end.

Each function runs in one transaction, locks the tournament row (SELECT … FOR UPDATE),
checks, changes rows and appends to the tournament log. `advance` is idempotent: it draws
the next round only when the latest one has finished, so a repeated or late call (the
task scheduled after a round ends, the periodic sweep) does nothing more.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from celery import shared_task
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import matches
from tournaments.clubs.roles import require_role
from tournaments.competition import seeding
from tournaments.competition.entries import Entry as CoreEntry
from tournaments.competition.errors import CompetitionError
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Entry, Membership, Round, Stage, Table, TableSeat, Tournament
from tournaments.notices.triggers import round_drawn_after_commit
from tournaments.services import appeals, failures, formats, log, rankings, standings, tables, team_members
from tournaments.services.stage_rows import stage_input

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
    # The round's tables and their seats, written in one INSERT each once every match is
    # made (a round of a large field has dozens of tables).
    drawn: list[tuple[Table, list[tuple[Entry, int | None]]]] = []
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
        table = Table(
            round=rnd,
            number=index,
            group=item.group,
            bracket_ref=item.bracket_ref,
            match_id=match_id,
            physical=tournament.physical,
        )
        in_match = {e.pk: i for i, e in enumerate(playing)} if match_id else {}
        drawn.append((table, [(e, in_match.get(e.pk)) for e in seated]))
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
    Table.objects.bulk_create([table for table, _seats in drawn])
    TableSeat.objects.bulk_create(
        TableSeat(
            table=table,
            index=i,
            entry=e,
            match_seat=match_seat,
            forfeited=e.status in OUT_OF_PLAY,
            members=members[e.pk],
        )
        for table, seats in drawn
        for i, (e, match_seat) in enumerate(seats)
    )
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
