"""A walk-in's seat link (`/seat/<token>/`): the page that seats a guest at its online
table with no account (`tournaments.services.seat_links`).

Opening the link shows the seat and one button; taking the seat is a POST, so a link
preview (a chat app fetching the address) never uses the single-use link up. A refusal
is a page of its own with the service's message, its code in `data-code`.
"""

from __future__ import annotations

import io
import math
import re

import segno
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from cacho.edge import limits
from frontend.labels.site import labels
from tournaments.errors import TournamentError
from tournaments.services import seat_links

TOKEN = re.compile(r"^[A-Za-z0-9_-]{43}$")


def _address(request: HttpRequest) -> str:
    return f"addr:{request.META.get('REMOTE_ADDR') or 'unknown'}"


def _refused(request: HttpRequest, error: TournamentError, counts: bool = True) -> HttpResponse:
    if counts:
        seat_links.count_failure(_address(request))
    context = {"labels": labels(), "code": error.code, "message": error.message}
    return render(request, "frontend/seat_link.html", context, status=error.status)


def _held_here(request: HttpRequest, link_id: int) -> bool:
    held = request.session.get(seat_links.SESSION_KEY)
    return isinstance(held, dict) and str(link_id) in held


@require_http_methods(["GET", "POST"])
def seat_link(request: HttpRequest, token: str) -> HttpResponse:
    wait = limits.peek(seat_links.RATE_SCOPE, _address(request))
    if wait is not None:
        response = render(
            request, "429.html", {"labels": labels(), "minutes": max(1, math.ceil(wait / 60))}, status=429
        )
        response["Retry-After"] = str(max(1, math.ceil(wait)))
        return response
    try:
        link = seat_links.find(token)
    except TournamentError as error:
        return _refused(request, error)
    table = link.table
    if link.status == link.CLAIMED and _held_here(request, link.pk):
        return redirect("frontend:match", match_id=str(table.match_id))  # this phone's own seat, again
    if link.status == link.ACTIVE and table.match_id and seat_links.holds_entry(request.session, link):
        # the phone that took the entry's earlier link plays it here already
        return redirect("frontend:match", match_id=str(table.match_id))
    try:
        if request.method == "POST":
            claimed = seat_links.claim(token, request.session)
            return redirect("frontend:match", match_id=claimed.match_id)
        seat_links.check_open(link)
    except TournamentError as error:
        return _refused(request, error, counts=error.code == "seat-link-invalid")
    context = {
        "labels": labels(),
        "tournament": table.round.tournament.name,
        "round": table.round.number,
        "table": table.number,
        "name": link.entry.name,
    }
    return render(request, "frontend/seat_link.html", context)


def seat_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The link as a QR code (SVG). It encodes the address it is asked for and reads
    nothing: it tells nobody whether a token is valid."""
    if not TOKEN.match(token):
        raise Http404
    url = request.build_absolute_uri(seat_links.path_of(token))
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, light="#fff", title=url)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    return response
