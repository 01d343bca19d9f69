"""The referee's review and the pages that list rounds, in a real browser against the real
server: a seated player's disconnection and reconnection on the review's timeline
at their times; a voided round's replay named as such ("Round 3 — replays round 2") in the
table's log, the replay and the review; the ruling preview with the standings' tiebreaks and
the final ranking before and after, each entry that moves highlighted. Every page watched:
no console error, no failed request."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from cacho.models import Match
from tests.cacho.conftest import settle_after_commit_work
from tests.cacho.helpers import bot_move, state_of
from tests.frontend.conftest import shot
from tests.live.harness import session_cookie, wait_for
from tests.test_foundation.helpers import Server, http_get
from tests.tournaments.helpers import play_bidding_match
from tournaments import services
from tournaments.clubs import members as club_members
from tournaments.models import Membership, Table, Tournament

pytestmark = [pytest.mark.slow]

ONE_ROUND_1V1 = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]


def _user(name: str) -> Any:
    session_cookie(name)
    return get_user_model().objects.get(username=name)


def _as(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _presence(server: Server, match_id: Any) -> list[tuple[str, str]]:
    body = json.loads(http_get(f"{server.url}/api/matches/{match_id}/presence").body)
    return [(c["seat"], c["change"]) for c in body["changes"]]


def _until_round(match_id: Any, number: int, rng: random.Random) -> None:
    from cacho.services import matches

    for step in range(2000):
        state = state_of(match_id)
        if state.round is not None and state.round.number == number and state.round.bid is not None:
            return
        player, command = bot_move(state, rng)
        matches.submit(match_id, player, command, f"review-{match_id}-{step}")
    raise AssertionError(f"round {number} never came")


def test_the_review_shows_connections_and_a_replayed_round_and_the_preview_the_ranking(
    open_page: Any, server: Server
) -> None:
    rng = random.Random(11)
    boss = _user("olga")
    club = club_members.create_club("Club Review", "club-review", boss)
    rita = _user("rita")
    club_members.grant_role(club.pk, rita, Membership.REFEREE, boss)
    tournament = services.create_tournament(club.pk, boss, name="Copa", ruleset="dudo", stages=ONE_ROUND_1V1)
    for name in ("ana", "beto"):
        services.register(tournament.pk, boss, name=name, user=_user(name))
    services.start_tournament(tournament.pk, boss)
    table = Table.objects.get(round__tournament=tournament)
    match_id = table.match_id
    seat_of = dict(Match.objects.get(pk=match_id).seats.values_list("user__username", "name"))

    # ---- beto at the table, then gone, then back: three changes on the presence log
    beto = open_page(f"/matches/{match_id}/", "beto", watch=True)
    beto.wait_for_selector("#match[data-version]")
    wait_for(lambda: _presence(server, match_id) == [(seat_of["beto"], "connected")])
    beto.context.close()
    wait_for(lambda: _presence(server, match_id)[-1:] == [(seat_of["beto"], "disconnected")])
    _until_round(match_id, 2, rng)
    beto = open_page(f"/matches/{match_id}/", "beto", watch=True)
    beto.wait_for_selector("#match[data-version]")
    wait_for(lambda: _presence(server, match_id)[-1:] == [(seat_of["beto"], "reconnected")])

    # ---- ana files on round 2; the referee voids it: round 3 replays round 2
    filed = _as(_user("ana")).post(f"/api/matches/{match_id}/disputes", {"reason": "misclick", "round": 2})
    assert filed.status_code == 201, filed.json()
    dispute = filed.json()["id"]
    ruled = _as(rita).post(
        f"/api/disputes/{dispute}/rule",
        {"ruling": {"kind": "void-round", "round": 2}, "reason": "A misclick"},
        format="json",
    )
    assert ruled.status_code == 200, ruled.json()
    assert state_of(match_id).round.number == 3

    # the table's log: round 2 marked voided, round 3 says what it replays
    beto.wait_for_selector("details.log-group[data-group^='round-3'] summary")
    assert beto.inner_text("details.log-group[data-group^='round-3'] summary").startswith(
        "Round 3 — replays round 2"
    )
    assert "voided" in beto.inner_text("details.log-group[data-group^='round-2'] summary")
    shot(beto, "review-table-log-replayed-round")

    # the replay: the move list's group and the jump menu
    replay = open_page(f"/matches/{match_id}/replay", watch=True)
    replay.wait_for_selector("#replay[data-loaded]")
    groups = replay.eval_on_selector_all("#r-log .move-group h3", "els => els.map(e => e.textContent)")
    assert "Round 3 — replays round 2" in groups and "Round 2" in groups
    shot(replay, "review-replay-replayed-round")

    # the review: every step and every connection on one timeline, in time order
    page = open_page(f"/disputes/{dispute}/", "rita", watch=True)
    page.wait_for_selector("#tm[data-loaded]")
    page.click("details.tm-log summary")  # "Every step": the timeline, folded until asked for
    times = page.eval_on_selector_all("#tm-log li", "els => els.map(e => Number(e.dataset.at))")
    assert times == sorted(times)
    changes = page.eval_on_selector_all(
        "#tm-log li.presence-change", "els => els.map(e => [e.dataset.seat, e.dataset.presence])"
    )
    assert changes[:3] == [[seat_of["beto"], c] for c in ("connected", "disconnected", "reconnected")]
    assert f"{seat_of['beto']} disconnected" in page.inner_text("#tm-log")
    assert page.locator("#tm-log li:has-text('Round 3 — replays round 2')").count() == 1
    # the step after beto came back names it on its card
    first_after = page.eval_on_selector_all(
        "#tm-log li",
        """els => { const i = els.findIndex(e => e.dataset.presence === 'reconnected');
                    return els.slice(i).find(e => e.dataset.v).dataset.v; }""",
    )
    page.click(f'#tm-log li[data-v="{first_after}"] button')
    page.wait_for_selector("#tm-presence")
    assert f"{seat_of['beto']} reconnected" in page.inner_text("#tm-presence")
    shot(page, "review-timeline-presence")
    page.context.close()
    beto.context.close()

    # ---- the match ends, the tournament too; a second dispute, and the preview's ranking
    play_bidding_match(match_id, rng)
    settle_after_commit_work()
    services.sweep()  # the table's result and the tournament's end (no Celery worker runs here)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    table.refresh_from_db()
    loser = next(line for line in table.result if line["placement"] == 2)
    loser_name = table.seats.get(entry_id=loser["entry"]).entry.name
    again = _as(_user(loser_name)).post(f"/api/matches/{match_id}/disputes", {"reason": "wrong-result"})
    assert again.status_code == 201, again.json()
    page = open_page(f"/disputes/{again.json()['id']}/", "rita", watch=True)
    page.wait_for_selector("#tm[data-loaded]")  # the match's seats are known: the form can place them
    page.select_option("#r-kind", "award-result")
    page.wait_for_selector("#r-params input[data-seat]")
    index_of_loser = table.seats.get(entry_id=loser["entry"]).match_seat
    loser_seat = dict(Match.objects.get(pk=match_id).seats.values_list("index", "name"))[index_of_loser]
    seats = page.eval_on_selector_all("#r-params input[data-seat]", "els => els.map(e => e.dataset.seat)")
    for seat in seats:  # the places reversed: the loser wins
        page.fill(f'#r-params input[data-seat="{seat}"]', "1" if seat == loser_seat else "2")
    page.fill("#r-reason", "The log shows the other result.")
    with page.expect_response(lambda r: r.url.endswith("/preview")) as answered:
        page.click("#r-preview")
    preview = answered.value.json()
    assert answered.value.ok, preview
    assert preview["ranking_changed"], (answered.value.request.post_data_json, loser, seat_of, preview)
    out = page.locator("#r-preview-out")
    out.wait_for()
    # the standings with their tiebreak columns, now and after
    for name in ("#r-current", "#r-after"):
        columns = page.eval_on_selector_all(
            f"{name} thead th", "els => els.map(e => e.dataset.criterion || '')"
        )
        assert [c for c in columns if c] == preview["criteria"][1:] and len(preview["criteria"]) > 1
    assert page.locator("#r-after tr.changed").count() == len(preview["changed"]) == 2
    # the final ranking, now and after: the two entries that swap places highlighted
    assert page.locator("#r-ranking-current tbody tr").count() == 2
    assert page.locator("#r-ranking-after tr.changed").count() == 2
    first_after = page.inner_text("#r-ranking-after tbody tr:first-child td:nth-child(2)")
    assert first_after.startswith(loser_name)
    assert page.get_attribute("#r-preview-out", "data-ranking-changed") == "2"
    shot(page, "review-preview-ranking")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "review-preview-ranking-phone")
