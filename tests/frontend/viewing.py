"""Pages opened at the two sizes the issue names, with their console watched, and the data the
replay, tournament and accessibility tests look at (a finished imported match, a finished and a
running tournament, a live table)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model

from cacho.models import Match
from cacho.services import matches
from tests.live.harness import session_cookie
from tests.test_foundation.helpers import Server
from tournaments import services
from tournaments.clubs import members as club_members
from tournaments.models import Tournament

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
RECORDS = Path(__file__).parents[1] / "engine" / "fixtures" / "records"


@dataclass
class Viewed:
    """A page and what its console said: errors and uncaught exceptions alike."""

    page: Any
    errors: list[str] = field(default_factory=list)


@contextmanager
def viewed(
    browser: Any,
    server: Server,
    path: str,
    viewport: dict[str, int],
    *,
    locale: str = "en",
    user: str | None = None,
) -> Iterator[Viewed]:
    context = browser.new_context(locale=locale, viewport=viewport)
    context.add_cookies([{"name": "django_language", "value": locale, "url": server.url}])
    if user is not None:
        name, value = session_cookie(user)["Cookie"].split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": server.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    seen = Viewed(page)
    page.on(
        "console",
        lambda message: (
            message.type == "error"
            and seen.errors.append(f"{message.text} ({message.location.get('url', '')})")
        ),
    )
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    page.goto(server.url + path)
    try:
        yield seen
    finally:
        context.close()


def imported(record_name: str, by: str = "ana") -> Match:
    """A finished match from one of the engine's example records."""
    session_cookie(by)
    record = json.loads((RECORDS / f"{record_name}.json").read_text())
    return matches.import_record(record, created_by=get_user_model().objects.get(username=by), actor="test")


def live_match(seats: tuple[str, ...] = ("ana", "beto")) -> Match:
    match = matches.create_match("dudo", list(seats), turn_seconds=600)
    for index, name in enumerate(seats):
        session_cookie(name)
        matches.take_seat(match.pk, index, get_user_model().objects.get(username=name))
    return match


def tournament(name: str, *, finished: bool) -> Tournament:
    """Eight entries, one Swiss round at two tables of four; finished with scripted results
    (seat 0 wins; 5 dice left at table 1, 3 at table 2) or left running, its tables live."""
    from tests.tournaments.helpers import play_scripted

    session_cookie("dora")
    owner = get_user_model().objects.get(username="dora")
    club = club_members.create_club(f"Club {name}", name.lower().replace(" ", "-"), owner)
    stages = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 1, "table_size": 4}}]
    made = services.create_tournament(club.pk, owner, name=name, ruleset="dudo", stages=stages)
    for entry in ("Ana", "Beto", "Carla", "Dario", "Elena", "Fito", "Gabi", "Hugo"):
        services.register(made.pk, owner, name=entry)
    services.start_tournament(made.pk, owner)
    if finished:
        play_scripted(made)
    made.refresh_from_db()
    return made
