"""`GET /api/me/export`: the signed-in player's own data (tournaments.leaving.export);
`POST /api/me/delete`: deleting the account (tournaments.leaving.deletion)."""

from __future__ import annotations

from django.contrib.auth import logout
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import ERRORS, SignedInView
from tournaments.api.serializers import ErrorSerializer
from tournaments.leaving.deletion import delete_account
from tournaments.leaving.export import export


class MyDataExportView(SignedInView):
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


class DeleteInput(serializers.Serializer):
    password = serializers.CharField(max_length=4096, trim_whitespace=False)


class DeletedSerializer(serializers.Serializer):
    deleted_player = serializers.IntegerField(help_text='Shown from now on as "deleted player N".')


class MyAccountDeletionView(SignedInView):
    @extend_schema(
        operation_id="me_delete",
        request=DeleteInput,
        responses={200: DeletedSerializer, **ERRORS, 409: ERRORS[400]},
        description=(
            "Delete your account, your password confirmed. Your personal data is erased and "
            'your seats, entries and ratings are shown as "deleted player N" from then on; no '
            "match or tournament event changes. Refusals (nothing changed): `password-wrong` "
            "(403), `account-deleted` (409), `seat-in-play` (409: a table you sit at is still "
            "played), `entry-in-play` (409: withdraw from the tournament first), `rate-limited` (429)."
        ),
    )
    def post(self, request: Request) -> Response:
        data = self.valid(DeleteInput, request)
        number = delete_account(request.user, data["password"])
        logout(request._request)
        return Response({"deleted_player": number})
