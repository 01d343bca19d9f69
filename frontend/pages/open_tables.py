"""The open tables' pages: "New table" and a table's waiting room. Shells only: the ES
modules read and write through `/api/open-tables` and follow `/ws/tables/…`."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from frontend.labels.open_tables import open_table_labels
from frontend.labels.site import labels
from tournaments.open_tables.models import OpenTable
from tournaments.open_tables.service import MAX_SEATS, MAX_TURN, MIN_SEATS, MIN_TURN


def _labels() -> dict[str, object]:
    return {**labels(), "open": open_table_labels()}


@login_required(login_url="frontend:login")
def table_new(request: HttpRequest) -> HttpResponse:
    """The form: rulesets and their options from `GET /api/rulesets` (as the tournament
    builder's), seats, turn time, rated or casual, open or by private link."""
    context = {
        "labels": _labels(),
        "seat_choices": range(MIN_SEATS, MAX_SEATS + 1),
        "min_turn": MIN_TURN,
        "max_turn": MAX_TURN,
    }
    return render(request, "frontend/table_new.html", context)


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """A table's waiting room (`?join=<secret>`: a private table's link, which seats a
    signed-in visitor). A table that does not exist is the site's 404 page."""
    if not OpenTable.objects.filter(pk=table_id).exists():
        raise Http404(_("No such table."))
    return render(request, "frontend/open_table.html", {"labels": _labels(), "table_id": table_id})
