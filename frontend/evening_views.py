"""The pages of a club evening: a new club, a club's management page, and a tournament's
desk (entries, check-in, seeding). Shells with their labels, as every page here: the ES
modules read and write through the public API."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from frontend.evening_labels import evening_labels
from frontend.labels.site import labels
from tournaments.models import Club, Membership, Tournament


def _page(request: HttpRequest, template: str, **context: object) -> HttpResponse:
    context.setdefault("labels", {**labels(), "evening": evening_labels()})
    return render(request, f"frontend/{template}", context)


@login_required(login_url="frontend:login")
def club_new(request: HttpRequest) -> HttpResponse:
    return _page(request, "club_new.html")


@login_required(login_url="frontend:login")
def club_manage(request: HttpRequest, club_id: int) -> HttpResponse:
    """Details, members and invitations, the club's log; the API says who may see them."""
    if not Club.objects.filter(pk=club_id).exists():
        raise Http404("no such club")
    roles = [(code, str(name)) for code, name in Membership.ROLE_CHOICES]
    return _page(request, "club_manage.html", club_id=club_id, roles=roles)


@login_required(login_url="frontend:login")
def desk(request: HttpRequest, tournament_id: int) -> HttpResponse:
    if not Tournament.objects.filter(pk=tournament_id).exists():
        raise Http404("no such tournament")
    return _page(request, "desk.html", tournament_id=tournament_id)
