"""Standings from match results, with a configurable tiebreak chain and a reason per resolved tie.

Points come first (from placements by a points scale, or as reported); then the chain of
the tournament's tiebreaks, in order. The default scale (`share`) gives a table win 1 point
and last place 0 at every table size, evenly spaced between (at a table of 4: 1, ⅔, ⅓, 0),
so that a Swiss round with tables of 5 and 6 rewards a win the same everywhere; a bye is
worth a win unless the configuration says otherwise. Bidding games (Dudo/Cacho) usually break ties on
eliminations made, dice left, head-to-head and opponents' points (Buchholz); Alalay on
total points, instant wins (dormida, panza de oro, four in every number) and the best
single card.

Every criterion is "more is better". Entries equal on every criterion share a rank
(1, 2, 2, 4) and are listed by name. When two neighbouring rows are equal on points but
split by a tiebreak, the upper row's `tiebreak` names the criterion and
`tiebreak_reason` says it in words: "ahead of Ana on dice left (5 vs 3)".

Head-to-head is computed inside the group still tied when it is reached: an entry scores
1 for every time it finished ahead of another member of the group at a shared table
(½ for the same placement). Buchholz is the sum, over an entry's matches, of the total
points of everyone else at the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.competition.entries import Entry
from tournaments.competition.errors import CompetitionError

POINTS = "points"
WINS = "wins"
ELIMINATIONS = "eliminations"
DICE_LEFT = "dice_left"
HEAD_TO_HEAD = "head_to_head"
BUCHHOLZ = "buchholz"
ALALAY_TOTAL = "alalay_total"
INSTANT_WINS = "instant_wins"
BEST_CARD = "best_card"

LABELS = {
    POINTS: "points",
    WINS: "table wins",
    ELIMINATIONS: "eliminations made",
    DICE_LEFT: "dice left",
    HEAD_TO_HEAD: "head-to-head",
    BUCHHOLZ: "opponents' points (Buchholz)",
    ALALAY_TOTAL: "total points",
    INSTANT_WINS: "instant wins",
    BEST_CARD: "best single card",
}
TIEBREAKS = tuple(code for code in LABELS if code != POINTS)

SHARE = "share"  # 1st of a table of n gets 1, last gets 0, evenly spaced: (n-p)/(n-1)
TABLE_SIZE = "table_size"  # 1st of a table of n gets n-1 points, last gets 0
FIXED = "fixed"  # points by placement from a table: (10, 7, 5, …)
REPORTED = "reported"  # the match reports each entry's points
SCALES = (SHARE, TABLE_SIZE, FIXED, REPORTED)
# Points are sums of fractions such as ⅓: totals are rounded to this many decimals so that
# equal scores compare equal whatever order they were added in.
DECIMALS = 9


@dataclass(frozen=True)
class EntryResult:
    """One entry's line in a match result. `placement` 1 is the winner (shared placements
    are allowed); `alalay_total` is the scorecard total; `instant_win` marks a match won
    outright (dormida, panza de oro, four in every number)."""

    entry_id: str
    placement: int | None = None
    points: float | None = None
    dice_left: int = 0
    eliminations: int = 0
    alalay_total: int | None = None
    instant_win: bool = False
    forfeit: bool = False  # the entry did not play this table: it earns nothing from it


@dataclass(frozen=True)
class MatchResult:
    match_id: str
    round: int
    table: int
    results: tuple[EntryResult, ...]


@dataclass(frozen=True)
class ByeAward:
    """An entry that sat out a round with a bye, worth the config's `bye_points`, or a win
    at a table of `table_size` when the config does not set them."""

    entry_id: str
    round: int
    table_size: int = 2


@dataclass(frozen=True)
class PointsScale:
    """How a result becomes points: by table size, a fixed table by placement, or as reported."""

    kind: str = SHARE
    fixed: tuple[float, ...] = ()

    def award(self, result: EntryResult, table_size: int) -> float:
        if self.kind == REPORTED:
            if result.points is None:
                raise CompetitionError("points-missing", f"{result.entry_id}'s points are not reported")
            return result.points
        if result.placement is None:
            raise CompetitionError("placement-missing", f"{result.entry_id}'s placement is not reported")
        if self.kind == SHARE:
            return (table_size - result.placement) / (table_size - 1) if table_size > 1 else 1.0
        if self.kind == TABLE_SIZE:
            return float(table_size - result.placement)
        if self.kind == FIXED:
            p = result.placement
            return self.fixed[p - 1] if p <= len(self.fixed) else 0.0
        raise CompetitionError("scale-unknown", f"a points scale is one of {', '.join(SCALES)}")


@dataclass(frozen=True)
class StandingsConfig:
    """`bye_points`: what a bye is worth; None (the default) makes it a win."""

    scale: PointsScale = PointsScale()
    tiebreaks: tuple[str, ...] = (ELIMINATIONS, DICE_LEFT, HEAD_TO_HEAD, BUCHHOLZ)
    bye_points: float | None = None

    def bye_value(self, bye: ByeAward) -> float:
        if self.bye_points is not None:
            return self.bye_points
        if self.scale.kind == REPORTED:
            return 0.0  # no scale to say what a win is worth
        return self.scale.award(EntryResult(bye.entry_id, placement=1), bye.table_size)


BIDDING_STANDINGS = StandingsConfig()
ALALAY_STANDINGS = StandingsConfig(tiebreaks=(ALALAY_TOTAL, INSTANT_WINS, BEST_CARD, HEAD_TO_HEAD))


@dataclass(frozen=True)
class StandingRow:
    rank: int
    entry_id: str
    name: str
    played: int
    points: float
    values: tuple[tuple[str, float], ...]
    tiebreak: str | None = None
    tiebreak_reason: str | None = None
    # The tie this row won, as data (for a reason in the reader's language): the entry just
    # below and the two values of `tiebreak` that split them.
    tiebreak_against: str | None = None
    tiebreak_values: tuple[float, float] | None = None

    def value(self, code: str) -> float:
        for key, v in self.values:
            if key == code:
                return v
        raise KeyError(code)


@dataclass(frozen=True)
class Standings:
    criteria: tuple[str, ...]
    rows: tuple[StandingRow, ...]

    def ranking(self) -> tuple[str, ...]:
        return tuple(r.entry_id for r in self.rows)


# between two fully tied blocks: (criterion level that split them, upper value, lower value)
Boundary = tuple[int, float, float] | None


@dataclass
class _Totals:
    played: int = 0
    points: float = 0.0
    wins: float = 0.0
    eliminations: float = 0.0
    dice_left: float = 0.0
    alalay_total: float = 0.0
    instant_wins: float = 0.0
    best_card: float = 0.0
    buchholz: float = 0.0


def _check_config(config: StandingsConfig) -> None:
    unknown = [c for c in config.tiebreaks if c not in TIEBREAKS]
    if unknown:
        raise CompetitionError("tiebreak-unknown", f"unknown tiebreak {unknown[0]!r}")
    if len(set(config.tiebreaks)) != len(config.tiebreaks):
        raise CompetitionError("tiebreak-duplicate", "a tiebreak appears once in the chain")
    if config.scale.kind not in SCALES:
        raise CompetitionError("scale-unknown", f"a points scale is one of {', '.join(SCALES)}")


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0")


def compute_standings(
    results: Sequence[MatchResult],
    config: StandingsConfig = BIDDING_STANDINGS,
    entries: Sequence[Entry] = (),
    byes: Sequence[ByeAward] = (),
) -> Standings:
    """The standings of every entry listed in `entries` or appearing in a result."""
    _check_config(config)
    names = {e.id: e.label for e in entries}
    totals: dict[str, _Totals] = {e.id: _Totals() for e in entries}
    seen_matches: set[str] = set()
    # per match: (entry, finishing key) — higher key = finished better
    tables: list[list[tuple[str, float]]] = []
    for match in results:
        if match.match_id in seen_matches:
            raise CompetitionError("match-duplicate", f"match {match.match_id!r} is reported twice")
        seen_matches.add(match.match_id)
        ids = [r.entry_id for r in match.results]
        if len(set(ids)) != len(ids):
            raise CompetitionError("seated-twice", f"an entry appears twice in match {match.match_id!r}")
        size = len(match.results)
        table: list[tuple[str, float]] = []
        for r in match.results:
            if r.placement is not None and not 1 <= r.placement <= size:
                raise CompetitionError("placement-range", f"placement {r.placement} at a table of {size}")
            t = totals.setdefault(r.entry_id, _Totals())
            points = 0.0 if r.forfeit else config.scale.award(r, size)
            t.played += 1
            t.points += points
            t.wins += 1 if r.placement == 1 and not r.forfeit else 0
            t.eliminations += r.eliminations
            t.dice_left += r.dice_left
            if r.alalay_total is not None:
                t.alalay_total += r.alalay_total
                t.best_card = max(t.best_card, r.alalay_total)
            t.instant_wins += 1 if r.instant_win else 0
            table.append((r.entry_id, -r.placement if r.placement is not None else points))
        tables.append(table)
    for bye in byes:
        totals.setdefault(bye.entry_id, _Totals()).points += config.bye_value(bye)
    for t in totals.values():
        t.points = round(t.points, DECIMALS)
    for table in tables:
        table_points = sum(totals[e].points for e, _ in table)
        for e, _ in table:
            totals[e].buchholz += table_points - totals[e].points
    for t in totals.values():
        t.buchholz = round(t.buchholz, DECIMALS)

    criteria = (POINTS, *config.tiebreaks)
    shown: dict[str, dict[str, float]] = {e: {} for e in totals}
    # head-to-head: for each entry, its shared tables
    tables_of: dict[str, list[int]] = {}
    if HEAD_TO_HEAD in criteria:
        for n, table in enumerate(tables):
            for e, _ in table:
                tables_of.setdefault(e, []).append(n)

    def value(code: str, e: str, group: frozenset[str]) -> float:
        if code == HEAD_TO_HEAD:
            score = 0.0
            for n in tables_of.get(e, ()):
                table = tables[n]
                mine = next(k for x, k in table if x == e)
                for other, key in table:
                    if other != e and other in group:
                        score += 1.0 if mine > key else 0.5 if mine == key else 0.0
            return score
        return float(getattr(totals[e], code))

    def label(e: str) -> str:
        return names.get(e, e)

    def refine(group: list[str], level: int) -> list[tuple[list[str], Boundary]]:
        if len(group) == 1:
            return [(group, None)]
        if level == len(criteria):
            return [(sorted(group, key=lambda e: (label(e), e)), None)]
        code = criteria[level]
        members = frozenset(group)
        vals = {e: value(code, e, members) for e in group}
        for e in group:
            shown[e][code] = vals[e]
        distinct = sorted(set(vals.values()), reverse=True)
        out: list[tuple[list[str], Boundary]] = []
        for k, v in enumerate(distinct):
            part = refine([e for e in group if vals[e] == v], level + 1)
            out.extend(part[:-1])
            last = part[-1][0]
            out.append((last, (level, v, distinct[k + 1]) if k + 1 < len(distinct) else None))
        return out

    def _plain(code: str, e: str) -> float:
        return 0.0 if code == HEAD_TO_HEAD else value(code, e, frozenset())

    everyone = sorted(totals, key=lambda e: (label(e), e))
    blocks = refine(everyone, 0)
    rows: list[StandingRow] = []
    for b, (block, boundary) in enumerate(blocks):
        rank = len(rows) + 1
        for i, e in enumerate(block):
            code: str | None = None
            reason: str | None = None
            below: str | None = None
            split: tuple[float, float] | None = None
            if i == len(block) - 1 and boundary is not None and boundary[0] > 0:
                level, upper, lower = boundary
                code = criteria[level]
                below = blocks[b + 1][0][0]
                split = (upper, lower)
                reason = f"ahead of {label(below)} on {LABELS[code]} ({_fmt(upper)} vs {_fmt(lower)})"
            t = totals[e]
            values = tuple((c, shown[e].get(c, _plain(c, e))) for c in criteria)
            rows.append(
                StandingRow(rank, e, label(e), t.played, t.points, values, code, reason, below, split)
            )
    return Standings(criteria, tuple(rows))
