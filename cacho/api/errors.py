"""Every error of the match API as `{"code": stable-kebab-code, "message": text, ...}`.

Rule errors keep the engine's code (400), version conflicts are 409 with the current
version, missing things 404, forbidden ones 403; bad input is always a 400, never a 500.
Also the project's DRF `EXCEPTION_HANDLER`, and the end of the tournaments API's: input
refused by the edges' policy (cacho.api.parsers: 400/413 with its code), 405
`method-not-allowed`, 415 `unsupported-media-type`, 429 `rate-limited` with
`retry_after` (seconds) and a `Retry-After` header.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response

from cacho.api.parsers import InputRefused
from cacho.engine.errors import RecordFormatError, RuleError
from cacho.services.matches import CommandIdReused, MatchNotFound, VersionConflict


class ApiError(exceptions.APIException):
    """An error with its own code, raised by the views."""

    def __init__(self, status_code: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.error_code = code
        self.extra = extra


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, **extra}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, InputRefused):
        return Response(error_body(exc.error_code, str(exc.detail)), status=exc.status_code)
    if isinstance(exc, exceptions.Throttled):
        return throttled(exc)
    if isinstance(exc, ApiError):
        return Response(error_body(exc.error_code, str(exc.detail), **exc.extra), status=exc.status_code)
    if isinstance(exc, RuleError):
        return Response(error_body(exc.code, exc.message), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RecordFormatError):
        return Response(error_body(exc.code, exc.message), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, CommandIdReused):
        return Response(
            error_body(
                "command-id-reused",
                _("This command id was already used for another command: send a new one."),
                current_version=exc.current_version,
            ),
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, VersionConflict):
        return Response(
            error_body(
                "version-conflict",
                _("The match moved on: reload and try again."),
                current_version=exc.current_version,
            ),
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, MatchNotFound | Http404 | exceptions.NotFound):
        return Response(error_body("not-found", _("No such match.")), status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, exceptions.ParseError):
        return Response(error_body("malformed-json", _("The request body is not valid JSON.")), status=400)
    if isinstance(exc, exceptions.ValidationError):
        return Response(
            error_body("invalid-request", _("The request is not valid."), errors=exc.detail), status=400
        )
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        return Response(
            error_body("not-authenticated", _("Log in first.")),
            status=exc.status_code,
            headers=_auth_headers(exc),
        )
    if isinstance(exc, exceptions.PermissionDenied | DjangoPermissionDenied):
        return Response(error_body("forbidden", _("You may not do that.")), status=status.HTTP_403_FORBIDDEN)
    return generic(exc)


def generic(exc: Exception) -> Response | None:
    """The DRF errors every API view shares (the views' own handlers end here)."""
    if isinstance(exc, InputRefused):
        return Response(error_body(exc.error_code, str(exc.detail)), status=exc.status_code)
    if isinstance(exc, exceptions.Throttled):
        return throttled(exc)
    if isinstance(exc, exceptions.MethodNotAllowed):
        return Response(error_body("method-not-allowed", str(exc.detail)), status=405)
    if isinstance(exc, Http404):
        return Response(error_body("not-found", _("Not found.")), status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, DjangoPermissionDenied):
        return Response(error_body("forbidden", _("You may not do that.")), status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return Response(error_body("unsupported-media-type", str(exc.detail)), status=415)
    if isinstance(exc, exceptions.APIException):
        code = str(exc.default_code).replace("_", "-")
        return Response(error_body(code, str(exc.detail)), status=exc.status_code)
    return None


def throttled(exc: exceptions.Throttled) -> Response:
    wait = max(1, round(exc.wait)) if exc.wait is not None else 1
    return Response(
        error_body("rate-limited", _("Too many requests: try again shortly."), retry_after=wait),
        status=status.HTTP_429_TOO_MANY_REQUESTS,
        headers={"Retry-After": str(wait)},
    )


def _auth_headers(exc: exceptions.APIException) -> dict[str, str]:
    header = getattr(exc, "auth_header", None)
    return {"WWW-Authenticate": header} if header else {}
