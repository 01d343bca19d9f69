"""Return to my match: the live matches where the caller holds a seat, and who is
connected to each (presence); a match's presence log (when its players' connections came
and went)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from cacho.api.views import CachoView, get_match
from cacho.live.presence_log import changes_of
from cacho.live.reads import presence
from cacho.models import Match
from cacho.services import matches, players

MyMatch = inline_serializer(
    "MyMatch",
    {
        "id": serializers.UUIDField(),
        "ruleset": serializers.CharField(),
        "status": serializers.CharField(),
        "seat": serializers.CharField(),
        "label": serializers.CharField(help_text="The name pages show for the seat (outside the chain)."),
        "to_act": serializers.CharField(allow_blank=True),
        "your_turn": serializers.BooleanField(),
        "deadline": serializers.IntegerField(allow_null=True),
        "presence": serializers.DictField(),
        "socket": serializers.CharField(),
    },
    many=True,
)


class MyMatchesView(CachoView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MyMatch}, summary="My matches, live ones first")
    def get(self, request: Request) -> Response:
        rows: list[dict[str, Any]] = []
        seats = matches.seats_of_user(request.user).select_related("match", "match__summary")
        seats = seats.order_by("-match__created_at")
        listed = list(seats[:50])
        labels = players.labels_by_match(listed)
        for seat in listed:
            match: Match = seat.match
            summary = getattr(match, "summary", None)
            to_act = summary.to_act if summary is not None else ""
            rows.append(
                {
                    "id": str(match.pk),
                    "ruleset": match.ruleset,
                    "status": match.status,
                    "seat": seat.name,
                    "label": labels.get((str(match.pk), seat.name), seat.name),
                    "to_act": to_act,
                    "your_turn": match.status == Match.STATUS_LIVE and to_act == seat.name,
                    "deadline": match.deadline_ms,
                    "presence": presence(str(match.pk)),
                    "socket": f"/ws/matches/{match.pk}/",
                }
            )
        rows.sort(key=lambda row: row["status"] != Match.STATUS_LIVE)
        return Response(rows)


PresenceChangeOut = inline_serializer(
    "PresenceChange",
    {
        "seat": serializers.CharField(),
        "at": serializers.IntegerField(help_text="ms since the epoch, as events' `at`"),
        "change": serializers.ChoiceField(choices=["connected", "disconnected", "reconnected"]),
    },
    many=True,
)


class PresenceLogView(CachoView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: inline_serializer("PresenceLog", {"changes": PresenceChangeOut})},
        summary="When each seated player connected, disconnected and reconnected",
    )
    def get(self, request: Request, match_id: str) -> Response:
        """Public, as the live presence is: seat names and times, never a die."""
        match = get_match(match_id)
        return Response({"changes": changes_of(match.pk)})
