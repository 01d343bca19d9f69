"""The API's request parsers: DRF's, held to the edges' input policy (cacho.edge.inputs).

JSON bodies are read up to `DATA_UPLOAD_MAX_MEMORY_SIZE` (413 `body-too-large` past it),
nested at most `CACHO_JSON_MAX_DEPTH` deep (400 `json-too-deep`), and hold no NUL nor
non-characters (400 `invalid-text`); form and multipart fields hold text by the same rule.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import exceptions, parsers

from cacho.edge import inputs


class InputRefused(exceptions.APIException):
    """A body refused by the input policy: its code and status come with it."""

    def __init__(self, error: inputs.InputError) -> None:
        super().__init__(error.message)
        self.status_code = error.status
        self.error_code = error.code


def max_body_bytes() -> int:
    limit: int | None = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return limit if limit is not None else 2_621_440


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        limit = max_body_bytes()
        body = stream.read(limit + 1) if stream is not None else b""
        try:
            return inputs.loads(
                body, max_bytes=limit, max_depth=getattr(settings, "CACHO_JSON_MAX_DEPTH", inputs.MAX_DEPTH)
            )
        except inputs.InputError as error:
            if error.code == "malformed-json":  # each API's own code for it (ParseError)
                raise exceptions.ParseError(error.message) from error
            raise InputRefused(error) from error


def _check_fields(data: Any) -> None:
    try:
        for key, values in data.lists():
            inputs.check_text(key, "a field name")
            inputs.check_strings((value for value in values if isinstance(value, str)), key)
    except inputs.InputError as error:
        raise InputRefused(error) from error


class FormParser(parsers.FormParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        _check_fields(data)
        return data


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        parsed = super().parse(stream, media_type, parser_context)
        _check_fields(parsed.data)
        if not parsed.data and not parsed.files and _carries_more_than_its_end(media_type, parser_context):
            # Django skips a part without a field name: such a body would pass for an empty
            # form (a PATCH that changes nothing) instead of being refused.
            raise InputRefused(
                inputs.InputError(
                    "malformed-multipart", _("The multipart body holds a part that is not a named field.")
                )
            )
        return parsed


def _carries_more_than_its_end(media_type: Any, parser_context: Any) -> bool:
    """Whether the body is longer than an empty multipart body (`--boundary--` and a line end)."""
    request = (parser_context or {}).get("request")
    meta = request.META if request is not None else {}
    try:
        length = int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    boundary = ""
    for parameter in str(media_type or meta.get("CONTENT_TYPE", "")).split(";")[1:]:
        name, _sep, value = parameter.strip().partition("=")
        if name.lower() == "boundary":
            boundary = value.strip('"')
    return length > len(boundary) + len("----\r\n")
