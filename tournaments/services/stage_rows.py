"""A stage's rows (rounds, tables, seats, results, entries) read into the formats' plain
`StageInput`: the one reader used to draw the next round, rank a stage and write the
standings, so that all three see the same results."""

from __future__ import annotations

from typing import Any

from tournaments.competition.standings import EntryResult
from tournaments.models import Entry, Round, Stage, Table, TableSeat, Tournament
from tournaments.services.stage_data import RoundRecord, StageInput, TableRecord, byes_score, standings_config


def result_line(line: dict[str, Any]) -> EntryResult:
    return EntryResult(
        entry_id=str(line["entry"]),
        placement=line["placement"],
        dice_left=line.get("dice_left", 0),
        eliminations=line.get("eliminations", 0),
        alalay_total=line.get("alalay_total"),
        instant_win=bool(line.get("instant_win")),
        forfeit=bool(line.get("forfeit")),
    )


def stage_input(tournament: Tournament, stage: Stage, *, finished_only: bool = True) -> StageInput:
    """The stage as the formats see it: its finished rounds (all its rounds when
    `finished_only` is off: the standings of a round in progress count its finished tables).
    Read as plain values (three queries), since it runs whenever a table finishes."""
    rounds = stage.rounds.order_by("stage_round")
    if finished_only:
        rounds = rounds.filter(status=Round.FINISHED)
    round_rows = list(rounds.values_list("pk", "stage_round", "byes"))
    table_rows = list(
        Table.objects.filter(round_id__in=[r[0] for r in round_rows])
        .order_by("round_id", "number")
        .values_list("pk", "round_id", "number", "group", "bracket_ref", "match_id", "status", "result")
    )
    seats: dict[int, list[str]] = {}
    seat_rows = TableSeat.objects.filter(table_id__in=[t[0] for t in table_rows]).order_by(
        "table_id", "index"
    )
    for table_id, entry_id in seat_rows.values_list("table_id", "entry_id"):
        seats.setdefault(table_id, []).append(str(entry_id))
    tables_of: dict[int, list[TableRecord]] = {}
    for pk, round_id, number, group, bracket_ref, match_id, status, result in table_rows:
        tables_of.setdefault(round_id, []).append(
            TableRecord(
                number=number,
                seats=tuple(seats.get(pk, ())),
                results=tuple(result_line(line) for line in result) if status == Table.FINISHED else (),
                group=group,
                bracket_ref=bracket_ref,
                match_id=str(match_id or f"table-{pk}"),
            )
        )
    scored = byes_score(stage.format)
    records = tuple(
        RoundRecord(stage_round, tuple(tables_of.get(pk, ())), tuple(str(b) for b in byes), bye_points=scored)
        for pk, stage_round, byes in round_rows
    )
    entries = list(tournament.entries.values_list("pk", "name", "status"))
    return StageInput(
        format=stage.format,
        params=stage.params,
        entrants=tuple(stage.entrants),
        names={str(pk): name for pk, name, _status in entries},
        rounds=records,
        # Disqualified entries are out of play as withdrawn ones are (`desk`).
        withdrawn=frozenset(
            str(pk) for pk, _name, status in entries if status in (Entry.WITHDRAWN, Entry.DISQUALIFIED)
        ),
        standings=standings_config(tournament.standings_config, tournament.game),
        plan=stage.plan,
    )
