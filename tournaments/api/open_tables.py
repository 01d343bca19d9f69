"""Open tables over REST (docs/lobby.md, "Open tables"): thin views over
`tournaments.open_tables.service`; errors `{"code", "message"}` as the rest of the API."""

from __future__ import annotations

import uuid
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from cacho.edge.inputs import plain_digits
from tournaments.api.base import SignedInView, refuse_unknown
from tournaments.open_tables import reads, service
from tournaments.open_tables.models import OpenTable
from tournaments.services import TournamentError


class SeatOut(serializers.Serializer):
    index = serializers.IntegerField()
    player = serializers.CharField(allow_null=True, help_text="The seated account's username.")
    bot = serializers.CharField(allow_null=True, help_text="A bot's strength (`random`, `reasoning`).")


class YouOut(serializers.Serializer):
    seated = serializers.BooleanField()
    host = serializers.BooleanField()
    invited = serializers.BooleanField(help_text="Invited to this rematch: sits without the link.")
    link = serializers.CharField(allow_null=True, help_text="The private link (host and seated only).")


class TableOut(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    ruleset_name = serializers.CharField()
    options = serializers.DictField()
    size = serializers.IntegerField()
    turn_seconds = serializers.IntegerField()
    rated = serializers.BooleanField()
    private = serializers.BooleanField()
    status = serializers.ChoiceField(choices=["open", "playing", "finished", "closed"])
    host = serializers.CharField()
    seats = SeatOut(many=True)
    free = serializers.IntegerField()
    match = serializers.UUIDField(allow_null=True, help_text="The match, once started.")
    rematch = serializers.IntegerField(allow_null=True, help_text="The rematch's table, once opened.")
    rematch_of = serializers.IntegerField(allow_null=True)
    invited = serializers.ListField(child=serializers.CharField())
    you = YouOut()


class TableIn(serializers.Serializer):
    ruleset = serializers.CharField()
    options = serializers.DictField(required=False)
    size = serializers.IntegerField(required=False, help_text="2 to 6 seats (default 4).")
    turn_seconds = serializers.IntegerField(required=False, help_text="10 to 600 (default 30).")
    rated = serializers.BooleanField(required=False)
    private = serializers.BooleanField(required=False, help_text="Seats only whoever has its link.")


class SeatIn(serializers.Serializer):
    index = serializers.IntegerField(required=False, help_text="A seat (default: the first free).")
    token = serializers.CharField(required=False, help_text="A private table's link secret.")


class BotsIn(serializers.Serializer):
    strength = serializers.CharField(help_text="One of the game's strengths: `random`, `reasoning`.")
    count = serializers.IntegerField(required=False, help_text="Default: every empty seat.")


class MatchTableOut(serializers.Serializer):
    table = TableOut(allow_null=True)


ERRORS = {
    400: OpenApiResponse(description="`{code, message, field}`: bad input, nothing stored"),
    403: OpenApiResponse(description="`not-host`, `private-table`, `not-a-player`"),
    404: OpenApiResponse(description="`table-unknown`"),
    409: OpenApiResponse(
        description="`seat-taken`, `table-full`, `already-seated`, `table-not-open`, `too-few-players`, "
        "`rated-no-bots`, `not-seated`, `too-many-tables`, `table-not-finished`"
    ),
}
ALLOWED = {
    "create": {"ruleset", "options", "size", "turn_seconds", "rated", "private"},
    "seat": {"index", "token"},
    "bots": {"strength", "count"},
}


def _body(request: Request, kind: str) -> dict[str, Any]:
    data = request.data if request.data is not None else {}
    if not isinstance(data, dict):
        raise TournamentError("invalid-body", _("The request body must be a JSON object."))
    refuse_unknown(request, ALLOWED[kind])
    return dict(data)


def _table(table_id: str, request: Request, token: str | None = None) -> OpenTable:
    known = plain_digits(table_id) and len(table_id) <= 18  # a bigint at most
    table = OpenTable.objects.filter(pk=int(table_id)).first() if known else None
    if table is None or not reads.visible_to(table, request.user, token):
        raise TournamentError("table-unknown", _("There is no such table."), status=404)
    return table


def _json(table: OpenTable, request: Request) -> dict[str, Any]:
    table.refresh_from_db()
    row = reads.table_json(table)
    row["you"] = reads.you_json(table, request.user)
    return row


class OpenTablesView(SignedInView):
    def get_permissions(self) -> list[Any]:
        return [permissions.AllowAny()] if self.request.method == "GET" else super().get_permissions()

    @extend_schema(
        operation_id="open_tables_list",
        responses={200: TableOut(many=True)},
        description="Public tables waiting for players with a free seat, and the caller's own "
        "waiting tables (private ones, and rematches that invite them), newest first.",
    )
    def get(self, request: Request) -> Response:
        return Response(reads.lobby_tables(request.user))

    @extend_schema(
        operation_id="open_tables_create",
        request=TableIn,
        responses={201: TableOut, **ERRORS},
        description="Open a table (the caller sits in its first seat). Options as `GET /api/rulesets`.",
    )
    def post(self, request: Request) -> Response:
        data = _body(request, "create")
        ruleset = data.get("ruleset")
        if not isinstance(ruleset, str):
            raise TournamentError("ruleset-invalid", _("There is no such ruleset."), field="ruleset")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise TournamentError("options-invalid", _("options must be an object."), field="options")
        for flag in ("rated", "private"):
            if not isinstance(data.get(flag, False), bool):
                raise TournamentError(f"{flag}-invalid", _("%s is true or false.") % flag, field=flag)
        table = service.open_table(
            request.user,
            ruleset=ruleset,
            options=options,
            size=data.get("size", 4),
            turn_seconds=data.get("turn_seconds", 30),
            rated=data.get("rated", False),
            private=data.get("private", False),
        )
        return Response(_json(table, request), status=status.HTTP_201_CREATED)


class OpenTableView(SignedInView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="open_tables_read",
        parameters=[OpenApiParameter("token", str, description="a private table's link secret")],
        responses={200: TableOut, 404: ERRORS[404]},
    )
    def get(self, request: Request, table_id: str) -> Response:
        return Response(_json(_table(table_id, request, request.query_params.get("token")), request))


class OpenTableSeatsView(SignedInView):
    @extend_schema(
        operation_id="open_tables_sit",
        request=SeatIn,
        responses={200: TableOut, **ERRORS},
        description="Take a seat (the table starts when it is full). Of two players taking the "
        "same seat one sits and the other gets 409 `seat-taken` (`table-full` when none is left).",
    )
    def post(self, request: Request, table_id: str) -> Response:
        data = _body(request, "seat")
        token = data.get("token")
        table = _table(table_id, request, token if isinstance(token, str) else None)
        service.take_seat(table.pk, request.user, index=data.get("index"), token=token)
        return Response(_json(table, request))


class OpenTableLeaveView(SignedInView):
    @extend_schema(
        operation_id="open_tables_leave",
        request=None,
        responses={200: TableOut, **ERRORS},
        description="Leave your seat before the start; the host leaving closes the table.",
    )
    def post(self, request: Request, table_id: str) -> Response:
        table = _table(table_id, request)
        service.leave(table.pk, request.user)
        return Response(_json(table, request))


class OpenTableBotsView(SignedInView):
    @extend_schema(
        operation_id="open_tables_bots",
        request=BotsIn,
        responses={200: TableOut, **ERRORS},
        description="The host fills empty seats with bots (a table with bots is never rated).",
    )
    def post(self, request: Request, table_id: str) -> Response:
        data = _body(request, "bots")
        table = _table(table_id, request)
        strength = data.get("strength")
        if not isinstance(strength, str):
            raise TournamentError("bot-strength-invalid", _("This game has no such bot."), field="strength")
        service.fill_bots(table.pk, request.user, strength=strength, count=data.get("count"))
        return Response(_json(table, request))


class OpenTableStartView(SignedInView):
    @extend_schema(
        operation_id="open_tables_start",
        request=None,
        responses={200: TableOut, **ERRORS},
        description="The host starts the table with at least two seated (409 `too-few-players`).",
    )
    def post(self, request: Request, table_id: str) -> Response:
        table = _table(table_id, request)
        service.start(table.pk, request.user)
        return Response(_json(table, request))


class OpenTableRematchView(SignedInView):
    @extend_schema(
        operation_id="open_tables_rematch",
        request=None,
        responses={201: TableOut, 200: TableOut, **ERRORS},
        description="A player of a finished table opens it again, the other players invited; "
        "asked again, the rematch already open (200).",
    )
    def post(self, request: Request, table_id: str) -> Response:
        table = _table(table_id, request)
        again, created = service.rematch(table.pk, request.user)
        return Response(
            _json(again, request), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )


class MatchOpenTableView(SignedInView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="matches_open_table",
        responses={200: MatchTableOut},
        description='The open table a match is played at (`{"table": null}` for any other match).',
    )
    def get(self, request: Request, match_id: str) -> Response:
        table = OpenTable.objects.filter(match_id=_uuid(match_id)).first() if _uuid(match_id) else None
        if table is None or not reads.visible_to(table, request.user):
            return Response({"table": None})
        service.refresh_status(table.pk)
        return Response({"table": _json(table, request)})


def _uuid(value: str) -> str | None:
    try:
        return str(uuid.UUID(value))
    except ValueError:
        return None


# The actions on one table, each at `open-tables/<id>/<action>`.
ACTIONS: dict[str, type[SignedInView]] = {
    "seats": OpenTableSeatsView,
    "leave": OpenTableLeaveView,
    "bots": OpenTableBotsView,
    "start": OpenTableStartView,
    "rematch": OpenTableRematchView,
}
