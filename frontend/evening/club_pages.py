"""A club's pages for its managers: a new club, and a club's management page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse

from frontend.evening import page
from tournaments.models import Club, Membership


@login_required(login_url="frontend:login")
def club_new(request: HttpRequest) -> HttpResponse:
    return page(request, "club_new.html")


@login_required(login_url="frontend:login")
def club_manage(request: HttpRequest, club_id: int) -> HttpResponse:
    """Details, members and invitations, the club's log; the API says who may see them."""
    if not Club.objects.filter(pk=club_id).exists():
        raise Http404("no such club")
    roles = [(code, str(name)) for code, name in Membership.ROLE_CHOICES]
    return page(request, "club_manage.html", club_id=club_id, roles=roles)
