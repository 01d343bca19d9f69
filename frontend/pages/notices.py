"""The notice settings page (`/me/notices/`: a form, saved without script too) and the site's
service worker at the root (`/sw.js`: a worker's scope is its own path and below)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from frontend.pages.site import _page
from tournaments.notices import kinds, preferences, push


@login_required(login_url="frontend:login")
def notice_settings(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        chosen = {k: {c: f"{k}:{c}" in request.POST for c in kinds.CHANNELS} for k in kinds.KINDS}
        preferences.choose(request.user, chosen, get_language())
        return redirect(f"{request.path}?saved=1")
    described = preferences.described(request.user)
    names = kinds.channel_names()
    rows: list[dict[str, Any]] = [
        {
            "kind": row["kind"],
            "name": row["name"],
            "channels": [{"code": c, "name": names[c], "on": row[c]} for c in kinds.CHANNELS],
        }
        for row in described["kinds"]
    ]
    return _page(
        request,
        "notice_settings.html",
        rows=rows,
        channels=list(names.items()),
        saved=request.GET.get("saved") == "1",
        push_enabled=push.enabled(),
        public_key=settings.VAPID_PUBLIC_KEY,
    )


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    path = finders.find("frontend/js/sw.js")
    if not path:
        raise Http404
    with open(str(path), encoding="utf-8") as source:
        response = HttpResponse(source.read(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # a new worker reaches the browsers at once
    return response
