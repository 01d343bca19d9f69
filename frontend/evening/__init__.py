"""A club evening's pages (a new club, a club's management page, a tournament's desk) and
their words. Shells with their labels, as every page here: the ES modules read and write
through the public API."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from frontend.evening.labels import evening_labels
from frontend.labels.site import labels


def page(request: HttpRequest, template: str, **context: object) -> HttpResponse:
    context.setdefault("labels", {**labels(), "evening": evening_labels()})
    return render(request, f"frontend/{template}", context)
