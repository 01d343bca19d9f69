"""The season page: its standings (the same export the JSON API answers), its evenings, its
scoring and its final; for the season's organisers, the scoring form and "Draw the final"
(both post here and go through the seasons' write path, `tournaments.seasons`). The page
shows standings and places only, never a die."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from cacho.edge.inputs import plain_digits
from tournaments.clubs.roles import has_role
from tournaments.competition import seeding
from tournaments.errors import TournamentError
from tournaments.exports.data import number_text
from tournaments.models import Club, Membership, Tournament
from tournaments.seasons import exports, qualification, seasons
from tournaments.seasons.models import DEFAULT_POINTS, Season


def _points(text: str) -> list[Any]:
    """ "25-18-15" or "25, 18, 15" as numbers; anything else is left for the write path to
    refuse with its own code."""
    out: list[Any] = []
    for part in text.replace(",", " ").replace("-", " ").split():
        try:
            number = float(part)
        except ValueError:
            out.append(part)
            continue
        out.append(int(number) if number.is_integer() else number)
    return out


def _scoring_changes(post: Any) -> dict[str, Any]:
    changes: dict[str, Any] = {"points": _points(post.get("points", ""))}
    try:
        # a decimal comma, as Spanish writes it
        changes["participation"] = float((post.get("participation") or "0").replace(",", "."))
    except ValueError:
        changes["participation"] = post.get("participation")
    best = (post.get("best_of") or "").strip()
    changes["best_of"] = int(best) if plain_digits(best) else (best or None)
    return changes


def _finals(season: Season) -> list[Tournament]:
    """The tournaments the final may be drawn into: empty, seeded by hand, still taking
    registrations, of the season's club (the league's member clubs)."""
    return list(
        Tournament.objects.filter(
            club_id__in=seasons.clubs_of(season),
            status=Tournament.REGISTRATION,
            seeding=seeding.MANUAL,
            entries__isnull=True,
        ).order_by("-created_at")
    )


def season(request: HttpRequest, season_id: int) -> HttpResponse:
    found = Season.objects.select_related("club", "league", "final").filter(pk=season_id).first()
    if found is None:
        raise Http404(_("No such season."))
    errors: dict[str, tuple[str, str]] = {}
    manages = seasons.manages(request.user, found)
    if request.method == "POST" and manages:
        action = request.POST.get("action")
        try:
            if action == "scoring":
                seasons.update_season(found.pk, request.user, **_scoring_changes(request.POST))
            elif action == "final":
                count = request.POST.get("count", "")
                qualification.qualify(
                    found.pk,
                    request.POST.get("tournament", ""),
                    request.user,
                    int(count) if plain_digits(count) else count,
                )
            return redirect("frontend:season", season_id=found.pk)
        except TournamentError as exc:
            errors[action or ""] = (exc.code, exc.message)
        found.refresh_from_db()
    export = exports.build(found)
    data = export.as_dict()
    counted = len(data["evenings"])
    rows = []
    for line in data["standings"]:
        by_evening = {e["tournament_id"]: e for e in line["evenings"]}
        rows.append({**line, "cells": [by_evening.get(e["tournament_id"]) for e in data["evenings"]]})
    return render(
        request,
        "frontend/season.html",
        {
            "season": found,
            "data": data,
            "evenings": data["evenings"],
            "rows": rows,
            "counted": counted,
            "best_of": found.best_of or counted,
            "points_text": "-".join(str(p) for p in found.points),
            "participation_text": number_text(found.participation),
            "manages": manages,
            "finals": _finals(found) if manages and found.final_id is None else [],
            "errors": errors,
        },
        status=400 if errors else 200,
    )


def season_new(request: HttpRequest, club_id: int) -> HttpResponse:
    """A new season of the club (its owners and organisers): name, dates, which
    tournaments count and the scoring; the write path refuses what does not fit."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise Http404(_("No such club."))
    if not has_role(request.user, club, Membership.MANAGERS):
        raise PermissionDenied(_("Only the club's owners and organisers create its seasons."))
    error: tuple[str, str] | None = None
    if request.method == "POST":
        fields: dict[str, Any] = {
            "name": request.POST.get("name", ""),
            "starts_on": request.POST.get("starts_on", ""),
            "ends_on": request.POST.get("ends_on", ""),
            "selection": Season.DATES,
            **_scoring_changes(request.POST),
        }
        try:
            made = seasons.create_season(request.user, club=club.pk, **fields)
            return redirect("frontend:season", season_id=made.pk)
        except TournamentError as exc:
            error = (exc.code, exc.message)
    return render(
        request,
        "frontend/season_new.html",
        {"club": club, "error": error, "points_text": "-".join(str(p) for p in DEFAULT_POINTS)},
        status=400 if error else 200,
    )


__all__ = ["season", "season_new"]
