"""The restore check: is a restored backup (or any copy of the database) whole and true?

Every match's hash chain, events and dice (`cacho.services.verify`), and that the chain
holds every event the match's head counts; every tournament's log chain
(`log.verify_chain`) up to the head its row records; then the projections rebuilt from
the events (the match summaries, and every table result derived again from its match:
`rebuild`) and compared with the ones the backup holds: the standings row by row, each
match's summary. Every problem is reported (a stable reason, and what it is about), not
only the first. Nothing is kept: the rebuild runs in a transaction rolled back at the end
unless `write` (then the projections are the rebuilt ones).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from tournaments import matches
from tournaments.models import StandingRow, Tournament, TournamentEvent
from tournaments.services import log, rebuild


@dataclass(frozen=True)
class Problem:
    reason: str  # kebab-case: match-chain-broken, match-events-missing, log-chain-broken, ...
    subject: str  # "match <id>", "tournament <id>"
    detail: str

    def __str__(self) -> str:
        return f"{self.subject}: {self.reason}: {self.detail}"


@dataclass
class RestoreReport:
    matches: int = 0
    events: int = 0
    tournaments: int = 0
    log_events: int = 0
    tables_checked: int = 0
    standings_rows: int = 0
    summaries_behind: int = 0  # backed up while their after-commit update was on its way
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        return (
            f"{self.matches} match(es), {self.events} event(s); {self.tournaments} tournament(s), "
            f"{self.log_events} log event(s); {self.tables_checked} table result(s) derived again; "
            f"{self.standings_rows} standings row(s) compared: "
            + (
                f"{self.summaries_behind} match summary(ies) were behind their events; "
                if self.summaries_behind
                else ""
            )
            + ("all whole and equal" if self.ok else f"{len(self.problems)} problem(s)")
        )


def check(*, write: bool = False) -> RestoreReport:
    report = RestoreReport()
    whole = []  # the matches whose log is whole: only they are replayed
    for match_id, version, verified in matches.verified_matches():
        if _check_match(match_id, version, verified, report):
            whole.append(match_id)
    for tournament in Tournament.objects.order_by("pk"):
        _check_log(tournament, report)
        _check_log_anchors(tournament, report)
    with transaction.atomic():
        backed_up = _standings()
        summaries = matches.match_summaries()
        for match_id in whole:
            _guarded(report, f"match {match_id}", lambda m=match_id: matches.rebuild_match_projection(m))
        tables = rebuild.RebuildReport()
        for tournament in Tournament.objects.order_by("pk"):
            _guarded(report, f"tournament {tournament.pk}", lambda t=tournament: rebuild.rebuild(t, tables))
        report.tables_checked = tables.tables_checked
        for line in tables.mismatches:
            tournament_id, _, detail = line.partition(": ")
            report.problems.append(Problem("table-result-differs", f"tournament {tournament_id}", detail))
        _compare_standings(backed_up, _standings(), report)
        _compare_summaries(summaries, matches.match_summaries(), report)
        if not write:
            transaction.set_rollback(True)
    return report


def _guarded(report: RestoreReport, subject: str, rebuild_one: Any) -> None:
    """One rebuild, in a savepoint: a failure is a problem reported, and the check goes on."""
    try:
        with transaction.atomic():
            rebuild_one()
    except Exception as exc:
        report.problems.append(Problem("rebuild-failed", subject, f"{type(exc).__name__}: {exc}"))


def _check_match(match_id: Any, version: int, verified: dict[str, Any], report: RestoreReport) -> bool:
    """True when the match's log is whole (its chain holds, every event is there)."""
    report.matches += 1
    report.events += verified["events"]
    subject = f"match {match_id}"
    if not verified["valid"]:
        error = verified["error"]
        detail = f"event {error['version']} ({error['type']}): {error['reason']}: {error['message']}"
        report.problems.append(Problem("match-chain-broken", subject, detail))
        return False
    if verified["events"] != version:
        detail = f"the head counts {version} event(s), the log holds {verified['events']}"
        report.problems.append(Problem("match-events-missing", subject, detail))
        return False
    return True


def _check_log(tournament: Tournament, report: RestoreReport) -> None:
    report.tournaments += 1
    count = TournamentEvent.objects.filter(tournament=tournament).count()
    report.log_events += count
    valid, head = log.verify_chain(tournament.pk)
    subject = f"tournament {tournament.pk}"
    if not valid:
        detail = "an event does not hash to its stored hash, or a version is missing"
        report.problems.append(Problem("log-chain-broken", subject, detail))
    elif count != tournament.version or head != tournament.head_hash:
        detail = f"the head counts {tournament.version} event(s), the log holds {count}"
        report.problems.append(Problem("log-events-missing", subject, detail))


def _check_log_anchors(tournament: Tournament, report: RestoreReport) -> None:
    """Each table result in the log names its match's chain head (`match_hash`): the match's
    event at that version must still be there, with that hash."""
    finished = TournamentEvent.objects.filter(tournament=tournament, type=log.TABLE_FINISHED)
    for payload in finished.values_list("payload", flat=True):
        anchored = payload.get("match_hash") if isinstance(payload, dict) else None
        if not anchored:
            continue  # a walkover, or recorded before the log anchored heads
        found = matches.event_hash(payload.get("match"), payload.get("match_version"))
        if found != anchored:
            detail = f"tournament {tournament.pk}'s log anchors event {payload.get('match_version')}: " + (
                "missing" if found is None else "a different hash"
            )
            report.problems.append(Problem("match-anchor-differs", f"match {payload.get('match')}", detail))


StandingsKey = tuple[int, int, int]  # tournament, stage, position


def _standings() -> dict[StandingsKey, tuple[Any, ...]]:
    rows = StandingRow.objects.values_list(
        "tournament_id", "stage", "position", "group", "rank", "entry_id", "played", "points", "values",
        "tiebreak", "tiebreak_against_id", "tiebreak_values",
    )  # fmt: skip
    return {(row[0], row[1], row[2]): tuple(row[3:]) for row in rows}


def _unplayed(row: tuple[Any, ...]) -> bool:
    _group, _rank, _entry, played, points, *_ = row
    return bool(played == 0 and points == 0)


def _compare_standings(
    before: dict[StandingsKey, tuple[Any, ...]],
    after: dict[StandingsKey, tuple[Any, ...]],
    report: RestoreReport,
) -> None:
    report.standings_rows = len(before)
    for key in sorted(set(before) | set(after)):
        if key not in before and _unplayed(after[key]):
            continue  # a stage with nothing played stores no rows until its first table ends
        if before.get(key) != after.get(key):
            tournament, stage, position = key
            detail = (
                f"stage {stage}, position {position}: backed up {before.get(key)}, rebuilt {after.get(key)}"
            )
            report.problems.append(Problem("standings-differ", f"tournament {tournament}", detail))


def _compare_summaries(
    before: dict[str, tuple[Any, ...]], after: dict[str, tuple[Any, ...]], report: RestoreReport
) -> None:
    for key in sorted(set(before) | set(after)):
        if key not in before or before[key] == after.get(key):
            continue
        if key in after and before[key][0] < after[key][0]:  # a projection a moment behind
            report.summaries_behind += 1
        else:
            detail = f"backed up {before[key]}, rebuilt {after.get(key)}"
            report.problems.append(Problem("match-summary-differs", f"match {key}", detail))
