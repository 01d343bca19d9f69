"""The appeal period and the live review in a real browser, against the real server (uvicorn,
PostgreSQL, Redis): a Swiss round-1 match ends, its player sees on the end screen how long
the table can still be disputed, files within that time, and the next round waits; on
another tournament the director's "draw now" draws the next round at once; the referee's
review follows the match over the table's socket (a pause, a resume and a new move appear
without a reload) and says which rounds a "void round" undoes. Every page watched (no
console error, no failed request), screenshots saved and axe run on each."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from cacho.models import Seat
from cacho.services import matches
from tests.cacho.helpers import bot_move, state_of
from tests.frontend.conftest import shot
from tests.frontend.test_accessibility import axe_clean
from tests.live.harness import session_cookie
from tests.tournaments.helpers import seat_named
from tournaments import services
from tournaments.clubs import members as club_members
from tournaments.models import Membership, Round, Table, Tournament
from tournaments.services import disputes

pytestmark = [pytest.mark.slow]

_commands = itertools.count(1)
TWO_ROUNDS_1V1 = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]
ONE_ROUND_1V1 = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
PHONE = {"width": 390, "height": 844}


def _user(name: str) -> Any:
    session_cookie(name)
    return get_user_model().objects.get(username=name)


def _tournament(
    owner: str, players: tuple[str, ...], stages: list[dict[str, Any]], minutes: int
) -> Tournament:
    boss = _user(owner)
    club = club_members.create_club(f"Club {owner}", f"club-{owner}", boss)
    club_members.grant_role(club.pk, _user(f"{owner}-ref"), Membership.REFEREE, boss)
    tournament = services.create_tournament(
        club.pk, boss, name=f"Copa {owner}", ruleset="dudo", stages=stages, round_appeal_minutes=minutes
    )
    for name in players:
        services.register(tournament.pk, boss, name=name, user=_user(name))
    services.start_tournament(tournament.pk, boss)
    return tournament


def _finish_round_one(tournament: Tournament) -> None:
    """Each round-1 table ends (its second seat leaves) and its result is recorded, as the
    worker would record it."""
    for table in Table.objects.filter(round__tournament=tournament, round__number=1):
        leaver = seat_named(table.match_id, table.seats.order_by("index").last().entry.name)
        matches.submit(table.match_id, leaver, {"type": "abandon"}, f"appeals-e2e-{next(_commands)}")
        services.record_match(table.match_id)


def test_a_player_files_within_the_appeal_period_and_the_next_round_waits(open_page: Any) -> None:
    tournament = _tournament("olga", ("ana", "beto", "caro", "dani"), TWO_ROUNDS_1V1, 2)
    table = Table.objects.get(round__tournament=tournament, round__number=1, seats__entry__name="ana")
    _finish_round_one(tournament)
    first = Round.objects.get(tournament=tournament, number=1)
    assert first.status == Round.FINISHED and first.draw_at is not None
    assert not Round.objects.filter(tournament=tournament, number=2).exists()

    page = open_page(f"/matches/{table.match_id}/", "ana", watch=True, viewport=PHONE)
    page.wait_for_selector("#end-appeal:not([hidden])")
    said = page.inner_text("#end-appeal")
    assert re.fullmatch(r"You can still dispute this table: the next round is drawn in [12]:\d\d\.", said), (
        said
    )
    shot(page, "appeals-1-end-screen-countdown")
    axe_clean(page, "appeals-end-screen")

    page.click("#dispute-open")
    page.select_option("#dispute-reason", "misclick")
    page.fill("#dispute-text", "My last bid was a misclick.")
    page.fill("#dispute-where", "1")
    with page.expect_response(lambda r: r.url.endswith("/disputes") and r.request.method == "POST") as sent:
        page.click("#dispute-submit")
    assert sent.value.status == 201, sent.value.text()
    page.wait_for_selector("#dispute-link")
    # the period runs out: the dispute still holds the draw, and the end screen says so
    Round.objects.filter(pk=first.pk).update(draw_at=first.finished_at)
    assert services.advance(tournament.pk) is None
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    page.wait_for_selector("#end-appeal:has-text('waits for a dispute')", timeout=15_000)
    shot(page, "appeals-2-end-screen-dispute-holds")
    axe_clean(page, "appeals-end-screen-held")


def test_the_directors_draw_now_draws_the_next_round_at_once(open_page: Any) -> None:
    tournament = _tournament("pablo", ("eva", "fito", "gina", "hugo"), TWO_ROUNDS_1V1, 2)
    _finish_round_one(tournament)
    assert not Round.objects.filter(tournament=tournament, number=2).exists()

    console = open_page(f"/organise/?t={tournament.pk}", "pablo", watch=True)
    console.wait_for_selector("#m-appeal:not([hidden])")
    said = console.inner_text("#m-appeal-text")
    assert re.fullmatch(r"Appeal period: the next round is drawn in [12]:\d\d\.", said), said
    assert console.is_visible("#m-draw-now") and console.is_visible("#m-hold-draw")
    shot(console, "appeals-3-console-countdown")
    axe_clean(console, "appeals-console")
    console.once("dialog", lambda dialog: dialog.accept())
    console.click("#m-draw-now")
    console.wait_for_selector('#m-round[data-round="2"]')
    assert Round.objects.filter(tournament=tournament, number=2).exists()
    assert console.is_hidden("#m-appeal")
    shot(console, "appeals-4-console-drawn")


def test_the_review_follows_the_match_live(open_page: Any) -> None:
    tournament = _tournament("quique", ("ines", "juan"), ONE_ROUND_1V1, 2)
    match_id = Table.objects.get(round__tournament=tournament).match_id
    rng = random.Random(5)
    for step in range(2000):  # into round 2, a bid made
        state = state_of(match_id)
        if state.round is not None and state.round.number == 2 and state.round.bid is not None:
            break
        player, command = bot_move(state, rng)
        matches.submit(match_id, player, command, f"appeals-review-{step}")
    filer = Seat.objects.get(match_id=match_id, name=state_of(match_id).config.players[0]).user
    dispute = disputes.file_dispute(match_id, filer, reason="other", text="Round 1 looked odd", round=1)

    page = open_page(f"/disputes/{dispute.pk}/", "quique-ref", watch=True)
    page.wait_for_selector("#tm[data-loaded]")
    page.wait_for_selector('#tm[data-live="connected"]')
    steps = int(page.get_attribute("#tm", "data-loaded") or 0)
    assert steps > 0

    page.fill("#d-pause-reason", "Looking at round 1")
    page.click("#d-pause")
    page.wait_for_selector(f'#tm[data-loaded="{steps + 1}"]')  # the pause, over the socket
    page.click("#tm-last")
    assert page.inner_text("#tm-pos") == f"Step {steps + 1} of {steps + 1}"
    shot(page, "appeals-5-review-pause-live")
    page.click("#d-resume")
    page.wait_for_selector(f'#tm[data-loaded="{steps + 2}"]')
    state = state_of(match_id)
    player, command = bot_move(state, rng)
    matches.submit(match_id, player, command, "appeals-review-live-move")
    page.wait_for_selector(f'#tm[data-loaded="{steps + 3}"]')  # a player's move, no reload
    page.click("#tm-last")
    assert page.inner_text("#tm-pos") == f"Step {steps + 3} of {steps + 3}"

    # the void-round form and its preview say which rounds it undoes
    page.select_option("#r-kind", "void-round")
    page.fill("#r-round", "1")
    page.wait_for_selector("#r-voids:not([hidden])")
    assert page.inner_text("#r-voids").startswith("Voiding round 1 undoes rounds 1, 2:")
    page.fill("#r-reason", "Round 1's dice were dealt twice")
    page.click("#r-preview")
    page.wait_for_selector("#r-preview-voids")
    assert page.inner_text("#r-preview-voids") == "This ruling undoes rounds 1, 2."
    shot(page, "appeals-6-review-void-preview")
    axe_clean(page, "appeals-review")
