"""Every console, desk and club action of a club evening, for each role: the role that may
do it succeeds; each other role (organiser, referee, scorekeeper, player, anonymous) is
refused with its precise code, and nothing is stored (entries, memberships, invitations,
clubs, round clocks, and the heads of the tournament and club logs are all unchanged)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.test import APIClient

from tournaments.clubs.members import add_member as invite
from tournaments.clubs.members import create_club
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import (
    Club,
    ClubEvent,
    ClubInvitation,
    Entry,
    Membership,
    Round,
    Tournament,
    TournamentEvent,
)
from tournaments.services import create_tournament, register, start_tournament, withdraw
from tournaments.services.desk import disqualify

pytestmark = pytest.mark.django_db

ROLES = ("organiser", "referee", "scorekeeper", "player", "anonymous")
SWISS = [{"name": "swiss", "format": "swiss", "params": {"rounds": 3, "table_size": 4}}]
_names = itertools.count(1)


@dataclass
class World:
    club: Club
    owner: Any
    people: dict[str, Any]
    make_user: Callable[..., Any]

    def client(self, role: str) -> APIClient:
        made = APIClient()
        if role != "anonymous":
            made.force_authenticate(self.people[role])
        return made

    def user(self) -> Any:
        return self.make_user(f"someone{next(_names)}", email=f"someone{next(_names)}@example.org")

    def tournament(
        self, *, started: bool = False, seeding: str = "draw", checkin: bool = False
    ) -> Tournament:
        import datetime as dt

        from django.utils import timezone

        tournament = create_tournament(
            self.club.pk,
            self.owner,
            name=f"Open {next(_names)}",
            ruleset="dudo",
            stages=SWISS,
            seeding_method=seeding,
            checkin_deadline=timezone.now() + dt.timedelta(hours=1) if checkin else None,
        )
        for i in range(1, 5):
            register(tournament.pk, self.owner, name=f"Guest {i}")
        if started:
            start_tournament(tournament.pk, self.owner)
        return tournament

    def entry(self, tournament: Tournament, **extra: Any) -> Entry:
        return register(tournament.pk, self.owner, name=f"Entry {next(_names)}", **extra)


@pytest.fixture
def world(make_user: Any) -> World:
    owner = make_user("olga")
    club = create_club("Club del Cacho", "club-del-cacho", owner)
    people = {role: make_user(f"the-{role}") for role in ROLES if role != "anonymous"}
    for role in ("organiser", "referee", "scorekeeper", "player"):
        add_member(club.pk, people[role], role, owner)
    return World(club, owner, people, make_user)


def stored() -> tuple[Any, ...]:
    """Everything an action of this file may change."""
    return (
        list(
            TournamentEvent.objects.order_by("tournament_id", "version").values_list(
                "tournament_id", "version"
            )
        ),
        list(ClubEvent.objects.order_by("club_id", "version").values_list("club_id", "version")),
        list(Tournament.objects.order_by("pk").values_list("pk", "status", "version", "head_hash")),
        list(
            Entry.objects.order_by("pk").values_list(
                "pk", "name", "status", "user_id", "seed", "checked_in_at"
            )
        ),
        list(Membership.objects.order_by("pk").values_list("club_id", "user_id", "role")),
        list(ClubInvitation.objects.order_by("pk").values_list("pk", "email", "role", "status")),
        list(
            Round.objects.order_by("pk").values_list(
                "pk", "clock_seconds", "clock_used_ms", "clock_running_since"
            )
        ),
        list(Club.objects.order_by("pk").values_list("pk", "name", "slug", "description", "version")),
    )


FORBIDDEN = (403, "forbidden")
ANONYMOUS = (403, "not-authenticated")


@dataclass(frozen=True)
class Case:
    name: str
    setup: Callable[[World], Any]
    call: Callable[[APIClient, Any], Any]
    allowed: tuple[str, ...]
    ok: int = 200
    refusals: dict[str, tuple[int, str]] = field(default_factory=dict)
    writes: bool = True


def _post(path: str, body: Any = None) -> Callable[[APIClient, Any], Any]:
    return lambda client, target: client.post(path.format(**target), body, format="json")


def _running_with_clock(world: World) -> dict[str, Any]:
    tournament = world.tournament(started=True)
    rnd = tournament.rounds.get()
    world.client("organiser").post(
        f"/api/rounds/{rnd.pk}/clock", {"action": "start", "minutes": 45, "confirm": True}, format="json"
    )
    return {"round": rnd.pk}


CASES = [
    # ---------------------------------------------------------------- the club
    Case(
        "edit-club",
        lambda w: {"club": w.club.pk},
        lambda c, t: c.patch(f"/api/clubs/{t['club']}", {"name": "Club renamed"}, format="json"),
        ("organiser",),
    ),
    Case(
        "add-member-by-username",
        lambda w: {"club": w.club.pk, "username": w.user().username},
        lambda c, t: c.post(
            f"/api/clubs/{t['club']}/members", {"username": t["username"], "role": "referee"}, format="json"
        ),
        ("organiser",),
        201,
    ),
    Case(
        "invite-by-email",
        lambda w: {"club": w.club.pk, "email": f"new{next(_names)}@example.org"},
        lambda c, t: c.post(
            f"/api/clubs/{t['club']}/members", {"email": t["email"], "role": "scorekeeper"}, format="json"
        ),
        ("organiser",),
        201,
    ),
    Case(
        "change-roles",
        lambda w: {"club": w.club.pk, "username": _member(w, "player").username},
        lambda c, t: c.put(
            f"/api/clubs/{t['club']}/members/{t['username']}", {"roles": ["scorekeeper"]}, format="json"
        ),
        ("organiser",),
    ),
    Case(
        "remove-member",
        lambda w: {"club": w.club.pk, "username": _member(w, "player").username},
        lambda c, t: c.delete(f"/api/clubs/{t['club']}/members/{t['username']}"),
        ("organiser",),
        204,
    ),
    Case(
        "cancel-invitation",
        lambda w: {
            "club": w.club.pk,
            "invitation": invite(w.club.pk, w.owner, role="player", email=f"i{next(_names)}@example.org").pk,
        },
        lambda c, t: c.delete(f"/api/clubs/{t['club']}/invitations/{t['invitation']}"),
        ("organiser",),
    ),
    Case(
        "list-members",
        lambda w: {"club": w.club.pk},
        lambda c, t: c.get(f"/api/clubs/{t['club']}/members"),
        ("organiser",),
        writes=False,
    ),
    Case(
        "read-club-log",
        lambda w: {"club": w.club.pk},
        lambda c, t: c.get(f"/api/clubs/{t['club']}/log"),
        ("organiser",),
        writes=False,
    ),
    # ---------------------------------------------------------------- the desk
    Case(
        "register-a-guest",
        lambda w: {"t": w.tournament().pk, "username": w.user().username},
        # for a player, an entry for someone else (an entry by name alone registers themself)
        lambda c, t: c.post(
            f"/api/tournaments/{t['t']}/entries", {"name": "Ana", "username": t["username"]}, format="json"
        ),
        ("organiser",),
        201,
    ),
    Case(
        "paste-names",
        lambda w: {"t": w.tournament().pk},
        _post("/api/tournaments/{t}/entries/bulk", {"names": "Ana\nBeto\n\nCarla\n"}),
        ("organiser",),
    ),
    Case(
        "remove-an-entry",
        lambda w: {"e": w.entry(w.tournament()).pk},
        lambda c, t: c.delete(f"/api/entries/{t['e']}"),
        ("organiser",),
        204,
    ),
    Case(
        "claim-a-guest",
        lambda w: {"e": w.entry(w.tournament()).pk, "username": w.user().username},
        lambda c, t: c.post(f"/api/entries/{t['e']}/claim", {"username": t["username"]}, format="json"),
        ("organiser",),
    ),
    Case(
        "set-seeds",
        lambda w: {
            "t": (t := w.tournament(seeding="manual")).pk,
            "order": list(t.entries.values_list("pk", flat=True))[::-1],
        },
        lambda c, t: c.post(f"/api/tournaments/{t['t']}/seeds", {"order": t["order"]}, format="json"),
        ("organiser",),
    ),
    Case(
        "check-in",
        lambda w: {"e": w.entry(w.tournament(checkin=True)).pk},
        _post("/api/entries/{e}/check-in"),
        ("organiser", "referee"),
    ),
    Case(
        "undo-check-in",
        lambda w: {"e": _checked_in(w).pk},
        _post("/api/entries/{e}/undo-check-in"),
        ("organiser", "referee"),
    ),
    Case(
        "withdraw",
        lambda w: {"e": w.tournament(started=True).entries.first().pk},
        _post("/api/entries/{e}/withdraw"),
        ("organiser", "referee"),
    ),
    Case(
        "reinstate",
        lambda w: {"e": withdraw(w.tournament(started=True).entries.first().pk, w.owner).pk},
        _post("/api/entries/{e}/reinstate"),
        ("organiser", "referee"),
    ),
    Case(
        "disqualify",
        lambda w: {"e": w.tournament(started=True).entries.first().pk},
        _post("/api/entries/{e}/disqualify", {"reason": "Marked dice"}),
        ("organiser", "referee"),
    ),
    Case(
        "lift-a-disqualification",
        lambda w: {"e": disqualify(w.tournament(started=True).entries.first().pk, w.owner, "Marked dice").pk},
        _post("/api/entries/{e}/reinstate"),
        ("organiser",),
        refusals={"referee": (403, "disqualified-organisers-only")},
    ),
    Case(
        "late-entry",
        lambda w: {"t": w.tournament(started=True).pk, "username": w.user().username},
        lambda c, t: c.post(
            f"/api/tournaments/{t['t']}/entries", {"name": "Late", "username": t["username"]}, format="json"
        ),
        ("organiser",),
        201,
    ),
    Case(
        "late-entries-pasted",
        lambda w: {"t": w.tournament(started=True).pk},
        _post("/api/tournaments/{t}/entries/bulk", {"names": "Lalo\nLola"}),
        ("organiser",),
    ),
    Case(
        "start",
        lambda w: {"t": w.tournament().pk},
        _post("/api/tournaments/{t}/start", {}),
        ("organiser",),
    ),
    # ---------------------------------------------------------------- the round clock
    Case(
        "start-the-clock",
        lambda w: {"round": w.tournament(started=True).rounds.get().pk},
        _post("/api/rounds/{round}/clock", {"action": "start", "minutes": 45, "confirm": True}),
        ("organiser", "referee"),
    ),
    Case(
        "pause-the-clock",
        _running_with_clock,
        _post("/api/rounds/{round}/clock", {"action": "pause"}),
        ("organiser", "referee"),
    ),
    Case(
        "extend-the-clock",
        _running_with_clock,
        _post("/api/rounds/{round}/clock", {"action": "extend", "minutes": 5}),
        ("organiser", "referee"),
    ),
    Case(
        "reset-the-clock",
        _running_with_clock,
        _post("/api/rounds/{round}/clock", {"action": "reset"}),
        ("organiser", "referee"),
    ),
]


def _member(world: World, role: str) -> Any:
    user = world.user()
    add_member(world.club.pk, user, role, world.owner)
    return user


def _checked_in(world: World) -> Entry:
    from tournaments.services import check_in

    entry = world.entry(world.tournament(checkin=True))
    return check_in(entry.pk, world.owner)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_only_the_roles_that_may_act_do(world: World, case: Case) -> None:
    for role in ROLES:
        if role in case.allowed:
            continue
        target = case.setup(world)
        before = stored()
        response = case.call(world.client(role), target)
        expected = case.refusals.get(role, ANONYMOUS if role == "anonymous" else FORBIDDEN)
        assert (response.status_code, response.json().get("code")) == expected, (role, response.content)
        assert response.json()["message"]
        assert stored() == before, f"{role}: something was stored"
    for role in case.allowed:
        target = case.setup(world)
        before = stored()
        response = case.call(world.client(role), target)
        assert response.status_code == case.ok, (role, response.content)
        assert (stored() != before) == case.writes, f"{role}: stored {case.writes}"


@pytest.mark.sqlite_too  # the role matrix above, 27 evenings of one logic, stays on PostgreSQL
def test_the_console_says_what_each_role_may_do(world: World) -> None:
    tournament = world.tournament(started=True)
    expected = {
        "organiser": {"manage": True, "desk": True},
        "referee": {"manage": False, "desk": True},
        "scorekeeper": {"manage": False, "desk": False},
        "player": {"manage": False, "desk": False},
        "anonymous": {"manage": False, "desk": False},
    }
    for role, can in expected.items():
        response = world.client(role).get(f"/api/tournaments/{tournament.pk}/console")
        assert response.status_code == 200 and response.json()["can"] == can, role
    assert world.client("anonymous").get(f"/api/tournaments/{tournament.pk}/print/cards").status_code == 200
