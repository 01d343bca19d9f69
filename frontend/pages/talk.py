"""The moderation queue of table talk: reported messages for a club's organisers and
referees, and for the site moderators (docs/table-talk.md). The page is a shell;
`talk-reports.js` reads and resolves through the API, which checks every request."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from frontend.labels.site import labels
from frontend.labels.talk import queue_labels


@login_required
def reports(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/talk_reports.html", {"labels": {**labels(), "queue": queue_labels()}})
