"""Stage formats: which tables the next round of a stage has.

A thin adapter over the pure competition core (`tournaments.competition`): it turns the
stage's finished rounds (`stage_data.StageInput`, plain data) into the core's inputs and
the core's answer into `PlannedRound`s. No pairing logic lives here.

Withdrawn entries are never seated by a format that pairs each round (Swiss, elimination
by tables, Alalay qualifying, final tables). Fixed schedules and brackets keep their seats:
the round's tables are created with them marked as forfeits (`lifecycle`), so their
opponents win without the withdrawn entry taking a seat in the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _

from tournaments.competition import alalay_event, elimination, round_robin, stages, swiss, tables
from tournaments.competition.errors import CompetitionError
from tournaments.services.stage_data import (
    ALALAY_EVENT,
    FORMATS,
    StageInput,
    byes_score,
    int_param,
    stage_standings,
    table_size,
)


@dataclass(frozen=True)
class PlannedTable:
    seats: tuple[str, ...]
    group: int = 1
    bracket_ref: str = ""


@dataclass(frozen=True)
class PlannedRound:
    """The tables of a round and who sits it out (a bye); `bye_points`: whether those byes
    are worth the standings' bye points (`stage_data.byes_score`)."""

    tables: tuple[PlannedTable, ...]
    byes: tuple[str, ...] = ()
    bye_points: bool = True


# ---------------------------------------------------------------- the plan


def spec_of(name: str, fmt: str, params: dict[str, Any], last: bool) -> stages.StageSpec:
    adv = params.get("advance")
    advancement = None
    if not last:
        if not isinstance(adv, dict):
            raise CompetitionError("advancement-missing", f"stage {name!r} says who advances")
        advancement = stages.Advancement(
            per_group=int_param(adv, "per_group", 0, 0, 1000),
            wildcards=int_param(adv, "wildcards", 0, 0, 1000),
            overall=int_param(adv, "overall", 0, 0, 10000),
        )
    return stages.StageSpec(
        name=name,
        format=stages.FINAL_TABLE if fmt == ALALAY_EVENT else fmt,
        groups=int_param(params, "groups", 1, 1, 64),
        table_size=table_size(fmt, params),
        rounds=params.get("rounds"),
        advancement=advancement,
    )


def check_plan(plan: Sequence[dict[str, Any]], entrants: int | None = None) -> None:
    """Validate a chain of stages; CompetitionError otherwise. Without `entrants` (at its
    creation) it checks every size the plan fixes by itself: how each stage sends entries
    on, and the stages after the first, whose entries the stage before sends; with them (at
    the start) the sizes for that many entries too. A size that does not fit names the field
    to change (`CompetitionError.field`: `stages[i]…` at creation, `stage_plan[i]…` at the
    start, where the plan is fixed) and says in words which numbers do not fit."""
    if not isinstance(plan, list | tuple) or not plan:
        raise CompetitionError("stages-missing", "a tournament has a stage")
    specs = []
    for i, item in enumerate(plan):
        if not isinstance(item, dict) or item.get("format") not in FORMATS:
            raise CompetitionError("stage-format", f"a stage format is one of {', '.join(FORMATS)}")
        params = item.get("params") or {}
        if not isinstance(params, dict):
            raise CompetitionError("stage-param-invalid", "stage params are an object")
        fmt = item["format"]
        if fmt == stages.SWISS:
            int_param(params, "rounds", 3, 1, 50)
            int_param(params, "min_size", 2, tables.SMALLEST_TABLE, table_size(fmt, params))
            if int_param(params, "groups", 1, 1, 64) != 1:
                # `_swiss` pairs the whole stage as one group: a grouped Swiss would stop at its end
                raise CompetitionError("stage-groups", "a Swiss stage is paired as one group")
        if fmt == stages.TABLE_ELIMINATION:
            int_param(params, "advance_per_table", 3, 1, 5)
        if fmt == stages.SINGLE_ELIMINATION and not isinstance(params.get("third_place", False), bool):
            raise CompetitionError("stage-param-invalid", "third_place is true or false")
        if fmt == ALALAY_EVENT:
            int_param(params, "qualifying_rounds", 3, 1, 20)
            int_param(params, "finalists", 6, 2, 6)
        specs.append(spec_of(str(item.get("name") or fmt), fmt, params, i == len(plan) - 1))
    _check_sizes(plan, specs, entrants)
    if entrants is not None and not (plan[0]["format"] == ALALAY_EVENT and len(plan) == 1):
        stages.check_chain(specs, entrants)  # the core's own check, which the worded ones mirror


def _refused(code: str, field: str, message: str) -> CompetitionError:
    return CompetitionError(code, message, field)


def _check_sizes(
    plan: Sequence[dict[str, Any]], specs: Sequence[stages.StageSpec], entrants: int | None
) -> None:
    """How many entries each stage gets, and whether that fits it (`stages.check_stage`, and
    an Alalay event's finalists). The first stage gets `entrants` (None: not known yet, at
    creation); each later one what the stage before it sends on, known from the plan."""
    prefix = "stages" if entrants is None else "stage_plan"
    count, source = entrants, ""
    for i, spec in enumerate(specs):
        where = f"{prefix}[{i}].params"
        adv = spec.advancement
        if adv is not None:
            words = {"stage": spec.name, "groups": spec.groups}
            if adv.overall and (adv.per_group or adv.wildcards):
                message = _(
                    "Stage “%(stage)s” sends entries on either overall or per group, not both: "
                    "keep only “overall”, or only “per_group” and “wildcards”."
                )
                raise _refused("advancement-mixed", f"{where}.advance", message % words)
            if adv.overall and spec.groups > 1:
                message = _(
                    "Stage “%(stage)s” plays in %(groups)s groups, so it sends entries on per group: "
                    "use “per_group” (and “wildcards”) instead of “overall”."
                )
                raise _refused("advancement-overall", f"{where}.advance", message % words)
            if spec.capacity(0) == 0:
                message = _("Stage “%(stage)s” sends nobody on: give “overall”, or “per_group”, 1 or more.")
                raise _refused("advancement-count", f"{where}.advance", message % words)
        if count is not None:
            _check_stage_size(plan[i], spec, count, where, source)
        count = spec.capacity(0) if adv is not None else None
        source = spec.name


def _check_stage_size(
    item: dict[str, Any], spec: stages.StageSpec, count: int, where: str, source: str
) -> None:
    """`count` entries play in this stage: sent on by stage `source`, or (no source) the
    entries in play at the start. The fix offered is the one that can still be made: at the
    start the stages are fixed, so it is more (or fewer) entries."""
    fmt = item["format"]
    words: dict[str, Any] = {"stage": spec.name, "source": source, "count": count, "groups": spec.groups}
    if fmt == ALALAY_EVENT:
        finalists = int_param(item.get("params") or {}, "finalists", 6, 2, 6)
        if count < finalists:
            words.update(finalists=finalists, missing=finalists - count)
            if source:
                message = _(
                    "Stage “%(stage)s” takes %(finalists)s finalists, but stage “%(source)s” sends only "
                    "%(count)s on: lower the finalists to %(count)s or fewer, or send more on."
                )
            elif count >= 2:
                message = _(
                    "The final takes %(finalists)s finalists but only %(count)s entries are in play: add "
                    "at least %(missing)s more, or create the tournament again with %(count)s "
                    "finalists or fewer."
                )
            else:
                message = _(
                    "The final takes %(finalists)s finalists but only %(count)s entries are in play: add "
                    "at least %(missing)s more."
                )
            raise _refused("too-few-entries", f"{where}.finalists", message % words)
    needed = 2 * spec.groups
    if count < needed:
        words.update(needed=needed, missing=needed - count, most=count // 2)
        if source and spec.groups > 1 and count >= 2:
            message = _(
                "Stage “%(stage)s” has %(groups)s groups, which need at least %(needed)s entries, but "
                "stage “%(source)s” sends only %(count)s on: lower the groups to %(most)s or fewer, or "
                "send more on."
            )
            raise _refused("stage-too-small", f"{where}.groups", message % words)
        if source:
            message = _(
                "Stage “%(stage)s” needs at least %(needed)s entries, but stage “%(source)s” sends "
                "only %(count)s on: send more on."
            )
            raise _refused("stage-too-small", f"{_previous(where)}.advance", message % words)
        message = _(
            "Stage “%(stage)s” needs at least %(needed)s entries, but only %(count)s are in play: "
            "add at least %(missing)s more."
        )
        raise _refused("stage-too-small", f"{where}.groups" if spec.groups > 1 else where, message % words)
    if spec.format == stages.FINAL_TABLE and count > tables.LARGEST_TABLE and (source or fmt != ALALAY_EVENT):
        words.update(most=tables.LARGEST_TABLE, extra=count - tables.LARGEST_TABLE)
        if source:
            message = _(
                "Stage “%(stage)s” is a final table, which seats at most %(most)s, but stage “%(source)s” "
                "sends %(count)s on: send %(most)s or fewer on."
            )
            raise _refused("final-table-size", f"{_previous(where)}.advance", message % words)
        message = _(
            "Stage “%(stage)s” is a final table, which seats at most %(most)s, but %(count)s entries "
            "are in play: withdraw at least %(extra)s, or create the tournament again with a stage "
            "before the final."
        )
        raise _refused("final-table-size", where, message % words)
    sent = spec.capacity(count)
    if spec.advancement is not None and sent >= count:
        words.update(sent=sent, most=count - 1, missing=sent + 1 - count)
        if source:
            message = _(
                "Stage “%(stage)s” sends %(sent)s entries on, but stage “%(source)s” sends only "
                "%(count)s on to it: a stage sends on some, not all, so lower its advance to "
                "%(most)s or fewer, or send more on to it."
            )
        else:
            message = _(
                "Stage “%(stage)s” sends %(sent)s entries on, but only %(count)s are in play: a stage "
                "sends on some, not all, so add at least %(missing)s more."
            )
        raise _refused("advancement-count", f"{where}.advance", message % words)


def _previous(where: str) -> str:
    """`stages[2].params` → `stages[1].params`: the stage that sends entries on to this one."""
    prefix, rest = where.split("[", 1)
    index = int(rest.split("]", 1)[0])
    return f"{prefix}[{index - 1}].params"


def start_plan(data: StageInput) -> dict[str, Any]:
    """What a stage fixes when it starts (a round robin's whole schedule: the tables of each
    round and, in `byes`, who sits each round out within a group that still plays it)."""
    if data.format == stages.ROUND_ROBIN:
        groups = round_robin.make_groups(data.entrants, int_param(data.params, "groups", 1, 1, 64))
        size = table_size(data.format, data.params)
        schedule: list[list[dict[str, Any]]] = []
        byes: list[list[str]] = []
        for g, members in enumerate(groups, start=1):
            for r, rnd in enumerate(round_robin.group_schedule(members, size)):
                while len(schedule) <= r:
                    schedule.append([])
                    byes.append([])
                schedule[r] += [{"group": g, "seats": list(t.seats)} for t in rnd.tables]
                byes[r] += list(rnd.byes)
        return {"groups": [list(g) for g in groups], "rounds": schedule, "byes": byes}
    return {}


# ---------------------------------------------------------------- the next round


def _opened(data: StageInput) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in data.rounds:
        for t in r.tables:
            if t.seats:
                out[t.seats[0]] = out.get(t.seats[0], 0) + 1
    return out


def _bye_counts(data: StageInput) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in data.rounds:
        for e in r.byes:
            out[e] = out.get(e, 0) + 1
    return out


def previous_tables(data: StageInput) -> tuple[tuple[str, ...], ...]:
    return tuple(t.seats for r in data.rounds for t in r.tables)


def _swiss(data: StageInput) -> PlannedRound | None:
    rounds = int_param(data.params, "rounds", 3, 1, 50)
    if len(data.rounds) >= rounds:
        return None
    size = table_size(data.format, data.params)
    min_size = int_param(data.params, "min_size", 2, 2, size)
    if data.rounds:
        standing = stage_standings(data)
        ranked = list(standing.ranking())
        points = {row.entry_id: row.points for row in standing.rows}
    else:
        ranked, points = list(data.entrants), {}
    opened, byes = _opened(data), _bye_counts(data)
    players = tuple(
        swiss.SwissPlayer(e, points.get(e, 0.0), byes.get(e, 0), opened.get(e, 0))
        for e in data.active(ranked)
    )
    pairing = swiss.pair_swiss_round(
        swiss.SwissRequest(
            players, previous_tables(data), min_size=min_size, max_size=size, preferred_size=size
        )
    )
    return PlannedRound(tuple(PlannedTable(t.seats) for t in pairing.tables), pairing.byes)


def _round_robin(data: StageInput) -> PlannedRound | None:
    schedule = data.plan.get("rounds", [])
    index = len(data.rounds)
    if index >= len(schedule):
        return None
    planned = []
    for item in schedule[index]:
        seats = tuple(item["seats"])
        # The schedule is fixed: a withdrawn entry keeps its seat and forfeits (its opponents
        # are not robbed of the game); a table of withdrawn entries only is not played.
        if data.active(seats):
            planned.append(PlannedTable(seats, group=int(item["group"])))
    # Who sits this round out (a group of odd size, 1-v-1); a withdrawn entry is not listed.
    byes = data.plan.get("byes", [])
    sitting_out = data.active(byes[index]) if index < len(byes) else []
    return PlannedRound(tuple(planned), tuple(sitting_out))


def finishing_order(data: StageInput, table: Any) -> tuple[str, ...]:
    """A table's seats from first to last, a withdrawn entry last (it plays no further:
    whoever it finished ahead of goes on in its place)."""
    placed = table.placements()
    return (*data.active(placed), *(e for e in placed if e in data.withdrawn))


def _table_elimination(data: StageInput) -> PlannedRound | None:
    size = table_size(data.format, data.params)
    if not data.rounds:
        ids = data.active(data.entrants)
        if len(ids) < 2:
            return None
        sizes = tables.table_sizes(len(ids), tables.SMALLEST_TABLE, size, preferred=size)
        return PlannedRound(tuple(PlannedTable(s) for s in tables.snake(ids, sizes)))
    last = data.rounds[-1]
    if len(last.tables) <= 1:
        return None
    outcome = elimination.eliminate_by_tables(
        [tables.Table(t.number, t.seats) for t in last.tables],
        [elimination.TableOutcome(t.number, finishing_order(data, t)) for t in last.tables],
        int_param(data.params, "advance_per_table", 3, 1, 5),
        size,
    )
    if outcome.champion is not None:
        return None
    survivors = data.active(outcome.advancing)
    if len(survivors) < 2:
        return None  # the last one standing (if any) is the stage's winner
    if len(survivors) < len(outcome.advancing):  # withdrawn since their table ended: rebalance
        kept = [tables.Table(t.number, tuple(data.active(t.seats))) for t in outcome.next_tables]
        seated = tables.balance_tables([t for t in kept if t.seats], size).tables
    else:
        seated = outcome.next_tables
    return PlannedRound(tuple(PlannedTable(t.seats) for t in seated if t.seats))


def bracket(data: StageInput) -> elimination.Bracket:
    if data.format == stages.SINGLE_ELIMINATION:
        return elimination.single_elimination(data.entrants, bool(data.params.get("third_place", False)))
    return elimination.double_elimination(data.entrants, bool(data.params.get("grand_final_reset", True)))


def bracket_winners(data: StageInput) -> dict[str, str]:
    """Each finished bracket match's winner (`elimination.DOUBLE_FORFEIT` when nobody won)."""
    out: dict[str, str] = {}
    for r in data.rounds:
        for t in r.tables:
            if t.bracket_ref and t.results:
                out[t.bracket_ref] = t.winner() or elimination.DOUBLE_FORFEIT
    return out


def _elimination_bracket(data: StageInput) -> PlannedRound | None:
    drawn = bracket(data)
    progress = elimination.progress(drawn, bracket_winners(data))
    if progress.champion is not None:
        return None
    ready = [m for m in progress.matches if m.status == elimination.READY]
    if not ready:
        return None
    planned = tuple(PlannedTable((m.home, m.away), bracket_ref=m.id) for m in ready if m.home and m.away)
    # The byes of this round: the entries that go on without playing through a walkover the
    # last round's results decided (before the first round: the top seeds' first-round byes)
    # and sit this round out (two byes may meet at once, in the next bracket round).
    before = (
        elimination.progress(drawn, bracket_winners(replace(data, rounds=data.rounds[:-1])))
        if data.rounds
        else None
    )
    known = {m.id for m in elimination.walkovers(before)} if before else set()
    seated = {e for t in planned for e in t.seats}
    fresh = [
        m
        for m in elimination.walkovers(progress)
        if m.id not in known and m.winner and m.winner not in seated
    ]
    # A walkover does not carry a withdrawn entry on: it forfeits that match too (a table of
    # its own that nobody plays), so its next opponent goes through instead.
    forfeits = tuple(
        PlannedTable((m.winner,), bracket_ref=m.id) for m in fresh if m.winner and m.winner in data.withdrawn
    )
    byes = [m.winner for m in fresh if m.winner and m.winner not in data.withdrawn]
    return PlannedRound(planned + forfeits, tuple(byes))


def _final_table(data: StageInput) -> PlannedRound | None:
    if data.rounds:
        return None
    return PlannedRound((PlannedTable(tuple(data.active(data.entrants))),))


def alalay_config(data: StageInput) -> alalay_event.AlalayEventConfig:
    return alalay_event.AlalayEventConfig(
        table_size=table_size(ALALAY_EVENT, data.params),
        qualifying_rounds=int_param(data.params, "qualifying_rounds", 3, 1, 20),
        finalists=int_param(data.params, "finalists", 6, 2, 6),
        standings=data.standings,
    )


def _alalay(data: StageInput) -> PlannedRound | None:
    config = alalay_config(data)
    played = len(data.rounds)
    if played > config.qualifying_rounds:
        return None
    # The standings count every table whole (a withdrawn entry's lines stay: its opponents'
    # placements are those of their tables); only the draw leaves the withdrawn out.
    standing = stage_standings(data) if data.rounds else None
    ranked = data.active(standing.ranking() if standing else data.entrants)
    if played == config.qualifying_rounds:
        finalists = ranked[: config.finalists]
        return PlannedRound((PlannedTable(tuple(finalists)),)) if finalists else None
    pairing = alalay_event.qualifying_round(
        ranked, played + 1, config, standing, previous_tables(data), _opened(data), _bye_counts(data)
    )
    return PlannedRound(tuple(PlannedTable(t.seats) for t in pairing.tables), pairing.byes)


DRIVERS = {
    stages.SWISS: _swiss,
    stages.ROUND_ROBIN: _round_robin,
    stages.TABLE_ELIMINATION: _table_elimination,
    stages.SINGLE_ELIMINATION: _elimination_bracket,
    stages.DOUBLE_ELIMINATION: _elimination_bracket,
    stages.FINAL_TABLE: _final_table,
    ALALAY_EVENT: _alalay,
}


def next_round(data: StageInput) -> PlannedRound | None:
    """The next round of the stage, or None when the stage is over."""
    planned = DRIVERS[data.format](data)
    if planned is None:
        return None
    return replace(planned, bye_points=byes_score(data.format))
