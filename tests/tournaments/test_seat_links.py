"""Seat links: a walk-in (a guest entry, no account) plays its seat at an online table from
a single-use link (docs/tournaments.md, "Seat links for walk-ins"). Issued with the
director's view of the round, claimed by a browser (its session then plays that seat and
only it), refused when reused, revoked, unknown or held by an account, re-issued by the
director; starting the round's clock with seats still waiting warns first; the browser
follows its entry to the entry's later tables until the director re-issues its link."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from django.test import Client

from cacho.edge.limits import clear as clear_limits
from cacho.models import Seat
from cacho.services import matches as match_service
from tests.tournaments.helpers import club_with_organiser, finish_round
from tournaments.models import Round, SeatLink, Table, TournamentEvent
from tournaments.services import create_tournament, register, start_tournament
from tournaments.services.desk import claim_entry

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_too]

STAGES = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]


@pytest.fixture(autouse=True)
def fresh_limits() -> Any:
    clear_limits()
    yield
    clear_limits()


def _evening(make_user: Any, guests: int = 4) -> tuple[Any, Any]:
    club, owner = club_with_organiser(make_user, "links")
    tournament = create_tournament(club.pk, owner, name="Jueves", ruleset="dudo", stages=STAGES)
    for i in range(guests):
        register(tournament.pk, owner, name=f"Guest {i}")
    start_tournament(tournament.pk, owner)
    return tournament, owner


def _director(owner: Any) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def _console(client: Client, tournament: Any) -> dict[str, Any]:
    answer = client.get(f"/api/tournaments/{tournament.pk}/console")
    assert answer.status_code == 200
    return answer.json()


def _links(client: Client, tournament: Any) -> list[dict[str, Any]]:
    return [link for table in _console(client, tournament)["round"]["tables"] for link in table["seat_links"]]


def _token(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def _claim(client: Client, token: str) -> Any:
    return client.post("/api/seat-links/claim", json.dumps({"token": token}), content_type="application/json")


def _viewer(client: Client, match_id: str) -> dict[str, Any]:
    return client.get(f"/api/matches/{match_id}").json()["viewer"]


def _log(tournament: Any) -> list[TournamentEvent]:
    return list(TournamentEvent.objects.filter(tournament=tournament).order_by("version"))


def test_each_guest_seat_at_an_online_table_has_a_link_only_the_director_sees(make_user: Any) -> None:
    tournament, owner = _evening(make_user)
    director = _director(owner)
    links = _links(director, tournament)
    assert len(links) == 4 and {link["status"] for link in links} == {"waiting"}
    for link in links:
        assert "/seat/" in link["url"] and link["qr_url"] == link["url"] + "qr.svg"
        token = _token(link["url"])
        # Stored only as its hash.
        row = SeatLink.objects.get(pk=link["link"])
        assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
        assert token not in json.dumps(list(SeatLink.objects.values()), default=str)
    # The same links on every read: the table card, the slip and the console agree.
    assert _links(director, tournament) == links
    # The public reads the seats that wait, never a link.
    public = _console(Client(), tournament)["round"]["tables"]
    assert all(table["seat_links"] == [] for table in public)
    assert sorted(e for table in public for e in table["waiting_for"]) == sorted(
        link["entry"] for link in links
    )
    qr = Client().get(links[0]["qr_url"])
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content


def test_a_claimed_link_seats_that_browser_and_only_it(make_user: Any) -> None:
    tournament, owner = _evening(make_user)
    link = _links(_director(owner), tournament)[0]
    phone = Client()
    answer = _claim(phone, _token(link["url"]))
    assert answer.status_code == 200, answer.content
    body = answer.json()
    table = Table.objects.get(round__tournament=tournament, seats__entry_id=link["entry"])
    assert body["match"] == str(table.match_id) and body["name"] == link["name"]
    assert _viewer(phone, body["match"]) == {"kind": "player", "player": body["seat"]}
    # Nobody else, and not at another table.
    assert _viewer(Client(), body["match"])["kind"] == "spectator"
    other = Table.objects.filter(round__tournament=tournament).exclude(pk=table.pk).first()
    assert _viewer(phone, str(other.match_id))["kind"] == "spectator"
    claimed = _log(tournament)[-1]
    assert claimed.type == "seat-link-claimed" and claimed.payload["entry"] == link["entry"]
    assert _token(link["url"]) not in json.dumps([e.payload for e in _log(tournament)])
    status = {row["entry"]: row["status"] for row in _links(_director(owner), tournament)}
    assert status[link["entry"]] == "claimed"
    waiting = [e for t in _console(Client(), tournament)["round"]["tables"] for e in t["waiting_for"]]
    assert link["entry"] not in waiting and len(waiting) == 3
    # The page of the link sends this phone back to its table.
    again = phone.get(f"/seat/{_token(link['url'])}/")
    assert again.status_code == 302 and again["Location"] == f"/matches/{body['match']}/"


def test_a_used_link_is_refused_and_nothing_is_stored(make_user: Any) -> None:
    tournament, owner = _evening(make_user)
    link = _links(_director(owner), tournament)[0]
    assert _claim(Client(), _token(link["url"])).status_code == 200
    version = tournament.events.count()
    thief = Client()
    answer = _claim(thief, _token(link["url"]))
    assert answer.status_code == 409 and answer.json()["code"] == "seat-link-used"
    assert set(answer.json()) == {"code", "message"}
    assert tournament.events.count() == version
    table = Table.objects.get(round__tournament=tournament, seats__entry_id=link["entry"])
    assert _viewer(thief, str(table.match_id))["kind"] == "spectator"
    page = thief.get(f"/seat/{_token(link['url'])}/")
    assert page.status_code == 409 and b'data-code="seat-link-used"' in page.content


def test_revoke_and_reissue_the_old_link_fails_the_new_one_works(make_user: Any) -> None:
    tournament, owner = _evening(make_user)
    director = _director(owner)
    link = _links(director, tournament)[0]
    table = Table.objects.get(round__tournament=tournament, seats__entry_id=link["entry"])
    first = Client()
    assert _claim(first, _token(link["url"])).status_code == 200
    answer = director.post(f"/api/tables/{table.pk}/seat-links/{link['entry']}/reissue")
    assert answer.status_code == 201, answer.content
    new = answer.json()
    assert new["url"] != link["url"] and new["status"] == "waiting"
    revoked, issued = _log(tournament)[-2:]
    assert (revoked.type, issued.type) == ("seat-link-revoked", "seat-link-issued")
    assert revoked.payload["was_claimed"] is True and revoked.actor == f"user:{owner.pk}"
    text = json.dumps([e.payload for e in _log(tournament)])
    assert _token(link["url"]) not in text and _token(new["url"]) not in text
    # The browser that claimed the old link holds the seat no more.
    assert _viewer(first, str(table.match_id))["kind"] == "spectator"
    old = _claim(Client(), _token(link["url"]))
    assert old.status_code == 410 and old.json()["code"] == "seat-link-revoked"
    page = Client().get(f"/seat/{_token(link['url'])}/")
    assert page.status_code == 410 and b"seat-link-revoked" in page.content
    second = Client()
    assert _claim(second, _token(new["url"])).status_code == 200
    assert _viewer(second, str(table.match_id))["kind"] == "player"


def test_only_the_director_reissues(make_user: Any) -> None:
    tournament, owner = _evening(make_user)
    link = _links(_director(owner), tournament)[0]
    table = Table.objects.get(round__tournament=tournament, seats__entry_id=link["entry"])
    stranger = _director(make_user("stranger"))
    version = tournament.events.count()
    answer = stranger.post(f"/api/tables/{table.pk}/seat-links/{link['entry']}/reissue")
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
    assert stranger.get(f"/api/tables/{table.pk}/seat-links").status_code == 403
    assert tournament.events.count() == version


def test_a_seat_held_by_an_account_is_refused(make_user: Any) -> None:
    tournament, owner = _evening(make_user)
    links = _links(_director(owner), tournament)
    # The entry claimed to an account (the desk's claim flow): its player signs in.
    claim_entry(links[0]["entry"], owner, make_user("ana").username)
    version = tournament.events.count()
    answer = _claim(Client(), _token(links[0]["url"]))
    assert answer.status_code == 409 and answer.json()["code"] == "seat-held"
    # An account took the match's seat.
    table = Table.objects.get(round__tournament=tournament, seats__entry_id=links[1]["entry"])
    seat = table.seats.get(entry_id=links[1]["entry"]).match_seat
    match_service.take_seat(table.match_id, seat, make_user("beto"))
    answer = _claim(Client(), _token(links[1]["url"]))
    assert answer.status_code == 409 and answer.json()["code"] == "seat-held"
    assert tournament.events.count() == version
    assert SeatLink.objects.filter(status=SeatLink.CLAIMED).count() == 0


def test_an_unknown_link_is_refused_and_many_failures_are_limited(make_user: Any, settings: Any) -> None:
    tournament, owner = _evening(make_user, guests=2)
    link = _links(_director(owner), tournament)[0]
    answer = _claim(Client(), "x" * 43)
    assert answer.status_code == 404 and answer.json()["code"] == "seat-link-invalid"
    page = Client().get("/seat/" + "y" * 43 + "/")
    assert page.status_code == 404 and b'data-code="seat-link-invalid"' in page.content
    settings.CACHO_RATES = {**settings.CACHO_RATES, "seat-link": "3/10min"}
    clear_limits()
    for _ in range(3):
        assert _claim(Client(), "z" * 43).status_code == 404
    limited = _claim(Client(), _token(link["url"]))
    assert limited.status_code == 429 and limited.json()["code"] == "rate-limited"
    assert SeatLink.objects.get(pk=link["link"]).status == SeatLink.ACTIVE


def test_starting_the_round_clock_warns_while_guest_seats_wait(make_user: Any) -> None:
    tournament, owner = _evening(make_user)
    director = _director(owner)
    links = _links(director, tournament)
    rnd = Round.objects.get(tournament=tournament)
    start = {"action": "start", "minutes": 45}
    version = tournament.events.count()
    answer = director.post(f"/api/rounds/{rnd.pk}/clock", json.dumps(start), content_type="application/json")
    assert answer.status_code == 409, answer.content
    body = answer.json()
    assert body["code"] == "unclaimed-guest-seats" and len(body["seats"]) == 4
    assert {seat["name"] for seat in body["seats"]} == {link["name"] for link in links}
    rnd.refresh_from_db()
    assert rnd.clock_seconds is None and tournament.events.count() == version
    # Fewer wait once a player took a seat; the director starts anyway.
    assert _claim(Client(), _token(links[0]["url"])).status_code == 200
    answer = director.post(f"/api/rounds/{rnd.pk}/clock", json.dumps(start), content_type="application/json")
    assert answer.status_code == 409 and len(answer.json()["seats"]) == 3
    confirmed = {**start, "confirm": True}
    answer = director.post(
        f"/api/rounds/{rnd.pk}/clock", json.dumps(confirmed), content_type="application/json"
    )
    assert answer.status_code == 200 and answer.json()["state"] == "running"


def test_a_tournament_of_accounts_or_at_physical_tables_has_no_links(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user, "accounts")
    tournament = create_tournament(club.pk, owner, name="Cuentas", ruleset="dudo", stages=STAGES)
    for name in ("ana", "beto"):
        register(tournament.pk, owner, name=name, user=make_user(name))
    start_tournament(tournament.pk, owner)
    director = _director(owner)
    assert _links(director, tournament) == []
    rnd = Round.objects.get(tournament=tournament)
    start = json.dumps({"action": "start", "minutes": 30})
    assert (
        director.post(f"/api/rounds/{rnd.pk}/clock", start, content_type="application/json").status_code
        == 200
    )
    physical = create_tournament(club.pk, owner, name="Mesa", ruleset="dudo", stages=STAGES, physical=True)
    for name in ("Carla", "Dani"):
        register(physical.pk, owner, name=name)
    start_tournament(physical.pk, owner)
    assert _links(director, physical) == []


def test_the_cards_and_slips_print_each_guest_seats_code_for_the_director_only(make_user: Any) -> None:
    tournament, owner = _evening(make_user)
    director = _director(owner)
    links = _links(director, tournament)
    for kind in ("cards", "slips"):
        page = director.get(f"/api/tournaments/{tournament.pk}/print/{kind}").content.decode()
        assert page.count('class="seat-link"') == 4 and page.count("<svg") == 4
        assert all(link["url"] in page for link in links)
        public = Client().get(f"/api/tournaments/{tournament.pk}/print/{kind}").content.decode()
        assert "/seat/" not in public and "<svg" not in public


def test_a_tournament_guests_seat_is_not_taken_through_the_match_api(make_user: Any) -> None:
    """Only the guest's link seats a walk-in: any signed-in user posting to the match's seat
    endpoint is refused and the seat stays free for the link."""
    tournament, owner = _evening(make_user, guests=2)
    links = _links(_director(owner), tournament)
    table = Table.objects.get(round__tournament=tournament, seats__entry_id=links[0]["entry"])
    seat = table.seats.get(entry_id=links[0]["entry"]).match_seat
    intruder = Client()
    intruder.force_login(make_user("mallory"))
    answer = intruder.post(f"/api/matches/{table.match_id}/seats/{seat}")
    assert answer.status_code == 409 and answer.json()["code"] == "seat-assigned"
    assert _claim(Client(), _token(links[0]["url"])).status_code == 200


def test_a_walk_in_follows_its_entry_to_its_next_table_until_the_director_reissues(make_user: Any) -> None:
    tournament, owner = _evening(make_user)
    director = _director(owner)
    link = _links(director, tournament)[0]
    entry = link["entry"]
    first = Table.objects.get(round__tournament=tournament, seats__entry_id=entry)
    phone = Client()
    assert _claim(phone, _token(link["url"])).status_code == 200
    # Before the next round is drawn, the walk-in has no next table.
    assert phone.get(f"/api/matches/{first.match_id}/tournament").json()["next_match"] is None
    finish_round(tournament)
    table = Table.objects.get(round__number=2, round__tournament=tournament, seats__entry_id=entry)
    seat = table.seats.get(entry_id=entry).match_seat
    name = Seat.objects.get(match_id=table.match_id, index=seat).name
    # The same phone plays the entry's seat at its round-2 table, with no new link: its own
    # dice, no one else's.
    detail = phone.get(f"/api/matches/{table.match_id}").json()
    assert detail["viewer"] == {"kind": "player", "player": name}
    assert set(detail["state"]["round"]["dice"]) == {name}
    assert _viewer(Client(), str(table.match_id))["kind"] == "spectator"
    other = Table.objects.filter(round__number=2, round__tournament=tournament).exclude(pk=table.pk).first()
    assert _viewer(phone, str(other.match_id))["kind"] == "spectator"
    # The end screen of its round-1 table leads it there, and shows its own standings row.
    place = phone.get(f"/api/matches/{first.match_id}/tournament").json()
    assert place["next_match"] == str(table.match_id) and place["seated"] is True
    assert [row["entry"] for row in place["standings"]["rows"] if row["mine"]] == [entry]
    assert Client().get(f"/api/matches/{first.match_id}/tournament").json()["next_match"] is None
    # The console shows the entry's round-2 seat as claimed; it waits for no one.
    rows = {row["entry"]: row for row in _links(director, tournament)}
    assert rows[entry]["status"] == "claimed"
    assert [r["status"] for e, r in rows.items() if e != entry] == ["waiting"] * 3
    public = _console(Client(), tournament)["round"]["tables"]
    assert entry not in [e for t in public for e in t["waiting_for"]]
    # Its round-2 link sends this phone to its table, and seats no one else.
    round_two = _token(rows[entry]["url"])
    again = phone.get(f"/seat/{round_two}/")
    assert again.status_code == 302 and again["Location"] == f"/matches/{table.match_id}/"
    version = tournament.events.count()
    stranger = Client()
    answer = _claim(stranger, round_two)
    assert answer.status_code == 409 and answer.json()["code"] == "seat-link-used"
    assert tournament.events.count() == version
    assert _viewer(stranger, str(table.match_id))["kind"] == "spectator"
    # The director re-issues the round-2 link: the phone plays the entry no more.
    answer = director.post(f"/api/tables/{table.pk}/seat-links/{entry}/reissue")
    assert answer.status_code == 201, answer.content
    assert _log(tournament)[-2].payload["was_claimed"] is True
    assert _viewer(phone, str(table.match_id))["kind"] == "spectator"
    assert phone.get(f"/api/matches/{first.match_id}/tournament").json()["next_match"] is None
    assert {row["entry"]: row["status"] for row in _links(director, tournament)}[entry] == "waiting"
    second = Client()
    assert _claim(second, _token(answer.json()["url"])).status_code == 200
    assert _viewer(second, str(table.match_id)) == {"kind": "player", "player": name}
    assert _viewer(phone, str(table.match_id))["kind"] == "spectator"


def test_an_entry_claimed_to_an_account_is_followed_by_no_browser(make_user: Any) -> None:
    tournament, owner = _evening(make_user)
    link = _links(_director(owner), tournament)[0]
    phone = Client()
    assert _claim(phone, _token(link["url"])).status_code == 200
    claim_entry(link["entry"], owner, make_user("ana").username)
    finish_round(tournament)
    table = Table.objects.get(round__number=2, round__tournament=tournament, seats__entry_id=link["entry"])
    assert _viewer(phone, str(table.match_id))["kind"] == "spectator"
