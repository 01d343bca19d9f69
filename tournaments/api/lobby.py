"""Read-only endpoints of the lobby and the players' pages; the queries are `tournaments.reads.lobby`.

Errors follow the tournaments API: `{"code", "message"}` (`invalid-result`,
`invalid-status`, `invalid-tournament`, `invalid-page`: 400; `player-unknown`: 404;
`not-authenticated`: 401/403)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import ApiView
from tournaments.reads import lobby
from tournaments.services import TournamentError

FILTER_MESSAGES = {
    "result": lambda: _("result is `won` or `lost`."),
    "status": lambda: _("status is `live` or `finished`."),
    "tournament": lambda: _("tournament is a tournament's id, or `none` for casual matches."),
    "page": lambda: _("page is a whole number from 1."),
}


class PlayerRef(serializers.Serializer):
    name = serializers.CharField()
    username = serializers.CharField(allow_null=True, help_text="null for a guest or a bot")


class TableRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()


class MatchRow(serializers.Serializer):
    match = serializers.UUIDField()
    ruleset = serializers.CharField()
    ruleset_name = serializers.CharField()
    status = serializers.ChoiceField(choices=["live", "finished"])
    seat = serializers.CharField(help_text="The player's seat as the match's events name it (a player id).")
    label = serializers.CharField(help_text="The name the player's seat shows.")
    placement = serializers.IntegerField(allow_null=True, help_text="1 the winner; null while live.")
    players = serializers.IntegerField()
    opponents = PlayerRef(many=True)
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    tournament = TableRef(allow_null=True)


class MatchPage(serializers.Serializer):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    page_size = serializers.IntegerField()
    results = MatchRow(many=True)


class PlayerTournament(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    status = serializers.CharField()
    entry = serializers.CharField()
    entry_status = serializers.CharField()
    place = serializers.IntegerField(allow_null=True, help_text="Final place once finished.")
    entries = serializers.IntegerField()
    finished_at = serializers.DateTimeField(allow_null=True)


class PlayerPage(serializers.Serializer):
    username = serializers.CharField()
    tournaments = PlayerTournament(many=True)


FILTERS = [
    # An empty value is no filter (a plain form sends its unset fields so).
    OpenApiParameter(
        "result",
        str,
        enum=["", "won", "lost"],
        description="Finished matches won (placement 1) or lost; empty: any.",
    ),
    OpenApiParameter("status", str, enum=["", "live", "finished"], description="Empty: any."),
    OpenApiParameter("tournament", str, description="A tournament's id, or `none` for casual matches."),
    OpenApiParameter("page", int, description="From 1; 20 matches a page, newest first."),
]
ERRORS = {
    400: OpenApiResponse(s.ErrorSerializer, description="A bad filter: {code, message, field}"),
    404: OpenApiResponse(s.ErrorSerializer, description="player-unknown"),
}


def _page_of(user: Any, request: Request) -> Response:
    try:
        wanted = lobby.MatchFilter.parse(request.query_params)
    except lobby.BadFilter as bad:
        return Response(
            {"code": bad.code, "message": FILTER_MESSAGES[bad.field](), "field": bad.field}, status=400
        )
    return Response(lobby.matches_of(user, wanted))


def _player(username: str) -> Any:
    user = lobby.player(username)
    if user is None:
        raise TournamentError("player-unknown", _("No such player."), status=404)
    return user


class LobbyView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="The lobby: live tables (most interesting first: `tv`), tournaments, your next match",
        description=(
            "`tables`: live tables, public information only, each with `interest` = closeness + "
            "pressure (see `tournaments.reads.lobby`); `tv` is the first. `tournaments.running` and "
            "`tournaments.coming` (registration open). `yours`: for a logged-in player, every live "
            "match they sit at, those on their turn first (else empty). `next`: the first of them "
            "(`kind: match`) or the tournament where they wait (`kind: waiting`), else null."
        ),
    )
    def get(self, request: Request) -> Response:
        tables = lobby.live_tables()
        user = request.user
        yours = lobby.live_matches_of(user) if user.is_authenticated else []
        return Response(
            {
                "tv": tables[0] if tables else None,
                "tables": tables,
                "tournaments": lobby.tournaments_now(),
                "yours": yours,
                "next": lobby.next_match(user, yours) if user.is_authenticated else None,
            }
        )


class MyMatchHistoryView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=FILTERS, responses={200: MatchPage, **ERRORS}, summary="My matches, paginated")
    def get(self, request: Request) -> Response:
        return _page_of(request.user, request)


class PlayerMatchesView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=FILTERS, responses={200: MatchPage, **ERRORS}, summary="A player's matches")
    def get(self, request: Request, username: str) -> Response:
        return _page_of(_player(username), request)


class PlayerView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: PlayerPage, 404: ERRORS[404]}, summary="A player: their tournaments")
    def get(self, request: Request, username: str) -> Response:
        user = _player(username)
        return Response({"username": user.get_username(), "tournaments": lobby.tournaments_entered(user)})
