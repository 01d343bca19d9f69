"""Page views. They render shells (ids, translated labels); the ES modules in
`static/frontend/js/` fetch every piece of domain data from the public API and the match
websocket, so no page ever embeds a match's state (nor a hidden die)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from frontend.labels import labels
from tournaments import catalogue


def _page(request: HttpRequest, template: str, **context: Any) -> HttpResponse:
    context.setdefault("labels", labels())
    return render(request, f"frontend/{template}", context)


def home(request: HttpRequest) -> HttpResponse:
    return _page(
        request,
        "home.html",
        mode=settings.CACHO_MODE,
        database=settings.CACHO_DATABASE,
        channel_layer=settings.CACHO_CHANNEL_LAYER,
        timers=settings.CACHO_TIMERS,
    )


def match(request: HttpRequest, match_id: str) -> HttpResponse:
    """The live table (player or spectator: the socket decides what this viewer sees)."""
    return _page(request, "match.html", match_id=match_id)


def replay(request: HttpRequest, match_id: str) -> HttpResponse:
    return _page(request, "replay.html", match_id=match_id)


def clubs(request: HttpRequest) -> HttpResponse:
    return _page(request, "clubs.html")


def club(request: HttpRequest, club_id: int) -> HttpResponse:
    return _page(request, "club.html", club_id=club_id)


def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _page(request, "tournament.html", tournament_id=tournament_id)


@login_required(login_url="frontend:login")
def organise(request: HttpRequest) -> HttpResponse:
    """The rulesets and their options come from `GET /api/rulesets`; the stage formats with it."""
    return _page(request, "organise.html", formats=catalogue.formats())


@login_required(login_url="frontend:login")
def scorekeeper(request: HttpRequest) -> HttpResponse:
    names = labels()["boxes"]
    boxes = [(box, names[box]) for box in ("ones", "twos", "threes", "fours", "fives", "sixes")]
    boxes += [(box, names[box]) for box in ("straight", "full", "four")] + [("grande", names["grande_1"])]
    names = catalogue.ruleset_names()
    rulesets = [
        (code, names[code]) for code in ("alalay", "dudo", "cacho-chileno", "cacho-online", "liars-dice")
    ]
    return _page(request, "scorekeeper.html", boxes=boxes, rulesets=rulesets)


@login_required(login_url="frontend:login")
def profile(request: HttpRequest) -> HttpResponse:
    """Links only (no match state). The clubs are also served by `GET /api/me/memberships`."""
    from cacho.models import Seat
    from tournaments.models import Membership

    seats = Seat.objects.filter(user=request.user).select_related("match").order_by("-match__created_at")[:50]
    names = catalogue.ruleset_names()
    mine = [
        {
            "id": str(s.match_id),
            "ruleset": s.match.ruleset,
            "ruleset_name": names.get(s.match.ruleset, s.match.ruleset),
            "status": s.match.status,
        }
        for s in seats
    ]
    mine.sort(key=lambda m: m["status"] == "finished")  # live ones first
    clubs = Membership.objects.filter(user=request.user).select_related("club").order_by("club__name")
    return _page(request, "profile.html", my_matches=mine, memberships=clubs)


def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(reverse("frontend:profile"))
    return _page(request, "signup.html", form=form)
