"""What every view of the tournaments API shares: its errors and its reading of a body.

Errors are `{"code": stable_code, "message": text}` (and `field`, the one to change, where
one is to blame): the write path's `TournamentError` (400/403/404/409), DRF validation (400
`invalid-input`), authentication (401/403); never a 500 on bad input. A body is read by
`valid()`, which refuses a field the endpoint does not know (400 `unknown-field`): a
misspelt field would otherwise change nothing and answer 200. For the same reason a form
or multipart body may not give an object field as one plain value (400 `invalid-input`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, permissions, serializers, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cacho.api import errors as api_errors
from cacho.edge.inputs import plain_digits
from tournaments.api.serializers import ErrorSerializer
from tournaments.errors import NotFound, TournamentError

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Bad input: {code, message}"),
    403: OpenApiResponse(ErrorSerializer, description="Not allowed for your role"),
    404: OpenApiResponse(ErrorSerializer, description="Not found"),
}


def _error(code: str, message: str, status_code: int, **extra: Any) -> Response:
    return Response({"code": code, "message": message, **extra}, status=status_code)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, TournamentError):
        return _error(exc.code, exc.message, exc.status, **({"field": exc.field} if exc.field else {}))
    if isinstance(exc, exceptions.ValidationError):
        return _error("invalid-input", _("The request is not valid."), 400, fields=exc.detail)
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        return _error("not-authenticated", str(exc.detail), exc.status_code)
    if isinstance(exc, exceptions.PermissionDenied):
        return _error("forbidden", str(exc.detail), 403)
    if isinstance(exc, exceptions.NotFound):
        return _error("not-found", str(exc.detail), 404)
    if isinstance(exc, exceptions.MethodNotAllowed):
        return _error("method-not-allowed", str(exc.detail), 405)
    if isinstance(exc, exceptions.ParseError | exceptions.UnsupportedMediaType):
        return _error("malformed-request", str(exc.detail), exc.status_code)
    # Refused input (cacho.api.parsers), throttles, and every other DRF error: the codes
    # the whole API shares.
    return api_errors.generic(exc)


def refuse_unknown(request: Request, known: Collection[str]) -> None:
    """400 `unknown-field` for a body field outside `known` (a body that is no object is
    the serializer's to refuse)."""
    data = request.data
    if not hasattr(data, "keys"):
        return
    unknown = sorted(set(data.keys()) - set(known))
    if unknown:
        raise TournamentError("unknown-field", _("Unknown field(s): %s") % ", ".join(unknown))


def refuse_flat_structures(request: Request, serializer: serializers.Serializer) -> None:
    """400 `invalid-input` for a form or multipart body that gives an object or list of
    objects field as one plain value: DRF reads such a field from `name.key` (or
    `name[0]key`) fields only, and would take `choices={"k": false}` for an empty object,
    a request that breaks the schema yet answers 200 without the change asked for."""
    data = request.data
    if not hasattr(data, "getlist"):  # a JSON body: the serializer sees its structure
        return
    flat = sorted(
        name
        for name, field in serializer.fields.items()
        if name in data and not field.read_only and _reads_a_structure(field)
    )
    if flat:
        raise exceptions.ValidationError(
            {name: [_("An object is expected here: send the body as JSON.")] for name in flat}
        )


def _reads_a_structure(field: serializers.Field) -> bool:
    if isinstance(field, serializers.DictField | serializers.BaseSerializer):
        return True
    return isinstance(field, serializers.ListField) and _reads_a_structure(field.child)


def writable_fields(serializer: type[serializers.Serializer]) -> set[str]:
    return {name for name, field in serializer().fields.items() if not field.read_only}


# The tournaments API's errors and body reading, for its views and its viewsets. (Comments,
# not docstrings, on these bases: drf-spectacular would show a docstring as the description
# of every endpoint that has none of its own.)
class ApiErrors:
    def get_exception_handler(self) -> Any:
        return exception_handler

    @staticmethod
    def valid(
        serializer: type[serializers.Serializer], request: Request, *, partial: bool = False
    ) -> dict[str, Any]:
        """The body as `serializer` validates it; a field it does not write is refused first,
        so nothing is stored."""
        refuse_unknown(request, writable_fields(serializer))
        data = serializer(data=request.data, partial=partial)
        refuse_flat_structures(request, data)
        data.is_valid(raise_exception=True)
        return dict(data.validated_data)


# Every view of the tournaments API. Reading is public and writing needs an account unless
# a view says otherwise (the project's default permission).
class ApiView(ApiErrors, APIView):
    pass


# The tournaments API's viewsets (clubs, tournaments, entries).
class ApiViewSet(ApiErrors, viewsets.GenericViewSet):
    pass


# A view whose every method, reading too, is for a signed-in account.
class SignedInView(ApiView):
    permission_classes = [permissions.IsAuthenticated]


def object_id(value: Any, what: str = "") -> int:
    """A path's id as a number; anything else is nothing here (404, `what` its message)."""
    if not plain_digits(value):
        raise NotFound(what or _("Not found."))
    return int(value)
