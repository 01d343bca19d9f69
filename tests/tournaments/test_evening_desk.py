"""A club evening at the desk and on the console: guests, a pasted list, removal, claims,
manual seeds, disqualification (ranked last), late entries, the round clock, the tables'
states, the printables, and the club's people (members by username or email, invitations
accepted at sign-up, roles, the club log). Precise codes, nothing stored on refusal."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from rest_framework.test import APIClient

from cacho.models import Player
from cacho.services import matches as match_service
from tests.cacho.helpers import command_id, legal_bidding_move, state_of
from tests.tournaments.disputes import Club as DisputeClub
from tests.tournaments.helpers import club_with_organiser, finish_round, play_scripted
from tournaments.clubs import log as club_log
from tournaments.clubs import members
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import (
    ClubEvent,
    ClubInvitation,
    Entry,
    Membership,
    Round,
    Table,
    Tournament,
    TournamentEvent,
)
from tournaments.services import clock as round_clock
from tournaments.services import create_tournament, desk, disputes, log, register, start_tournament, tables
from tournaments.services.lifecycle import locked
from tournaments.services.standings import final_ranking

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_too]

SWISS = [{"name": "swiss", "format": "swiss", "params": {"rounds": 3, "table_size": 4}}]
ROBIN = [{"name": "groups", "format": "round_robin", "params": {"table_size": 2}}]


def client(user: Any) -> APIClient:
    made = APIClient()
    made.force_authenticate(user)
    return made


def logged(tournament: Tournament, kind: str) -> list[dict[str, Any]]:
    return list(
        TournamentEvent.objects.filter(tournament=tournament, type=kind)
        .order_by("version")
        .values_list("payload", flat=True)
    )


def cup(
    make_user: Any, plan: list[dict[str, Any]] = SWISS, guests: int = 8, **extra: Any
) -> tuple[Tournament, Any]:
    club, owner = club_with_organiser(make_user, f"c{make_user().pk}")
    tournament = create_tournament(club.pk, owner, name="Martes", ruleset="dudo", stages=plan, **extra)
    for i in range(1, guests + 1):
        register(tournament.pk, owner, name=f"Guest {i:02d}")
    return tournament, owner


# ---------------------------------------------------------------- guests and the pasted list


def test_an_entry_by_name_alone_is_a_guest_and_accounts_are_named_by_username(make_user: Any) -> None:
    tournament, owner = cup(make_user, guests=0)
    ana = make_user("ana")
    base = f"/api/tournaments/{tournament.pk}/entries"
    guest = client(owner).post(base, {"name": "Doña Rosa"}, format="json")
    assert guest.status_code == 201 and guest.json()["user"] is None  # not the organiser
    assert logged(tournament, log.REGISTERED)[-1]["guest"] is True
    named = client(owner).post(base, {"username": "ana"}, format="json")
    assert named.status_code == 201 and named.json()["user"] == ana.pk and named.json()["name"] == "ana"
    unknown = client(owner).post(base, {"name": "X", "username": "nobody"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["code"] == "user-unknown"
    beto = make_user("beto")
    mine = client(beto).post(base, {"name": "Beto"}, format="json")  # a player registers themself
    assert mine.status_code == 201 and mine.json()["user"] == beto.pk
    assert Entry.objects.filter(tournament=tournament).count() == 3


def test_a_pasted_list_registers_each_name_and_refuses_each_bad_line(make_user: Any) -> None:
    tournament, owner = cup(make_user, guests=0)
    register(tournament.pk, owner, name="Dora")
    text = "Ana\n\n  Beto  \nana\nCarla  López\nDora\n" + "x" * 65 + "\nBeto\n   \n"
    response = client(owner).post(
        f"/api/tournaments/{tournament.pk}/entries/bulk", {"names": text}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert [e["name"] for e in body["registered"]] == ["Ana", "Beto", "Carla López"]
    assert all(e["user"] is None for e in body["registered"])
    refused = {(r["line"], r["code"]) for r in body["refused"]}
    assert refused == {
        (4, "entry-name-duplicate"),
        (6, "entry-name-taken"),
        (7, "entry-name-invalid"),
        (8, "entry-name-duplicate"),
    }
    assert all(r["message"] for r in body["refused"]) and body["blank"] == 2
    assert set(tournament.entries.values_list("name", flat=True)) == {"Ana", "Beto", "Carla López", "Dora"}
    too_long = client(owner).post(
        f"/api/tournaments/{tournament.pk}/entries/bulk", {"names": "a\n" * 501}, format="json"
    )
    assert too_long.status_code == 400 and too_long.json()["code"] == "bulk-too-long"
    assert tournament.entries.count() == 4


def test_an_entry_is_removed_before_the_start_only(make_user: Any) -> None:
    tournament, owner = cup(make_user)
    gone = tournament.entries.first()
    assert client(owner).delete(f"/api/entries/{gone.pk}").status_code == 204
    assert logged(tournament, log.ENTRY_REMOVED) == [{"entry": gone.pk, "name": gone.name}]
    start_tournament(tournament.pk, owner)
    other = tournament.entries.first()
    late = client(owner).delete(f"/api/entries/{other.pk}")
    assert late.status_code == 400 and late.json()["code"] == "entry-remove-too-late"
    assert Entry.objects.filter(pk=other.pk).exists()


def test_an_account_claims_a_guest(make_user: Any) -> None:
    tournament, owner = cup(make_user)
    guest = tournament.entries.first()
    lucia = make_user("lucia")
    claimed = client(owner).post(f"/api/entries/{guest.pk}/claim", {"username": "lucia"}, format="json")
    assert claimed.status_code == 200 and claimed.json()["user"] == lucia.pk
    assert logged(tournament, log.ENTRY_CLAIMED) == [
        {"entry": guest.pk, "player": Player.objects.get(user=lucia).public_id}  # never the username
    ]
    again = client(owner).post(f"/api/entries/{guest.pk}/claim", {"username": "lucia"}, format="json")
    assert again.status_code == 400 and again.json()["code"] == "entry-claimed"
    other = tournament.entries.exclude(pk=guest.pk).first()
    twice = client(owner).post(f"/api/entries/{other.pk}/claim", {"username": "lucia"}, format="json")
    assert twice.status_code == 400 and twice.json()["code"] == "already-registered"
    nobody = client(owner).post(f"/api/entries/{other.pk}/claim", {"username": "nobody"}, format="json")
    assert nobody.status_code == 400 and nobody.json()["code"] == "user-unknown"
    assert Entry.objects.get(pk=other.pk).user_id is None


def test_manual_seeds_set_at_the_desk_seed_the_start(make_user: Any) -> None:
    drawn, owner = cup(make_user, guests=2)
    refused = client(owner).post(f"/api/tournaments/{drawn.pk}/seeds", {"order": [1, 2]}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "seeding-not-manual"
    tournament, owner = cup(make_user, seeding_method="manual")
    ids = list(tournament.entries.order_by("pk").values_list("pk", flat=True))
    order = ids[::-1]
    path = f"/api/tournaments/{tournament.pk}/seeds"
    for wrong in (order[1:], [order[0], *order[:-1]], [*order, 999999]):
        response = client(owner).post(path, {"order": wrong}, format="json")
        assert response.status_code == 400 and response.json()["code"] == "seeds-mismatch"
    assert not logged(tournament, log.SEEDS_SET)
    done = client(owner).post(path, {"order": order}, format="json")
    assert done.status_code == 200 and [e["id"] for e in done.json()] == order
    start_tournament(tournament.pk, owner)
    assert tournament.stages.get().entrants == [str(i) for i in order]
    assert logged(tournament, log.SEEDED)[0]["order"] == [str(i) for i in order]


# ---------------------------------------------------------------- disqualification and late entries


def test_a_disqualified_entry_is_out_of_play_and_ranked_last(make_user: Any) -> None:
    tournament, owner = cup(make_user)
    start_tournament(tournament.pk, owner)
    finish_round(tournament)  # round 1: each table's first seat wins
    winner = (
        Table.objects.filter(round__tournament=tournament, round__number=1).first().seats.get(index=0).entry
    )
    path = f"/api/entries/{winner.pk}/disqualify"
    missing = client(owner).post(path, {"reason": "  "}, format="json")
    assert missing.status_code == 400 and missing.json()["code"] in ("reason-missing", "invalid-input")
    done = client(owner).post(path, {"reason": "Dice from his pocket"}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "disqualified"
    event = logged(tournament, log.DISQUALIFIED)[-1]
    assert event["reason"] == "Dice from his pocket" and event["previous_status"] == "active"
    # round 2 is in play: the entry left its table, a forfeit
    seat = winner.seats.get(table__round__number=2)
    assert seat.forfeited
    again = client(owner).post(path, {"reason": "again"}, format="json")
    assert again.status_code == 400 and again.json()["code"] == "entry-disqualified"
    withdrawn = client(owner).post(f"/api/entries/{winner.pk}/withdraw")
    assert withdrawn.status_code == 400 and withdrawn.json()["code"] == "entry-not-playing"
    play_scripted(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    assert not winner.seats.filter(table__round__number=3).exists()  # drawn no more
    ranking = final_ranking(tournament)
    assert ranking[-1].entry_id == winner.pk and ranking[-1].place == len(ranking)
    assert [p for p, e in logged(tournament, log.FINISHED)[0]["places"] if e == winner.pk] == [len(ranking)]
    ranked = client(owner).get(f"/api/tournaments/{tournament.pk}/ranking").json()["ranking"]
    assert ranked[-1]["entry"] == winner.pk


def test_an_organiser_lifts_a_disqualification_and_the_entry_plays_on(make_user: Any) -> None:
    tournament, owner = cup(make_user)
    start_tournament(tournament.pk, owner)
    entry = tournament.entries.first()
    desk.disqualify(entry.pk, owner, "A misunderstanding")
    lifted = client(owner).post(f"/api/entries/{entry.pk}/reinstate")
    assert lifted.status_code == 200 and lifted.json()["status"] == "active"
    assert logged(tournament, log.REINSTATED)[-1]["disqualification_lifted"] is True
    finish_round(tournament)
    assert entry.seats.filter(table__round__number=2).exists()


def test_a_late_entry_joins_the_next_round_of_a_swiss(make_user: Any) -> None:
    tournament, owner = cup(make_user)
    start_tournament(tournament.pk, owner)
    late = client(owner).post(f"/api/tournaments/{tournament.pk}/entries", {"name": "Tardía"}, format="json")
    assert late.status_code == 201 and late.json()["status"] == "active"
    entry = Entry.objects.get(pk=late.json()["id"])
    joined = logged(tournament, log.REGISTERED)[-1]
    assert joined["late"] is True and joined["from_stage_round"] == 2 and joined["stage"] == 1
    assert str(entry.pk) in tournament.stages.get().entrants
    assert not entry.seats.exists()
    finish_round(tournament)
    assert entry.seats.filter(table__round__number=2).exists()
    finish_round(tournament)  # round 3 drawn: no round is left to join
    closed = client(owner).post(f"/api/tournaments/{tournament.pk}/entries", {"name": "Otra"}, format="json")
    assert closed.status_code == 400 and closed.json()["code"] == "late-entry-closed"
    assert not Entry.objects.filter(name="Otra").exists()


def test_a_round_robin_takes_no_late_entry(make_user: Any) -> None:
    tournament, owner = cup(make_user, ROBIN, guests=4)
    start_tournament(tournament.pk, owner)
    refused = client(owner).post(
        f"/api/tournaments/{tournament.pk}/entries", {"name": "Tarde"}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["code"] == "late-entry-format"
    pasted = client(owner).post(
        f"/api/tournaments/{tournament.pk}/entries/bulk", {"names": "A\nB"}, format="json"
    )
    assert pasted.status_code == 400 and pasted.json()["code"] == "late-entry-format"
    assert tournament.entries.count() == 4


def test_undo_check_in(make_user: Any) -> None:
    tournament, owner = cup(make_user, checkin_deadline=timezone.now() + dt.timedelta(hours=1))
    entry = tournament.entries.first()
    refused = client(owner).post(f"/api/entries/{entry.pk}/undo-check-in")
    assert refused.status_code == 400 and refused.json()["code"] == "entry-not-checked-in"
    client(owner).post(f"/api/entries/{entry.pk}/check-in")
    undone = client(owner).post(f"/api/entries/{entry.pk}/undo-check-in")
    assert undone.status_code == 200 and undone.json()["status"] == "registered"
    assert undone.json()["checked_in_at"] is None
    assert logged(tournament, log.CHECK_IN_UNDONE) == [{"entry": entry.pk}]


# ---------------------------------------------------------------- the round clock


def test_the_round_clock_starts_pauses_resumes_extends_and_is_logged(make_user: Any) -> None:
    tournament, owner = cup(make_user)
    start_tournament(tournament.pk, owner)
    rnd = tournament.rounds.get()
    t0 = timezone.now()

    def at(minutes: float) -> dt.datetime:
        return t0 + dt.timedelta(minutes=minutes)

    def left(minutes: float) -> float:
        rnd.refresh_from_db()
        return round_clock.clock_view(rnd, at(minutes))["remaining_ms"] / 60000

    def refused(action: str, code: str, minutes: Any = None, when: float = 0) -> None:
        tournament.refresh_from_db()
        before = (
            Round.objects.filter(pk=rnd.pk).values_list("clock_seconds", "clock_used_ms").get(),
            tournament.version,
        )
        with pytest.raises(Exception) as caught:
            round_clock.act(rnd.pk, owner, action, minutes, at(when))
        assert getattr(caught.value, "code", None) == code
        tournament.refresh_from_db()
        assert (
            Round.objects.filter(pk=rnd.pk).values_list("clock_seconds", "clock_used_ms").get(),
            tournament.version,
        ) == before

    refused("pause", "clock-not-running")
    refused("extend", "clock-not-started", 5)
    refused("start", "clock-time-invalid", 0)
    refused("start", "clock-time-invalid", 60 * 13)
    refused("start", "clock-time-invalid", "45")
    refused("start", "clock-time-invalid", 1e308)
    round_clock.act(rnd.pk, owner, "start", 45, at(0))
    assert left(10) == pytest.approx(35)
    refused("start", "clock-started", 45, 1)
    refused("resume", "clock-not-paused", None, 1)
    round_clock.act(rnd.pk, owner, "pause", None, at(10))
    assert left(20) == pytest.approx(35) and round_clock.clock_view(rnd, at(20))["ends_at"] is None
    round_clock.act(rnd.pk, owner, "resume", None, at(20))
    round_clock.act(rnd.pk, owner, "extend", 5, at(30))
    assert left(30) == pytest.approx(30)
    refused("extend", "clock-time-invalid", -40, 30)  # it would end before the 20 minutes used
    assert left(80) == pytest.approx(-20)  # overtime
    round_clock.act(rnd.pk, owner, "reset", None, at(81))
    assert round_clock.clock_view(Round.objects.get(pk=rnd.pk), at(82))["state"] == "idle"
    kinds = list(
        TournamentEvent.objects.filter(tournament=tournament, type__startswith="clock-")
        .order_by("version")
        .values_list("type", "payload")
    )
    assert [k for k, _p in kinds] == [
        "clock-started",
        "clock-paused",
        "clock-resumed",
        "clock-extended",
        "clock-reset",
    ]
    assert kinds[0][1] == {"round": 1, "seconds": 2700} and kinds[3][1]["total_seconds"] == 3000
    assert log.verify_chain(tournament.pk)[0]
    finish_round(tournament)
    refused_finished = client(owner).post(
        f"/api/rounds/{rnd.pk}/clock", {"action": "start", "minutes": 10}, format="json"
    )
    assert refused_finished.status_code == 400 and refused_finished.json()["code"] == "round-finished"
    unknown = client(owner).post(f"/api/rounds/{rnd.pk}/clock", {"action": "stop"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["code"] == "invalid-input"


def test_the_clock_is_read_by_round_tournament_and_match(make_user: Any) -> None:
    tournament, owner = cup(make_user)
    reader = APIClient()
    assert reader.get(f"/api/tournaments/{tournament.pk}/clock").json()["state"] == "none"
    start_tournament(tournament.pk, owner)
    rnd = tournament.rounds.get()
    started = client(owner).post(
        f"/api/rounds/{rnd.pk}/clock", {"action": "start", "minutes": 45, "confirm": True}, format="json"
    )
    assert started.status_code == 200 and started.json()["state"] == "running"
    assert 44 * 60000 < started.json()["remaining_ms"] <= 45 * 60000 and started.json()["ends_at"]
    match_id = rnd.tables.first().match_id
    for path in (
        f"/api/tournaments/{tournament.pk}/clock",
        f"/api/matches/{match_id}/clock",
        f"/api/rounds/{rnd.pk}/clock",
    ):
        body = reader.get(path).json()
        assert body["round_id"] == rnd.pk and body["seconds"] == 2700 and body["state"] == "running", path
    assert reader.get("/api/matches/not-a-match/clock").json()["state"] == "none"
    assert reader.get("/api/tournaments/999999/clock").status_code == 404


# ---------------------------------------------------------------- the console's tables


def test_the_console_shows_each_table_waiting_playing_finished_or_disputed(club: DisputeClub) -> None:
    tournament = club.tournament
    path = f"/api/tournaments/{tournament.pk}/console"

    def states() -> dict[int, str]:
        body = APIClient().get(path).json()
        return {t["number"]: t["state"] for t in body["round"]["tables"]}

    assert states() == {1: "waiting", 2: "waiting"}
    first, second = Table.objects.filter(round__tournament=tournament).order_by("number")
    player, command = legal_bidding_move(state_of(second.match_id), random.Random(3))
    match_service.submit(second.match_id, player, command, command_id())
    assert states() == {1: "waiting", 2: "playing"}
    ana_table = club.table_of("ana")
    disputes.file_dispute(ana_table.match_id, club.players["ana"], reason="misclick", round=1)
    other = second if ana_table.pk == first.pk else first
    with transaction.atomic():
        current = locked(tournament.pk)
        seats = list(other.seats.order_by("index"))
        result = [
            {"entry": s.entry_id, "placement": i, "dice_left": 0, "eliminations": 0}
            for i, s in enumerate(seats, 1)
        ]
        tables.finish_table(current, other, result, match_version=None, actor="test")
    assert states() == {ana_table.number: "disputed", other.number: "finished"}
    body = APIClient().get(path).json()
    assert body["counts"]["active"] == 4 and body["counts"]["total"] == 4
    assert body["round"]["clock"]["state"] == "idle" and body["late_entry"] is True
    table = body["round"]["tables"][0]
    assert {"id", "match_id", "seats", "status", "result", "state", "open_disputes"} <= set(table)


# ---------------------------------------------------------------- printables


def test_the_printables_of_a_round(make_user: Any) -> None:
    tournament, owner = cup(make_user)
    reader = APIClient()
    base = f"/api/tournaments/{tournament.pk}/print"
    early = reader.get(f"{base}/cards")
    assert early.status_code == 400 and early.json()["code"] == "round-not-drawn"
    start_tournament(tournament.pk, owner)
    rnd = tournament.rounds.get()
    seats = {seat.entry.name for table in rnd.tables.all() for seat in table.seats.all()}
    cards = reader.get(f"{base}/cards", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert (
        cards.count('class="card page"') == 2
        and "Table 2" in cards
        and "Round 1" in cards
        and "Dudo" in cards
    )
    assert all(name in cards for name in seats)
    wall = reader.get(f"{base}/pairings", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    order = [wall.index(f'data-name="{name}"') for name in sorted(seats, key=str.casefold)]
    assert order == sorted(order)  # the wall lists everyone by name
    slips = reader.get(f"{base}/slips", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert slips.count('class="slip"') == 2 and "Mesa" in slips and "Firma" in slips
    dudo_sheets = reader.get(f"{base}/sheets")
    assert dudo_sheets.status_code == 400 and dudo_sheets.json()["code"] == "sheets-alalay-only"
    assert reader.get(f"{base}/menu").status_code == 404
    assert reader.get(f"{base}/cards?round=9").status_code == 404
    assert reader.get(f"{base}/cards?round=x").json()["code"] == "round-invalid"

    club, organiser = club_with_organiser(make_user, "alalay")
    alalay = create_tournament(
        club.pk,
        organiser,
        name="Alalay",
        ruleset="alalay",
        stages=[
            {
                "name": "q",
                "format": "alalay_event",
                "params": {"table_size": 4, "qualifying_rounds": 2, "finalists": 4},
            }
        ],
    )
    for name in ("Ana", "Beto", "Caro", "Dani", "Eli"):
        register(alalay.pk, organiser, name=name)
    start_tournament(alalay.pk, organiser)
    sheets = reader.get(
        f"/api/tournaments/{alalay.pk}/print/sheets", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert (
        "Balas (ones)" in sheets
        and "Escalera (straight)" in sheets
        and sheets.count('data-box="grande_') == 10
    )
    # what each box scores, from the engine's points
    assert "1 × ⚀" in sheets and "25 / 20" in sheets and "45 / 40" in sheets
    assert all(name in sheets for name in ("Ana", "Beto", "Caro", "Dani", "Eli"))


# ---------------------------------------------------------------- the club's people


def test_members_by_username_or_email_invitations_and_the_club_log(make_user: Any, client: Any) -> None:
    club, owner = club_with_organiser(make_user, "people")
    olga = APIClient()
    olga.force_authenticate(owner)
    base = f"/api/clubs/{club.pk}/members"
    rita = make_user("rita", email="rita@example.org")
    from tournaments.accounts.models import Account

    Account.objects.create(user=rita, verified_email=rita.email)  # only a verified address names an account
    assert olga.post(base, {"username": "rita", "role": "referee"}, format="json").json()["kind"] == "member"
    same = olga.post(base, {"username": "rita", "role": "referee"}, format="json")
    assert same.status_code == 400 and same.json()["code"] == "member-has-role"
    by_email = olga.post(base, {"email": "RITA@example.org", "role": "scorekeeper"}, format="json")
    assert by_email.status_code == 201 and by_email.json()["kind"] == "member"
    invited = olga.post(base, {"email": "nueva@example.org", "role": "scorekeeper"}, format="json")
    assert invited.status_code == 201 and invited.json()["kind"] == "invitation"
    again = olga.post(base, {"email": "nueva@example.org", "role": "scorekeeper"}, format="json")
    assert again.status_code == 400 and again.json()["code"] == "invitation-exists"
    for body, code in (
        ({"email": "not an email", "role": "player"}, "email-invalid"),
        ({"username": "nobody", "role": "player"}, "user-unknown"),
        ({"role": "player"}, "member-identity-missing"),
        ({"username": "rita", "email": "rita@example.org", "role": "player"}, "member-identity-missing"),
        ({"username": "rita", "role": "captain"}, "role-unknown"),
    ):
        response = olga.post(base, body, format="json")
        assert response.status_code == 400 and response.json()["code"] == code, body
    for twin in (make_user("twin1", email="twin@example.org"), make_user("twin2", email="Twin@example.org")):
        Account.objects.create(user=twin, verified_email=twin.email)
    twins = olga.post(base, {"email": "twin@example.org", "role": "player"}, format="json")
    assert twins.status_code == 400 and twins.json()["code"] == "email-ambiguous"

    # sign-up with the invited email: the invitation becomes a membership
    page = client.post(
        "/signup/",
        {
            "username": "nueva",
            "email": "Nueva@example.org",
            "password1": "a-long-pass-phrase-7",
            "password2": "a-long-pass-phrase-7",
        },
    )
    assert page.status_code == 302, page.content.decode()[:2000]
    # ... once the address is verified (the link mailed at sign-up: tests/accounts)
    from tournaments.accounts.services import verify_email
    from tournaments.mail.models import OutgoingMail

    assert not Membership.objects.filter(club=club, user__username="nueva").exists()
    verify_email(OutgoingMail.objects.get(kind="verify_email").context["link"].rstrip("/").rsplit("/", 1)[1])
    assert Membership.objects.filter(club=club, user__username="nueva", role="scorekeeper").exists()
    assert ClubInvitation.objects.get(email="nueva@example.org").status == ClubInvitation.ACCEPTED
    taken = client.post(
        "/signup/",
        {
            "username": "otra",
            "email": "rita@example.org",
            "password1": "a-long-pass-phrase-7",
            "password2": "a-long-pass-phrase-7",
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert taken.status_code == 200 and "Another account uses this email" in taken.content.decode()

    # roles: an organiser may not touch the owner role; a club keeps an owner
    oscar = make_user("oscar")
    add_member(club.pk, oscar, Membership.ORGANISER, owner)
    as_oscar = APIClient()
    as_oscar.force_authenticate(oscar)
    crown = as_oscar.post(base, {"username": "rita", "role": "owner"}, format="json")
    assert crown.status_code == 403 and crown.json()["code"] == "owner-only"
    demote = as_oscar.put(f"{base}/{owner.username}", {"roles": ["organiser"]}, format="json")
    assert demote.status_code == 403 and demote.json()["code"] == "owner-only"
    last = olga.put(f"{base}/{owner.username}", {"roles": ["organiser"]}, format="json")
    assert last.status_code == 400 and last.json()["code"] == "last-owner"
    changed = as_oscar.put(f"{base}/rita", {"roles": ["referee", "player"]}, format="json")
    assert changed.status_code == 200 and changed.json()["roles"] == ["referee", "player"]
    assert olga.delete(f"{base}/nobody").json()["code"] == "user-unknown"
    # a member leaves on their own; the club keeps its owner
    as_rita = APIClient()
    as_rita.force_authenticate(rita)
    assert as_rita.delete(f"{base}/rita").status_code == 204
    assert not Membership.objects.filter(club=club, user=rita).exists()
    listed = olga.get(base).json()
    assert {m["username"]: m["roles"] for m in listed["members"]} == {
        owner.username: ["owner"],
        "nueva": ["scorekeeper"],
        "oscar": ["organiser"],
    }
    assert listed["invitations"] == []
    kinds = [e["type"] for e in olga.get(f"/api/clubs/{club.pk}/log").json()][::-1]
    assert kinds == [
        "club-created",
        "member-added",
        "member-added",
        "invited",
        "invitation-accepted",
        "member-added",
        "member-added",
        "roles-changed",
        "member-removed",
    ]
    entry = olga.get(f"/api/clubs/{club.pk}/log").json()[0]
    assert entry["actor_name"] == "rita" and entry["payload"]["roles"] == ["referee", "player"]
    assert club_log.verify_chain(club.pk) and ClubEvent.objects.filter(club=club).count() == len(kinds)


def test_a_club_is_created_with_a_slug_of_its_name_and_edited(make_user: Any) -> None:
    owner = make_user("pia")
    api = client(owner)
    made = api.post("/api/clubs", {"name": "Club del Cacho"}, format="json")
    assert made.status_code == 201 and made.json()["slug"] == "club-del-cacho"
    second = api.post("/api/clubs", {"name": "Club del Cacho"}, format="json")
    assert second.json()["slug"] == "club-del-cacho-2"
    taken = api.post("/api/clubs", {"name": "Otro", "slug": "club-del-cacho"}, format="json")
    assert taken.status_code == 400 and taken.json()["code"] == "club-slug-taken"
    bad = api.post("/api/clubs", {"name": "Otro", "slug": "Con Espacios"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] in ("club-slug-invalid", "invalid-input")
    club_id = made.json()["id"]
    edited = api.patch(
        f"/api/clubs/{club_id}", {"name": "Cacho Club", "description": "Martes 20h"}, format="json"
    )
    assert edited.status_code == 200 and edited.json()["description"] == "Martes 20h"
    clash = api.patch(f"/api/clubs/{club_id}", {"slug": "club-del-cacho-2"}, format="json")
    assert clash.status_code == 400 and clash.json()["code"] == "club-slug-taken"
    empty = api.patch(f"/api/clubs/{club_id}", {"name": "  "}, format="json")
    assert empty.status_code == 400 and empty.json()["code"] in ("club-name-invalid", "invalid-input")
    event = ClubEvent.objects.filter(club_id=club_id, type=club_log.CLUB_UPDATED).get()
    assert event.payload == {
        "from": {"name": "Club del Cacho", "description": ""},
        "to": {"name": "Cacho Club", "description": "Martes 20h"},
    }
    assert members.members_of(club_id, owner)["members"][0]["roles"] == ["owner"]
