"""The API of seat links (`tournaments.services.seat_links`): a walk-in takes its seat from
its link's token; the director reads a table's links and re-issues one. Thin views;
errors `{code, message}`."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from cacho.edge.inputs import plain_digits
from tournaments.api.base import ERRORS, ApiView
from tournaments.clubs.roles import DESK, require_role
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Table
from tournaments.services import seat_link_desk, seat_links


class SeatLinkClaimInput(serializers.Serializer):
    token = serializers.CharField(max_length=64, help_text="The token of the seat link (`/seat/<token>/`).")


class SeatLinkClaimedSerializer(serializers.Serializer):
    match = serializers.CharField()
    seat = serializers.CharField(help_text="The seat's name in the match.")
    entry = serializers.IntegerField()
    name = serializers.CharField()
    tournament = serializers.IntegerField()
    table = serializers.IntegerField(help_text="The table's number in its round.")
    match_url = serializers.CharField()


class SeatLinkSerializer(serializers.Serializer):
    link = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    seat = serializers.IntegerField(help_text="From 1, as the table card numbers the seats.")
    status = serializers.ChoiceField(choices=["waiting", "claimed"])
    url = serializers.CharField()
    qr_url = serializers.CharField(help_text="The link as a QR code (SVG).")


def _address(request: Request) -> str:
    return f"addr:{request.META.get('REMOTE_ADDR') or 'unknown'}"


class SeatLinkClaimView(ApiView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []  # the session is the seat: no account, no CSRF token

    @extend_schema(
        operation_id="seat_link_claim",
        request=SeatLinkClaimInput,
        responses={200: SeatLinkClaimedSerializer, **ERRORS},
        description=(
            "Take a guest's seat from its link: this browser's session then plays that seat "
            "of that match, and only it. Refusals: `seat-link-invalid` (404), `seat-link-used` "
            "(409), `seat-link-revoked` (410), `seat-link-closed` (410: the table is no longer "
            "online or in play), `seat-held` (409: an account holds the seat), `rate-limited` "
            "(429: too many failed links from this address). A refusal stores nothing."
        ),
    )
    def post(self, request: Request) -> Response:
        address = _address(request)
        seat_links.check_rate(address)
        data = self.valid(SeatLinkClaimInput, request)
        try:
            claimed = seat_links.claim(data["token"], request._request.session)
        except TournamentError as error:
            if error.code == "seat-link-invalid":
                seat_links.count_failure(address)
            raise
        body = {
            "match": claimed.match_id,
            "seat": claimed.seat,
            "entry": claimed.entry,
            "name": claimed.name,
            "tournament": claimed.tournament,
            "table": claimed.table,
            "match_url": f"/matches/{claimed.match_id}/",
        }
        return Response(SeatLinkClaimedSerializer(body).data)


def _table(table_id: str) -> Table:
    table = None
    if plain_digits(table_id):
        table = Table.objects.select_related("round__tournament").filter(pk=int(table_id)).first()
    if table is None:
        raise NotFound(_("No such table."))
    return table


class TableSeatLinksView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="table_seat_links",
        responses={200: SeatLinkSerializer(many=True), **ERRORS},
        description=(
            "The seat links of the table's guest seats (organisers and referees): each with its "
            "full `url`, its QR code's `qr_url` and `status` (waiting or claimed)."
        ),
    )
    def get(self, request: Request, table_id: str) -> Response:
        table = _table(table_id)
        require_role(request.user, table.round.tournament.club_id, DESK)
        rows = seat_link_desk.seat_link_rows([table], request.build_absolute_uri).get(table.pk, [])
        return Response(SeatLinkSerializer([r.as_dict() for r in rows], many=True).data)


class SeatLinkReissueView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="seat_link_reissue",
        request=None,
        responses={201: SeatLinkSerializer, **ERRORS},
        description=(
            "Revoke the seat's link (claimed or not: a browser that took the seat holds it no "
            "more) and issue a new one (organisers and referees). The tournament log records "
            "`seat-link-revoked` and `seat-link-issued`, never a token. `seat-link-none`: the "
            "seat is not a guest's at an online table in play."
        ),
    )
    def post(self, request: Request, table_id: str, entry_id: str) -> Response:
        link = seat_link_desk.reissue(table_id, entry_id, request.user)
        table = _table(table_id)
        rows = seat_link_desk.seat_link_rows([table], request.build_absolute_uri).get(table.pk, [])
        row = next(r for r in rows if r.link == link.pk)
        return Response(SeatLinkSerializer(row.as_dict()).data, status=status.HTTP_201_CREATED)
