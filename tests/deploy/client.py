"""A browser-like HTTP client for the topology's tests: cookies, Django's CSRF token and
the Referer and Origin an HTTPS form post carries, over TLS trusting the run's certificate."""

from __future__ import annotations

import http.cookiejar
import json
import ssl
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any


@dataclass
class Reply:
    status: int
    body: bytes
    headers: dict[str, str]

    def json(self) -> Any:
        return json.loads(self.body)


class Browser:
    def __init__(self, base: str, context: ssl.SSLContext) -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies),
            urllib.request.HTTPSHandler(context=context),
            _NoRedirect(),
        )

    def cookie(self, name: str) -> http.cookiejar.Cookie | None:
        return next((cookie for cookie in self.cookies if cookie.name == name), None)

    def header(self) -> str:
        """The Cookie header a websocket of this browser sends."""
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.cookies)

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> Reply:
        url = self.base + path
        headers = {"Accept-Language": "en", **(headers or {})}
        if method != "GET":
            token = self.cookie("csrftoken")
            headers.update(Origin=self.base, Referer=url)
            if token is not None:
                headers["X-CSRFToken"] = token.value
        request = urllib.request.Request(url, data=body, method=method, headers=headers)
        try:
            with self.opener.open(request, timeout=20) as response:
                return Reply(response.status, response.read(), dict(response.headers))
        except urllib.error.HTTPError as error:
            return Reply(error.code, error.read(), dict(error.headers))

    def get(self, path: str, **headers: str) -> Reply:
        return self.request("GET", path, headers=headers)

    def post_form(self, path: str, fields: dict[str, str]) -> Reply:
        token = self.cookie("csrftoken")
        data = {**fields, "csrfmiddlewaretoken": token.value if token else ""}
        return self.request(
            "POST",
            path,
            urllib.parse.urlencode(data).encode(),
            {"Content-Type": "application/x-www-form-urlencoded"},
        )

    def post_json(self, path: str, body: Any) -> Reply:
        return self.request("POST", path, json.dumps(body).encode(), {"Content-Type": "application/json"})


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer the test looks at (the sign-up's 302), not followed."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None
