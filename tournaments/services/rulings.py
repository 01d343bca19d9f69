"""A referee's ruling on a dispute: a correcting event of the match (the engine decides
what it does: `tournaments.matches.rule_match`), then the table's result derived again
from the corrected match and the standings rewritten from it. Nothing is edited: the
match stream gains the ruling's events, the tournament log gains `table-corrected` or
`table-reopened` and `dispute-ruled`.

`preview` runs exactly the same steps inside a transaction it rolls back, and answers the
standings (with their tiebreaks) and the final ranking before and after, so what the
referee is shown is what the commit will do.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.engine.errors import RuleError
from cacho.engine.rulings import REFEREE_KINDS
from tournaments import matches
from tournaments.competition.standings import POINTS
from tournaments.errors import TournamentError
from tournaments.models import Dispute, Entry, Round, Stage, Table, Tournament
from tournaments.notices.triggers import ruled_after_commit
from tournaments.ratings.projection import rate_after_commit
from tournaments.services import disputes, log, rankings, standings, tables
from tournaments.services.lifecycle import locked
from tournaments.services.stage_data import standings_config
from tournaments.services.stage_rows import stage_input

KINDS = REFEREE_KINDS
REASON_LENGTH = 2000


class _Preview(Exception):
    """Rolls the preview's transaction back, carrying what it computed."""

    def __init__(self, after: list[dict[str, Any]], ranking: list[dict[str, Any]]) -> None:
        super().__init__("preview")
        self.after = after
        self.ranking = ranking


def _ranking(tournament: Tournament) -> list[dict[str, Any]]:
    """The final ranking as plain data (empty until the tournament has finished)."""
    names = dict(tournament.entries.values_list("pk", "name"))
    return [
        {"place": p.place, "entry": p.entry_id, "name": names.get(p.entry_id, "")}
        for p in standings.final_ranking(tournament)
    ]


def _moved(before: list[dict[str, Any]], after: list[dict[str, Any]], key: str) -> list[int]:
    was = {row["entry"]: row[key] for row in before}
    now = {row["entry"]: row[key] for row in after}
    return sorted(e for e in set(was) | set(now) if was.get(e) != now.get(e))


def preview(dispute_id: Any, by: Any, ruling: Any) -> dict[str, Any]:
    """The table's stage standings, with their tiebreaks (`criteria`: the columns, points
    first), and the tournament's final ranking, now and as they would be after the ruling;
    `changed` and `ranking_changed` list the entries whose rank or place would change. The
    final ranking is empty while the tournament runs. Nothing is stored."""
    dispute = disputes.visible(dispute_id, by)
    disputes.require_referee(by, dispute.tournament)
    stage = dispute.table.round.stage.number
    current = standings.standing_rows(dispute.tournament, stage)
    ranking = _ranking(dispute.tournament)
    try:
        with transaction.atomic():
            _apply(dispute.pk, by, _checked(ruling), _("preview"))
            later = Tournament.objects.get(pk=dispute.tournament_id)
            raise _Preview(standings.standing_rows(later, stage), _ranking(later))
    except _Preview as done:
        after, ranking_after = done.after, done.ranking
    config = standings_config(dispute.tournament.standings_config, dispute.tournament.game)
    return {
        "voids": voided_rounds(dispute.match_id, ruling),
        "stage": stage,
        "criteria": [POINTS, *config.tiebreaks],
        "current": current,
        "after": after,
        "changed": _moved(current, after, "rank"),
        "ranking_current": ranking,
        "ranking_after": ranking_after,
        "ranking_changed": _moved(ranking, ranking_after, "place"),
    }


def voided_rounds(match_id: Any, ruling: Any) -> list[int]:
    """The rounds a `void-round` undoes: the one named and every round begun after it (their
    dice seeds are revealed, and the table plays from there again); none for other rulings."""
    if not isinstance(ruling, dict) or ruling.get("kind") != "void-round":
        return []
    first = ruling.get("round")
    if type(first) is not int:
        return []
    return list(range(first, matches.match_info(match_id).rounds + 1))


def rule(dispute_id: Any, by: Any, ruling: Any, reason: str) -> Dispute:
    """Commit the ruling; the dispute closes and the round goes on."""
    dispute = disputes.visible(dispute_id, by)
    disputes.require_referee(by, dispute.tournament)
    reason = (reason or "").strip()
    if not reason:
        raise TournamentError("ruling-reason-missing", _("A ruling gives its reason."))
    if len(reason) > REASON_LENGTH:
        raise TournamentError("dispute-text-too-long", _("Say it in at most 2000 characters."))
    with transaction.atomic():
        return _apply(dispute.pk, by, _checked(ruling), reason)


def _checked(ruling: Any) -> dict[str, Any]:
    if not isinstance(ruling, dict) or ruling.get("kind") not in KINDS:
        raise TournamentError("ruling-kind-unknown", _("Choose one of the rulings offered."))
    return dict(ruling)


def _apply(dispute_id: int, by: Any, ruling: dict[str, Any], reason: str) -> Dispute:
    """The ruling's whole effect, in the caller's transaction."""
    dispute = Dispute.objects.select_related("table__round__stage").get(pk=dispute_id)
    tournament = locked(dispute.tournament_id)
    dispute = Dispute.objects.select_for_update().select_related("table__round__stage").get(pk=dispute_id)
    if dispute.status != Dispute.OPEN:
        raise TournamentError("dispute-closed", _("This dispute is closed."), 409)
    table = Table.objects.select_for_update().select_related("round__stage").get(pk=dispute.table_id)
    referee = str(by.get_username())
    try:
        if dispute.paused:  # the review is over: the table's clock runs again, then the ruling
            matches.rule_match(
                dispute.match_id,
                {"kind": "resume"},
                referee=referee,
                reason="",
                command_id=f"dispute-{dispute.pk}-ruling-resume",
            )
            resumed = {"dispute": dispute.pk, "match": str(dispute.match_id), "reason": "", "by_ruling": True}
            log.record(tournament, log.TABLE_RESUMED, resumed, log.actor_of(by))
        version = matches.rule_match(
            dispute.match_id,
            ruling,
            referee=referee,
            reason=reason,
            command_id=f"dispute-{dispute.pk}-ruling",
        )
    except RuleError as exc:
        raise TournamentError(exc.code, exc.message) from exc
    effect = _retake_result(tournament, table, dispute.pk, version)
    if effect in ("corrected", "reopened"):
        rate_after_commit(table.match_id)  # the ratings this table touched, folded again
    now = timezone.now()
    dispute.status, dispute.paused, dispute.closed_at = Dispute.RULED, False, now
    params = {k: v for k, v in ruling.items() if k != "kind"}
    dispute.ruling = {
        "kind": ruling["kind"],
        "params": params,
        "reason": reason,
        "by": referee,
        "at": now.isoformat(),
    }
    dispute.save(update_fields=["status", "paused", "closed_at", "ruling"])
    log.record(
        tournament,
        log.DISPUTE_RULED,
        {
            "dispute": dispute.pk,
            "match": str(dispute.match_id),
            "match_version": version,
            "kind": ruling["kind"],
            "params": params,
            "reason": reason,
            "effect": effect,
        },
        log.actor_of(by),
    )
    if table.status == Table.FINISHED:
        disputes.release_round(tournament, table.round)
    disputes.announce(dispute)
    ruled_after_commit(dispute.pk, effect)  # the filer's and the table's notices (tournaments.notices)
    return dispute


def _retake_result(tournament: Tournament, table: Table, dispute_id: int, version: int) -> str:
    """The table after the ruling: "unchanged", "corrected" (a finished table's result
    differs), "reopened" (its match plays on) or "playing" (it had not finished)."""
    if table.status != Table.FINISHED:
        return "playing"  # its result is recorded when its match ends, as any table's
    outcome = matches.match_result(table.match_id)
    if not outcome.over:
        _reopen(tournament, table, dispute_id, version)
        return "reopened"
    result = tables.result_from_match(table, outcome)
    if result == table.result:
        return "unchanged"
    previous = table.result
    table.result = result
    table.save(update_fields=["result"])
    log.record(
        tournament,
        log.TABLE_CORRECTED,
        {
            "dispute": dispute_id,
            "round": table.round.number,
            "table": table.number,
            "match": str(table.match_id),
            "match_version": version,
            "result": result,
            "previous": previous,
        },
        "referee",
    )
    _rewrite(tournament, table.round.stage)
    return "corrected"


def _reopen(tournament: Tournament, table: Table, dispute_id: int, version: int) -> None:
    """A finished table plays on: its round, its stage and the tournament are open again
    (the window guarantees no later round was drawn from it)."""
    table.status, table.result, table.finished_at = Table.PLAYING, [], None
    table.save(update_fields=["status", "result", "finished_at"])
    rnd = table.round
    if rnd.status == Round.FINISHED:
        rnd.status, rnd.finished_at = Round.PLAYING, None
        rnd.save(update_fields=["status", "finished_at"])
    stage = rnd.stage
    if stage.status == Stage.FINISHED:
        stage.status, stage.ranking = Stage.RUNNING, []
        stage.save(update_fields=["status", "ranking"])
    if tournament.status == Tournament.FINISHED:
        tournament.status, tournament.finished_at = Tournament.RUNNING, None
        tournament.save(update_fields=["status", "finished_at"])
        tournament.entries.filter(status=Entry.FINISHED).update(status=Entry.ACTIVE)
    log.record(
        tournament,
        log.TABLE_REOPENED,
        {
            "dispute": dispute_id,
            "round": rnd.number,
            "table": table.number,
            "match": str(table.match_id),
            "match_version": version,
        },
        "referee",
    )
    standings.write_standings(tournament, stage)


def _rewrite(tournament: Tournament, stage: Stage) -> None:
    """The standings of the corrected table's stage; a finished stage's ranking and, once
    the tournament has finished, its final places follow."""
    standings.write_standings(tournament, stage)
    if stage.status == Stage.FINISHED:
        stage.ranking = rankings.stage_ranking(stage_input(tournament, stage))
        stage.save(update_fields=["ranking"])
    if tournament.status == Tournament.FINISHED:
        placings = standings.final_ranking(tournament)
        log.record(
            tournament,
            log.RANKING_CORRECTED,
            {
                "ranking": [str(p.entry_id) for p in placings],
                "places": [[p.place, p.entry_id] for p in placings],
            },
            "referee",
        )


__all__ = ["KINDS", "preview", "rule", "voided_rounds"]
