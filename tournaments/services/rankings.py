"""How a finished stage ranks its entries, who goes on to the next stage, and the
tournament's one final ranking.

A ranking is a list of tiers, best first; the entries of a tier share a place
(competition ranking: 1, 2, 2, 4). Per format:

- brackets (single, double elimination): by the round in which an entry went out
  (`elimination.bracket_tiers`): champion, runner-up, then shared places;
- elimination by tables and final tables: by bust-out order: the later the round an entry
  went out in, the better, then its placement at that table (equal placements at different
  tables share a place); a withdrawn entry counts as last at the last table it sat at;
- Swiss and round robin: by the standings (points, then the tiebreaks; entries equal on
  everything share a place); groups merged by place in group (a shared group place counts
  as that place for all who share it), then the standings' criteria across groups
  (head-to-head aside), entries equal on all of them sharing;
- an Alalay event: the finalists by their final placement (ties by qualifying order), then
  the others by the qualifying standings.

The final ranking puts the last stage's tiers first, then those eliminated in each earlier
stage (later stages ahead of earlier ones), each in its stage's tiers. A withdrawn entry
never goes on to another stage: the next best takes its place.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.competition import alalay_event, elimination, stages
from tournaments.competition.standings import (
    HEAD_TO_HEAD,
    MatchResult,
    StandingRow,
    Standings,
    StandingsConfig,
)
from tournaments.services.formats import alalay_config, bracket, bracket_winners, finishing_order, spec_of
from tournaments.services.stage_data import ALALAY_EVENT, ONE_V_ONE, StageInput, stage_standings

Tiers = list[list[str]]


def _standings_tiers(standings: Standings) -> Tiers:
    tiers: Tiers = []
    rank = None
    for row in standings.rows:
        if row.rank != rank:
            tiers.append([])
            rank = row.rank
        tiers[-1].append(row.entry_id)
    return tiers


def _by_tables(data: StageInput) -> Tiers:
    """Bust-out order: later rounds first, then the placement at the table."""
    tiers: Tiers = []
    placed: set[str] = set()
    for r in reversed(data.rounds):
        by_place: dict[int, list[str]] = {}
        for t in r.tables:
            place = {r.entry_id: r.placement or 99 for r in t.results}
            order = finishing_order(data, t)
            for i, e in enumerate(order):
                if e in placed:
                    continue
                # Equal placements at a table share; a withdrawn entry comes after the others.
                key = len(order) if e in data.withdrawn else min(place.get(e, 99), i + 1)
                by_place.setdefault(key, []).append(e)
        for key in sorted(by_place):
            fresh = [e for e in by_place[key] if e not in placed]
            if fresh:
                tiers.append(fresh)
                placed.update(fresh)
    tiers += [[e] for e in data.entrants if e not in placed]
    return tiers


def _alalay_tiers(data: StageInput) -> Tiers:
    config = alalay_config(data)
    standing = stage_standings(data, data.rounds[: config.qualifying_rounds])
    if len(data.rounds) > config.qualifying_rounds and data.rounds[-1].tables:
        final = data.rounds[-1].tables[0]
        match = MatchResult(final.match_id or "final", data.rounds[-1].stage_round, 1, final.results)
        finalists = [[e] for e in alalay_event.final_ranking(match, standing)[: len(final.seats)]]
        done = {e for t in finalists for e in t}
        rest = [[e for e in tier if e not in done] for tier in _standings_tiers(standing)]
        return finalists + [t for t in rest if t]
    return _standings_tiers(standing)


def group_tiers(data: StageInput) -> list[Tiers]:
    """The finished stage's ranking, per group (one group but for a grouped round robin)."""
    fmt = data.format
    if fmt == stages.ROUND_ROBIN:
        groups = data.plan.get("groups", [list(data.entrants)])
        return [_standings_tiers(stage_standings(data, ids=members)) for members in groups]
    if fmt == stages.SWISS:
        return [_standings_tiers(stage_standings(data))]
    if fmt == ALALAY_EVENT:
        return [_alalay_tiers(data)]
    if fmt in ONE_V_ONE:
        drawn = bracket(data)
        return [elimination.bracket_tiers(drawn, elimination.progress(drawn, bracket_winners(data)))]
    return [_by_tables(data)]


# Formats whose stage ranking is their standings (points, then the tiebreak chain): only
# there does a standings tiebreak explain why one entry placed above the next. Brackets,
# elimination by tables and Alalay's final table rank by how far an entry went instead.
BY_STANDINGS = (stages.SWISS, stages.ROUND_ROBIN)


def ranked_by_standings(fmt: str) -> bool:
    return fmt in BY_STANDINGS


def flat(tiers: Tiers) -> list[str]:
    return [e for tier in tiers for e in tier]


def stage_ranking(data: StageInput) -> list[list[str]]:
    """Each group's order, best first (what `stage-finished` records)."""
    return [flat(t) for t in group_tiers(data)]


# ---------------------------------------------------------------- across groups


def _cross_group_key(row: StandingRow, config: StandingsConfig) -> tuple[float, ...]:
    """What compares entries of the same place in different groups: points, then the
    tiebreaks in order, but head-to-head (entries of different groups have not met)."""
    return (row.points, *(row.value(c) for c in config.tiebreaks if c != HEAD_TO_HEAD))


def _cross_group_keys(data: StageInput, groups: Sequence[Sequence[str]]) -> dict[str, tuple[float, ...]]:
    keys: dict[str, tuple[float, ...]] = {}
    for members in groups:
        for row in stage_standings(data, ids=members).rows:
            keys[row.entry_id] = _cross_group_key(row, data.standings)
    return keys


def stage_tiers(data: StageInput) -> Tiers:
    """One ranking for the finished stage. A single group as it is; groups merged by place in
    group (all group winners, then all runners-up, …), within a place by the stage's
    standings criteria (head-to-head aside); entries equal on all of them share a place."""
    groups = [g for g in group_tiers(data) if g]
    if len(groups) <= 1:
        return groups[0] if groups else []
    keys = _cross_group_keys(data, [flat(g) for g in groups])
    # An entry's place in its group is the place it shares there (1, 1, 1, 4): the members of
    # a shared group place all count as that place, never spread over the places below it.
    by_place: dict[int, list[str]] = {}
    for group in groups:
        for place, e in places(group):
            by_place.setdefault(place, []).append(e)
    tiers: Tiers = []
    for place in sorted(by_place):
        same_place = sorted(by_place[place], key=lambda e: tuple(-x for x in keys[e]))
        previous: tuple[float, ...] | None = None
        for e in same_place:
            if keys[e] == previous:
                tiers[-1].append(e)
            else:
                tiers.append([e])
            previous = keys[e]
    return tiers


# ---------------------------------------------------------------- who goes on


def advancing(data: StageInput, name: str, next_format: str = "") -> list[str]:
    """Who goes on from the finished stage, in the next stage's seeding order, withdrawn
    entries left out (the next best goes on instead). Entries of the same place in different
    groups (and the wildcards) compare by the standings' criteria; when groups go on to a
    bracket, the seeds are arranged so that entries of the same group do not meet in its
    first round where the group sizes allow (A1 v B2)."""
    spec = spec_of(name, data.format, data.params, last=False)
    groups = [data.active(order) for order in stage_ranking(data)]
    finished = [stages.GroupFinish(g, tuple(ids)) for g, ids in enumerate(groups, start=1)]
    if data.format not in stages.GROUPED:
        spec = stages.StageSpec(spec.name, spec.format, 1, spec.table_size, spec.rounds, spec.advancement)
        finished = finished[:1]
    qualified: tuple[stages.Qualified, ...] = ()
    if len(finished) > 1:
        # A shared group place counts as that place for everyone in it (1, 1, 1, 4), as in
        # the final ranking: the wildcard goes to a co-winner of its group before another
        # group's runner-up, and the seeds are in group place order, then by the criteria,
        # then in group order. Places count the entries still in (the next best moves up).
        rank: dict[str, int] = {}
        for tiers in group_tiers(data):
            active = [data.active(tier) for tier in tiers]
            rank.update((e, p) for p, e in places([t for t in active if t]))
        criteria = _cross_group_keys(data, [g.ranking for g in finished])
        keys = {e: (-rank[e], *key) for e, key in criteria.items()}
        qualified = stages.advancing(spec, finished, keys)
        group = {q.entry_id: q.group for q in qualified}
        seeds = tuple(sorted(stages.seeds(qualified), key=lambda e: (tuple(-x for x in keys[e]), group[e])))
    else:
        seeds = stages.seeds(stages.advancing(spec, finished))
    if len(finished) > 1 and next_format in ONE_V_ONE:
        seeds = elimination.separate_groups(seeds, {q.entry_id: q.group for q in qualified})
    return list(seeds)


# ---------------------------------------------------------------- the final ranking


def final_tiers(finished: Sequence[Tiers]) -> Tiers:
    """The tournament's final ranking from each finished stage's tiers (first stage first):
    the last stage's, then the entries eliminated in the stage before it, and so on back."""
    out: Tiers = []
    seen: set[str] = set()
    for tiers in reversed(finished):
        for tier in tiers:
            fresh = [e for e in tier if e not in seen]
            if fresh:
                out.append(fresh)
                seen.update(fresh)
    return out


def places(tiers: Tiers) -> list[tuple[int, str]]:
    """(place, entry) best first; a tier shares its place: 1, 2, 2, 4."""
    out: list[tuple[int, str]] = []
    for tier in tiers:
        place = len(out) + 1
        out += [(place, e) for e in tier]
    return out
