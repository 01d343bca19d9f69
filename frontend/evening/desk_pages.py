"""A tournament's desk: entries, check-in and seeding, and the organiser console."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse

from frontend.evening import page
from tournaments.models import Tournament


@login_required(login_url="frontend:login")
def desk(request: HttpRequest, tournament_id: int) -> HttpResponse:
    if not Tournament.objects.filter(pk=tournament_id).exists():
        raise Http404("no such tournament")
    return page(request, "desk.html", tournament_id=tournament_id)
