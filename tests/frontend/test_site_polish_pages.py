"""What each person sees and its polish, in Chromium: the menu shows the staff
pages only to staff, an unknown page is the site's 404 page, the standings scroll inside
their box on a phone, a knocked-out player's text keeps AA contrast, and the create form
starts again after a create. Every page is looked at 1280 × 800 and 390 × 844, screenshot
into tests/frontend/artifacts/ and checked by axe (no serious or critical violation)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests import needs
from tests.frontend.conftest import ARTIFACTS, shot
from tests.frontend.test_accessibility import AXE, BLOCKING, _axe, _readable
from tests.frontend.viewing import PHONE, VIEWPORTS, imported
from tests.live.harness import session_cookie
from tournaments import services
from tournaments.clubs import members as club_members
from tournaments.models import Membership, Tournament

pytestmark = [pytest.mark.slow]

STAFF_PAGES = ("/organise/", "/scorekeeper/", "/disputes/")
LONG_NAMES = (
    "Maximiliano Wenceslao Fuentealba",
    "María José Echeverría Larraín",
    "Bartolomé Ñancupil Quilaqueo",
    "Constanza Valdivieso Urrutia",
    "Anastasia Bustamante Iturriaga",
    "Florencio Sepúlveda Aldunate",
    "Guillermina Errázuriz Montt",
    "Hermenegildo Cifuentes Olave",
)

# The WCAG contrast ratio of every piece of text under `root`, from the colours the page
# computed: the text's colour over what lies behind it (the HTML backgrounds laid on the white
# canvas; for the text of an SVG, such as the count on a cup, the shape it is drawn on), both
# faded by the opacity of every ancestor, as the screen shows them.
CONTRASTS = """(root) => {
  const style = (node) => getComputedStyle(node);
  const rgba = (css) => {
    const parts = css.match(/[\\d.]+/g).map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const over = (top, under, alpha) => top.slice(0, 3).map((c, i) => c * alpha + under[i] * (1 - alpha));
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((c) => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const behind = (node) => {
    const layers = [];
    for (let at = node; at; at = at.parentElement) layers.push(rgba(style(at).backgroundColor));
    return layers.reverse().reduce((under, layer) => over(layer, under, layer[3]), [255, 255, 255]);
  };
  const opacity = (node) => {
    let product = 1;
    for (let at = node; at; at = at.parentElement) product *= Number(style(at).opacity);
    return product;
  };
  const shapeUnder = (node) => {
    const box = node.getBoundingClientRect();
    return document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2).find((at) =>
      at !== node && at instanceof SVGGeometryElement && at.ownerSVGElement === node.ownerSVGElement
      && style(at).fill.startsWith("rgb"));
  };
  const found = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const node = text.parentElement;
    if (!text.textContent.trim() || !node.getClientRects().length) continue;
    const drawn = node instanceof SVGElement;
    const page = behind(drawn ? node.ownerSVGElement.parentElement : node);
    const shape = drawn ? shapeUnder(node) : null;
    const ink = rgba(drawn ? style(node).fill : style(node).color);
    const faded = opacity(node); // the group fades as one: the text with the shape it is drawn on
    const ground = shape ? rgba(style(shape).fill) : null;
    const seenGround = shape ? over(ground, page, faded) : page;
    const seenInk = shape ? over(over(ink, ground, ink[3]), page, faded) : over(ink, page, ink[3] * faded);
    const [light, dark] = [luminance(seenInk), luminance(seenGround)].sort((a, b) => b - a);
    found.push({ text: text.textContent.trim(), ratio: (light + 0.05) / (dark + 0.05) });
  }
  return found;
}"""


def _checked(page: Any, name: str) -> None:
    """Screenshot the page as it is and run axe on it: no serious or critical violation."""
    if not AXE.exists():
        needs.missing(f"axe-core is not installed at {AXE} (deploy/dev/test.sh installs it with npm)")
    shot(page, name)
    violations = _axe(page)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-{name}.json").write_text(json.dumps(violations, indent=2))
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    assert not blocking, f"{page.url}:\n{_readable({name: blocking})}"


def _club(owner: str, name: str) -> Any:
    session_cookie(owner)
    return club_members.create_club(name, "", get_user_model().objects.get(username=owner))


def _has(page: Any, selector: str) -> bool:
    return page.locator(selector).count() > 0


def test_a_plain_player_sees_no_staff_menu_items_and_an_organiser_does(open_page: Callable[..., Any]) -> None:
    club = _club("olga", "Club del menú")
    session_cookie("pia")
    users = get_user_model().objects
    club_members.grant_role(club.pk, users.get(username="pia"), Membership.PLAYER, users.get(username="olga"))

    for size, viewport in VIEWPORTS.items():
        player = open_page("/ratings/", "pia", viewport=viewport, watch=True)
        organiser = open_page("/ratings/", "olga", viewport=viewport, watch=True)
        shown = {
            who: {p for p in STAFF_PAGES if _has(seen, f'#site-nav a[href="{p}"]')}
            for who, seen in (("player", player), ("organiser", organiser))
        }
        assert shown == {"player": set(), "organiser": set(STAFF_PAGES)}, size
        assert _has(player, '#site-nav a[href="/me/"]')  # the player's own pages stay
        _checked(player, f"polish-menu-player-{size}")
        _checked(organiser, f"polish-menu-organiser-{size}")


@pytest.mark.parametrize("path", ["/matches/not-a-match/", "/clubs/9999/"])
def test_an_unknown_page_is_the_sites_html_404_page(open_page: Callable[..., Any], path: str) -> None:
    for size, viewport in VIEWPORTS.items():
        page = open_page("/", viewport=viewport)
        answer = page.goto(page.url.rstrip("/") + path)
        assert answer.status == 404
        assert answer.headers["content-type"].startswith("text/html")
        assert page.locator('[data-status="404"]').count() == 1
        assert "Page not found" in page.inner_text("main")
        assert page.locator("#site-nav").count() == 1  # the site around it, to go on from
        _checked(page, f"polish-404-{path.strip('/').replace('/', '-')}-{size}")


def _finished_with_long_names() -> Tournament:
    from tests.tournaments.helpers import play_scripted

    club = _club("dora", "Club de nombres largos")
    owner = get_user_model().objects.get(username="dora")
    stages = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 1, "table_size": 4}}]
    made = services.create_tournament(club.pk, owner, name="Copa ancha", ruleset="dudo", stages=stages)
    for name in LONG_NAMES:
        services.register(made.pk, owner, name=name)
    services.start_tournament(made.pk, owner)
    play_scripted(made)
    return made


def test_the_standings_scroll_inside_their_box_on_a_phone(open_page: Callable[..., Any]) -> None:
    tournament = _finished_with_long_names()
    for size, viewport in VIEWPORTS.items():
        page = open_page(f"/tournaments/{tournament.pk}/", viewport=viewport, watch=True)
        page.wait_for_selector("#tournament[data-loaded]")
        page.wait_for_selector("#t-standings tbody tr")
        widths = page.evaluate("""() => {
          const box = document.getElementById("t-standings").closest(".scroll");
          return { box: box.scrollWidth, shown: box.clientWidth,
                   page: document.documentElement.scrollWidth, window: window.innerWidth };
        }""")
        assert widths["page"] <= widths["window"], f"the page itself scrolls sideways at {size}: {widths}"
        if viewport == PHONE:
            assert widths["box"] > widths["shown"], (
                f"the standings fit at 390 px, nothing to scroll: {widths}"
            )
        _checked(page, f"polish-standings-{size}")


def test_a_knocked_out_players_text_meets_aa_contrast(open_page: Callable[..., Any]) -> None:
    match = imported("dudo-full-match-three-players")
    for size, viewport in VIEWPORTS.items():
        page = open_page(f"/matches/{match.pk}/", "ana", viewport=viewport, watch=True)
        page.wait_for_selector("#match[data-version]")
        out = page.locator(".player.out")
        assert out.count() >= 1
        for index in range(out.count()):
            found = page.evaluate(CONTRASTS, out.nth(index).element_handle())
            assert found, "a knocked-out player shows no text"
            for text in found:
                assert text["ratio"] >= 4.5, f"{text['text']!r}: contrast {text['ratio']:.2f} at {size}"
        _checked(page, f"polish-knocked-out-{size}")


def test_the_create_form_starts_again_after_a_create(open_page: Callable[..., Any]) -> None:
    club = _club("olga", "Club de creación")
    for size, viewport in VIEWPORTS.items():
        name = f"Copa {size}"
        page = open_page("/organise/", "olga", viewport=viewport, watch=True)
        page.wait_for_selector("#create[data-ready]")
        page.wait_for_selector(f'#c-club option[value="{club.pk}"]', state="attached")
        defaults = _form_values(page)

        page.fill("#c-name", name)
        page.select_option("#c-ruleset", "alalay")
        page.click("#preset-groups-playoffs")
        page.select_option("#c-scale", "fixed")
        page.fill("#c-fixed", "10, 7, 5")
        page.fill("#c-bye", "2")
        page.check("#c-physical")
        page.select_option("#c-time-policy", index=1)
        chosen_policy = page.input_value("#c-time-policy")
        page.check("#c-call-time")
        page.fill("#c-checkin", "2099-01-01T20:00")
        page.fill("#c-turn", "45")
        page.fill("#c-appeal", "5")
        page.select_option("#c-seeding", "manual")
        assert _form_values(page) != defaults
        _checked(page, f"polish-create-filled-{size}")
        page.click("#c-submit")

        page.wait_for_selector(f'#t-list li[data-new] a:text-is("{name}")')
        page.wait_for_selector("#manage[data-ready]:not([hidden])")
        made = Tournament.objects.get(name=name)
        assert made.ruleset == "alalay" and made.time_policy == chosen_policy and made.call_time_automatically
        assert name in page.inner_text("#message")
        assert page.get_attribute("#message", "role") == "status"
        assert page.text_content("#m-link") == name  # its console, open
        assert _form_values(page) == defaults
        assert page.evaluate("document.activeElement.id") == "c-club"
        assert page.is_hidden("#c-fixed-label")
        assert page.locator("#c-error:not([hidden])").count() == 0
        _checked(page, f"polish-create-reset-{size}")


def _form_values(page: Any) -> dict[str, Any]:
    """Every control of the create form (the ones built from the ruleset included) and what it holds."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        "#create-form input, #create-form select, #create-form textarea")].map((c) =>
        [c.id, c.type === "checkbox" ? c.checked : c.value]))""")
