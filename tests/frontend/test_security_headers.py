"""The Content Security Policy in a real browser: every page of the site, the API reference
and the admin load without one violation (no inline script, no inline style attribute or
event handler), and each response carries the policy, frame-ancestors and Referrer-Policy."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from cacho.services import matches
from tests.frontend.conftest import shot
from tests.live.harness import session_cookie
from tournaments import services
from tournaments.clubs import members as club_members

pytestmark = [pytest.mark.slow]

LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def visit(open_page: Any, path: str, user: str | None = None) -> tuple[Any, list[str], dict[str, str]]:
    """The page at `path` (as `user`), what it violated, and its response's headers. (The servers
    of these tests run with DEBUG, whose error pages are Django's own, inline by design: the
    policy leaves them alone, and the site's error pages load only files.)"""
    page = open_page(
        "/static/frontend/cacho.css", user
    )  # on the site first: the listener is set for the next
    page.add_init_script(LISTEN)
    console: list[str] = []
    page.on(
        "console", lambda message: console.append(message.text) if "Security Policy" in message.text else None
    )
    response = page.goto(page.url.split("/static/", 1)[0] + path)
    page.wait_for_load_state("networkidle")
    violations = list(page.evaluate("window.__violations")) + console
    return page, violations, dict(response.headers) if response else {}


def test_no_page_logs_a_csp_violation(open_page: Any) -> None:
    session_cookie("olga", staff=True)
    users = get_user_model().objects
    olga = users.get(username="olga")
    olga.is_superuser = True
    olga.save(update_fields=["is_superuser"])
    club = club_members.create_club("Club CSP", "csp", olga)
    tournament = services.create_tournament(club.pk, olga, name="Copa CSP", ruleset="dudo")
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    session_cookie("ana")
    matches.take_seat(match.pk, 0, users.get(username="ana"))
    pages = [
        ("/", None),
        ("/clubs/", None),
        (f"/clubs/{club.pk}/", None),
        (f"/tournaments/{tournament.pk}/", None),
        (f"/matches/{match.pk}/", "ana"),
        (f"/matches/{match.pk}/", None),
        (f"/matches/{match.pk}/replay", None),
        ("/organise/", "olga"),
        ("/scorekeeper/", "olga"),
        ("/disputes/", "olga"),
        ("/disputes/1/", "olga"),
        ("/me/", "ana"),
        ("/players/ana/", None),
        ("/signup/", None),
        ("/login/", None),
        (f"/api/tournaments/{tournament.pk}/standings/print", None),
        ("/api/docs/", None),
        ("/api/redoc/", None),
        ("/admin/", "olga"),
        ("/admin/tournaments/tournament/", "olga"),
    ]
    found: dict[str, list[str]] = {}
    for path, user in pages:
        page, violations, headers = visit(open_page, path, user)
        name = path.strip("/").replace("/", "-") or "home"
        if not path.startswith("/api/"):  # (the API reference pages are too long to shoot whole)
            shot(page, f"csp-{name}-{user or 'anonymous'}")
        if violations:
            found[f"{path} as {user}"] = violations
        policy = headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, (path, headers)
        assert "unsafe-inline" not in policy.split("script-src", 1)[1].split(";")[0], path
        assert headers.get("referrer-policy") == "same-origin" and headers.get("x-frame-options") == "DENY"
        if not path.startswith("/api/"):
            assert "'unsafe-inline'" not in policy, path
    assert not found, found
