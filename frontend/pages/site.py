"""Page views. They render shells (ids, translated labels); the ES modules in
`static/frontend/js/` fetch every piece of domain data from the public API and the match
websocket, so no page ever embeds a match's state (nor a hidden die)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from cacho.edge.inputs import plain_digits
from frontend.evening.clock_labels import clock_labels
from frontend.evening.labels import evening_labels
from frontend.labels.disputes import dispute_reasons
from frontend.labels.lobby import lobby_labels, tournament_page_labels
from frontend.labels.open_tables import open_table_labels
from frontend.labels.replay import replay_labels
from frontend.labels.scorekeeper import scorekeeper_labels
from frontend.labels.site import labels
from frontend.labels.table import table_labels
from frontend.labels.talk import talk_labels
from frontend.pages.signup_form import SignupForm
from tournaments import matches
from tournaments.models import Club, Tournament
from tournaments.ratings import plot, reading
from tournaments.reads import catalogue
from tournaments.services import appeals


def _page(request: HttpRequest, template: str, **context: Any) -> HttpResponse:
    context.setdefault("labels", labels())
    return render(request, f"frontend/{template}", context)


def home(request: HttpRequest) -> HttpResponse:
    """The lobby: `lobby.js` fills it from `GET /api/lobby` (the server's mode, database and
    channel layer are for operators: `/healthz`)."""
    return _page(request, "home.html", labels={**_lobby_labels(), "open": open_table_labels()})


def _require_match(match_id: str) -> None:
    """A match id that names no match is the site's 404 page, not an error inside the table's."""
    try:
        uuid.UUID(match_id)
    except ValueError:
        raise Http404(_("No such match.")) from None
    if not matches.match_exists(match_id):
        raise Http404(_("No such match."))


def match(request: HttpRequest, match_id: str) -> HttpResponse:
    """The live table (player or spectator: the socket decides what this viewer sees)."""
    _require_match(match_id)
    return _page(
        request,
        "match.html",
        match_id=match_id,
        reasons=dispute_reasons().items(),
        labels={
            **labels(),
            "t": table_labels(),
            "evening": {"clock": clock_labels()},
            "talk": talk_labels(),
            "open": open_table_labels(),
        },
    )


def replay(request: HttpRequest, match_id: str) -> HttpResponse:
    _require_match(match_id)
    return _page(
        request, "replay.html", match_id=match_id, labels={**labels(), "replay_page": replay_labels()}
    )


def clubs(request: HttpRequest) -> HttpResponse:
    return _page(request, "clubs.html")


def club(request: HttpRequest, club_id: int) -> HttpResponse:
    if not Club.objects.filter(pk=club_id).exists():
        raise Http404(_("No such club."))
    return _page(request, "club.html", club_id=club_id, labels={**labels(), "evening": evening_labels()})


def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A tournament that does not exist is the site's 404 page, not an error inside this one."""
    if not Tournament.objects.filter(pk=tournament_id).exists():
        raise Http404(_("No such tournament."))
    page_labels = {
        **labels(),
        "tournament_page": tournament_page_labels(),
        "evening": {"clock": clock_labels()},
        "sk": scorekeeper_labels(),
    }
    return _page(request, "tournament.html", tournament_id=tournament_id, labels=page_labels)


@login_required(login_url="frontend:login")
def organise(request: HttpRequest) -> HttpResponse:
    """The rulesets and their options come from `GET /api/rulesets`; the stage formats and the
    standings' points scales and byes with the page."""
    return _page(
        request,
        "organise.html",
        formats=catalogue.formats(),
        standings=catalogue.standings_options(),
        labels={**labels(), "evening": evening_labels()},
        round_appeal_minutes=appeals.default_minutes(),
    )


@login_required(login_url="frontend:login")
def scorekeeper(request: HttpRequest) -> HttpResponse:
    """The tables where the user keeps score (`GET /api/me/scorekeeping`), and the import of
    a record file that belongs to no table."""
    return _page(request, "scorekeeper.html", labels={**labels(), "sk": scorekeeper_labels()})


@login_required(login_url="frontend:login")
def scorekeeper_table(request: HttpRequest, table_id: int) -> HttpResponse:
    """A physical table's scorekeeper screen: `scorekeeper.js` reads and writes its sheet
    through `/api/tables/<id>/…`; the site's 404 for a table that does not exist."""
    from tournaments.models import Table

    if not Table.objects.filter(pk=table_id).exists():
        raise Http404(_("No such table."))
    page_labels = {**labels(), "sk": scorekeeper_labels(), "evening": {"clock": clock_labels()}}
    return _page(request, "scorekeeper_table.html", table_id=table_id, labels=page_labels)


@login_required(login_url="frontend:login")
def profile(request: HttpRequest) -> HttpResponse:
    """My matches (`matches-list.js`, from `GET /api/me/match-history`) and my clubs."""
    from tournaments.models import Membership

    clubs = Membership.objects.filter(user=request.user).select_related("club").order_by("club__name")
    return _page(
        request,
        "profile.html",
        memberships=clubs,
        ratings=reading.player_ratings(request.user),
        username=request.user.get_username(),
        source=reverse("tournaments-api:my-match-history"),
        labels=_lobby_labels(),
    )


@login_required(login_url="frontend:login")
def disputes(request: HttpRequest) -> HttpResponse:
    """The referee queue: the open disputes of the clubs the user referees (GET /api/disputes)."""
    return _page(request, "disputes.html")


@login_required(login_url="frontend:login")
def dispute(request: HttpRequest, dispute_id: int) -> HttpResponse:
    """One dispute: its trail and comments; for referees the review, the pause and the ruling.
    What the viewer may see and do comes from the API (`can_rule`)."""
    from tournaments.models import Dispute

    if not Dispute.objects.filter(pk=dispute_id).exists():
        raise Http404(_("No such dispute."))
    return _page(request, "dispute.html", dispute_id=dispute_id)


def signup(request: HttpRequest) -> HttpResponse:
    """A new account; its email receives a verification link, and once it is followed the
    clubs that invited that address make the account a member (tournaments.accounts)."""
    from django.db import transaction
    from django.utils.translation import get_language

    from tournaments.accounts import services as accounts

    form = SignupForm(request.POST or None, initial={"email": request.GET.get("email", "")[:254]})
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            accounts.set_profile(user, language=get_language())
            accounts.send_verification(user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(reverse("frontend:profile"))
    return _page(request, "signup.html", form=form)


def _lobby_labels() -> dict[str, Any]:
    return {**labels(), "lobby": lobby_labels()}


def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page: their ratings (history plot, head-to-head), rendered here, then their
    tournaments and matches (`matches-list.js`, from `GET /api/players/<username>` and
    `/matches`); the site's 404 for an unknown name. Ratings are no match state: the page
    draws them itself, the SVG plot included."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise Http404("no such player")
    return _page(
        request,
        "player.html",
        username=username,
        ratings=_ratings_of(user),
        source=reverse("tournaments-api:player-matches", args=[username]),
        labels=_lobby_labels(),
    )


def _ratings_of(user: Any) -> list[dict[str, Any]]:
    """The player's ratings per family, each with its history chart."""
    found = []
    for rating in reading.player_ratings(user):
        points = [(p["number"], p["rating"], p["placement"], p["table_size"]) for p in rating["history"]]
        found.append({**rating, "chart": plot.chart(points)})
    return found


def ratings(request: HttpRequest) -> HttpResponse:
    """A leaderboard, rendered here: a family's best ratings, of everyone or of a club's
    members (`?family=dudo|alalay&club=<id>`); an unknown family or club is the site's 404."""
    family = request.GET.get("family") or reading.FAMILIES[0]
    if family not in reading.FAMILIES:
        raise Http404("no such game family")
    club = None
    club_ref = request.GET.get("club") or ""
    if club_ref:
        club = Club.objects.filter(pk=int(club_ref)).first() if plain_digits(club_ref) else None
        if club is None:
            raise Http404(_("No such club."))
    return _page(
        request,
        "ratings.html",
        family=family,
        families=[(code, reading.family_label(code)) for code in reading.FAMILIES],
        club=club,
        rows=reading.leaderboard(family, club.pk if club else None),
    )
