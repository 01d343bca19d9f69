"""axe-core (from the npm registry, installed by deploy/dev/test.sh into .venv/node) run in
Chromium on every page a player or spectator meets, at 1280 × 800 and 390 × 844: no violation
of impact "serious" or "critical", and no console error. Every finding, minor ones included,
is written to tests/frontend/artifacts/axe-<page>-<size>.json for the record."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests import needs
from tests.frontend.conftest import ARTIFACTS, shot
from tests.frontend.viewing import VIEWPORTS, imported, live_match, tournament, viewed
from tests.live.harness import session_cookie
from tests.test_foundation.helpers import Server

pytestmark = [pytest.mark.slow]

AXE = Path(__file__).parents[2] / ".venv" / "node" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}


@dataclass(frozen=True)
class Screen:
    """A page to check: how to make its data (returns the path), and what says it has loaded."""

    build: Callable[[], str]
    ready: str | None = None
    user: str | None = None
    prepare: Callable[[Any], None] | None = None  # brings the page to its busiest state


def _replay_at_a_reveal(page: Any) -> None:
    """The last step (a resolution: revealed dice, counted ones, rule terms) and the glossary open."""
    page.click("#r-last")
    page.click("#r-glossary-box summary")
    page.wait_for_selector("#r-step [data-revealed]")


def _table() -> str:
    return f"/matches/{live_match().pk}/"


def _replay() -> str:
    return f"/matches/{imported('cacho-chileno-full-match-paso-and-obligado').pk}/replay"


def _tournament() -> str:
    return f"/tournaments/{tournament('Copa accesible', finished=True).pk}/"


def _lobby() -> str:
    tournament("Copa del lobby", finished=False)  # something live to list
    return "/"


def _profile() -> str:
    imported("dudo-full-match-three-players", by="ana")
    session_cookie("ana")
    return "/players/ana/"


def _scorekeeper() -> str:
    """A physical table's scorekeeper screen, one round in: the outcome steps all open."""
    from tests.frontend.test_scorekeeper import _evening

    _, table = _evening(
        "dudo",
        [{"name": "s", "format": "swiss", "params": {"rounds": 1, "table_size": 3}}],
        ("Ana", "Beto", "Caro"),
    )
    return f"/scorekeeper/tables/{table.pk}/"


def _scorekeeper_busy(page: Any) -> None:
    page.click("#sk-calls [data-call=dudo]")
    page.click("#sk-callers button >> nth=0")
    page.click("#sk-results button >> nth=0")
    page.wait_for_selector("#sk-confirm-entry")


SCREENS = {
    "lobby": Screen(_lobby),
    "table": Screen(_table, "#match[data-version]", user="ana"),
    "replay": Screen(_replay, "#replay[data-loaded]", prepare=_replay_at_a_reveal),
    "tournament": Screen(_tournament, "#tournament[data-loaded]"),
    "profile": Screen(_profile),
    "scorekeeper": Screen(_scorekeeper, "#sk[data-loaded='1']", user="sam", prepare=_scorekeeper_busy),
}
PAGES = list(SCREENS)


def _axe(page: Any) -> list[dict[str, Any]]:
    # Evaluated through the browser's debugging protocol, which the pages' Content Security
    # Policy does not govern: a <script> tag with the library inline would be refused.
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    result = page.evaluate(
        "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
    )
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [{"target": n["target"], "summary": n.get("failureSummary", "")} for n in v["nodes"]],
        }
        for v in result
    ]


def axe_clean(page: Any, name: str) -> None:
    """axe on the page as it is now: its findings saved beside the screenshots, and no
    serious or critical one (a journey's own pages; the missing library is reported here)."""
    if not AXE.exists():
        return
    violations = _axe(page)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-{name}.json").write_text(json.dumps(violations, indent=2))
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    assert not blocking, _readable({name: blocking})


def _readable(found: dict[str, list[dict[str, Any]]]) -> str:
    lines = []
    for size, violations in found.items():
        for v in violations:
            targets = "; ".join(" ".join(n["target"]) for n in v["nodes"][:5])
            lines.append(f"[{size}] {v['impact']} {v['id']}: {v['help']} — {targets}")
    return "\n".join(lines)


@pytest.mark.parametrize("name", PAGES)
def test_no_serious_accessibility_violation_nor_console_error(
    browser: Any, server: Server, name: str
) -> None:
    if not AXE.exists():
        needs.missing(f"axe-core is not installed at {AXE} (deploy/dev/test.sh installs it with npm)")
    screen = SCREENS[name]
    path = screen.build()
    blocking: dict[str, list[dict[str, Any]]] = {}
    errors: dict[str, list[str]] = {}
    for size, viewport in VIEWPORTS.items():
        with viewed(browser, server, path, viewport, user=screen.user) as seen:
            response = seen.page.wait_for_load_state("networkidle")
            assert response is None and seen.page.url.startswith(server.url)
            if screen.ready:
                seen.page.wait_for_selector(screen.ready)
            if screen.prepare:
                screen.prepare(seen.page)
            status = seen.page.evaluate("performance.getEntriesByType('navigation')[0].responseStatus")
            assert status == 200, f"{path} answered {status}"
            violations = _axe(seen.page)
            ARTIFACTS.mkdir(exist_ok=True)
            (ARTIFACTS / f"axe-{name}-{size}.json").write_text(json.dumps(violations, indent=2))
            shot(seen.page, f"axe-{name}-{size}")
            blocking[size] = [v for v in violations if v["impact"] in BLOCKING]
            errors[size] = list(seen.errors)
    assert not any(blocking.values()), f"{path}:\n{_readable(blocking)}"
    assert not any(errors.values()), f"console errors on {path}: {errors}"


# A page whose sections JS fills, with the request that fills them held: (the page, its
# user, the request held).
LOADING = {
    "table": (_table, "ana", "**/api/matches/*/events*"),  # the game log's events
    "scorekeeper": (_scorekeeper, "sam", "**/api/tables/*/sheet"),  # the sheet
}


@pytest.mark.parametrize("name", list(LOADING))
def test_a_page_still_loading_names_every_section(browser: Any, server: Server, name: str) -> None:
    """A section named by a heading that JS draws (the game log's, the scorekeeper's
    sheet) has it, or is hidden, before its data arrives: axe finds nothing serious while
    the request that brings the data is held."""
    if not AXE.exists():
        needs.missing(f"axe-core is not installed at {AXE} (deploy/dev/test.sh installs it with npm)")
    build, user, held_request = LOADING[name]
    path = build()
    context = browser.new_context(locale="en", viewport=VIEWPORTS["phone"])
    try:
        cookie, value = session_cookie(user)["Cookie"].split("=", 1)
        context.add_cookies([{"name": cookie, "value": value, "url": server.url}])
        context.route(held_request, lambda route: None)  # neither answered nor let through
        page = context.new_page()
        page.set_default_timeout(10_000)
        with page.expect_request(held_request) as asked:
            page.goto(server.url + path)
        page.wait_for_load_state("load")
        assert asked.value.url.startswith(server.url)  # asked for, and held unanswered
        blocking = [v for v in _axe(page) if v["impact"] in BLOCKING]
        assert not blocking, _readable({f"{name}, loading": blocking})
    finally:
        context.close()
