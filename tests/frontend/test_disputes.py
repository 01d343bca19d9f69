"""Disputes and referee review in a real browser, against the real server, API,
engine and data (no request routing, no fake socket frames): the referee queue, the
dispute page (trail, comments, pause, the review "time machine", the fairness proof, the
ruling form with its preview) and the match page's Dispute button and pause banner.

The data is made as the tournament tests make it (`tournaments.services`, the match write
path `cacho.services.matches`); the pages are driven as a referee, a player, a scorekeeper
and strangers would drive them.

* Scenario A: a dispute on round 3 of a live 1v1 Dudo tournament match, from the table to
  a "void the round" ruling, the replayed round, the match's end and the standings.
* Scenario B: a scorekeeper's dispute on a finished Alalay table, a "correct a turn" ruling
  previewed (ranks that move highlighted) and committed; the standings follow.
* The table's form and the queue for everyone else: Spanish, the Alalay turn, a casual
  match, a spectator, a stranger, a visitor not logged in.
* An Alalay player files on the turn being played (the form's default pin).

Results and the next rounds come from Celery tasks after the matches' commits: a real worker
runs them, started only once the review is over (no turn timer plays meanwhile).
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from rest_framework.test import APIClient

from cacho.models import Match, Seat
from cacho.services import matches
from tests.cacho.helpers import legal_bidding_move, state_of
from tests.frontend.conftest import shot
from tests.live.harness import celery_worker, session_cookie, wait_for
from tests.tournaments.helpers import play_bidding_match, register_bots
from tournaments import services
from tournaments.clubs import members as club_members
from tournaments.models import Membership, Table, Tournament
from tournaments.services import disputes, rulings
from tournaments.services.bots import play_bots_until_stuck

pytestmark = [pytest.mark.slow]

_commands = itertools.count(1)


# ---------------------------------------------------------------- data, as the services make it


def _user(name: str) -> Any:
    session_cookie(name)
    return get_user_model().objects.get(username=name)


def _club(owner: str, referee: str, scorekeeper: str | None = None) -> tuple[Any, Any]:
    boss = _user(owner)
    club = club_members.create_club(f"Club {owner}", f"club-{owner}", boss)
    club_members.grant_role(club.pk, _user(referee), Membership.REFEREE, boss)
    if scorekeeper:
        club_members.grant_role(club.pk, _user(scorekeeper), Membership.SCOREKEEPER, boss)
    return club, boss


def _tournament(
    club: Any, boss: Any, ruleset: str, players: tuple[str, ...], stages: list[dict[str, Any]]
) -> tuple[Any, Table]:
    """A started tournament of `players` (their own accounts) and its first table."""
    tournament = services.create_tournament(club.pk, boss, name="Copa", ruleset=ruleset, stages=stages)
    for name in players:
        services.register(tournament.pk, boss, name=name, user=_user(name))
    services.start_tournament(tournament.pk, boss)
    return tournament, Table.objects.filter(round__tournament=tournament).order_by("number").first()


ONE_ROUND_1V1 = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
FINAL_TABLE = [{"name": "final", "format": "final_table", "params": {}}]


def _move(match_id: Any, rng: random.Random, *, bids_only: bool = False) -> None:
    state = state_of(match_id)
    player, command = legal_bidding_move(state, rng)
    while bids_only and command["type"] != "bid":
        player, command = legal_bidding_move(state, rng)
    matches.submit(match_id, player, command, f"e2e-{next(_commands)}")


def _play_until_round(match_id: Any, number: int, rng: random.Random) -> None:
    """Random legal moves until round `number` of the bidding match is being bid (as
    tests/tournaments/test_rulings.py does)."""
    for _ in range(2000):
        state = state_of(match_id)
        if state.round is not None and state.round.number == number:
            return
        _move(match_id, rng)
    raise AssertionError(f"round {number} never came")


def _epoch_ms(iso: str) -> float:
    return dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000


# ---------------------------------------------------------------- page helpers


def _dice_of(page: Any, owner: str) -> list[str]:
    return page.eval_on_selector_all(f'svg.die[data-owner="{owner}"]', "els => els.map(e => e.dataset.face)")


def _trail(page: Any) -> list[str]:
    return page.eval_on_selector_all("#d-trail li", "els => els.map(e => e.dataset.type)")


def _get(page: Any, base: str, path: str) -> Any:
    """The real API, read with the page's own session."""
    answer = page.request.get(base + path)
    assert answer.ok, (path, answer.status, answer.text())
    return answer.json()


def _new_page(page: Any, url: str) -> Any:
    """Another tab in `page`'s context (the same user)."""
    other = page.context.new_page()
    other.set_default_timeout(10_000)
    other.goto(url)
    return other


# Records, in the queue page, when each dispute's row first appears (the page's own clock).
WATCH_ROWS = """() => {
  window.rowSeen = {};
  const rows = document.getElementById("q-rows");
  new MutationObserver(() => {
    for (const tr of rows.querySelectorAll("tr[data-dispute]")) {
      if (!(tr.dataset.dispute in window.rowSeen)) window.rowSeen[tr.dataset.dispute] = Date.now();
    }
  }).observe(rows, { childList: true, subtree: true });
}"""


# ---------------------------------------------------------------- scenario A


@pytest.mark.alone  # asserts a latency
def test_scenario_a_void_round_three_of_a_live_dudo_match(
    open_page: Any, env: dict[str, str], tmp_path: Path
) -> None:
    """A player files on round 3 of a live 1v1 Dudo table; the club's referee sees it in the
    queue within a second, pauses the table, reviews round 3 as the referee and as the other
    player with its fairness proof, rules "void the round and replay it"; the table plays a
    new round with new committed dice to the end, and the standings take its result."""
    rng = random.Random(3)
    club, boss = _club("olga", "rita")
    tournament, table = _tournament(club, boss, "dudo", ("ana", "beto"), ONE_ROUND_1V1)
    match_id = table.match_id
    # the first bid played by the turn timer (an automatic play), then random legal moves up
    # to round 3, and two bids into it
    match = Match.objects.get(pk=match_id)
    assert matches.expire_turn(match_id, match.version, at=match.deadline_ms)
    _play_until_round(match_id, 3, rng)
    for _ in range(2):
        _move(match_id, rng, bids_only=True)
    state = state_of(match_id)
    filer = state.config.players[state.round.to_act]  # on turn: their actions are live until paused
    other = next(p for p in state.config.players if p != filer)
    filer_name = Seat.objects.get(match_id=match_id, name=filer).user.username  # seats name player ids

    queue = open_page("/disputes/", "rita", watch=True)  # no console error, no failed request
    queue.wait_for_selector("#queue[data-loaded]")
    base = queue.url.split("/disputes/")[0]
    assert queue.get_attribute("#q-status", "data-count") == "0"
    assert queue.get_attribute("#q-status", "aria-live") == "polite"
    queue.evaluate(WATCH_ROWS)

    # ---- the filer, at the table: the form defaults to the round being played
    player = open_page(f"/matches/{match_id}/", filer_name)
    player.wait_for_selector("#match[data-version]")
    player.wait_for_selector("#dispute-box:not([hidden])")
    assert "Round 3" in player.inner_text("#table .round-no")
    assert player.locator("#table button:not([disabled])").count() >= 1  # on turn
    player.click("#dispute-open")
    assert player.get_attribute("#dispute-open", "aria-expanded") == "true"
    reasons = player.eval_on_selector_all("#dispute-reason option", "els => els.map(e => e.value)")
    assert reasons == ["wrong-result", "misclick", "timeout", "collusion", "scorekeeping", "other"]
    assert player.input_value("#dispute-where") == "3"
    player.select_option("#dispute-reason", "misclick")
    player.fill("#dispute-text", "I clicked a bid I did not mean.")
    # a round the match has not played: the server's refusal, next to the form
    player.fill("#dispute-where", "9")
    player.click("#dispute-submit")
    player.wait_for_selector('#dispute-error[data-code="dispute-round-unknown"]')
    assert queue.get_attribute("#q-status", "data-count") == "0"
    player.fill("#dispute-where", "3")
    with player.expect_response(lambda r: r.url.endswith("/disputes") and r.request.method == "POST") as sent:
        clicked = time.time() * 1000
        player.click("#dispute-submit")
    assert sent.value.request.post_data_json == {
        "reason": "misclick",
        "text": "I clicked a bid I did not mean.",
        "round": 3,
    }
    filed = sent.value.json()
    dispute_id = filed["id"]
    player.wait_for_selector("#dispute-link")
    assert player.get_attribute("#dispute-link", "href") == f"/disputes/{dispute_id}/"
    player.wait_for_selector(f'#dispute-links li[data-dispute="{dispute_id}"]')
    assert player.is_hidden("#dispute-error")
    shot(player, "a1-match-dispute-filed")

    # ---- the queue shows it without a reload, within a second of filing
    row = queue.locator(f'#q-rows tr[data-dispute="{dispute_id}"]')
    row.wait_for(timeout=10_000)
    seen = queue.evaluate(f"window.rowSeen['{dispute_id}']")
    latency = seen - _epoch_ms(filed["filed_at"])
    print(
        f"\nqueue latency: {latency:.0f} ms after filing (server's filed_at), "
        f"{seen - clicked:.0f} ms after the click"
    )
    assert latency < 1000, latency
    text = row.inner_text()
    for part in ("Copa", "Table 1", "round 1", "Round 3", "Misclick", filer_name):
        assert part in text, (part, text)
    assert row.locator(f'a[href="/matches/{match_id}/"]').count() == 1
    assert row.locator(f'a[href="/disputes/{dispute_id}/"]').count() == 1
    assert re.search(r"now|second", row.locator("td.age").inner_text())
    assert queue.inner_text("#q-status") == "Open disputes: 1"
    assert "Misclick" in queue.inner_text("#q-new")
    shot(queue, "a2-queue")

    # ---- the referee opens it (a tab of their own; the queue stays open)
    page = _new_page(queue, f"{base}/disputes/{dispute_id}/")
    page.wait_for_selector("#dispute[data-loaded]")
    assert page.inner_text("#d-status") == "open"
    assert "I clicked a bid I did not mean." in page.inner_text("#d-text")
    assert "Copa" in page.inner_text("#d-facts") and "Round 3" in page.inner_text("#d-facts")
    assert page.is_visible("#referee")
    page.fill("#d-comment", "Looking at round 3.")
    page.click("#d-comment-submit")
    page.wait_for_selector('#d-trail li[data-type="comment"]:has-text("Looking at round 3.")')

    # ---- pause: the player's table says why and refuses every action; resume: it plays on
    page.fill("#d-pause-reason", "Checking the dice")
    page.click("#d-pause")
    page.wait_for_selector("#d-paused:not([hidden])")
    assert page.is_disabled("#d-pause") and not page.is_disabled("#d-resume")
    player.wait_for_selector("#paused:not([hidden])", timeout=10_000)
    assert player.inner_text("#paused") == "Paused by the referee: Checking the dice"
    assert player.get_attribute("#paused", "aria-live") == "assertive"
    # nobody is on turn while paused: no action of the table can be taken
    assert player.locator("#table button:not([disabled]), #table input:not([disabled])").count() == 0
    assert player.locator("#countdown").count() == 0  # no deadline runs while paused
    assert player.is_visible("#dispute-open")  # a player may still file
    shot(player, "a3-match-paused")
    page.click("#d-resume")
    page.wait_for_selector("#d-paused", state="hidden")
    player.wait_for_selector("#paused", state="hidden", timeout=10_000)
    player.wait_for_selector("#table button:not([disabled])")
    page.fill("#d-pause-reason", "Reviewing round 3")
    page.click("#d-pause")
    page.wait_for_selector("#d-paused:not([hidden])")
    player.wait_for_selector("#paused:has-text('Reviewing round 3')", timeout=10_000)

    # ---- the party's view of the dispute: the trail, comments, no referee tools
    party = _new_page(player, f"{base}/disputes/{dispute_id}/")
    party.wait_for_selector("#dispute[data-loaded]")
    assert party.is_hidden("#referee") and party.is_hidden("#d-all")
    assert _trail(party) == ["filed", "comment", "paused", "resumed", "paused"]
    party.fill("#d-comment", "Any news?")
    party.click("#d-comment-submit")
    party.wait_for_selector('#d-trail li[data-type="comment"]:has-text("Any news?")')
    party.fill("#d-comment", "x" * 2001)
    party.click("#d-comment-submit")
    party.wait_for_selector('#d-comment-error[data-code="dispute-text-too-long"]')
    shot(party, "a4-party-view")

    # ---- the review starts at the pinned round's start, every die shown to the referee
    page.wait_for_selector("#tm[data-loaded]")
    assert "Round 3" in page.inner_text("#tm-step")
    assert page.locator("#tm-pinned").count() == 1
    assert _dice_of(page, f"hand:{filer}") and _dice_of(page, f"hand:{other}")
    # round 3's proof: committed, its seed still secret
    commitment3 = page.inner_text("#tm-commitment")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment3)
    assert page.inner_text("#tm-seed") == "not revealed yet"
    assert page.inner_text("#tm-verify").startswith("Not verified yet")
    shot(page, "a5-review-round-3")
    # through round 3, step by step: its two bids, then back
    start = page.inner_text("#tm-pos")
    page.click("#tm-next")
    assert "bid" in page.inner_text("#tm-step").lower()
    page.click("#tm-next")
    page.click("#tm-pin")
    assert page.inner_text("#tm-pos") == start
    # one step back: round 2's end, its seed revealed and verified by the server
    page.click("#tm-prev")
    assert page.inner_text("#tm-commitment") != commitment3
    assert re.fullmatch(r"[0-9a-f]{64}", page.inner_text("#tm-seed"))
    assert page.inner_text("#tm-verify").startswith("Verified")
    shot(page, "a6-review-round-2-proof")
    # the match's start, and the automatic play marked
    page.click("#tm-first")
    assert page.inner_text("#tm-pos").startswith("Step 1 of")
    for _ in range(4):
        if page.locator("#tm-auto").count():
            break
        page.click("#tm-next")
    assert "automatic play" in page.inner_text("#tm-step")
    assert page.locator("#tm-log li.auto").count() >= 1
    # round 3 as the other player: only their own dice; as a spectator: none
    page.click("#tm-pin")
    options = page.eval_on_selector_all("#tm-as option", "els => els.map(e => e.value)")
    assert options == ["", *state.config.players, "spectator"]
    with page.expect_request(lambda r: "/events?" in r.url and f"as={other}" in r.url):
        page.select_option("#tm-as", other)
    page.wait_for_selector(f'#tm[data-as="{other}"]')
    assert "Round 3" in page.inner_text("#tm-step")
    assert _dice_of(page, f"hand:{filer}") == [] and _dice_of(page, f"hand:{other}")
    shot(page, f"a7-review-as-{other}")
    page.select_option("#tm-as", "spectator")
    page.wait_for_selector('#tm[data-as="spectator"]')
    page.wait_for_selector("#tm-no-hands")
    with page.expect_request(lambda r: "/events?" in r.url and "as=" not in r.url):
        page.select_option("#tm-as", "")
    page.wait_for_selector('#tm[data-as="referee"]')

    # ---- the ruling form: each kind asks for what it needs
    kinds = page.eval_on_selector_all("#r-kind option", "els => els.map(e => e.value)")
    assert "void-round" in kinds and "adjust-dice" in kinds and "correct-turn" not in kinds
    page.select_option("#r-kind", "adjust-dice")
    assert page.locator("#r-player option").count() == 3 and page.locator("#r-delta").count() == 1
    page.select_option("#r-kind", "award-result")
    assert page.locator("#r-params [data-seat]").count() == 2
    page.select_option("#r-kind", "void-round")
    assert page.input_value("#r-round") == "3"  # the pinned round
    page.fill("#r-reason", "A misclick the log confirms.")
    # a round that does not exist: the engine's refusal next to the buttons, nothing stored
    page.fill("#r-round", "99")
    page.click("#r-commit")
    page.wait_for_selector("#r-error:not([hidden])")
    assert (page.get_attribute("#r-error", "data-code") or "").startswith("ruling-")
    assert page.get_attribute("#dispute", "data-status") == "open"
    page.fill("#r-round", "3")
    with page.expect_request(lambda r: r.url.endswith("/preview")) as asked:
        page.click("#r-preview")
    assert asked.value.post_data_json == {"ruling": {"kind": "void-round", "round": 3}}
    page.wait_for_selector("#r-preview-out:not([hidden]) #r-after")
    assert page.is_hidden("#r-error")
    assert page.locator("#r-no-change").count() == 1  # a live table: nobody's rank moves yet
    assert page.locator("#r-preview-out tr.changed").count() == 0
    shot(page, "a8-preview-void-round")
    # a preview stores nothing: the table is still paused at round 3
    assert player.is_visible("#paused") and "Round 3" in player.inner_text("#table .round-no")
    page.click("#r-commit")
    page.wait_for_selector('#dispute[data-status="ruled"]')
    # the live review may draw the ruled dispute before the ruling's own answer shows its notice
    page.wait_for_selector("#d-notice:not([hidden])")
    assert page.is_hidden("#r-form") and page.is_visible("#d-notice")
    assert "A misclick the log confirms." in page.inner_text("#d-ruling")
    assert "Void the round" in page.inner_text("#d-ruling")
    # the review shows the voided round's replay: round 4, with new committed dice
    voided = "The referee voids the round: A misclick the log confirms."
    page.wait_for_selector(f'#tm-log li:has-text("{voided}")', state="attached")
    page.click("#tm-last")
    assert "Round 4" in page.inner_text("#tm-step")
    commitment4 = page.inner_text("#tm-commitment")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment4) and commitment4 not in (commitment3,)
    shot(page, "a9-ruled")
    # the ruled dispute leaves the queue, live
    queue.wait_for_selector(f'#q-rows tr[data-dispute="{dispute_id}"]', state="detached", timeout=10_000)
    assert queue.get_attribute("#q-status", "data-count") == "0"

    # ---- the players' table: unpaused, a new round with its own dice
    player.wait_for_selector("#paused", state="hidden", timeout=10_000)
    player.wait_for_selector("#table .round-no:has-text('Round 4')")
    # a resynchronised table draws round 4 from its state, and the ruling from the events
    # its log fetches then
    player.wait_for_selector(f'#ruled:has-text("{voided}")')
    assert player.inner_text("#ruled") == voided
    player.wait_for_selector(f'#dispute-links li[data-dispute="{dispute_id}"]:has-text("ruled")')
    assert player.locator("#table svg.die").count() >= 1
    assert state_of(match_id).round.number == 4
    shot(player, "a10-match-round-4")
    # the other player opens the table after the ruling: it shows the ruling all the same
    other_name = Seat.objects.get(match_id=match_id, name=other).user.username
    later = open_page(f"/matches/{match_id}/", other_name)
    later.wait_for_selector(f'#ruled:has-text("{voided}")')
    later.close()

    # ---- the match to its end; the standings take the table's result
    play_bidding_match(match_id, rng)
    # the table's result is recorded by a Celery task after the match's commit: a real worker
    # runs it (started only now, so that no turn timer plays during the review)
    with celery_worker(env, tmp_path):
        wait_for(lambda: Table.objects.get(pk=table.pk).status == Table.FINISHED, 20)
        wait_for(lambda: Tournament.objects.get(pk=tournament.pk).status == Tournament.FINISHED, 20)
    table.refresh_from_db()
    assert table.result
    winner_entry = next(line["entry"] for line in table.result if line["placement"] == 1)
    player.wait_for_selector('#match[data-status="finished"]', timeout=10_000)
    standing = _get(player, base, f"/api/tournaments/{tournament.pk}/standings")
    rows = standing["standings"]
    assert next(r for r in rows if r["rank"] == 1)["entry"] == winner_entry, rows
    assert standing["final_ranking"][0]["entry"] == winner_entry, standing["final_ranking"]
    shot(player, "a11-match-over")

    # ---- the whole trail, on both dispute pages
    party.wait_for_selector('#dispute[data-status="ruled"]', timeout=10_000)
    assert party.is_hidden("#referee")
    # the ruling lifts the second pause: its "resumed" line comes before "ruled"
    expected = ["filed", "comment", "paused", "resumed", "paused", "comment", "resumed", "ruled"]
    assert _trail(party) == expected
    page.reload()
    page.wait_for_selector("#dispute[data-loaded]")
    assert _trail(page) == expected
    # a closed dispute: its referee keeps the review, without the pause and the ruling form
    page.wait_for_selector("#tm[data-loaded]")
    assert page.is_visible("#tm") and page.is_hidden("#d-pause-panel") and page.is_hidden("#r-panel")
    assert page.inner_text("#tm-pos").startswith("Step ")
    shot(page, "a12-trail")


# ---------------------------------------------------------------- scenario B


def test_scenario_b_correct_a_turn_of_a_finished_alalay_table(
    open_page: Any, env: dict[str, str], tmp_path: Path
) -> None:
    """Bots play an Alalay final table (a physical one) to its end; the club's scorekeeper files a
    scorekeeping dispute pinned to a turn; the referee previews "correct a turn" (the
    standings now and after, the ranks that move highlighted) and commits it."""
    club, boss = _club("olivia", "rita", scorekeeper="sara")
    rita, sara = _user("rita"), _user("sara")
    # The server rolls the dice: a table won outright (a grande servida) has no scored turn
    # whose striking out moves a rank, and then another table is played.
    found: tuple[Any, ...] | None = None
    for attempt in range(4):
        tournament = services.create_tournament(
            club.pk, boss, name=f"Cochabamba {attempt + 1}", ruleset="alalay", stages=FINAL_TABLE
        )
        register_bots(tournament, boss, 3)
        services.start_tournament(tournament.pk, boss)
        play_bots_until_stuck(tournament, random.Random(9 + attempt))
        table = Table.objects.get(round__tournament=tournament)
        with celery_worker(env, tmp_path):  # records the table's result from its match, as in production
            wait_for(lambda t=table.pk: Table.objects.get(pk=t).status == Table.FINISHED, 20)
            wait_for(lambda t=tournament.pk: Tournament.objects.get(pk=t).status == Tournament.FINISHED, 20)
        # The bots stand in for what the scorekeeper entered at a physical table: a scorekeeper
        # is a party to physical tables only.
        Table.objects.filter(pk=table.pk).update(physical=True)
        table.refresh_from_db()
        names = dict(Match.objects.get(pk=table.match_id).seats.values_list("index", "name"))
        winner_line = min(table.result, key=lambda line: line["placement"])
        winner = names[table.seats.get(entry_id=winner_line["entry"]).match_seat]
        found = _turn_that_moves_a_rank(table.match_id, winner, sara, rita)
        if found is not None:
            break
    assert found is not None, "in four tables, striking out no scored box moves a rank"
    number, ruling, expected = found

    # the scorekeeper files, pinned to that turn, through the API from their browser
    scorekeeper = open_page("/disputes/", "sara", watch=True)
    scorekeeper.wait_for_selector("#queue[data-loaded]")
    filed = scorekeeper.evaluate(
        """async ([match, turn]) => {
          const script = document.querySelector("script[src*='disputes.js']");
          const { api } = await import(new URL("api.js", script.src));
          return api(`/api/matches/${match}/disputes`, { method: "POST",
            body: { reason: "scorekeeping", turn, text: "I entered a box wrongly." } });
        }""",
        [str(table.match_id), number],
    )
    assert filed["pinned"]["turn"] == number and filed["status"] == "open"

    page = open_page(f"/disputes/{filed['id']}/", "rita", watch=True)
    page.wait_for_selector("#dispute[data-loaded]")
    base = page.url.split("/disputes/")[0]
    assert "Scorekeeping error" in page.inner_text("#d-facts")
    assert f"Turn {number}" in page.inner_text("#d-facts")
    assert "Appeal window closes" in page.inner_text("#d-facts")  # the last round's
    page.wait_for_selector("#tm[data-loaded]")
    assert page.locator("#tm-pinned").count() == 1
    assert page.is_hidden("#d-pause-panel")  # a finished match has no clock to pause
    kinds = page.eval_on_selector_all("#r-kind option", "els => els.map(e => e.value)")
    assert "correct-turn" in kinds and "void-round" not in kinds
    page.select_option("#r-kind", "correct-turn")
    assert page.input_value("#r-turn") == str(number)  # the pinned turn
    page.select_option("#r-box", ruling["box"])
    page.check("#r-scratch")
    assert page.is_disabled("#r-points")
    page.fill("#r-reason", "The box was entered wrongly: struck out.")
    with page.expect_request(lambda r: r.url.endswith("/preview")) as asked:
        page.click("#r-preview")
    assert asked.value.post_data_json == {"ruling": ruling}
    page.wait_for_selector("#r-preview-out:not([hidden]) #r-after")
    assert page.is_hidden("#r-error")
    changed = {str(entry) for entry in expected["changed"]}
    for side in ("r-current", "r-after"):
        marked = page.eval_on_selector_all(
            f"#{side} tbody tr.changed", "els => els.map(e => e.dataset.entry)"
        )
        assert set(marked) == changed, (side, marked, changed)
        assert page.locator(f"#{side} tbody tr").count() == 3
    ranks_after = page.eval_on_selector_all(
        "#r-after tbody tr", "els => els.map(e => [e.dataset.entry, e.cells[0].textContent])"
    )
    assert {e: int(r) for e, r in ranks_after} == {str(r["entry"]): r["rank"] for r in expected["after"]}
    page.locator("#r-preview-out").scroll_into_view_if_needed()
    shot(page, "b1-preview-correct-turn")

    before = _get(page, base, f"/api/tournaments/{tournament.pk}/standings")["standings"]
    page.click("#r-commit")
    page.wait_for_selector('#dispute[data-status="ruled"]')
    assert _trail(page) == ["filed", "corrected", "ruled"]
    assert "— referee," in page.inner_text('#d-trail li[data-type="corrected"]')
    said = page.inner_text("#d-ruling")  # the ruling in words: the box's name, the flag's label
    assert "Scratch the box" in said and "true" not in said and f"Box: {ruling['box']};" not in said, said
    shot(page, "b2-ruled")
    after = _get(page, base, f"/api/tournaments/{tournament.pk}/standings")["standings"]
    assert {r["entry"]: r["rank"] for r in after} == {r["entry"]: r["rank"] for r in expected["after"]}
    assert {r["entry"]: r["rank"] for r in after} != {r["entry"]: r["rank"] for r in before}


class _WhatIf(Exception):
    pass


def _turn_that_moves_a_rank(
    match_id: Any, winner: str, scorekeeper: Any, referee: Any
) -> tuple[Any, ...] | None:
    """The first scored turn (the winner's first, then the best scores) whose striking out
    moves a rank, the ruling, and its preview: asked of the real preview, on a dispute filed
    in a transaction rolled back afterwards (nothing stored, nobody told)."""
    turns = _alalay_turns(match_id)
    scored = sorted(
        ((n, t) for n, t in enumerate(turns, start=1) if "score" in t),
        key=lambda nt: (nt[1]["by"] != winner, -(nt[1].get("points") or 0)),
    )
    try:
        with transaction.atomic():
            dispute = disputes.file_dispute(match_id, scorekeeper, reason="scorekeeping")
            for number, turn in scored:
                ruling = {"kind": "correct-turn", "turn": number, "box": turn["score"], "scratch": True}
                preview = rulings.preview(dispute.pk, referee, ruling)
                if preview["changed"]:
                    raise _WhatIf(number, ruling, preview)
            raise _WhatIf(None)
    except _WhatIf as found:
        return None if found.args[0] is None else found.args


def _alalay_turns(match_id: Any) -> list[dict[str, Any]]:
    client = APIClient()
    client.force_authenticate(_user("sara"))
    answer = client.get(f"/api/matches/{match_id}/record")
    assert answer.status_code == 200, answer.content
    return list(answer.json()["turns"])


# ---------------------------------------------------------------- the form and the queue for everyone else


def test_the_table_form_and_the_queue_for_everyone_else(open_page: Any) -> None:
    """A seated player of an Alalay table (in Spanish) is asked for the turn, and files on the
    match's current event when the field is left empty; a spectator has no Dispute button; a
    casual match cannot be disputed; the queue needs a login, and a stranger's (in Spanish)
    is empty although a dispute is open."""
    club, boss = _club("oscar", "ramon")
    _tournament_obj, table = _tournament(club, boss, "alalay", ("ana", "beto"), FINAL_TABLE)

    page = open_page(f"/matches/{table.match_id}/", "beto", locale="es")
    page.wait_for_selector("#match[data-version]")
    assert "Disputar" in page.inner_text("#dispute-open")
    page.click("#dispute-open")
    assert page.input_value("#dispute-where") == "1"
    assert "Turno" in page.inner_text("#dispute-where-label")
    page.select_option("#dispute-reason", "scorekeeping")
    page.fill("#dispute-where", "")
    with page.expect_request(lambda r: r.url.endswith("/disputes") and r.method == "POST") as sent:
        page.click("#dispute-submit")
    assert sent.value.post_data_json == {
        "reason": "scorekeeping",
        "text": "",
        "version": int(page.get_attribute("#match", "data-version")),
    }
    page.wait_for_selector("#dispute-link")
    assert "Disputa" in page.inner_text("#dispute-done")
    shot(page, "c1-alalay-filed-es")

    watcher = open_page(f"/matches/{table.match_id}/", "zoe", watch=True)
    watcher.wait_for_selector("#match[data-version]")
    assert watcher.is_hidden("#dispute-box")

    casual = matches.create_match("dudo", ["ana", "beto"], turn_seconds=30)
    for index, name in enumerate(("ana", "beto")):
        matches.take_seat(casual.pk, index, _user(name))
    ana = open_page(f"/matches/{casual.pk}/", "ana")
    ana.wait_for_selector("#match[data-version]")
    ana.click("#dispute-open")
    ana.click("#dispute-submit")
    ana.wait_for_selector('#dispute-error[data-code="dispute-not-tournament"]')

    assert "/login/" in open_page("/disputes/").url
    stranger = open_page("/disputes/", "zoe", locale="es", watch=True)
    stranger.wait_for_selector("#queue[data-loaded]")
    assert stranger.get_attribute("#q-status", "data-count") == "0"
    assert "No hay disputas abiertas" in stranger.inner_text("#q-rows")
    # The queue answers anyone signed in, but only a club's referees and managers find it
    # in the menu.
    assert "Disputas" not in stranger.inner_text("header nav")
    assert "Motivo" in stranger.inner_text("#q-table thead")
    shot(stranger, "c2-queue-empty-es")


def test_an_alalay_player_files_on_the_turn_being_played(open_page: Any) -> None:
    club, boss = _club("oscar", "ramon")
    _tournament_obj, table = _tournament(club, boss, "alalay", ("ana", "beto"), FINAL_TABLE)
    page = open_page(f"/matches/{table.match_id}/", "beto")
    page.wait_for_selector("#match[data-version]")
    page.click("#dispute-open")
    assert page.input_value("#dispute-where") == "1"  # the turn being played
    page.click("#dispute-submit")
    page.wait_for_selector("#dispute-link, #dispute-error:not([hidden])")
    assert page.is_hidden("#dispute-error"), page.inner_text("#dispute-error")
