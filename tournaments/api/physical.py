"""The HTTP API of physical tables (docs/physical.md): thin views over
`tournaments.services.physical`. Errors are `{"code", "message"}`; an illegal entry keeps
the engine's code and its words."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import ERRORS, SignedInView, refuse_unknown
from tournaments.errors import TournamentError
from tournaments.services import physical

ENVELOPE = ("command_id", "expected_version")

EntryRequest = inline_serializer(
    "ScorekeeperEntry",
    {
        "command_id": serializers.CharField(max_length=64, help_text="The device's id for this entry."),
        "expected_version": serializers.IntegerField(required=False, help_text="The sheet's version shown."),
        "type": serializers.CharField(
            help_text="Bidding: dice, outcome, bid, dudo, calza, paso, salpicon, deny, abandon, undo; "
            "Alalay: throw, reroll, turn, score, scratch, abandon, undo."
        ),
    },
)
ConfirmRequest = inline_serializer(
    "SheetConfirmation",
    {
        "entry": serializers.IntegerField(),
        "password": serializers.CharField(required=False, help_text="An entry with an account."),
        "name": serializers.CharField(required=False, help_text="A guest types the name it plays under."),
    },
)


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise TournamentError("invalid-body", _("The request body must be a JSON object."))
    return dict(request.data)


class MakePhysicalView(SignedInView):
    @extend_schema(request=None, responses={200: s.TableSerializer, **ERRORS})
    def post(self, request: Request, table_id: str) -> Response:
        """Make a table physical before its first move (organisers): a physical match with the
        same seats replaces its online one, which stops for good. Logged
        (`table-made-physical`); 409 `table-under-way` once play has begun."""
        return Response(s.TableSerializer(physical.make_table_physical(table_id, request.user)).data)


class MakeOnlineView(SignedInView):
    @extend_schema(request=None, responses={200: s.TableSerializer, **ERRORS})
    def post(self, request: Request, table_id: str) -> Response:
        """Make a physical table online before anything is entered at it (organisers): an
        online match with the same seats replaces it. Logged (`table-made-online`); 409
        `table-under-way` once play has begun, `table-already-online`."""
        return Response(s.TableSerializer(physical.make_table_online(table_id, request.user)).data)


class SheetView(SignedInView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request, table_id: str) -> Response:
        """The scorekeeper's sheet of a physical table (its scorekeepers, organisers, referees):
        the match with every die, what may be entered now, the sheet so far, the last entry
        that can be undone and the players' confirmations."""
        return Response(physical.sheet(table_id, request.user))


class EntryView(SignedInView):
    @extend_schema(request=EntryRequest, responses={201: OpenApiTypes.OBJECT, **ERRORS})
    def post(self, request: Request, table_id: str) -> Response:
        """Enter what happened (one move, a round's dice or its outcome, or `undo`): an event of
        the table's match at once, judged by the engine. Answers the new sheet."""
        data = _body(request)
        command_id = data.get("command_id")
        if not isinstance(command_id, str) or not 0 < len(command_id) <= 64:
            message = _("command_id must be a string of 1 to 64 characters")
            raise TournamentError("invalid-command-id", message)
        expected = data.get("expected_version")
        if expected is not None and (type(expected) is not int or expected < 0):
            raise TournamentError("invalid-expected-version", _("expected_version must be a whole number"))
        payload = {key: value for key, value in data.items() if key not in ENVELOPE}
        physical.enter(table_id, request.user, payload, command_id=command_id, expected_version=expected)
        return Response(physical.sheet(table_id, request.user), status=status.HTTP_201_CREATED)


class CheckView(SignedInView):
    @extend_schema(request=EntryRequest, responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def post(self, request: Request, table_id: str) -> Response:
        """Judge an entry without storing it: `{"ok": true, "events": [...]}` or the engine's
        error (400), as the scorekeeper types it."""
        payload = {key: value for key, value in _body(request).items() if key not in ENVELOPE}
        return Response({"ok": True, "events": physical.check(table_id, request.user, payload)})


class ConfirmView(SignedInView):
    @extend_schema(request=ConfirmRequest, responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def post(self, request: Request, table_id: str) -> Response:
        """A player confirms the finished sheet on the scorekeeper's device (password, or the
        name a guest plays under) or from their own session; the last confirmation records
        the table's result. `sheet` is the keepers' sheet, null for a player (whose
        confirmation stands: it is not answered with the keepers' 403)."""
        data = _body(request)
        refuse_unknown(request, {"entry", "password", "name"})
        for key in ("password", "name"):
            if key in data and not isinstance(data[key], str):
                raise TournamentError("invalid-field", _("%s must be text") % key)
        done = physical.confirm(
            table_id, request.user, data.get("entry"), password=data.get("password"), name=data.get("name")
        )
        return Response({**done, "sheet": physical.sheet_if_keeper(table_id, request.user)})


class ImportView(SignedInView):
    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT, **ERRORS})
    def post(self, request: Request, table_id: str) -> Response:
        """A record file (`cacho-match/1`) becomes the table's match while nothing is entered
        there yet; refused, with the rule broken in words, unless the engine accepts it."""
        physical.import_record(table_id, request.user, _body(request))
        return Response(physical.sheet(table_id, request.user), status=status.HTTP_201_CREATED)


class MyTablesView(SignedInView):
    @extend_schema(operation_id="me_scorekeeping_list", responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request) -> Response:
        """The physical tables in play of the clubs where you keep score (scorekeeper,
        organiser, owner or referee), each with its scorekeeper screen."""
        return Response(physical.my_tables(request.user))
