"""Stages that chain (groups then playoffs, Swiss then a final table …) and who advances.

A stage is a description (format and parameters); when it has finished, each of its groups
gives a ranking (from `standings`), and `advancing` says who goes on, in the seeding order
of the next stage: all group winners, then all runners-up, … (within a place: better score
first, then group order), then the wildcards (the best of the next place across groups).

When the tournament ends, `final_order` ranks everyone who played: the last stage's order
first, then those eliminated in each earlier stage (later stages ahead of earlier ones), each
stage's entries in that stage's order; `overall_order` gives a grouped stage one order (place
in group first, then the better standing across groups).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.competition.errors import CompetitionError
from tournaments.competition.tables import LARGEST_TABLE, SMALLEST_TABLE

ROUND_ROBIN = "round_robin"
SWISS = "swiss"
SINGLE_ELIMINATION = "single_elimination"
DOUBLE_ELIMINATION = "double_elimination"
TABLE_ELIMINATION = "table_elimination"
FINAL_TABLE = "final_table"
FORMATS = (ROUND_ROBIN, SWISS, SINGLE_ELIMINATION, DOUBLE_ELIMINATION, TABLE_ELIMINATION, FINAL_TABLE)
GROUPED = (ROUND_ROBIN, SWISS)


@dataclass(frozen=True)
class Advancement:
    """Who goes on: the top `per_group` of every group, then the best `wildcards` of the next
    place across groups; or, for a single ranking, the top `overall`."""

    per_group: int = 0
    wildcards: int = 0
    overall: int = 0


@dataclass(frozen=True)
class StageSpec:
    name: str
    format: str
    groups: int = 1
    table_size: int = 2
    rounds: int | None = None
    advancement: Advancement | None = None  # None: the last stage

    def capacity(self, entrants: int) -> int:
        """How many go on from `entrants` (0 for a last stage)."""
        adv = self.advancement
        if adv is None:
            return 0
        if adv.overall:
            return adv.overall
        return adv.per_group * self.groups + adv.wildcards


@dataclass(frozen=True)
class GroupFinish:
    """A finished group: its ranking (best first) and, optionally, the matching scores used
    to compare entries of the same place across groups."""

    group: int
    ranking: tuple[str, ...]
    scores: tuple[float, ...] = ()

    def score(self, place: int) -> float:
        return self.scores[place - 1] if place <= len(self.scores) else 0.0


@dataclass(frozen=True)
class Qualified:
    entry_id: str
    group: int
    place: int
    wildcard: bool = False


def check_stage(spec: StageSpec, entrants: int) -> None:
    if spec.format not in FORMATS:
        raise CompetitionError("stage-format", f"a stage format is one of {', '.join(FORMATS)}")
    if not SMALLEST_TABLE <= spec.table_size <= LARGEST_TABLE:
        raise CompetitionError("table-size-limits", "tables seat 2 to 6")
    if spec.groups < 1 or (spec.groups > 1 and spec.format not in GROUPED):
        raise CompetitionError("stage-groups", "only round robin and Swiss stages have several groups")
    if entrants < 2 * spec.groups:
        raise CompetitionError("stage-too-small", f"stage {spec.name!r} needs two entries per group")
    if spec.format == FINAL_TABLE and entrants > LARGEST_TABLE:
        raise CompetitionError("final-table-size", "a final table seats at most six")
    adv = spec.advancement
    if adv is not None:
        if adv.overall and (adv.per_group or adv.wildcards):
            raise CompetitionError("advancement-mixed", "advance either overall or per group")
        if adv.overall and spec.groups > 1:
            raise CompetitionError("advancement-overall", "overall advancement needs a single ranking")
        if not 0 < spec.capacity(entrants) < entrants:
            raise CompetitionError("advancement-count", f"stage {spec.name!r} sends on some, not all")
        if adv.per_group and adv.per_group * spec.groups + adv.wildcards > entrants:
            raise CompetitionError("advancement-count", "more advance than play")


def check_chain(stages: Sequence[StageSpec], entrants: int) -> tuple[int, ...]:
    """Validate a chain of stages for `entrants`; the number of entrants of each stage."""
    if not stages:
        raise CompetitionError("stages-missing", "a tournament has a stage")
    counts: list[int] = []
    for i, spec in enumerate(stages):
        check_stage(spec, entrants)
        counts.append(entrants)
        last = i == len(stages) - 1
        if last != (spec.advancement is None):
            raise CompetitionError("advancement-last", "every stage but the last sends entries on")
        entrants = spec.capacity(entrants)
    return tuple(counts)


def advancing(
    spec: StageSpec, finished: Sequence[GroupFinish], keys: Mapping[str, Sequence[float]] | None = None
) -> tuple[Qualified, ...]:
    """Who goes on from a finished stage, in the next stage's seeding order: group winners
    first, then runners-up, …; within a place (and for the wildcards) the better key first
    (`keys`, as in `overall_order`: points then the tiebreaks), equal keys in group order."""
    adv = spec.advancement
    if adv is None:
        return ()
    if len(finished) != spec.groups:
        raise CompetitionError("groups-mismatch", f"stage {spec.name!r} has {spec.groups} groups")
    everyone = [e for g in finished for e in g.ranking]
    if len(set(everyone)) != len(everyone):
        raise CompetitionError("entry-duplicate", "an entry finishes in one group")
    if adv.overall:
        return tuple(
            Qualified(e, finished[0].group, p) for p, e in enumerate(finished[0].ranking[: adv.overall], 1)
        )
    out: list[Qualified] = []
    for place in range(1, adv.per_group + 1):
        tier = _tier(finished, place, keys)
        out.extend(Qualified(g.ranking[place - 1], g.group, place) for g in tier)
    if adv.wildcards:
        place = adv.per_group + 1
        tier = _tier(finished, place, keys)
        out.extend(
            Qualified(g.ranking[place - 1], g.group, place, wildcard=True) for g in tier[: adv.wildcards]
        )
    return tuple(out)


def seeds(qualified: Sequence[Qualified]) -> tuple[str, ...]:
    return tuple(q.entry_id for q in qualified)


def overall_order(
    finished: Sequence[GroupFinish], keys: Mapping[str, Sequence[float]] | None = None
) -> tuple[str, ...]:
    """One order for a stage's groups: all group winners, then all runners-up, …; within a
    place, the entry with the better key first (keys compare criterion by criterion, more is
    better, e.g. points then the tiebreaks), equal keys (or none) in group order. Without
    `keys`, the groups' scores (`GroupFinish.scores`) compare entries of the same place."""
    everyone = [e for g in finished for e in g.ranking]
    if len(set(everyone)) != len(everyone):
        raise CompetitionError("entry-duplicate", "an entry finishes in one group")
    out: list[str] = []
    for place in range(1, max((len(g.ranking) for g in finished), default=0) + 1):
        out.extend(g.ranking[place - 1] for g in _tier(finished, place, keys))
    return tuple(out)


def _tier(
    finished: Sequence[GroupFinish], place: int, keys: Mapping[str, Sequence[float]] | None
) -> list[GroupFinish]:
    """The groups that have a `place`, best entry of that place first: by its key (criterion
    by criterion, more is better), or the group's score without keys; then group order."""

    def key(g: GroupFinish) -> tuple[float, ...]:
        if keys is None:
            return (g.score(place),)
        return tuple(keys.get(g.ranking[place - 1], ()))

    tier = [g for g in finished if len(g.ranking) >= place]
    tier.sort(key=lambda g: (tuple(-x for x in key(g)), g.group))
    return tier


def final_order(stage_orders: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The final ranking of a chain of stages from each finished stage's order (first stage
    first): the last stage's order, then the entries eliminated in the stage before it, and
    so on back to the first stage; within a stage, that stage's order."""
    placed: list[str] = []
    seen: set[str] = set()
    for order in reversed(stage_orders):
        for e in order:
            if e not in seen:
                seen.add(e)
                placed.append(e)
    return tuple(placed)
