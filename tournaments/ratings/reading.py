"""What the pages and the API read of the ratings: leaderboards (overall and per club),
a player's ratings with their history and head-to-head records, and the platform ratings
of a tournament's entries (for the organisers' seeding). Read-only: the projection writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q

from tournaments import matches
from tournaments.models import Membership, PlayerRating, RatingChange, Tournament
from tournaments.ratings.fold import provisional

FAMILIES = tuple(code for code, _ in Tournament.GAME_CHOICES)
BOARD_SIZE = 100


def family_label(family: str) -> str:
    return str(dict(Tournament.GAME_CHOICES).get(family, family))


def family_of(tournament: Tournament) -> str:
    return matches.game_of(tournament.ruleset)


def _rating_row(rank: int | None, rating: PlayerRating) -> dict[str, Any]:
    return {
        "rank": rank,
        "username": rating.user.get_username(),
        "rating": round(rating.ordinal, 2),
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "tables": rating.tables,
        "provisional": provisional(rating.tables, rating.sigma),
    }


def leaderboard(family: str, club_id: int | None = None, limit: int = BOARD_SIZE) -> list[dict[str, Any]]:
    """The best ratings of a family (highest conservative rating first; ties by fewer
    provisional doubts: lower sigma, then the name), of everyone or of a club's members."""
    rows = PlayerRating.objects.filter(family=family).select_related("user")
    if club_id is not None:
        members = Membership.objects.filter(club_id=club_id).values("user_id")
        rows = rows.filter(user_id__in=members)
    rows = rows.order_by("-ordinal", "sigma", "user__username")[:limit]
    return [_rating_row(rank, rating) for rank, rating in enumerate(rows, start=1)]


@dataclass(frozen=True)
class Point:
    """One table of a player's rating history."""

    number: int
    rating: float
    placement: int
    table_size: int
    tournament: str


def history(user: Any, family: str) -> list[Point]:
    rows = (
        RatingChange.objects.filter(user=user, family=family)
        .select_related("tournament")
        .order_by("key", "match_id")
    )
    return [
        Point(n, round(r.ordinal, 2), r.placement, r.table_size, r.tournament.name if r.tournament else "")
        for n, r in enumerate(rows, start=1)
    ]


def head_to_head(user: Any, family: str) -> list[dict[str, Any]]:
    """Against each opponent met at a rated table: tables together, and how many times the
    player placed above them, below them, or equal; most-met first."""
    mine = dict(RatingChange.objects.filter(user=user, family=family).values_list("match_id", "placement"))
    others = (
        RatingChange.objects.filter(match_id__in=list(mine))
        .exclude(user=user)
        .values_list("match_id", "user_id", "placement")
    )
    records: dict[Any, dict[str, int]] = {}
    for match_id, opponent, placement in others:
        record = records.setdefault(opponent, {"tables": 0, "won": 0, "lost": 0, "tied": 0})
        record["tables"] += 1
        ours = mine[match_id]
        record["won" if ours < placement else "lost" if ours > placement else "tied"] += 1
    names = dict(get_user_model().objects.filter(pk__in=list(records)).values_list("pk", "username"))
    rows = [{"opponent": names[pk], **record} for pk, record in records.items()]
    return sorted(rows, key=lambda row: (-row["tables"], row["opponent"]))


def player_ratings(user: Any) -> list[dict[str, Any]]:
    """Each family the player is rated in: rating, history points and head-to-head."""
    found = []
    for rating in PlayerRating.objects.filter(user=user).select_related("user").order_by("family"):
        found.append(
            {
                "family": rating.family,
                "family_name": family_label(rating.family),
                **_rating_row(_rank_of(rating), rating),
                "history": [point.__dict__ for point in history(user, rating.family)],
                "head_to_head": head_to_head(user, rating.family),
            }
        )
    return found


def _rank_of(rating: PlayerRating) -> int:
    better = PlayerRating.objects.filter(family=rating.family).filter(
        Q(ordinal__gt=rating.ordinal)
        | Q(ordinal=rating.ordinal, sigma__lt=rating.sigma)
        | Q(ordinal=rating.ordinal, sigma=rating.sigma, user__username__lt=rating.user.get_username())
    )
    return better.count() + 1


def entry_ratings(tournament: Tournament) -> list[dict[str, Any]]:
    """Each entry with its platform rating in the tournament's family (None: a guest, a bot
    or a player with no rated table yet) and whether that rating is provisional."""
    family = family_of(tournament)
    entries = list(tournament.entries.order_by("seed", "pk"))
    users = [e.user_id for e in entries if e.user_id is not None]
    ratings = {r.user_id: r for r in PlayerRating.objects.filter(family=family, user_id__in=users)}
    rows = []
    for entry in entries:
        rating = ratings.get(entry.user_id)
        rows.append(
            {
                "entry": entry.pk,
                "name": entry.name,
                "seeding_rating": entry.rating,
                "platform_rating": round(rating.ordinal, 2) if rating else None,
                "tables": rating.tables if rating else 0,
                "provisional": provisional(rating.tables, rating.sigma) if rating else True,
            }
        )
    return rows


__all__ = ["FAMILIES", "entry_ratings", "head_to_head", "history", "leaderboard", "player_ratings"]
