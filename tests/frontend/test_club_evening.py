"""A club evening run from the browser, as a new organiser would: sign up, create a club, add
a referee and a scorekeeper by username (and invite an email), paste 13 guest names into an
Alalay event and into a Dudo Swiss at tables of 4 to 6, start both, print the table cards,
start the round clock (seen on the tournament page and at a table), withdraw a player and
reinstate them, and add a late entry who joins round 2 of the Swiss. Round 1 is finished
through the services (a physical table's scorekeeper is another screen's work).

Every main screen is kept at 1280 × 800 and 390 × 844 under tests/frontend/artifacts/, and
no page logs a console error."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.frontend.conftest import shot
from tests.frontend.viewing import DESKTOP, PHONE
from tests.test_foundation.helpers import Server
from tests.tournaments.helpers import finish_round
from tournaments.clubs import members as club_members
from tournaments.models import Club, ClubEvent, ClubInvitation, Entry, Membership, Table, Tournament

pytestmark = [pytest.mark.slow]

NAMES = [
    "Ana Quispe",
    "Beto Mamani",
    "Carla Rojas",
    "Dario Flores",
    "Elena Choque",
    "Fito Vargas",
    "Gabi Condori",
    "Hugo Mendoza",
    "Inés Gutiérrez",
    "Juan Apaza",
    "Kati Limachi",
    "Lucho Torrez",
    "Maya Ticona",
]


class Watched:
    """A browser context whose pages have their console watched (errors and exceptions)."""

    def __init__(self, browser: Any, server: Server, locale: str = "en") -> None:
        self.server = server
        self.context = browser.new_context(locale=locale, viewport=DESKTOP)
        self.context.add_cookies([{"name": "django_language", "value": locale, "url": server.url}])
        self.errors: list[str] = []
        self.context.on("page", self.watch)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)

    def watch(self, page: Any) -> None:
        page.on(
            "console",
            lambda m: m.type == "error" and self.errors.append(f"{m.text} ({m.location.get('url', '')})"),
        )
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))

    def go(self, path: str) -> Any:
        self.page.goto(self.server.url + path)
        return self.page


@pytest.fixture
def evening(browser: Any, server: Server) -> Iterator[Watched]:
    watched = Watched(browser, server)
    yield watched
    watched.context.close()


def both_sizes(page: Any, name: str) -> None:
    """The screen as it is now, at 1280 × 800 and at 390 × 844 (then back to the desktop)."""
    shot(page, f"evening-{name}-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(50)  # the layout reflows; nothing is waited for but a frame
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    shot(page, f"evening-{name}-phone")
    page.set_viewport_size(DESKTOP)
    assert overflow <= 1, f"{name}: the page is wider than a phone ({overflow}px)"


def paste_names(page: Any, count: int) -> None:
    page.wait_for_selector("#desk[data-ready]")
    page.fill("#d-names", "\n".join(NAMES) + "\n\n" + NAMES[0] + "\n")
    page.click("#d-paste-submit")
    page.wait_for_selector(f'#d-paste-result [data-registered="{count}"]')
    refusal = page.locator("#d-paste-result li[data-line]")
    assert refusal.count() == 1 and refusal.get_attribute("data-code") == "entry-name-duplicate"
    expect(page.locator("#d-entries tbody tr")).to_have_count(count)


def create_tournament(evening: Watched, name: str, ruleset: str, stage: dict[str, str]) -> int:
    page = evening.go("/organise/")
    page.wait_for_selector("#create[data-ready]")
    page.wait_for_selector("#c-club option", state="attached")
    page.fill("#c-name", name)
    page.select_option("#c-ruleset", ruleset)
    page.select_option("#s-0-format", stage.pop("format"))
    for field, value in stage.items():
        page.fill(f"#s-0-{field}", value)
    assert not page.is_checked("#c-physical")  # the physical tables' own branch adds the field
    page.fill("#c-turn", "600")
    page.click("#c-submit")
    page.wait_for_selector("#manage[data-ready][data-status='registration']")
    return int(page.get_attribute("#manage", "data-tournament"))


def test_a_club_evening_from_sign_up_to_round_two(evening: Watched) -> None:
    users = get_user_model().objects
    for username in ("rita", "santi"):
        users.create_user(username, password="a-long-pass-phrase-7")

    # ------------------------------------------------------------ a new user signs up
    page = evening.go("/signup/")
    page.fill("#id_username", "dora")
    page.fill("#id_email", "dora@example.org")
    page.fill("#id_password1", "a-long-pass-phrase-7")
    page.fill("#id_password2", "a-long-pass-phrase-7")
    both_sizes(page, "signup")
    page.click("form.stack button[type=submit]")
    page.wait_for_url(re.compile(r"/me/$"))
    assert users.get(username="dora").email == "dora@example.org"

    # ------------------------------------------------------------ with no club: how to create one
    page = evening.go("/organise/")
    page.wait_for_selector("#c-no-club:not([hidden])")
    assert page.is_disabled("#c-submit")
    page.click("#c-create-club")
    page.wait_for_selector("#new-club[data-ready]")
    page.fill("#nc-name", "Club del Cacho")
    both_sizes(page, "club-new")
    page.click("#nc-submit")
    page.wait_for_selector("#club-manage[data-ready] #cm-body:not([hidden])")
    club = Club.objects.get(name="Club del Cacho")
    assert club.slug == "club-del-cacho"
    public_club = evening.context.new_page()
    public_club.goto(f"{evening.server.url}/clubs/{club.pk}/")
    public_club.wait_for_selector("#club-manage-link:not([hidden])")  # its owner sees the way in
    public_club.close()
    assert Membership.objects.filter(club=club, user__username="dora", role="owner").exists()

    # ------------------------------------------------------------ a referee and a scorekeeper by username
    for username, role in (("rita", "referee"), ("santi", "scorekeeper")):
        page.fill("#cm-who", username)
        page.select_option("#cm-role", role)
        page.click("#cm-add-submit")
        page.wait_for_selector(f'#cm-members tr[data-member="{username}"] input[data-role="{role}"]:checked')
    page.fill("#cm-who", "nobody-here")
    page.click("#cm-add-submit")
    error = page.locator("#cm-add .field-error")
    error.wait_for()
    assert error.get_attribute("data-code") == "user-unknown"
    # the error sits right under the field that caused it
    assert 0 <= error.bounding_box()["y"] - page.locator("#cm-who").bounding_box()["y"] < 80
    page.fill("#cm-who", "nueva@example.org")
    page.select_option("#cm-role", "player")
    page.click("#cm-add-submit")
    page.wait_for_selector('#cm-invitations li:has-text("nueva@example.org")')
    assert ClubInvitation.objects.filter(club=club, email="nueva@example.org", status="pending").exists()
    page.wait_for_selector("#cm-log li[data-type='invited']")
    assert page.locator("#cm-log li").count() == ClubEvent.objects.filter(club=club).count() == 4
    assert "dora made rita Referee".lower() in page.inner_text("#cm-log").lower()
    both_sizes(page, "club-manage")

    # ------------------------------------------------------------ an Alalay event: 13 guests pasted
    alalay_id = create_tournament(
        evening,
        "Alalay del martes",
        "alalay",
        {"format": "alalay_event", "table_size": "4", "qualifying_rounds": "2"},
    )
    both_sizes(page, "console-registration")
    page.click("#m-desk-link")
    paste_names(page, 13)
    assert Entry.objects.filter(tournament_id=alalay_id, user=None).count() == 13
    both_sizes(page, "desk-registration")
    page.click("#d-back")
    page.wait_for_selector("#manage[data-ready]")
    page.click("#m-start")
    page.wait_for_selector("#manage[data-status='running'] #m-tables li[data-state='waiting']")
    assert page.locator("#m-registration").is_hidden() and page.locator("#m-start").is_hidden()
    tables = Table.objects.filter(round__tournament_id=alalay_id).count()
    assert page.locator("#m-tables li.table-row").count() == tables >= 3

    # the table cards: one click from the console, a print-ready page
    with evening.context.expect_page() as opened:
        page.click("#m-print a[data-print='cards']")
    cards = opened.value
    cards.wait_for_selector("body[data-ready]")
    assert cards.locator("section.card").count() == tables
    text = cards.inner_text("body")
    assert all(name in text for name in NAMES) and "Cacho Alalay" in text and "Round 1" in text
    cards.emulate_media(media="print")
    assert cards.locator(".toolbar").is_hidden()  # the toolbar never prints
    breaks = cards.evaluate("getComputedStyle(document.querySelector('section.card')).breakAfter")
    assert breaks == "page"
    cards.emulate_media(media="screen")
    both_sizes(cards, "print-cards")
    sheets = evening.context.new_page()
    sheets.goto(cards.url.replace("/print/cards", "/print/sheets"))
    sheets.wait_for_selector("body[data-ready]")
    assert sheets.locator(".player-card").count() == 13 and "Balas" in sheets.inner_text("body")
    both_sizes(sheets, "print-sheets")
    sheets.close()
    cards.close()

    # ------------------------------------------------------------ a Dudo Swiss at tables of 4 to 6
    swiss_id = create_tournament(
        evening, "Dudo suizo", "dudo", {"format": "swiss", "rounds": "3", "table_size": "6", "min_size": "4"}
    )
    page.click("#m-desk-link")
    paste_names(page, 13)
    page.click("#d-back")
    page.wait_for_selector(f"#manage[data-ready][data-tournament='{swiss_id}']")
    page.click("#m-start")
    page.wait_for_selector("#manage[data-status='running'] #m-tables li.table-row")
    sizes = sorted(t.seats.count() for t in Table.objects.filter(round__tournament_id=swiss_id))
    assert sum(sizes) == 13 and all(4 <= s <= 6 for s in sizes), sizes

    # the round clock: started from the console, seen on the tournament page and at a table
    page.wait_for_selector("#clock-start:visible")
    assert page.locator("#clock-pause").is_hidden()
    page.fill("#clock-minutes", "0")
    page.click("#clock-start")
    page.wait_for_selector("#clock-error:not([hidden])")
    assert page.get_attribute("#clock-error", "data-code") == "clock-time-invalid"
    page.fill("#clock-minutes", "45")
    # The walk-ins have not opened their seat links: the console asks before starting.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#clock-start")
    page.wait_for_selector("#m-clock[data-state='running']")
    expect(page.locator("#clock-display")).to_have_text(re.compile(r"^4[45]:\d\d left$"))
    assert page.locator("#clock-error").is_hidden()
    page.click("#clock-pause")
    page.wait_for_selector("#m-clock[data-state='paused'] #clock-resume:visible")
    page.fill("#clock-extend-minutes", "5")
    page.click("#clock-extend")
    expect(page.locator("#clock-display")).to_have_text(re.compile(r"^Paused: (49|50):\d\d left$"))
    page.click("#clock-resume")
    page.wait_for_selector("#m-clock[data-state='running']")
    both_sizes(page, "console-running")

    public = evening.context.new_page()
    public.goto(f"{evening.server.url}/tournaments/{swiss_id}/")
    public.wait_for_selector("#t-clock[data-state='running']")
    assert re.match(r"Round 1: (49|50):\d\d left", public.inner_text("#t-clock"))
    both_sizes(public, "tournament-clock")
    match_id = Table.objects.filter(round__tournament_id=swiss_id).first().match_id
    public.goto(f"{evening.server.url}/matches/{match_id}/")
    public.wait_for_selector("#round-clock[data-state='running']")
    assert public.inner_text("#round-clock").startswith("Round 1:")
    both_sizes(public, "match-clock")
    public.close()

    # ------------------------------------------------------------ a withdrawn player is reinstated
    page.click("#m-desk-link")
    page.wait_for_selector("#desk[data-ready]")
    assert page.locator("#d-checkin").is_hidden() and page.locator("#d-seeding").is_hidden()
    gone = Entry.objects.get(tournament_id=swiss_id, name="Fito Vargas")
    page.fill("#d-search", "fito")
    assert page.locator("#d-entries tbody tr").count() == 1
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(f'#d-entries tr[data-entry="{gone.pk}"] [data-action="withdraw"]')
    page.wait_for_selector(f'#d-entries tr[data-entry="{gone.pk}"][data-status="withdrawn"]')
    page.click(f'#d-entries tr[data-entry="{gone.pk}"] [data-action="reinstate"]')
    page.wait_for_selector(f'#d-entries tr[data-entry="{gone.pk}"][data-status="active"]')
    page.fill("#d-search", "")
    # a refusal shows on its row: the late entry's name is taken
    page.fill("#d-name", "Ana Quispe")
    page.click("#d-add-submit")
    page.wait_for_selector("#d-add-form .field-error[data-code='entry-name-taken']")

    # ------------------------------------------------------------ a late entry joins round 2
    assert page.inner_text("#d-add-title") == "Late entry"
    page.fill("#d-name", "Tardío Quispe")
    page.click("#d-add-submit")
    late = page.locator('#d-entries tr:has-text("Tardío Quispe")')
    late.wait_for()
    assert late.get_attribute("data-status") == "active"
    both_sizes(page, "desk-running")
    entry = Entry.objects.get(tournament_id=swiss_id, name="Tardío Quispe")
    assert not entry.seats.exists()

    page.click("#d-back")
    page.wait_for_selector(f"#manage[data-ready][data-tournament='{swiss_id}']")
    finish_round(Tournament.objects.get(pk=swiss_id))  # round 1's results, round 2 drawn
    page.wait_for_selector("#m-round[data-round='2'] #m-tables li.table-row", timeout=20_000)
    page.wait_for_selector('#m-tables li.table-row:has-text("Tardío Quispe")')
    assert entry.seats.filter(table__round__number=2).exists()
    assert page.locator("#m-clock").get_attribute("data-state") == "idle"  # a new round, a new clock
    page.wait_for_selector('#m-rounds li[data-round="1"][data-status="finished"]')

    # The three refusals provoked above are the only console messages: the browser reports
    # each answered 400 (the page itself shows it beside the field); nothing else is logged.
    provoked = [e for e in evening.errors if "status of 400" in e]
    assert [re.sub(r"^.*127\.0\.0\.1:\d+", "", e).rstrip(")") for e in provoked] == [
        f"/api/clubs/{club.pk}/members",
        f"/api/rounds/{Tournament.objects.get(pk=swiss_id).rounds.get(number=1).pk}/clock",
        f"/api/tournaments/{swiss_id}/entries",
    ], provoked
    # … and the warning confirmed before the clock started (409: walk-ins still away).
    warned = [e for e in evening.errors if "status of 409" in e and "/clock" in e]
    assert len(warned) == 1, evening.errors
    assert not [e for e in evening.errors if e not in provoked + warned], evening.errors


def _desk_evening() -> tuple[Tournament, Any]:
    """A Swiss seeded by hand, with a check-in open for an hour: six guests and one account."""
    import datetime as dt

    from django.utils import timezone

    from tournaments import services

    users = get_user_model().objects
    olga = users.create_user("olga", password="a-long-pass-phrase-7")
    club = club_members.create_club("Club de la mesa", "", olga)
    club_members.grant_role(club.pk, users.create_user("rita"), Membership.REFEREE, olga)
    users.create_user("lucia")
    stages = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 2, "table_size": 4}}]
    tournament = services.create_tournament(
        club.pk,
        olga,
        name="Viernes",
        ruleset="dudo",
        stages=stages,
        seeding_method="manual",
        checkin_deadline=timezone.now() + dt.timedelta(hours=1),
    )
    for name in ("Ana", "Beto", "Carla", "Dario", "Elena", "Fito"):
        services.register(tournament.pk, olga, name=name)
    services.register(tournament.pk, olga, name="Paco", user=users.create_user("paco"))
    return tournament, olga


def test_the_desk_checks_in_seeds_claims_and_disqualifies(browser: Any, server: Server) -> None:
    from tests.live.harness import session_cookie
    from tournaments import services

    tournament, olga = _desk_evening()
    evening = Watched(browser, server, locale="es")
    name, value = session_cookie("olga")["Cookie"].split("=", 1)
    evening.context.add_cookies([{"name": name, "value": value, "url": server.url}])
    page = evening.go(f"/organise/{tournament.pk}/entries/")
    page.wait_for_selector("#desk[data-ready]")
    assert page.inner_text("#d-checkin-count") == "0 de 7 con presencia confirmada"
    # the check-in screen: find a name, one big button
    page.fill("#d-search", "beto")
    assert page.locator("#d-entries tbody tr").count() == 1
    beto = Entry.objects.get(tournament=tournament, name="Beto")
    page.click(f'tr[data-entry="{beto.pk}"] button.big[data-action="check-in"]')
    page.wait_for_selector(f'tr[data-entry="{beto.pk}"][data-status="checked_in"]')
    assert page.inner_text("#d-checkin-count") == "1 de 7 con presencia confirmada"
    page.fill("#d-search", "paco")  # an account is found by its username too
    assert page.locator("#d-entries tbody tr").count() == 1
    page.fill("#d-search", "")
    both_sizes(page, "desk-checkin-es")
    page.click(f'tr[data-entry="{beto.pk}"] [data-action="undo-check-in"]')
    page.wait_for_selector(f'tr[data-entry="{beto.pk}"][data-status="registered"]')

    # seeding by hand: a drag, then a number typed
    items = page.locator("#d-seed-list li")
    assert items.count() == 7
    page.drag_and_drop("#d-seed-list li:nth-child(3)", "#d-seed-list li:nth-child(1)")
    assert page.inner_text("#d-seed-list li:nth-child(1) .seed-name") == "Carla"
    page.fill("#d-seed-list li:nth-child(7) input.seed-number", "2")
    page.press("#d-seed-list li:nth-child(7) input.seed-number", "Tab")
    shown = page.locator("#d-seed-list li .seed-name").all_inner_texts()
    assert shown[:2] == ["Carla", "Paco"]
    page.click("#d-seeds-save")
    page.wait_for_selector("#d-seeds-done:not(:empty)")
    seeded = list(Entry.objects.filter(tournament=tournament).order_by("seed").values_list("name", flat=True))
    assert seeded == shown

    # a guest claimed by an account
    ana = Entry.objects.get(tournament=tournament, name="Ana")
    page.click(f'tr[data-entry="{ana.pk}"] [data-action="claim"]')
    page.fill(f'tr[data-entry="{ana.pk}"] input[data-input="username"]', "nadie")
    page.click(f'tr[data-entry="{ana.pk}"] .row-form button[type=submit]')
    refusal = page.locator(f'tr[data-entry="{ana.pk}"] .row-error[data-code="user-unknown"]')
    refusal.wait_for()  # on its own row
    page.fill(f'tr[data-entry="{ana.pk}"] input[data-input="username"]', "lucia")
    page.click(f'tr[data-entry="{ana.pk}"] .row-form button[type=submit]')
    page.wait_for_selector(f'tr[data-entry="{ana.pk}"]:has-text("lucia")')

    # the tournament runs: a disqualification at the desk, with its reason
    Tournament.objects.filter(pk=tournament.pk).update(checkin_deadline=None)
    services.start_tournament(tournament.pk, olga)
    page.reload()
    page.wait_for_selector("#desk[data-ready]")
    assert page.locator("#d-checkin").is_hidden() and page.locator("#d-seeding").is_hidden()
    fito = Entry.objects.get(tournament=tournament, name="Fito")
    page.click(f'tr[data-entry="{fito.pk}"] [data-action="disqualify"]')
    page.fill(f'tr[data-entry="{fito.pk}"] input[data-input="reason"]', "Dados cargados")
    page.click(f'tr[data-entry="{fito.pk}"] .row-form button[type=submit]')
    page.wait_for_selector(f'tr[data-entry="{fito.pk}"][data-status="disqualified"] [data-action="lift"]')
    assert page.locator("#d-dq-note").is_visible()
    both_sizes(page, "desk-disqualified-es")

    # the referee at the same desk: no entries to add, no disqualification to lift
    referee = Watched(browser, server, locale="es")
    name, value = session_cookie("rita")["Cookie"].split("=", 1)
    referee.context.add_cookies([{"name": name, "value": value, "url": server.url}])
    desk = referee.go(f"/organise/{tournament.pk}/entries/")
    desk.wait_for_selector("#desk[data-ready]")
    assert desk.locator("#d-add").is_hidden() and desk.locator("#d-paste").is_hidden()
    assert desk.locator(f'tr[data-entry="{fito.pk}"] [data-action="lift"]').count() == 0
    assert desk.locator(f'tr[data-entry="{ana.pk}"] [data-action="withdraw"]').count() == 1
    referee.context.close()

    provoked = [e for e in evening.errors if "status of 400" in e]
    assert len(provoked) == 1 and f"/api/entries/{ana.pk}/claim" in provoked[0], evening.errors
    assert not [e for e in evening.errors if e not in provoked], evening.errors
    evening.context.close()


EVENING_SCREENS = {
    "console": ("/organise/?t={t}", "#manage[data-ready] #m-tables li.table-row"),
    "desk": ("/organise/{t}/entries/", "#desk[data-ready]"),
    "club-manage": ("/clubs/{club}/manage/", "#club-manage[data-ready]"),
    "club-new": ("/clubs/new/", "#new-club[data-ready]"),
    "print-cards": ("/api/tournaments/{t}/print/cards", "body[data-ready]"),
    "print-pairings": ("/api/tournaments/{t}/print/pairings", "body[data-ready]"),
    "print-slips": ("/api/tournaments/{t}/print/slips", "body[data-ready]"),
}


def test_the_evening_pages_have_no_serious_accessibility_violation(browser: Any, server: Server) -> None:
    """axe-core on every page of the evening at both sizes (as tests/frontend/test_accessibility
    does for the players' pages): no violation of impact serious or critical, no console error."""
    from tests import needs
    from tests.frontend.test_accessibility import AXE, BLOCKING, _axe, _readable
    from tests.frontend.viewing import VIEWPORTS, viewed
    from tournaments import services

    if not AXE.exists():
        needs.missing(f"axe-core is not installed at {AXE}")
    tournament, olga = _desk_evening()
    Tournament.objects.filter(pk=tournament.pk).update(checkin_deadline=None)
    services.start_tournament(tournament.pk, olga)
    import urllib.request

    urllib.request.urlopen(server.url + "/clubs/", timeout=60).read()  # a first request wakes the server
    blocking: dict[str, list[dict[str, Any]]] = {}
    errors: dict[str, list[str]] = {}
    for name, (path, ready) in EVENING_SCREENS.items():
        url = path.format(t=tournament.pk, club=tournament.club_id)
        for size, viewport in VIEWPORTS.items():
            with viewed(browser, server, url, viewport, user="olga") as seen:
                seen.page.wait_for_selector(ready)
                found = _axe(seen.page)
                shot(seen.page, f"evening-axe-{name}-{size}")
                blocking[f"{name} {size}"] = [v for v in found if v["impact"] in BLOCKING]
                errors[f"{name} {size}"] = list(seen.errors)
    assert not any(blocking.values()), _readable(blocking)
    assert not any(errors.values()), errors
