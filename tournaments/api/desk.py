"""The API of a tournament's desk: guest entries registered in bulk, the manual seeding,
disqualification, a guest entry linked to an account, check-in closed early or undone;
and the round's printables (table cards, the wall list, score sheets, result slips). Thin
views over `tournaments.services.desk` and `tournaments.reads.printables`."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import ERRORS, ApiView, object_id
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Entry
from tournaments.reads import printables
from tournaments.services import desk, seat_link_desk


class BulkInput(serializers.Serializer):
    names = serializers.CharField(
        max_length=40000, allow_blank=True, trim_whitespace=False, help_text="One name per line."
    )


class RefusalSerializer(serializers.Serializer):
    line = serializers.IntegerField(help_text="The line's number in the paste, from 1.")
    name = serializers.CharField()
    code = serializers.CharField()
    message = serializers.CharField()


class BulkSerializer(serializers.Serializer):
    registered = s.EntrySerializer(many=True)
    refused = RefusalSerializer(many=True)
    blank = serializers.IntegerField(help_text="Blank lines skipped.")


class SeedsInput(serializers.Serializer):
    order = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=5000)


class DisqualifyInput(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class ClaimInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class BulkEntriesView(ApiView):
    @extend_schema(
        operation_id="tournament_entries_bulk",
        request=BulkInput,
        responses={200: BulkSerializer, **ERRORS},
        description=(
            "Register one guest entry per line (organisers). Blank lines are skipped; a name given "
            "twice, taken already or invalid is refused on its line (`refused`), the rest are "
            "registered. While the tournament runs, each is a late entry where the format allows."
        ),
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        data = self.valid(BulkInput, request)
        result = desk.register_many(
            object_id(tournament_id, _("No such tournament.")), request.user, data["names"]
        )
        return Response(BulkSerializer(result).data)


class SeedsView(ApiView):
    @extend_schema(
        operation_id="tournament_seeds",
        request=SeedsInput,
        responses={200: s.EntrySerializer(many=True), **ERRORS},
        description="The manual seeding order, top seed first: every registered entry once (organisers).",
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        data = self.valid(SeedsInput, request)
        tid = object_id(tournament_id, _("No such tournament."))
        desk.set_seeds(tid, request.user, data["order"])
        rows = (
            Entry.objects.filter(tournament_id=tid).prefetch_related("members__user").order_by("seed", "pk")
        )
        return Response(s.EntrySerializer(rows, many=True).data)


class EntryDisqualifyView(ApiView):
    @extend_schema(
        operation_id="entry_disqualify",
        request=DisqualifyInput,
        responses={200: s.EntrySerializer, **ERRORS},
        description=(
            "Disqualify an entry (organisers, referees), with its reason: it leaves its live tables "
            "(forfeits), is drawn no more and is ranked after every other entry. Only organisers "
            "lift it (reinstate)."
        ),
    )
    def post(self, request: Request, entry_id: str) -> Response:
        data = self.valid(DisqualifyInput, request)
        entry = desk.disqualify(object_id(entry_id, _("No such entry.")), request.user, data["reason"])
        return Response(s.EntrySerializer(entry).data)


class EntryClaimView(ApiView):
    @extend_schema(
        operation_id="entry_claim",
        request=ClaimInput,
        responses={200: s.EntrySerializer, **ERRORS},
        description="Link a guest entry to the account named by `username` (organisers).",
    )
    def post(self, request: Request, entry_id: str) -> Response:
        data = self.valid(ClaimInput, request)
        entry = desk.claim_entry(object_id(entry_id, _("No such entry.")), request.user, data["username"])
        return Response(s.EntrySerializer(entry).data)


class CloseCheckInView(ApiView):
    @extend_schema(
        operation_id="tournament_check_in_close",
        request=None,
        responses={200: s.TournamentSerializer, **ERRORS},
        description=(
            "Close check-in now, before its deadline (organisers): the deadline becomes now and "
            "the start drops the entries not checked in. Logged (`check-in-closed`)."
        ),
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        tid = object_id(tournament_id, _("No such tournament."))
        tournament = desk.close_check_in(tid, request.user)
        return Response(s.TournamentSerializer(tournament, context={"request": request}).data)


class EntryUndoCheckInView(ApiView):
    @extend_schema(
        operation_id="entry_undo_check_in", request=None, responses={200: s.EntrySerializer, **ERRORS}
    )
    def post(self, request: Request, entry_id: str) -> Response:
        """Undo a check-in made by mistake (organisers, referees), before the start."""
        entry = desk.undo_check_in(object_id(entry_id, _("No such entry.")), request.user)
        return Response(s.EntrySerializer(entry).data)


class PrintView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="tournament_print",
        responses={(200, "text/html"): OpenApiTypes.STR, **ERRORS},
        parameters=[OpenApiParameter("round", int, description="The round's number; default: the latest.")],
        description=(
            "A print-ready page for a round: `cards` (a card per table: table, seats, ruleset, "
            "round), `pairings` (the wall list, by name and by table), `sheets` (blank Cacho "
            "Alalay score sheets with the players' names) or `slips` (result slips)."
        ),
    )
    def get(self, request: Request, tournament_id: str, kind: str) -> HttpResponse:
        if kind not in printables.KINDS:
            raise NotFound(_("No such printable."))
        sheet = printables.round_sheet(tournament_id, request.query_params.get("round"))
        if kind in ("cards", "slips"):
            links = seat_link_desk.print_rows(sheet.round, request.user, request.build_absolute_uri)
            printables.with_seat_links(sheet, links)
        if kind == "sheets" and not sheet.traits["scoresheet"]:
            raise TournamentError("sheets-alalay-only", _("Score sheets are for Cacho Alalay tables."))
        context = {
            "sheet": sheet,
            "kind": kind,
            "title": printables.titles()[kind],
            "titles": printables.titles(),
            "boxes": printables.alalay_boxes(sheet.traits) if sheet.traits["scoresheet"] else {},
            "rounds": list(sheet.tournament.rounds.order_by("number").values_list("number", flat=True)),
        }
        return render(request._request, f"tournaments/print/{kind}.html", context)
