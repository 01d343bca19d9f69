"""`GET /api/me/export`: the signed-in player's own data (tournaments.leaving.export)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import ErrorSerializer
from tournaments.api.views import exception_handler
from tournaments.leaving.export import export


class MyDataExportView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def get_exception_handler(self) -> Any:
        return exception_handler

    @extend_schema(
        operation_id="me_export",
        responses={
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="`cacho-player-export/1`"),
            401: OpenApiResponse(ErrorSerializer, description="Not signed in"),
            403: OpenApiResponse(ErrorSerializer, description="Not signed in"),
        },
        description=(
            "Your data as one JSON document (`format: cacho-player-export/1`): profile, club "
            "memberships, tournament entries, matches (a finished match's events as your seat saw "
            "them: your own dice, and the others' only as the table revealed them; a match still "
            "played without its events), ratings and their changes, notices and their settings. "
            "Served as a download."
        ),
    )
    def get(self, request: Request) -> Response:
        response = Response(export(request.user))
        response["Content-Disposition"] = 'attachment; filename="cacho-my-data.json"'
        return response
