"""Stage formats: which tables the next round of a stage has, and how a stage ranks its entries.

A thin adapter over the pure competition core (`tournaments.competition`): it turns the
stage's finished rounds (plain data, read from the database by the caller) into the
core's inputs and the core's answer into `PlannedRound`s. No pairing logic lives here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tournaments.competition import alalay_event, elimination, round_robin, stages, swiss, tables
from tournaments.competition.entries import Entry as CoreEntry
from tournaments.competition.errors import CompetitionError
from tournaments.competition.standings import (
    ALALAY_STANDINGS,
    BIDDING_STANDINGS,
    HEAD_TO_HEAD,
    ByeAward,
    EntryResult,
    MatchResult,
    PointsScale,
    StandingRow,
    Standings,
    StandingsConfig,
    compute_standings,
)

ALALAY_EVENT = "alalay_event"
FORMATS = (*stages.FORMATS, ALALAY_EVENT)
ONE_V_ONE = (stages.SINGLE_ELIMINATION, stages.DOUBLE_ELIMINATION)
# Formats whose byes earn the standings' `bye_points`: there a bye falls on an entry because
# the field does not split into tables (the pairing chooses who, fewest byes first). A round
# robin's scheduled sit-out (everyone in an odd group sits out once) and a bracket bye (a top
# seed skips a round; an elimination ranks by the round reached, not by points) earn nothing.
SCORED_BYES = (stages.SWISS, ALALAY_EVENT)


def byes_score(fmt: str) -> bool:
    """Whether a bye in a stage of this format is worth the standings' `bye_points`."""
    return fmt in SCORED_BYES


@dataclass(frozen=True)
class PlannedTable:
    seats: tuple[str, ...]
    group: int = 1
    bracket_ref: str = ""


@dataclass(frozen=True)
class PlannedRound:
    """The tables of a round and who sits it out (a bye); `bye_points`: whether those byes
    are worth the standings' bye points (`byes_score`)."""

    tables: tuple[PlannedTable, ...]
    byes: tuple[str, ...] = ()
    bye_points: bool = True


@dataclass(frozen=True)
class TableRecord:
    number: int
    seats: tuple[str, ...]
    results: tuple[EntryResult, ...]
    group: int = 1
    bracket_ref: str = ""
    match_id: str = ""

    def placements(self) -> tuple[str, ...]:
        """Seats from first to last (equal placements: seat order)."""
        order = {r.entry_id: (r.placement or 99, self.seats.index(r.entry_id)) for r in self.results}
        return tuple(sorted(self.seats, key=lambda e: order.get(e, (99, 0))))

    def winner(self) -> str | None:
        placed = self.placements()
        return placed[0] if placed and self.results else None


@dataclass(frozen=True)
class RoundRecord:
    stage_round: int
    tables: tuple[TableRecord, ...]
    byes: tuple[str, ...] = ()
    bye_points: bool = True


@dataclass(frozen=True)
class StageInput:
    """What a format needs: the stage's description, its entrants (seeding order), the
    finished rounds, who is withdrawn, and the standings configuration."""

    format: str
    params: dict[str, Any]
    entrants: tuple[str, ...]
    names: dict[str, str]
    rounds: tuple[RoundRecord, ...] = ()
    withdrawn: frozenset[str] = frozenset()
    standings: StandingsConfig = BIDDING_STANDINGS
    plan: dict[str, Any] = field(default_factory=dict)


def standings_config(data: dict[str, Any] | None, game: str) -> StandingsConfig:
    base = ALALAY_STANDINGS if game == "alalay" else BIDDING_STANDINGS
    data = data or {}
    scale = PointsScale(
        kind=str(data.get("scale", base.scale.kind)),
        fixed=tuple(float(x) for x in data.get("fixed", base.scale.fixed)),
    )
    tiebreaks = tuple(str(x) for x in data.get("tiebreaks", base.tiebreaks))
    config = StandingsConfig(scale=scale, tiebreaks=tiebreaks, bye_points=float(data.get("bye_points", 0.0)))
    compute_standings((), config)  # validates (CompetitionError on unknown tiebreaks or scales)
    return config


def _int(params: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = params.get(name, default)
    if type(value) is not int or not low <= value <= high:
        raise CompetitionError("stage-param-invalid", f"{name} is an integer from {low} to {high}")
    return value


def table_size(fmt: str, params: dict[str, Any]) -> int:
    if fmt in ONE_V_ONE:
        return 2
    default = 4 if fmt == ALALAY_EVENT else 6 if fmt != stages.ROUND_ROBIN else 2
    return _int(params, "table_size", default, tables.SMALLEST_TABLE, tables.LARGEST_TABLE)


def spec_of(name: str, fmt: str, params: dict[str, Any], last: bool) -> stages.StageSpec:
    adv = params.get("advance")
    advancement = None
    if not last:
        if not isinstance(adv, dict):
            raise CompetitionError("advancement-missing", f"stage {name!r} says who advances")
        advancement = stages.Advancement(
            per_group=_int(adv, "per_group", 0, 0, 1000),
            wildcards=_int(adv, "wildcards", 0, 0, 1000),
            overall=_int(adv, "overall", 0, 0, 10000),
        )
    return stages.StageSpec(
        name=name,
        format=stages.FINAL_TABLE if fmt == ALALAY_EVENT else fmt,
        groups=_int(params, "groups", 1, 1, 64),
        table_size=table_size(fmt, params),
        rounds=params.get("rounds"),
        advancement=advancement,
    )


def check_plan(plan: Sequence[dict[str, Any]], entrants: int | None = None) -> None:
    """Validate a chain of stages (and, with `entrants`, its sizes); CompetitionError otherwise."""
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
            _int(params, "rounds", 3, 1, 50)
            if _int(params, "groups", 1, 1, 64) != 1:
                # `_swiss` pairs the whole stage as one group: a grouped Swiss would stop at its end
                raise CompetitionError("stage-groups", "a Swiss stage is paired as one group")
        if fmt == stages.TABLE_ELIMINATION:
            _int(params, "advance_per_table", 3, 1, 5)
        if fmt == ALALAY_EVENT:
            _int(params, "qualifying_rounds", 3, 1, 20)
            _int(params, "finalists", 6, 2, 6)
        specs.append(spec_of(str(item.get("name") or fmt), fmt, params, i == len(plan) - 1))
    if entrants is not None:
        if plan[0]["format"] == ALALAY_EVENT and len(plan) == 1:
            if entrants < _int(plan[0].get("params") or {}, "finalists", 6, 2, 6):
                raise CompetitionError("too-few-entries", "more entries than finalists")
            return
        stages.check_chain(specs, entrants)


# ---------------------------------------------------------------- standings of a stage


def match_results(rounds: Sequence[RoundRecord]) -> list[MatchResult]:
    return [
        MatchResult(t.match_id or f"r{r.stage_round}t{t.number}", r.stage_round, t.number, t.results)
        for r in rounds
        for t in r.tables
        if t.results
    ]


def byes_of(rounds: Sequence[RoundRecord]) -> list[ByeAward]:
    """The byes worth bye points (see `SCORED_BYES`)."""
    return [ByeAward(e, r.stage_round) for r in rounds if r.bye_points for e in r.byes]


def stage_standings(
    data: StageInput, rounds: Sequence[RoundRecord] | None = None, ids: Sequence[str] = ()
) -> Standings:
    chosen = data.rounds if rounds is None else rounds
    who = ids or data.entrants
    entries = [CoreEntry(e, data.names.get(e, e)) for e in who]
    wanted = set(who)
    results = [
        MatchResult(m.match_id, m.round, m.table, tuple(r for r in m.results if r.entry_id in wanted))
        for m in match_results(chosen)
    ]
    return compute_standings(
        [m for m in results if m.results],
        data.standings,
        entries,
        [b for b in byes_of(chosen) if b.entry_id in wanted],
    )


# ---------------------------------------------------------------- stage start and next round


def start_plan(data: StageInput) -> dict[str, Any]:
    """What a stage fixes when it starts (a round robin's whole schedule: the tables of each
    round and, in `byes`, who sits each round out within a group that still plays it)."""
    if data.format == stages.ROUND_ROBIN:
        groups = round_robin.make_groups(data.entrants, _int(data.params, "groups", 1, 1, 64))
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


def _active(ids: Sequence[str], data: StageInput) -> list[str]:
    return [e for e in ids if e not in data.withdrawn]


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


def _previous_tables(data: StageInput) -> tuple[tuple[str, ...], ...]:
    return tuple(t.seats for r in data.rounds for t in r.tables)


def _swiss(data: StageInput) -> PlannedRound | None:
    rounds = _int(data.params, "rounds", 3, 1, 50)
    if len(data.rounds) >= rounds:
        return None
    size = table_size(data.format, data.params)
    min_size = _int(data.params, "min_size", 2, 2, size)
    if data.rounds:
        standing = stage_standings(data)
        ranked = [e for e in standing.ranking() if e in set(data.entrants)]
        points = {row.entry_id: row.points for row in standing.rows}
    else:
        ranked, points = list(data.entrants), {}
    opened, byes = _opened(data), _bye_counts(data)
    players = tuple(
        swiss.SwissPlayer(e, points.get(e, 0.0), byes.get(e, 0), opened.get(e, 0))
        for e in _active(ranked, data)
    )
    pairing = swiss.pair_swiss_round(
        swiss.SwissRequest(
            players, _previous_tables(data), min_size=min_size, max_size=size, preferred_size=size
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
        # The schedule is fixed: a withdrawn entry keeps its seat and forfeits at once (its
        # opponents are not robbed of the game); a table of withdrawn entries only is not played.
        if _active(seats, data):
            planned.append(PlannedTable(seats, group=int(item["group"])))
    # Who sits this round out (a group of odd size, 1-v-1); a withdrawn entry is not listed.
    byes = data.plan.get("byes", [])
    sitting_out = _active(byes[index], data) if index < len(byes) else []
    return PlannedRound(tuple(planned), tuple(sitting_out))


def _table_elimination(data: StageInput) -> PlannedRound | None:
    size = table_size(data.format, data.params)
    if not data.rounds:
        ids = _active(data.entrants, data)
        sizes = tables.table_sizes(len(ids), tables.SMALLEST_TABLE, size, preferred=size)
        return PlannedRound(tuple(PlannedTable(s) for s in tables.snake(ids, sizes)))
    last = data.rounds[-1]
    if len(last.tables) <= 1:
        return None
    outcome = elimination.eliminate_by_tables(
        [tables.Table(t.number, t.seats) for t in last.tables],
        [elimination.TableOutcome(t.number, t.placements()) for t in last.tables],
        _int(data.params, "advance_per_table", 3, 1, 5),
        size,
    )
    if outcome.champion is not None:
        return None
    return PlannedRound(tuple(PlannedTable(t.seats) for t in outcome.next_tables if t.seats))


def _bracket(data: StageInput) -> elimination.Bracket:
    if data.format == stages.SINGLE_ELIMINATION:
        return elimination.single_elimination(data.entrants)
    return elimination.double_elimination(data.entrants, bool(data.params.get("grand_final_reset", True)))


def _bracket_winners(data: StageInput) -> dict[str, str]:
    out: dict[str, str] = {}
    for r in data.rounds:
        for t in r.tables:
            winner = t.winner()
            if t.bracket_ref and winner:
                out[t.bracket_ref] = winner
    return out


def _elimination_bracket(data: StageInput) -> PlannedRound | None:
    bracket = _bracket(data)
    progress = elimination.progress(bracket, _bracket_winners(data))
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
        elimination.progress(bracket, _bracket_winners(replace(data, rounds=data.rounds[:-1])))
        if data.rounds
        else None
    )
    known = {m.id for m in elimination.walkovers(before)} if before else set()
    seated = {e for t in planned for e in t.seats}
    byes = [
        m.winner
        for m in elimination.walkovers(progress)
        if m.id not in known and m.winner and m.winner not in seated
    ]
    return PlannedRound(planned, tuple(_active(byes, data)))


def _final_table(data: StageInput) -> PlannedRound | None:
    if data.rounds:
        return None
    return PlannedRound((PlannedTable(tuple(_active(data.entrants, data))),))


def alalay_config(params: dict[str, Any], standings: StandingsConfig) -> alalay_event.AlalayEventConfig:
    return alalay_event.AlalayEventConfig(
        table_size=table_size(ALALAY_EVENT, params),
        qualifying_rounds=_int(params, "qualifying_rounds", 3, 1, 20),
        finalists=_int(params, "finalists", 6, 2, 6),
        standings=standings,
    )


def _alalay(data: StageInput) -> PlannedRound | None:
    config = alalay_config(data.params, data.standings)
    played = len(data.rounds)
    if played > config.qualifying_rounds:
        return None
    active = _active(data.entrants, data)
    if played == config.qualifying_rounds:
        standing = stage_standings(data, ids=active)
        final = alalay_event.final_table(standing, config)
        return PlannedRound((PlannedTable(final.table.seats),))
    standing = stage_standings(data) if data.rounds else None
    ranked = [e for e in standing.ranking() if e in set(active)] if standing else active
    pairing = alalay_event.qualifying_round(
        ranked, played + 1, config, standing, _previous_tables(data), _opened(data), _bye_counts(data)
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


# ---------------------------------------------------------------- rankings and advancement


def stage_ranking(data: StageInput) -> list[list[str]]:
    """The finished stage's ranking per group (one group but for grouped round robin/Swiss)."""
    fmt = data.format
    if fmt == stages.ROUND_ROBIN:
        out = []
        for members in data.plan.get("groups", [list(data.entrants)]):
            out.append(list(stage_standings(data, ids=members).ranking()))
        return out
    if fmt == stages.SWISS:
        return [list(stage_standings(data).ranking())]
    if fmt == ALALAY_EVENT:
        config = alalay_config(data.params, data.standings)
        qualifying = data.rounds[: config.qualifying_rounds]
        standing = stage_standings(data, qualifying)
        if len(data.rounds) > config.qualifying_rounds and data.rounds[-1].tables:
            final = data.rounds[-1].tables[0]
            match = MatchResult(final.match_id or "final", data.rounds[-1].stage_round, 1, final.results)
            return [list(alalay_event.final_ranking(match, standing))]
        return [list(standing.ranking())]
    if fmt in ONE_V_ONE:
        return [_bracket_ranking(data)]
    # table elimination and final table: by the round reached, then the placement in it
    placed: list[str] = []
    for r in reversed(data.rounds):
        tiers: dict[int, list[str]] = {}
        for t in r.tables:
            for i, e in enumerate(t.placements()):
                if e not in placed:
                    tiers.setdefault(i, []).append(e)
        for i in sorted(tiers):
            placed += [e for e in tiers[i] if e not in placed]
    placed += [e for e in data.entrants if e not in placed]
    return [placed]


def _bracket_ranking(data: StageInput) -> list[str]:
    winners = _bracket_winners(data)
    progress = elimination.progress(_bracket(data), winners)
    lost_at: dict[str, int] = {}
    for i, m in enumerate(progress.matches):
        if m.loser:
            lost_at[m.loser] = i
    ranking = [progress.champion] if progress.champion else []
    rest = sorted((e for e in data.entrants if e not in ranking), key=lambda e: -lost_at.get(e, -1))
    return [*ranking, *rest]


def advancing(data: StageInput, name: str, ranking: Sequence[Sequence[str]]) -> list[str]:
    """Who goes on, in the next stage's seeding order: entries of the same place in
    different groups (and the wildcards) compare as in the final ranking (`stage_order`)."""
    spec = spec_of(name, data.format, data.params, last=False)
    finished = [stages.GroupFinish(g, tuple(ids)) for g, ids in enumerate(ranking, start=1)]
    if data.format not in stages.GROUPED:
        spec = stages.StageSpec(spec.name, spec.format, 1, spec.table_size, spec.rounds, spec.advancement)
        finished = finished[:1]
    keys = _cross_group_keys(data, [g.ranking for g in finished])
    return list(stages.seeds(stages.advancing(spec, finished, keys)))


# ---------------------------------------------------------------- the final ranking


def _cross_group_key(row: StandingRow, config: StandingsConfig) -> tuple[float, ...]:
    """What compares entries of the same place in different groups: points, then the
    tiebreaks in order, but head-to-head (entries of different groups have not met)."""
    return (row.points, *(row.value(c) for c in config.tiebreaks if c != HEAD_TO_HEAD))


def stage_order(data: StageInput, ranking: Sequence[Sequence[str]]) -> list[str]:
    """One order for a finished stage. A single ranking as it is; groups merged by place in
    group (all group winners, then all runners-up, …), within a place by the stage's
    standings criteria (points, then the tiebreaks but head-to-head), then group order."""
    groups = [list(g) for g in ranking if g]
    if len(groups) <= 1:
        return groups[0] if groups else []
    finished = [stages.GroupFinish(g, tuple(ids)) for g, ids in enumerate(groups, start=1)]
    return list(stages.overall_order(finished, _cross_group_keys(data, groups)))


def _cross_group_keys(data: StageInput, groups: Sequence[Sequence[str]]) -> dict[str, tuple[float, ...]]:
    """Each entry's `_cross_group_key` from the standings of its own group."""
    keys: dict[str, tuple[float, ...]] = {}
    for members in groups:
        for row in stage_standings(data, ids=members).rows:
            keys[row.entry_id] = _cross_group_key(row, data.standings)
    return keys


def final_ranking(finished: Sequence[tuple[StageInput, Sequence[Sequence[str]]]]) -> list[str]:
    """The tournament's final ranking from its finished stages (first stage first, each with
    its ranking per group): everyone who played, the last stage's order first, then those
    eliminated in each earlier stage, later stages ahead of earlier ones, each in its
    stage's order (`stage_order`)."""
    return list(stages.final_order([stage_order(data, ranking) for data, ranking in finished]))
