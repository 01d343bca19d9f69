"""What the formats read of a stage: its description, entrants and finished rounds, as plain
data (read from the database by `tournaments.services.lifecycle`), and the stage's
standings computed from them by the competition core.

No Django here: the formats (`formats`) and the rankings (`rankings`) are pure functions of
a `StageInput`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cacho.engine.games import game_named
from tournaments.competition import stages, tables
from tournaments.competition.entries import Entry as CoreEntry
from tournaments.competition.errors import CompetitionError
from tournaments.competition.standings import (
    ALALAY_STANDINGS,
    BIDDING_STANDINGS,
    FIXED,
    ByeAward,
    EntryResult,
    MatchResult,
    PointsScale,
    Standings,
    StandingsConfig,
    compute_standings,
)

ALALAY_EVENT = "alalay_event"
FORMATS = (*stages.FORMATS, ALALAY_EVENT)
# What a seat stands on in a game's matches (`Traits.standing`): dice left, in a game of
# elimination; a card's total, in a game of scores. The competitions differ by it.
ELIMINATION = "dice"
SCORES = "total"
# The stage an event usually opens with, and the one its playoffs use.
USUAL_STAGES: dict[str, dict[str, str]] = {
    ELIMINATION: {"main": stages.SWISS, "playoffs": stages.SINGLE_ELIMINATION},
    SCORES: {"main": ALALAY_EVENT, "playoffs": stages.FINAL_TABLE},
}
# A tournament that names no stages plays the usual event of its game.
DEFAULT_STAGE: dict[str, dict[str, Any]] = {
    ELIMINATION: {"name": "swiss", "format": stages.SWISS, "params": {"rounds": 3, "table_size": 6}},
    SCORES: {"name": "alalay", "format": ALALAY_EVENT, "params": {}},
}
# The names the default stages are stored under: a page shows them as their format's name.
DEFAULT_STAGE_NAMES = tuple(sorted({stage["name"] for stage in DEFAULT_STAGE.values()}))
ONE_V_ONE = (stages.SINGLE_ELIMINATION, stages.DOUBLE_ELIMINATION)
# Formats whose byes earn the standings' bye points: there a bye falls on an entry because
# the field does not split into tables (the pairing chooses who, fewest byes first). A round
# robin's scheduled sit-out (everyone in an odd group sits out once) and a bracket bye (a top
# seed skips a round; an elimination ranks by the round reached, not by points) earn nothing.
SCORED_BYES = (stages.SWISS, ALALAY_EVENT)
# Formats whose stage ranking is its standings (the others rank by the round reached).
POINTS_RANKED = (stages.SWISS, stages.ROUND_ROBIN, ALALAY_EVENT)


def byes_score(fmt: str) -> bool:
    """Whether a bye in a stage of this format is worth the standings' bye points."""
    return fmt in SCORED_BYES


@dataclass(frozen=True)
class TableRecord:
    """A finished table: its seats (seat order) and its result, one line per seat."""

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
        """The entry placed first, or None (no result, or everyone forfeited)."""
        firsts = [r.entry_id for r in self.results if r.placement == 1 and not r.forfeit]
        return firsts[0] if len(firsts) == 1 else None


@dataclass(frozen=True)
class RoundRecord:
    stage_round: int
    tables: tuple[TableRecord, ...]
    byes: tuple[str, ...] = ()
    bye_points: bool = True


@dataclass(frozen=True)
class StageInput:
    """What a format needs: the stage's description, its entrants (seeding order), the
    finished rounds, who is withdrawn now, and the standings configuration."""

    format: str
    params: dict[str, Any]
    entrants: tuple[str, ...]
    names: dict[str, str]
    rounds: tuple[RoundRecord, ...] = ()
    withdrawn: frozenset[str] = frozenset()
    standings: StandingsConfig = BIDDING_STANDINGS
    plan: dict[str, Any] = field(default_factory=dict)

    def active(self, ids: Sequence[str]) -> list[str]:
        """`ids` without the withdrawn, in order."""
        return [e for e in ids if e not in self.withdrawn]


# The tiebreaks the games' results give figures for (elimination: eliminations, dice left;
# scores: card totals, instant wins).
DEFAULT_STANDINGS = {ELIMINATION: BIDDING_STANDINGS, SCORES: ALALAY_STANDINGS}


def competed_by(game: str) -> str:
    """How a game's competitions run: `ELIMINATION` or `SCORES` (its `Traits.standing`)."""
    return game_named(game).traits.standing


def default_stage(game: str) -> dict[str, Any]:
    """The stage a tournament of `game` plays when it names none (a copy: the caller's to keep)."""
    return dict(DEFAULT_STAGE[competed_by(game)])


def usual_stages(game: str) -> dict[str, str]:
    """The stage format an event of `game` usually opens with (`main`), and its playoffs'."""
    return USUAL_STAGES[competed_by(game)]


def standings_config(data: dict[str, Any] | None, game: str) -> StandingsConfig:
    """A tournament's `standings_config` (scale, fixed, tiebreaks, bye_points) over the
    game's defaults; CompetitionError on unknown scales or tiebreaks."""
    base = DEFAULT_STANDINGS[competed_by(game)]
    data = data or {}
    fixed = data.get("fixed", base.scale.fixed)
    # A list of numbers (not text, not true/false): read from an organiser's request.
    if not isinstance(fixed, list | tuple) or any(
        isinstance(x, bool) or not isinstance(x, int | float) for x in fixed
    ):
        raise CompetitionError("fixed-invalid", "fixed is a list of numbers, the points of each place")
    scale = PointsScale(kind=str(data.get("scale", base.scale.kind)), fixed=tuple(float(x) for x in fixed))
    if scale.kind == FIXED and not scale.fixed:
        raise CompetitionError("fixed-invalid", "the fixed scale needs the points of each place")
    tiebreaks = tuple(str(x) for x in data.get("tiebreaks", base.tiebreaks))
    bye = data.get("bye_points")
    if bye is not None and (isinstance(bye, bool) or not isinstance(bye, int | float)):
        raise CompetitionError("bye-points-invalid", "bye_points is a number")
    config = StandingsConfig(scale=scale, tiebreaks=tiebreaks, bye_points=None if bye is None else float(bye))
    compute_standings((), config)  # validates (CompetitionError on unknown tiebreaks or scales)
    return config


def int_param(params: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = params.get(name, default)
    if type(value) is not int or not low <= value <= high:
        raise CompetitionError("stage-param-invalid", f"{name} is an integer from {low} to {high}")
    return value


def table_size(fmt: str, params: dict[str, Any]) -> int:
    if fmt in ONE_V_ONE:
        return 2
    default = 4 if fmt == ALALAY_EVENT else 6 if fmt != stages.ROUND_ROBIN else 2
    return int_param(params, "table_size", default, tables.SMALLEST_TABLE, tables.LARGEST_TABLE)


def match_results(rounds: Sequence[RoundRecord]) -> list[MatchResult]:
    return [
        MatchResult(t.match_id or f"r{r.stage_round}t{t.number}", r.stage_round, t.number, t.results)
        for r in rounds
        for t in r.tables
        if t.results
    ]


def byes_of(rounds: Sequence[RoundRecord], size: int = 2) -> list[ByeAward]:
    """The byes worth bye points (see `SCORED_BYES`); by default a win at a table of `size`."""
    return [ByeAward(e, r.stage_round, size) for r in rounds if r.bye_points for e in r.byes]


def stage_standings(
    data: StageInput, rounds: Sequence[RoundRecord] | None = None, ids: Sequence[str] = ()
) -> Standings:
    """The standings of the stage's entrants (or of `ids`, e.g. one group) from its finished
    rounds (or `rounds`): the tables at which one of them sat, whole (every seat's line,
    so placements stay those of the table), then only their rows."""
    chosen = data.rounds if rounds is None else rounds
    who = list(ids or data.entrants)
    wanted = set(who)
    results = [m for m in match_results(chosen) if any(r.entry_id in wanted for r in m.results)]
    size = table_size(data.format, data.params)
    byes = [b for b in byes_of(chosen, size) if b.entry_id in wanted]
    everyone = compute_standings(
        results, data.standings, [CoreEntry(e, data.names.get(e, e)) for e in who], byes
    )
    if all(row.entry_id in wanted for row in everyone.rows):
        return everyone
    # Someone of another group sat at one of these tables (never in a grouped stage):
    # standings of the wanted entries only, their tables' placements kept.
    return Standings(everyone.criteria, tuple(r for r in everyone.rows if r.entry_id in wanted))
