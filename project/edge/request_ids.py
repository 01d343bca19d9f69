"""The ids a request is about, for the structured logs (cacho.observability.logs): the user, and the match
or tournament its URL names (`/matches/<match_id>/`, `/api/tournaments/<pk>/...`)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.deprecation import MiddlewareMixin

from cacho.observability import logs


class RequestIdsMiddleware(MiddlewareMixin):
    """Sync and async, as Django's own middleware (an async view such as /healthz keeps its loop)."""

    def process_request(self, request: HttpRequest) -> None:
        user = getattr(request, "user", None)
        logs.bind(user=user.pk if user is not None and user.is_authenticated else None)

    def process_view(self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]) -> None:
        match = request.resolver_match
        name = match.url_name if match is not None else ""
        tournament = kwargs.get("tournament_id")
        if tournament is None and name and name.startswith("tournament-"):
            tournament = kwargs.get("pk")
        logs.bind(match=kwargs.get("match_id"), tournament=tournament)
