"""A player's own data as one JSON document (`GET /api/me/export`): profile, memberships,
entries, matches, ratings, notices. A match's events are those of a finished match, each
cut for the player's own seat by the engine's view (what that seat saw: its own dice, and
the others' only as the table revealed them); a match still played lists its seat alone,
so no die still under a cup leaves in an export."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from cacho.engine.games import game_for
from cacho.engine.viewer import Viewer
from cacho.models import Event, Match, Seat
from cacho.services import matches
from cacho.services.presentation import event_json
from tournaments.models import Entry, EntryMember, Membership, PlayerRating, RatingChange
from tournaments.notices.models import Notice, NoticeSettings, PushSubscription

FORMAT = "cacho-player-export/1"


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def profile(user: Any) -> dict[str, Any]:
    from tournaments.accounts.models import Account

    account = Account.objects.filter(user=user).first()
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": _iso(user.date_joined),
        "last_login": _iso(user.last_login),
        "account": None
        if account is None
        else {
            "display_name": account.display_name,
            "language": account.language,
            "verified_email": account.verified_email,
        },
    }


def _entries(user: Any) -> list[dict[str, Any]]:
    member_of = EntryMember.objects.filter(user=user).values_list("entry_id", flat=True)
    rows = Entry.objects.filter(user=user) | Entry.objects.filter(pk__in=list(member_of))
    return [
        {
            "entry": e.pk,
            "tournament": e.tournament_id,
            "tournament_name": e.tournament.name,
            "name": e.name,
            "status": e.status,
            "seed": e.seed,
        }
        for e in rows.select_related("tournament").order_by("pk")
    ]


def _matches(user: Any) -> list[dict[str, Any]]:
    out = []
    for seat in Seat.objects.filter(user=user).select_related("match").order_by("match__created_at", "pk"):
        match: Match = seat.match
        item: dict[str, Any] = {
            "match": str(match.pk),
            "ruleset": match.ruleset,
            "status": match.status,
            "seat": seat.name,
            "seat_index": seat.index,
            "created_at": _iso(match.created_at),
            "finished_at": _iso(match.finished_at),
            "events": None,  # a match still played: none (its dice are still under the cups)
        }
        if match.status == Match.STATUS_FINISHED:
            game = game_for(match.ruleset)
            state = matches.load_state(match, game)
            viewer = Viewer.of_player(seat.name)
            events = Event.objects.filter(stream=match).order_by("version")
            item["events"] = [event_json(event, game, state, viewer) for event in events]
        out.append(item)
    return out


def _ratings(user: Any) -> dict[str, Any]:
    return {
        "current": [
            {"family": r.family, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal, "tables": r.tables}
            for r in PlayerRating.objects.filter(user=user).order_by("family")
        ],
        "changes": [
            {
                "family": c.family,
                "match": str(c.match_id),
                "tournament": c.tournament_id,
                "placement": c.placement,
                "table_size": c.table_size,
                "mu_before": c.mu_before,
                "sigma_before": c.sigma_before,
                "mu": c.mu,
                "sigma": c.sigma,
                "ordinal": c.ordinal,
            }
            for c in RatingChange.objects.filter(user=user).order_by("family", "key")
        ],
    }


def _notices(user: Any) -> dict[str, Any]:
    settings_row = NoticeSettings.objects.filter(user=user).first()
    return {
        "settings": None
        if settings_row is None
        else {"choices": settings_row.choices, "language": settings_row.language},
        "push_subscriptions": PushSubscription.objects.filter(user=user).count(),
        "notices": [
            {
                "kind": n.kind,
                "params": n.params,
                "link": n.link,
                "created_at": _iso(n.created_at),
                "read_at": _iso(n.read_at),
            }
            for n in Notice.objects.filter(user=user).order_by("pk")
        ],
    }


def export(user: Any) -> dict[str, Any]:
    """Everything the platform keeps about `user` that is theirs, as JSON."""
    return {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "profile": profile(user),
        "memberships": [
            {"club": m.club_id, "club_name": m.club.name, "role": m.role}
            for m in Membership.objects.filter(user=user).select_related("club").order_by("club", "role")
        ],
        "entries": _entries(user),
        "matches": _matches(user),
        "ratings": _ratings(user),
        "notices": _notices(user),
    }
