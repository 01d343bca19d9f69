"""The stage formats beyond Swiss, end to end: round robin in groups, single and double
elimination brackets (with byes), elimination by tables (balanced tables, the losers leave,
a final table) and groups then playoffs.

Each tournament is created, filled and started through the API by an organiser (entries are
registered, checked in, a no-show is dropped), every match is played to its end through the
real match service (`cacho.services.matches.submit`, random legal moves), and the tournament
moves on as in production: the match's own commit records its table's result, and the
round's last table draws the next round (Celery runs the tasks in-process here). The checks
read the API: who met whom, byes, table sizes, the bracket, standings with their tiebreaks,
the final ranking with its shared places, and a rebuild of the projections.

The pure properties (any entry count) are checked on the formats adapter, without a database.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from cacho.services import matches as match_service
from tests.tournaments.helpers import play_bidding_match, seat_named
from tournaments.clubs.members import create_club
from tournaments.competition import stages
from tournaments.competition.standings import EntryResult, StandingsConfig
from tournaments.models import StandingRow, Table, Tournament
from tournaments.services import formats, log, rankings, stage_data
from tournaments.tasks import advance_tournament

E2E = pytest.mark.django_db(transaction=True)

_commands = itertools.count(1)


# ---------------------------------------------------------------- organising through the API


def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def quick_user(username: str) -> Any:
    """A user without a password (no hashing: these tests make many players)."""
    return get_user_model().objects.create(username=username)


@dataclasses.dataclass
class Run:
    id: int
    organiser: APIClient
    ids: dict[str, int]  # entry name -> id
    no_shows: list[str]

    @property
    def names(self) -> dict[int, str]:
        return {pk: name for name, pk in self.ids.items()}

    def get(self, path: str = "") -> Any:
        response = self.organiser.get(f"/api/tournaments/{self.id}{path}")
        assert response.status_code == 200, response.content
        return response.json()

    def rounds(self) -> list[dict[str, Any]]:
        return sorted(self.get("/rounds"), key=lambda r: r["number"])

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e["payload"] for e in self.get("/events") if e["type"] == kind]


def organise(
    slug: str,
    stage_plan: list[dict[str, Any]],
    entrants: int,
    *,
    no_shows: int = 1,
    standings: dict[str, Any] | None = None,
) -> Run:
    """An organiser creates a Dudo tournament seeded by rating, registers `entrants` players
    P01… (P01 rated highest) and `no_shows` absentees (rated highest of all), checks the
    players in (P01 checks themself in), closes check-in and starts."""
    owner = quick_user(f"owner-{slug}")
    club = create_club(f"Club {slug}", slug, owner)
    organiser_user = quick_user(f"organiser-{slug}")
    joined = api(owner).post(
        f"/api/clubs/{club.pk}/members",
        {"username": organiser_user.username, "role": "organiser"},
        format="json",
    )
    assert joined.status_code == 201, joined.json()
    organiser = api(organiser_user)
    body: dict[str, Any] = {
        "club": club.pk,
        "name": f"Copa {slug}",
        "ruleset": "dudo",
        "seeding": "rating",
        "stages": stage_plan,
        "checkin_deadline": (timezone.now() + dt.timedelta(hours=1)).isoformat(),
    }
    if standings is not None:
        body["standings"] = standings
    created = organiser.post("/api/tournaments", body, format="json")
    assert created.status_code == 201, created.json()
    tournament_id = created.json()["id"]

    ids: dict[str, int] = {}
    users: dict[str, Any] = {}
    people = [(f"Absent{i}", 2000.0 + i) for i in range(1, no_shows + 1)]
    people += [(f"P{i:02d}", 1000.0 - i) for i in range(1, entrants + 1)]
    for name, rating in people:
        users[name] = quick_user(f"{slug}-{name}")
        made = organiser.post(
            f"/api/tournaments/{tournament_id}/entries",
            {"name": name, "username": users[name].username, "rating": rating},
            format="json",
        )
        assert made.status_code == 201, made.json()
        ids[name] = made.json()["id"]
    for name in ids:
        if name.startswith("Absent"):
            continue
        by = api(users[name]) if name == "P01" else organiser
        checked = by.post(f"/api/entries/{ids[name]}/check-in")
        assert checked.status_code == 200 and checked.json()["status"] == "checked_in", checked.json()

    closed = organiser.patch(
        f"/api/tournaments/{tournament_id}",
        {"checkin_deadline": (timezone.now() - dt.timedelta(seconds=1)).isoformat()},
        format="json",
    )
    assert closed.status_code == 200, closed.json()
    started = organiser.post(f"/api/tournaments/{tournament_id}/start", {}, format="json")
    assert started.status_code == 200, started.json()
    assert started.json()["status"] == Tournament.RUNNING
    run = Run(tournament_id, organiser, ids, [n for n in ids if n.startswith("Absent")])

    listed = {e["name"]: e for e in run.get("/entries")}
    assert {n for n, e in listed.items() if e["status"] == "no_show"} == set(run.no_shows)
    players = sorted((e for e in listed.values() if e["status"] == "active"), key=lambda e: e["seed"])
    assert [e["name"] for e in players] == [f"P{i:02d}" for i in range(1, entrants + 1)]  # by rating
    return run


# ---------------------------------------------------------------- playing it out


def play_match(match_id: Any, rng: random.Random, loser: str | None = None) -> None:
    """Random legal moves through the match write path until the match is over; a scripted
    `loser` abandons (leaves the table) instead."""
    if loser is not None:
        match_service.submit(
            match_id, seat_named(match_id, loser), {"type": "abandon"}, f"formats-{next(_commands)}"
        )
    play_bidding_match(match_id, rng)


Script = dict[frozenset[str], str]  # the names at a 1-v-1 table -> who wins


def play_round(run: Run, rng: random.Random, script: Script | None = None) -> bool:
    """Play every live table; each match's end records its table, the last one draws the
    next round (a repeated advancement changes nothing). True when the tournament has
    finished."""
    playing = Table.objects.filter(round__tournament_id=run.id, status=Table.PLAYING)
    tables = list(playing.prefetch_related("seats__entry"))
    assert tables, "a running tournament has tables in play"
    rounds_before = len(run.rounds())
    for table in tables:
        names = frozenset(s.entry.name for s in table.seats.all())
        won = (script or {}).get(names)
        play_match(table.match_id, rng, loser=next(iter(names - {won})) if won else None)
    assert not Table.objects.filter(pk__in=[t.pk for t in tables], status=Table.PLAYING).exists()
    assert advance_tournament(run.id) is None  # a repeated delivery changes nothing
    if Tournament.objects.get(pk=run.id).status == Tournament.FINISHED:
        return True
    assert len(run.rounds()) > rounds_before
    return False


def play_to_the_end(run: Run, rng: random.Random, script: Script | None = None) -> None:
    for _ in range(30):
        if play_round(run, rng, script):
            return
    raise AssertionError("the tournament does not finish")


# ---------------------------------------------------------------- reading results


def placements(table: dict[str, Any]) -> list[int]:
    """Entries of a finished table from first to last (equal placements: seat order)."""
    seat_of = {s["entry"]: s["index"] for s in table["seats"]}
    ordered = sorted(table["result"], key=lambda r: (r["placement"], seat_of[r["entry"]]))
    return [r["entry"] for r in ordered]


def seats(table: dict[str, Any]) -> list[int]:
    return [s["entry"] for s in table["seats"]]


def winner(table: dict[str, Any]) -> int:
    return placements(table)[0]


def loser(table: dict[str, Any]) -> int:
    assert len(table["seats"]) == 2
    return placements(table)[1]


def all_tables(rounds: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [t for r in rounds for t in r["tables"]]


def final_ranking(run: Run) -> list[int]:
    finished = run.events(log.FINISHED)
    assert len(finished) == 1
    return [int(e) for e in finished[0]["ranking"]]


def final_places(run: Run) -> list[int]:
    (finished,) = run.events(log.FINISHED)
    return [place for place, _entry in finished["places"]]


def byes(rnd: dict[str, Any]) -> list[int]:
    return [int(b) for b in rnd["byes"]]


def cross_group_keys(rounds: Sequence[dict[str, Any]]) -> dict[int, tuple[float, ...]]:
    """A recount of a stage's rounds on the default Dudo chain but head-to-head (which cannot
    compare entries of different groups): points, eliminations, dice left, Buchholz."""
    totals: dict[int, Counter[str]] = {}
    for table in all_tables(rounds):
        for r in table["result"]:
            line = totals.setdefault(r["entry"], Counter())
            line["points"] += share(len(table["seats"]), r["placement"])
            line["eliminations"] += r["eliminations"]
            line["dice_left"] += r["dice_left"]
    for table in all_tables(rounds):
        at_table = sum(totals[e]["points"] for e in seats(table))
        for e in seats(table):
            totals[e]["buchholz"] += at_table - totals[e]["points"]
    criteria = ("points", "eliminations", "dice_left", "buchholz")
    return {e: tuple(float(line[c]) for c in criteria) for e, line in totals.items()}


def by_place_across_groups(
    ranking: Sequence[Sequence[int]],
    keys: dict[int, tuple[float, ...]],
    places: dict[int, int] | None = None,
) -> list[int]:
    """Group winners, then runners-up, …; within a place the better key, then group order.
    `places`: each entry's place in its group where members tied on every criterion share
    one (the standings' `rank`: 1, 2, 2, 4); else its position in its group's ranking."""
    placed = places or {e: place for members in ranking for place, e in enumerate(members, 1)}
    out: list[int] = []
    for place in sorted({placed[e] for members in ranking for e in members}):
        tier = [(g, e) for g, members in enumerate(ranking) for e in members if placed[e] == place]
        out += [e for _, e in sorted(tier, key=lambda ge: ([-x for x in keys[ge[1]]], ge[0]))]
    return out


def share(size: int, placement: int) -> float:
    """The default points scale: 1 for a win, 0 for last, evenly spaced."""
    return (size - placement) / (size - 1)


def check_standings(run: Run, rounds: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The last stage's standings agree with a recount from its tables' results; ties in
    points are split by the tiebreak chain (the criterion and both values recorded); the
    final ranking places everyone who played, with shared places; a rebuild gives the same
    rows."""
    data = run.get("/standings")
    tournament = Tournament.objects.get(pk=run.id)
    assert data["head_hash"] == tournament.head_hash and tournament.status == Tournament.FINISHED
    rows = data["standings"]
    stage = data["stage"]["number"]
    with_match = [t for t in all_tables(rounds) if t["match_id"]]  # a walkover has no match
    rounds = [r for r in rounds if r["stage"] == stage]
    started = run.events(log.STAGE_STARTED)[stage - 1]
    in_stage = {int(e) for e in started["entrants"]}
    assert sorted(r["entry"] for r in rows) == sorted(in_stage)  # no-shows are not ranked
    players = {pk for name, pk in run.ids.items() if name not in run.no_shows}

    recount: dict[int, dict[str, float]] = {e: Counter() for e in in_stage}
    for table in all_tables(rounds):
        assert table["status"] == "finished"
        size = len(table["seats"])
        for r in table["result"]:
            line = recount[r["entry"]]
            line["played"] += 1
            line["points"] += share(size, r["placement"])
            line["eliminations"] += r["eliminations"]
            line["dice_left"] += r["dice_left"]
    for row in rows:
        line = recount[row["entry"]]
        assert row["played"] == line["played"] and row["points"] == pytest.approx(line["points"]), row
        assert row["values"]["eliminations"] == line["eliminations"], row
        assert row["values"]["dice_left"] == line["dice_left"], row

    criteria = data["criteria"]
    chain = ["points", *stage_data.standings_config(tournament.standings_config, tournament.game).tiebreaks]
    assert sorted(criteria) == sorted(chain)
    assert rows[0]["rank"] == 1
    for upper, lower in itertools.pairwise(rows):
        if upper["group"] != lower["group"]:
            continue
        assert upper["points"] >= lower["points"]
        if upper["rank"] == lower["rank"]:  # tied on every criterion
            assert upper["values"] == lower["values"] and not upper["tiebreak"]
            continue
        group_rows = [r for r in rows if r["group"] == lower["group"]]
        assert lower["rank"] == group_rows.index(lower) + 1
        if upper["points"] > lower["points"]:
            assert not upper["tiebreak"] and not upper["tiebreak_values"]
            continue
        code = upper["tiebreak"]
        assert code in chain[1:], (upper, lower)
        assert all(upper["values"][c] == lower["values"][c] for c in chain[: chain.index(code)])
        assert upper["values"][code] > lower["values"][code]
        assert upper["tiebreak_against"] == lower["entry"]
        assert upper["tiebreak_values"] == [upper["values"][code], lower["values"][code]]

    # The final ranking places everyone who played (no-shows are not), as the log says,
    # with shared places (1, 2, 3, 3, 5 …) and the API's ranking the same.
    placed = [item["entry"] for item in data["final_ranking"]]
    assert placed == final_ranking(run)
    assert sorted(placed) == sorted(players)
    places = [item["place"] for item in data["final_ranking"]]
    assert places == final_places(run) and places[0] == 1
    for i, (a, b) in enumerate(itertools.pairwise(places), start=2):
        assert b in (a, i)  # the same place as the one above, or its own position
    assert [item["name"] for item in data["final_ranking"]] == [run.names[e] for e in placed]
    assert run.get("/ranking")["ranking"] == data["final_ranking"]

    # Rebuild the projections from the logs: the same standings, no table result differs.
    StandingRow.objects.filter(tournament_id=run.id).delete()
    out = io.StringIO()
    call_command("rebuild_tournament_projections", "--tournament", str(run.id), stdout=out)
    assert f"1 tournament(s), {len(with_match)} table(s) checked" in out.getvalue()
    again = run.get("/standings")
    assert again["standings"] == rows and again["final_ranking"] == data["final_ranking"]
    assert log.verify_chain(run.id) == (True, tournament.head_hash)
    return data


def elimination_round(rounds: Sequence[dict[str, Any]]) -> dict[int, int]:
    """For a bracket: the round number of each entry's last loss."""
    out: dict[int, int] = {}
    for rnd in rounds:
        for table in rnd["tables"]:
            out[loser(table)] = rnd["number"]
    return out


# ---------------------------------------------------------------- round robin


@E2E
def test_round_robin_in_two_groups_everyone_meets_their_group_once() -> None:
    plan = [{"name": "groups", "format": "round_robin", "params": {"groups": 2, "table_size": 2}}]
    # Bye points are configured, but a scheduled sit-out earns none (docs/tournaments.md).
    run = organise("rr", plan, 7, standings={"bye_points": 1})
    p = run.ids
    stage = run.events(log.STAGE_STARTED)[0]
    # Snake seeding into groups of 4 and 3: 1 4 5 7 | 2 3 6.
    groups = [[p["P01"], p["P04"], p["P05"], p["P07"]], [p["P02"], p["P03"], p["P06"]]]
    assert stage["plan"]["groups"] == [[str(e) for e in g] for g in groups]
    assert p["Absent1"] not in {int(e) for e in stage["entrants"]}

    play_to_the_end(run, random.Random(1))
    rounds = run.rounds()
    assert len(rounds) == 3  # a group of 4 plays 3 rounds; a group of 3 plays 3, one sitting out each
    group_of = {e: g for g, members in enumerate(groups, start=1) for e in members}
    met: Counter[frozenset[int]] = Counter()
    sat_out: Counter[int] = Counter()
    for rnd in rounds:
        seated = [e for t in rnd["tables"] for e in seats(t)]
        assert len(seated) == len(set(seated))  # one table a round
        for table in rnd["tables"]:
            assert len(table["seats"]) == 2
            assert {group_of[e] for e in seats(table)} == {table["group"]}
            met[frozenset(seats(table))] += 1
        sat_out.update(e for e in group_of if e not in seated)
        # The API shows who sits the round out: the odd group's member without a table.
        assert byes(rnd) == [e for e in groups[1] if e not in seated]
    expected_pairs = {frozenset(pair) for g in groups for pair in itertools.combinations(g, 2)}
    assert set(met) == expected_pairs and set(met.values()) == {1}
    assert sat_out == Counter(groups[1])  # the odd group: each sits out exactly once
    (bye_flags,) = {e["bye_points"] for e in run.events(log.ROUND_CREATED)}
    assert bye_flags is False

    data = check_standings(run, rounds)  # points recounted from the tables only: no bye points
    played = {r["entry"]: r["played"] for r in data["standings"]}
    assert played == {e: len(groups[g - 1]) - 1 for e, g in group_of.items()}
    # Each group's ranking (stage-finished) follows that group's points.
    points = {r["entry"]: r["points"] for r in data["standings"]}
    (finished,) = run.events(log.STAGE_FINISHED)
    ranking = [[int(e) for e in g] for g in finished["ranking"]]
    assert [sorted(g) for g in ranking] == [sorted(g) for g in groups]
    for g in ranking:
        assert [points[e] for e in g] == sorted((points[e] for e in g), reverse=True)
    # The final ranking across groups: all group winners, then all runners-up, …; within a
    # place, more points first, then the tiebreak chain (head-to-head aside), then group order.
    keys = cross_group_keys(rounds)
    assert all(keys[e][0] == pytest.approx(points[e]) for e in keys)
    overall = final_ranking(run)
    group_places = {r["entry"]: r["rank"] for r in data["standings"]}
    assert overall == by_place_across_groups(ranking, keys, group_places)
    assert set(overall[:2]) == {ranking[0][0], ranking[1][0]}  # group 2's winner is not 5th
    for g in ranking:
        assert [e for e in overall if e in g] == g


# ---------------------------------------------------------------- brackets


@E2E
def test_single_elimination_six_entries_top_seeds_get_the_byes() -> None:
    plan = [{"name": "cup", "format": "single_elimination", "params": {}}]
    run = organise("se", plan, 6, standings={"bye_points": 1})
    p = run.ids
    play_to_the_end(run, random.Random(2))
    rounds = run.rounds()
    assert [len(r["tables"]) for r in rounds] == [2, 2, 1]

    # A bracket of 8: seeds 1 and 2 skip round 1; 4 v 5 and 3 v 6 play (the better seed opens).
    first = {t["bracket_ref"]: seats(t) for t in rounds[0]["tables"]}
    assert first == {"W1-2": [p["P04"], p["P05"]], "W1-4": [p["P03"], p["P06"]]}
    # The API shows the byes of round 1 (and no others); a bracket bye earns no points.
    assert [byes(r) for r in rounds] == [[p["P01"], p["P02"]], [], []]
    assert [e["bye_points"] for e in run.events(log.ROUND_CREATED)] == [False] * 3
    # The winners move on to meet the top seeds; the losers are out.
    second = {t["bracket_ref"]: seats(t) for t in rounds[1]["tables"]}
    w1 = {t["bracket_ref"]: winner(t) for t in rounds[0]["tables"]}
    assert second == {"W2-1": [p["P01"], w1["W1-2"]], "W2-2": [p["P02"], w1["W1-4"]]}
    w2 = {t["bracket_ref"]: winner(t) for t in rounds[1]["tables"]}
    (final,) = rounds[2]["tables"]
    assert final["bracket_ref"] == "W3-1" and seats(final) == [w2["W2-1"], w2["W2-2"]]
    for earlier, later in itertools.pairwise(rounds):
        out = {loser(t) for t in earlier["tables"]}
        assert not out & {e for t in later["tables"] for e in seats(t)}

    champion = winner(final)
    ranking = final_ranking(run)
    assert ranking[:2] == [champion, loser(final)]
    assert sorted(ranking) == sorted(e for n, e in p.items() if n not in run.no_shows)
    lost_in = elimination_round(rounds)
    assert [lost_in[e] for e in ranking[1:]] == sorted((lost_in[e] for e in ranking[1:]), reverse=True)
    data = check_standings(run, rounds)
    assert data["final_ranking"][0]["name"] == run.names[champion]


@E2E
def test_double_elimination_six_entries_everyone_but_the_champion_loses_twice() -> None:
    plan = [{"name": "cup", "format": "double_elimination", "params": {"grand_final_reset": True}}]
    run = organise("de", plan, 6)
    p = run.ids
    play_to_the_end(run, random.Random(3))
    rounds = run.rounds()
    first = {t["bracket_ref"]: seats(t) for t in rounds[0]["tables"]}
    assert first == {"W1-2": [p["P04"], p["P05"]], "W1-4": [p["P03"], p["P06"]]}
    # Byes: the top seeds skip round 1; the losers of round 1 face nobody in the losers
    # bracket (its first matches would be against the byes' losers) and sit out round 2.
    lost_first = [loser(t) for t in sorted(rounds[0]["tables"], key=lambda t: t["bracket_ref"])]
    assert byes(rounds[0]) == [p["P01"], p["P02"]] and byes(rounds[1]) == lost_first
    assert not any(byes(r) for r in rounds[2:])
    assert not {e for t in rounds[1]["tables"] for e in seats(t)} & set(lost_first)

    losses: Counter[int] = Counter()
    for rnd in rounds:
        seated = [e for t in rnd["tables"] for e in seats(t)]
        assert len(seated) == len(set(seated))
        for table in rnd["tables"]:
            assert all(losses[e] < 2 for e in seats(table)), "nobody plays after a second loss"
            if table["bracket_ref"].startswith("L"):
                assert all(losses[e] == 1 for e in seats(table)), "the losers bracket: one loss each"
            losses[loser(table)] += 1
    refs = [t["bracket_ref"] for t in all_tables(rounds)]
    assert len(refs) == len(set(refs))
    by_ref = {t["bracket_ref"]: t for t in all_tables(rounds)}
    grand_final = by_ref["GF"]
    wb_champion = winner(by_ref["W3-1"])
    assert seats(grand_final)[0] == wb_champion
    reset_played = winner(grand_final) != wb_champion
    assert ("GF2" in by_ref) == reset_played
    champion = winner(by_ref["GF2"] if reset_played else grand_final)
    players = [e for n, e in p.items() if n not in run.no_shows]
    assert losses[champion] == int(reset_played)
    assert all(losses[e] == 2 for e in players if e != champion)
    assert len(refs) == 2 * (len(players) - 1) + losses[champion]

    ranking = final_ranking(run)
    assert ranking[0] == champion and sorted(ranking) == sorted(players)
    assert set(ranking[:2]) == set(seats(grand_final))
    lost_in = elimination_round(rounds)
    assert [lost_in[e] for e in ranking[1:]] == sorted((lost_in[e] for e in ranking[1:]), reverse=True)
    check_standings(run, rounds)


# ---------------------------------------------------------------- elimination by tables


@E2E
@pytest.mark.parametrize(
    ("entrants", "table_size", "keep", "sizes"),
    [
        (13, 6, 3, [[5, 4, 4], [5, 4], [6]]),
        (17, 4, 2, [[4, 4, 3, 3, 3], [4, 3, 3], [3, 3], [4]]),
    ],
)
def test_elimination_by_tables_rebalances_down_to_a_final_table(
    entrants: int, table_size: int, keep: int, sizes: list[list[int]]
) -> None:
    params = {"table_size": table_size, "advance_per_table": keep}
    run = organise(
        f"te{entrants}", [{"name": "tables", "format": "table_elimination", "params": params}], entrants
    )
    seeded = [run.ids[f"P{i:02d}"] for i in range(1, entrants + 1)]
    play_to_the_end(run, random.Random(entrants))
    rounds = run.rounds()
    assert [[len(t["seats"]) for t in r["tables"]] for r in rounds] == sizes

    # Round 1: snake seating, the top seeds open tables 1, 2, 3 ….
    first = [seats(t) for t in rounds[0]["tables"]]
    assert [t[0] for t in first] == seeded[: len(first)]
    assert sorted(e for t in first for e in t) == sorted(seeded)

    left_in: dict[int, int] = {}
    for earlier, later in itertools.pairwise(rounds):
        later_sizes = [len(t["seats"]) for t in later["tables"]]
        alive = sum(later_sizes)
        assert max(later_sizes) - min(later_sizes) <= 1 and min(later_sizes) >= 2
        assert len(later_sizes) == -(-alive // table_size)  # as few tables as seat everyone
        survivors: set[int] = set()
        for table in earlier["tables"]:
            order = placements(table)
            goes_on = max(1, min(keep, len(order) - 1))
            survivors |= set(order[:goes_on])
            left_in.update(dict.fromkeys(order[goes_on:], earlier["number"]))
        seated = [e for t in later["tables"] for e in seats(t)]
        assert sorted(seated) == sorted(survivors)  # the losers left, nobody else did
    (final,) = rounds[-1]["tables"]
    ranking = final_ranking(run)
    assert ranking[: len(final["seats"])] == placements(final)
    assert sorted(ranking) == sorted(seeded)
    rest = ranking[len(final["seats"]) :]
    assert [left_in[e] for e in rest] == sorted((left_in[e] for e in rest), reverse=True)
    data = check_standings(run, rounds)
    assert data["final_ranking"][0]["entry"] == winner(final)


# ---------------------------------------------------------------- stages that chain


@E2E
def test_groups_then_single_elimination_playoffs() -> None:
    plan = [
        {
            "name": "groups",
            "format": "round_robin",
            "params": {"groups": 2, "table_size": 2, "advance": {"per_group": 2}},
        },
        {"name": "playoffs", "format": "single_elimination", "params": {}},
    ]
    run = organise("gp", plan, 8)
    p = run.ids
    play_to_the_end(run, random.Random(4))
    rounds = run.rounds()
    assert [r["stage"] for r in rounds] == [1, 1, 1, 2, 2]
    groups = [[p["P01"], p["P04"], p["P05"], p["P08"]], [p["P02"], p["P03"], p["P06"], p["P07"]]]
    met = Counter(frozenset(seats(t)) for r in rounds[:3] for t in r["tables"])
    assert set(met) == {frozenset(x) for g in groups for x in itertools.combinations(g, 2)}

    group_stage, playoffs = run.events(log.STAGE_FINISHED)
    first, second = ([int(e) for e in g] for g in group_stage["ranking"])
    assert [sorted(first), sorted(second)] == [sorted(g) for g in groups]
    # Group winners, then runners-up, seed the playoffs; within a place as in the final
    # ranking: more group points, then the tiebreak chain (head-to-head aside), then group
    # order. A place members of a group share (tied on every criterion: a circle of three
    # with the same dice left) counts as that place for each of them. Seeds 1 v 4 and 2 v 3
    # in the semi-finals, the runners-up swapped if that is what keeps group-mates apart:
    # A1 v B2, B1 v A2.
    group_places = {r["entry"]: r["rank"] for r in run.get("/standings?stage=1")["standings"]}
    group_keys = cross_group_keys(rounds[:3])
    by_place = by_place_across_groups([first, second], group_keys, group_places)[:4]
    group_of = {e: g for g, members in enumerate(groups) for e in members}
    if group_of[by_place[0]] == group_of[by_place[3]]:
        by_place[2], by_place[3] = by_place[3], by_place[2]
    seeded = by_place
    started = run.events(log.STAGE_STARTED)[1]
    assert started["entrants"] == [str(e) for e in seeded]
    semis = {t["bracket_ref"]: seats(t) for t in rounds[3]["tables"]}
    assert semis == {"W1-1": [seeded[0], seeded[3]], "W1-2": [seeded[1], seeded[2]]}
    assert all(group_of[a] != group_of[b] for a, b in semis.values())
    (final,) = rounds[4]["tables"]
    assert seats(final) == [winner(t) for t in rounds[3]["tables"]]

    status = {e["id"]: e["status"] for e in run.get("/entries")}
    assert {e for e, s in status.items() if s == "eliminated"} == {*first[2:], *second[2:]}
    champion = winner(final)
    playoff_ranking = [int(e) for e in playoffs["ranking"][0]]
    assert playoff_ranking[:2] == [champion, loser(final)]
    assert set(playoff_ranking[2:]) == {loser(t) for t in rounds[3]["tables"]}
    data = check_standings(run, rounds)
    # All eight are placed: the playoffs' ranking (1–4), then those out in the groups (5–8):
    # the two third places, then the two fourth places (each by the place it shares in its
    # group), within a place by the group standings (points, then the tiebreaks but
    # head-to-head, then group order).
    group_out = by_place_across_groups([first[2:], second[2:]], group_keys, group_places)
    overall = final_ranking(run)
    assert overall == playoff_ranking + group_out
    assert len(overall) == 8 and sorted(overall) == sorted(e for n, e in p.items() if n not in run.no_shows)
    assert [item["entry"] for item in data["final_ranking"]] == overall
    assert [item["place"] for item in data["final_ranking"]][:4] == [
        1,
        2,
        3,
        3,
    ]  # the semi-final losers share
    assert data["final_ranking"][0]["entry"] == champion


@E2E
def test_the_wildcard_goes_to_the_best_runner_up_across_groups() -> None:
    plan = [
        {
            "name": "groups",
            "format": "round_robin",
            "params": {"groups": 2, "table_size": 2, "advance": {"per_group": 1, "wildcards": 1}},
        },
        {"name": "playoffs", "format": "single_elimination", "params": {}},
    ]
    run = organise("wc", plan, 8, no_shows=0)
    p = run.ids
    # Group 1 (P01 P04 P05 P08): P01 wins all, the others beat each other in a circle: 3 1 1 1.
    # Group 2 (P02 P03 P06 P07): a circle of three who all beat P07: 2 2 2 0.
    wins = [("P01", "P04"), ("P01", "P05"), ("P01", "P08"), ("P04", "P05"), ("P05", "P08"), ("P08", "P04")]
    wins += [("P02", "P03"), ("P03", "P06"), ("P06", "P02"), ("P02", "P07"), ("P03", "P07"), ("P06", "P07")]
    script = {frozenset(pair): pair[0] for pair in wins}
    for _ in range(3):
        assert not play_round(run, random.Random(5), script)
    (groups,) = run.events(log.STAGE_FINISHED)
    first, second = ([int(e) for e in g] for g in groups["ranking"])
    assert first[0] == p["P01"] and second[-1] == p["P07"]
    points = {r["entry"]: r["points"] for r in run.get("/standings?stage=1")["standings"]}
    assert [points[e] for e in first] == [3, 1, 1, 1] and [points[e] for e in second] == [2, 2, 2, 0]
    # Group winners (more points first), then the best runner-up: group 2's, on 2 points.
    started = run.events(log.STAGE_STARTED)[1]
    assert started["entrants"] == [str(first[0]), str(second[0]), str(second[1])]
    play_to_the_end(run, random.Random(5))
    rounds = run.rounds()
    playoff = [t for r in rounds if r["stage"] == 2 for t in r["tables"]]
    assert {t["bracket_ref"] for t in playoff} == {"W1-2", "W2-1"}  # the top seed has the bye
    status = {e["id"]: e["status"] for e in run.get("/entries")}
    assert {e for e, s in status.items() if s == "eliminated"} == {*first[1:], second[2], second[3]}
    check_standings(run, rounds)


@E2E
def test_a_late_withdrawal_from_a_round_robin_forfeits_its_remaining_games() -> None:
    plan = [{"name": "league", "format": "round_robin", "params": {"table_size": 2}}]
    run = organise("wd", plan, 6, no_shows=0)
    p = run.ids
    assert not play_round(run, random.Random(6))
    quitter = p["P06"]
    withdrawn = run.organiser.post(f"/api/entries/{quitter}/withdraw")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    (event,) = run.events(log.WITHDRAWN)
    assert event["after_round"] == 1 and len(event["forfeited_tables"]) == 1  # its live game
    play_to_the_end(run, random.Random(6))
    rounds = run.rounds()
    assert len(rounds) == 5
    met = Counter(frozenset(seats(t)) for t in all_tables(rounds))
    assert set(met) == {frozenset(x) for x in itertools.combinations(p.values(), 2)}
    assert set(met.values()) == {1}  # the fixed schedule is kept: every game is played or forfeited
    for rnd in rounds[1:]:
        (table,) = [t for t in rnd["tables"] if quitter in seats(t)]
        assert placements(table)[-1] == quitter  # it forfeits: its opponent wins
    data = check_standings(run, rounds)
    assert {r["entry"]: r["played"] for r in data["standings"]} == dict.fromkeys(p.values(), 5)


@pytest.mark.django_db
@pytest.mark.sqlite_too
def test_a_swiss_stage_in_groups_is_refused_up_front(make_user: Any) -> None:
    """Swiss pairs a stage as one group: a grouped Swiss would stop at the end of the stage."""
    owner = make_user("owner-sg")
    club = create_club("Club sg", "sg", owner)
    body = {
        "club": club.pk,
        "name": "Grouped Swiss",
        "ruleset": "dudo",
        "stages": [
            {"name": "swiss", "format": "swiss", "params": {"groups": 2, "advance": {"per_group": 2}}},
            {"name": "final", "format": "final_table", "params": {}},
        ],
    }
    refused = api(owner).post("/api/tournaments", body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "stage-groups", refused.json()


# ---------------------------------------------------------------- properties of the formats adapter (pure)


def _simulate(data: stage_data.StageInput, rng: random.Random) -> list[stage_data.RoundRecord]:
    """Play a stage through `formats.next_round` with random placements."""
    rounds: list[stage_data.RoundRecord] = []
    for _ in range(200):
        planned = formats.next_round(dataclasses.replace(data, rounds=tuple(rounds)))
        if planned is None:
            return rounds
        tables = []
        for number, table in enumerate(planned.tables, start=1):
            order = list(table.seats)
            rng.shuffle(order)
            results = tuple(EntryResult(e, placement=i) for i, e in enumerate(order, start=1))
            tables.append(stage_data.TableRecord(number, table.seats, results, bracket_ref=table.bracket_ref))
        rounds.append(
            stage_data.RoundRecord(len(rounds) + 1, tuple(tables), planned.byes, planned.bye_points)
        )
    raise AssertionError("the stage does not end")


def _stage(fmt: str, n: int, params: dict[str, Any]) -> stage_data.StageInput:
    ids = tuple(str(i) for i in range(1, n + 1))
    return stage_data.StageInput(fmt, params, ids, {e: f"E{e}" for e in ids})


@given(
    n=st.integers(7, 40),
    table_size=st.integers(3, 6),
    keep=st.integers(1, 3),
    salt=st.integers(0, 2**32),
)
@settings(max_examples=80, deadline=None)
def test_table_elimination_stage_balances_every_round_down_to_one_final_table(
    n: int, table_size: int, keep: int, salt: int
) -> None:
    data = _stage(stages.TABLE_ELIMINATION, n, {"table_size": table_size, "advance_per_table": keep})
    rounds = _simulate(data, random.Random(salt))
    alive = set(data.entrants)
    for rnd in rounds:
        sizes = [len(t.seats) for t in rnd.tables]
        assert sorted(e for t in rnd.tables for e in t.seats) == sorted(alive)
        assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2 and max(sizes) <= table_size
        assert len(sizes) == -(-len(alive) // table_size)
        for t in rnd.tables:
            alive -= set(t.placements()[max(1, min(keep, len(t.seats) - 1)) :])
    assert len(rounds[-1].tables) == 1 and len(rounds) >= 2
    (ranking,) = rankings.stage_ranking(dataclasses.replace(data, rounds=tuple(rounds)))
    assert sorted(ranking) == sorted(data.entrants)
    assert ranking[0] == rounds[-1].tables[0].winner()


@given(n=st.integers(2, 40), double=st.booleans(), reset=st.booleans(), salt=st.integers(0, 2**32))
@settings(max_examples=80, deadline=None)
def test_bracket_stage_plays_each_entry_once_a_round_until_one_champion(
    n: int, double: bool, reset: bool, salt: int
) -> None:
    fmt = stages.DOUBLE_ELIMINATION if double else stages.SINGLE_ELIMINATION
    data = _stage(fmt, n, {"grand_final_reset": reset})
    rounds = _simulate(data, random.Random(salt))
    # Byes: the top seeds skip round 1 (a bracket of the next power of two) and sit it out
    # unless two of them meet at once; a bye is not seated that round and plays later;
    # bracket byes earn no points.
    size = 1 << (n - 1).bit_length()
    seated_first = {e for t in rounds[0].tables for e in t.seats}
    skip = [e for e in data.entrants[: size - n] if e not in seated_first]  # two byes may meet at once
    assert sorted(rounds[0].byes, key=int) == skip
    assert not any(r.bye_points for r in rounds) and not stage_data.byes_of(rounds)
    if not double:
        assert not any(r.byes for r in rounds[1:])
    for i, rnd in enumerate(rounds):
        assert len(set(rnd.byes)) == len(rnd.byes)
        assert not set(rnd.byes) & {e for t in rnd.tables for e in t.seats}
        later = {e for r in rounds[i + 1 :] for t in r.tables for e in t.seats}
        assert set(rnd.byes) <= later
    losses: Counter[str] = Counter()
    for rnd in rounds:
        seated = [e for t in rnd.tables for e in t.seats]
        assert len(seated) == len(set(seated)) and rnd.tables
        for t in rnd.tables:
            assert len(t.seats) == 2 and all(losses[e] < (2 if double else 1) for e in t.seats)
            losses[t.placements()[1]] += 1
    (ranking,) = rankings.stage_ranking(dataclasses.replace(data, rounds=tuple(rounds)))
    assert sorted(ranking) == sorted(data.entrants)
    champion = ranking[0]
    assert rounds[-1].tables[-1].winner() == champion
    if not double:
        assert len(rounds) == (n - 1).bit_length() and losses[champion] == 0
        assert all(losses[e] == 1 for e in ranking[1:])
    else:
        assert losses[champion] <= 1
        assert all(losses[e] == 2 for e in ranking[1:] if e != ranking[1] or reset)


@given(
    n=st.integers(4, 30), groups=st.integers(1, 4), table_size=st.integers(2, 4), salt=st.integers(0, 2**32)
)
@settings(max_examples=60, deadline=None)
def test_round_robin_stage_lists_the_scheduled_sit_outs_without_points(
    n: int, groups: int, table_size: int, salt: int
) -> None:
    groups = min(groups, n // 2)
    data = _stage(stages.ROUND_ROBIN, n, {"groups": groups, "table_size": table_size})
    data = dataclasses.replace(data, plan=formats.start_plan(data), standings=StandingsConfig(bye_points=5))
    rounds = _simulate(data, random.Random(salt))
    sat_out: Counter[str] = Counter()
    for rnd in rounds:
        assert not rnd.bye_points
        seated = {e for t in rnd.tables for e in t.seats}
        playing = [set(g) for g in data.plan["groups"] if set(g) & seated]  # groups still playing
        assert set(rnd.byes) == {e for g in playing for e in g} - seated
        sat_out.update(rnd.byes)
    for members in data.plan["groups"]:
        odd = table_size == 2 and len(members) % 2
        assert all(sat_out[e] == (1 if odd else 0) for e in members)  # once each, in an odd group
    # No bye points: the points are the tables' points.
    standing = stage_data.stage_standings(dataclasses.replace(data, rounds=tuple(rounds)))
    table_points: Counter[str] = Counter()
    for rnd in rounds:
        for t in rnd.tables:
            for r in t.results:
                table_points[r.entry_id] += share(len(t.seats), r.placement or 0)
    points = {row.entry_id: row.points for row in standing.rows}
    assert points == {e: pytest.approx(table_points[e]) for e in data.entrants}


def test_a_swiss_bye_still_earns_the_bye_points() -> None:
    data = dataclasses.replace(
        _stage(stages.SWISS, 5, {"rounds": 3, "table_size": 2}), standings=StandingsConfig(bye_points=1)
    )
    rounds = _simulate(data, random.Random(7))
    assert all(r.bye_points and len(r.byes) == 1 for r in rounds)
    standing = stage_data.stage_standings(dataclasses.replace(data, rounds=tuple(rounds)))
    points = {row.entry_id: row.points for row in standing.rows}
    wins = Counter(t.winner() for r in rounds for t in r.tables)
    byes = Counter(e for r in rounds for e in r.byes)
    assert points == {e: wins[e] + byes[e] for e in data.entrants}


@given(n=st.integers(6, 24), groups=st.integers(2, 4), salt=st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_the_final_ranking_of_groups_then_playoffs_places_everyone(n: int, groups: int, salt: int) -> None:
    groups = min(groups, n // 3)
    rng = random.Random(salt)
    params = {"groups": groups, "table_size": 2, "advance": {"per_group": 1, "wildcards": 1}}
    first = _stage(stages.ROUND_ROBIN, n, params)
    first = dataclasses.replace(first, plan=formats.start_plan(first))
    first = dataclasses.replace(first, rounds=tuple(_simulate(first, rng)))
    group_ranking = rankings.stage_ranking(first)
    entrants = rankings.advancing(first, "groups")
    # Seeded as the stage's own order ranks them (the same comparison as the final ranking):
    # its head, but where a group's shared place is cut by `per_group` (the group's listing
    # says who of them goes on).
    order = rankings.flat(rankings.stage_tiers(first))
    assert entrants == [e for e in order if e in entrants]
    listed = {e: (g, i) for g, members in enumerate(group_ranking) for i, e in enumerate(members)}
    group_place = {e: p for tiers in rankings.group_tiers(first) for p, e in rankings.places(tiers)}
    for e in order[: order.index(entrants[-1])]:
        if e not in entrants:  # passed over: a group-mate sharing its place went on instead
            g, i = listed[e]
            mates = [m for m in group_ranking[g][:i] if group_place[m] == group_place[e]]
            assert any(m in entrants for m in mates), (e, group_ranking, entrants)
    second = _stage(stages.SINGLE_ELIMINATION, 0, {})
    second = dataclasses.replace(second, entrants=tuple(entrants), names=first.names)
    second = dataclasses.replace(second, rounds=tuple(_simulate(second, rng)))
    (playoffs,) = rankings.stage_ranking(second)

    ranking = rankings.flat(rankings.final_tiers([rankings.stage_tiers(first), rankings.stage_tiers(second)]))
    assert sorted(ranking) == sorted(first.entrants)  # everyone, once
    assert ranking[: len(playoffs)] == playoffs  # the playoffs first
    rest = ranking[len(playoffs) :]
    # By place in group: the place an entry shares in its group (1, 1, 3 …).
    assert [group_place[e] for e in rest] == sorted(group_place[e] for e in rest)
    # Within a place: more group points first.
    points = {
        row.entry_id: row.points
        for g in group_ranking
        for row in stage_data.stage_standings(first, ids=g).rows
    }
    for a, b in itertools.pairwise(rest):
        if group_place[a] == group_place[b]:
            assert points[a] >= points[b]
    # A single-stage tournament in groups: the same rule, every group winner first.
    alone = rankings.flat(rankings.final_tiers([rankings.stage_tiers(first)]))
    assert {g[0] for g in group_ranking} <= set(alone[: len([e for e in alone if group_place[e] == 1])])
    assert [group_place[e] for e in alone] == sorted(group_place.values())
