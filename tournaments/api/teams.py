"""Pairs and teams over HTTP: a member replaced between rounds (`services.substitutions`)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import ERRORS, ApiView, object_id
from tournaments.models import Entry
from tournaments.services.substitutions import substitute


class SubstitutionInput(serializers.Serializer):
    out = serializers.CharField(max_length=64, help_text="The name of the member who leaves.")
    incoming = serializers.JSONField(
        help_text='Who comes in: a guest\'s name, {"name": …}, or {"username": …} of an account.'
    )


class EntrySubstituteView(ApiView):
    @extend_schema(
        operation_id="entry_substitute",
        request=SubstitutionInput,
        responses={200: s.EntrySerializer, **ERRORS},
        description=(
            "Replace a member of a pair or team (`{out, incoming}`) between rounds: the entry's own account "
            "or the desk. Refused while a table of the entry is playing (409 "
            "`substitution-table-playing`). Logged (`member-substituted`)."
        ),
    )
    def post(self, request: Request, entry_id: str) -> Response:
        data = self.valid(SubstitutionInput, request)
        entry = substitute(
            object_id(entry_id, _("No such entry.")), request.user, data["out"], data["incoming"]
        )
        return Response(
            s.EntrySerializer(Entry.objects.prefetch_related("members__user").get(pk=entry.pk)).data
        )
