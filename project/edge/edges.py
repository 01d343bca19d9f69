"""The HTTP edge: what every request meets before a view, and what every API error looks like.

`EdgeMiddleware`:
- a path or query string holding a NUL or a non-character (cacho.edge.inputs) is refused
  before any view reads it (400 `invalid-text`);
- an `/api/` body announced larger than `DATA_UPLOAD_MAX_MEMORY_SIZE` is refused unread
  (413 `body-too-large`);
- under `/api/` every error is JSON `{code, message}`: an exception no view handled is a
  logged 500 `server-error` (whatever DEBUG says), and an error page that Django made
  (the URL resolver's 404, a CSRF 403, a 400 for a suspicious request) is replaced by its
  JSON. Pages outside `/api/` keep the site's error pages; `SiteNotFoundMiddleware`
  answers the site's 404 page there even in DEBUG (Django would show its technical one).

`SecurityHeadersMiddleware`, outside the edge so that its own answers carry them too, sends
the Content Security Policy of `CACHO_CSP` (one setting for every page: no inline script,
no inline style attribute or event handler) and `Permissions-Policy`; Django's own
middleware sends Referrer-Policy and X-Frame-Options.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.defaults import page_not_found

from cacho.edge import inputs

logger = logging.getLogger("django.request")

API_PREFIX = "/api/"


def _messages() -> dict[int, tuple[str, str]]:
    return {
        400: ("bad-request", _("The request is not valid.")),
        401: ("not-authenticated", _("Log in first.")),
        403: ("forbidden", _("You may not do that.")),
        404: ("not-found", _("Not found.")),
        405: ("method-not-allowed", _("This method is not allowed here.")),
        409: ("conflict", _("The request conflicts with what is stored.")),
        413: ("body-too-large", _("The request body is too large.")),
        415: ("unsupported-media-type", _("Send JSON.")),
        429: ("rate-limited", _("Too many requests: try again shortly.")),
        500: ("server-error", _("Something failed on the server: try again.")),
    }


def api_error(status: int, code: str | None = None, message: str | None = None) -> JsonResponse:
    default_code, default_message = _messages().get(status, (f"http-{status}", _("The request failed.")))
    return JsonResponse({"code": code or default_code, "message": message or default_message}, status=status)


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


class EdgeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refused = self.refuse(request)
        if refused is not None:
            return refused
        response = self.get_response(request)
        if is_api(request) and response.status_code >= 400 and not _is_json(response):
            return api_error(response.status_code)
        return response

    def refuse(self, request: HttpRequest) -> HttpResponse | None:
        try:
            inputs.check_text(request.path_info, "the path")
            for key, values in request.GET.lists():
                inputs.check_strings([key, *values], "the query")
        except inputs.InputError as error:
            if is_api(request):
                return api_error(400, error.code, error.message)
            return HttpResponse(error.message, status=400, content_type="text/plain; charset=utf-8")
        if is_api(request):
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                return api_error(400, "bad-request", "Content-Length is not a number")
            if limit is not None and length > limit:
                return api_error(413, "body-too-large", _("The request body is at most %d bytes.") % limit)
        return None

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_api(request):
            return None
        if isinstance(exception, Http404):
            return api_error(404)
        if isinstance(exception, PermissionDenied):
            return api_error(403)
        if isinstance(exception, BadRequest | SuspiciousOperation):
            return None  # Django's 400 (and its security log), made JSON on the way out
        logger.error("Internal Server Error: %s", request.path, exc_info=exception)
        return api_error(500)


class SiteNotFoundMiddleware:
    """The site's own 404 page outside `/api/` in DEBUG too: DEBUG (every `make run`) would
    show Django's technical page to the newcomer who mistyped a link. The innermost
    middleware, so that the page passes out through every other one (their headers)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 404 and settings.DEBUG and not is_api(request) and _is_html(response):
            return page_not_found(request, Http404())
        return response


def _is_html(response: HttpResponse) -> bool:
    return str(response.get("Content-Type", "")).startswith("text/html")


def _is_json(response: HttpResponse) -> bool:
    return str(response.get("Content-Type", "")).startswith("application/json")


def csp_header(policy: dict[str, list[str]]) -> str:
    return "; ".join(f"{name} {' '.join(values)}".strip() for name, values in policy.items())


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy = csp_header(settings.CACHO_CSP)
        # Pages of other projects' code that write inline styles (the API reference): the
        # same policy, with what they add (CACHO_CSP_EXTRA, by path prefix).
        self.extra = [
            (prefix, csp_header({**settings.CACHO_CSP, **extra}))
            for prefix, extra in getattr(settings, "CACHO_CSP_EXTRA", {}).items()
        ]
        self.permissions = settings.CACHO_PERMISSIONS_POLICY

    def __call__(self, request: HttpRequest) -> Any:
        response = self.get_response(request)
        if (
            settings.DEBUG
            and response.status_code >= 400
            and response.status_code != 404  # the edge answers the site's own 404 page
            and "text/html" in response.get("Content-Type", "")
        ):
            return response  # Django's technical error pages (DEBUG only) are inline by design
        policy = next((text for prefix, text in self.extra if request.path.startswith(prefix)), self.policy)
        response.headers.setdefault("Content-Security-Policy", policy)
        # What the edge answers itself never reaches Django's clickjacking middleware.
        response.headers.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS)
        if self.permissions:
            response.headers.setdefault("Permissions-Policy", self.permissions)
        return response
