"""An independent oracle for the final ranking, written from docs/tournaments.md ("Stage
formats", "Byes", "Withdrawals, no-shows and forfeits", "The final ranking", "Entries at the
desk"), checked over random formats and chains (groups included), sizes 2–64, faults
(withdrawals, table forfeits, disqualifications, reinstatements) and tie patterns (random
figures, even figures, seat order: cycles and groups equal all the way).

The oracle reads only what the tournament's log records (stages with their groups, rounds
with their seats, byes and bracket references, table results, the entries' final status)
and ranks from that alone; nothing of the production ranking code is imported. Its verdict
must equal the places `tournament-finished` records, and `GET …/ranking`, the standings
JSON, the CSV, the XLSX and the printed page must show them.

Tables are finished through the write path's own steps with results chosen by the test (the
fast path of `tests/tournaments/helpers.finish_round`); a withdrawal or a forfeit leaves the
live match as in production. Alalay events are left to test_every_format.py (their final
placements come from card totals).

Teams (docs/tournaments.md, "Pairs and teams"): the same formats played by Alalay teams of
three, ranked on the same criteria, with substitutions between rounds; the oracle also reads
from the log who plays for each team (the members each table seated, by their first table,
then the members yet to play after the substitutions) and every output must list them.
"""

from __future__ import annotations

import csv
import io
import itertools
import random
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from cacho.models import Player
from tests.tournaments.test_every_format import SQLITE_LIMIT, Run, organise, stage
from tournaments.clubs.members import create_club
from tournaments.models import Entry, Table, Tournament, TournamentEvent
from tournaments.services import (
    TournamentError,
    advance,
    create_tournament,
    forfeit_table,
    register,
    reinstate,
    start_tournament,
    withdraw,
)
from tournaments.services import tables as table_steps
from tournaments.services.desk import disqualify
from tournaments.services.lifecycle import locked
from tournaments.services.substitutions import substitute

pytestmark = pytest.mark.django_db(transaction=True)

_examples = itertools.count(1)
_substitutes = itertools.count(1)

# ---------------------------------------------------------------- the oracle

Tiers = list[list[int]]
CRITERIA = ("eliminations", "dice_left", "head_to_head", "buchholz")  # the Dudo default chain
DECIMALS = 9


@dataclass
class StageLog:
    number: int
    format: str
    params: dict[str, Any]
    entrants: list[int]
    groups: list[list[int]]
    rounds: list[RoundLog] = field(default_factory=list)


@dataclass
class RoundLog:
    number: int
    byes: list[int]
    bye_points: bool
    tables: dict[int, dict[str, Any]]  # table number -> {"bracket", "seats", "forfeits", "result"}


def read_log(tournament_id: int) -> list[StageLog]:
    stages: dict[int, StageLog] = {}
    rounds: dict[int, RoundLog] = {}
    for recorded in TournamentEvent.objects.filter(tournament_id=tournament_id).order_by("version"):
        data = recorded.payload
        if recorded.type == "stage-started":
            entrants = [int(e) for e in data["entrants"]]
            groups = (data.get("plan") or {}).get("groups") if data["format"] == "round_robin" else None
            stages[data["stage"]] = StageLog(
                data["stage"],
                data["format"],
                data.get("params") or {},
                entrants,
                [[int(e) for e in g] for g in groups] if groups else [entrants],
            )
        elif recorded.type == "registered" and data.get("late"):
            late = stages[data["stage"]]
            late.entrants.append(int(data["entry"]))
            late.groups[0].append(int(data["entry"]))
        elif recorded.type == "round-created":
            rnd = RoundLog(
                data["round"],
                [int(b) for b in data["byes"]],
                bool(data.get("bye_points")),
                {
                    t["table"]: {"bracket": t.get("bracket") or "", "seats": t["seats"], "result": None}
                    for t in data["tables"]
                },
            )
            rounds[rnd.number] = rnd
            stages[data["stage"]].rounds.append(rnd)
        elif recorded.type == "table-finished":
            rounds[data["round"]].tables[data["table"]]["result"] = data["result"]
    return [stages[n] for n in sorted(stages)]


def results_of(rounds: Iterable[RoundLog]) -> list[list[dict[str, Any]]]:
    return [t["result"] for r in rounds for t in r.tables.values() if t["result"]]


def standings_tiers(stage: StageLog, members: Sequence[int]) -> tuple[Tiers, dict[int, tuple[float, ...]]]:
    """A group's standings as tiers (equal on every criterion: one tier), and each entry's
    figures but head-to-head (what compares entries of different groups)."""
    inside = set(members)
    tables = [res for res in results_of(stage.rounds) if {line["entry"] for line in res} & inside]
    totals: dict[int, dict[str, float]] = {e: defaultdict(float) for e in members}
    for res in tables:
        size = len(res)
        for line in res:
            t = totals.setdefault(line["entry"], defaultdict(float))
            won = 0.0 if line.get("forfeit") else (size - line["placement"]) / (size - 1)
            t["points"] += won
            t["eliminations"] += line.get("eliminations", 0)
            t["dice_left"] += line.get("dice_left", 0)
    for rnd in stage.rounds:
        if rnd.bye_points:  # a bye worth points is worth a win: 1 on the default scale
            for e in rnd.byes:
                if e in totals:
                    totals[e]["points"] += 1.0
    for t in totals.values():
        t["points"] = round(t["points"], DECIMALS)
    for res in tables:
        at_table = sum(totals[line["entry"]]["points"] for line in res)
        for line in res:
            totals[line["entry"]]["buchholz"] += at_table - totals[line["entry"]]["points"]
    for t in totals.values():
        t["buchholz"] = round(t["buchholz"], DECIMALS)

    def head_to_head(e: int, tied: set[int]) -> float:
        score = 0.0
        for res in tables:
            mine = next((line["placement"] for line in res if line["entry"] == e), None)
            if mine is None:
                continue
            for line in res:
                if line["entry"] != e and line["entry"] in tied:
                    score += 1.0 if mine < line["placement"] else 0.5 if mine == line["placement"] else 0.0
        return score

    def split(group: list[int], level: int) -> Tiers:
        chain = ("points", *CRITERIA)
        if len(group) == 1 or level == len(chain):
            return [group]
        code = chain[level]
        tied = set(group)
        value = {e: head_to_head(e, tied) if code == "head_to_head" else totals[e][code] for e in group}
        out: Tiers = []
        for v in sorted(set(value.values()), reverse=True):
            out += split([e for e in group if value[e] == v], level + 1)
        return out

    everyone = sorted(totals)
    keys = {
        e: (totals[e]["points"], *(totals[e][c] for c in CRITERIA if c != "head_to_head")) for e in everyone
    }
    return split(everyone, 0), keys


def shared_places(tiers: Tiers) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for tier in tiers:
        place = len(out) + 1
        out += [(place, e) for e in tier]
    return out


def points_stage(stage: StageLog) -> Tiers:
    """Swiss and round robin: by the standings; several groups by place in group, then the
    criteria across groups (head-to-head aside), entries equal on all of them sharing."""
    if len(stage.groups) == 1:
        members = set(stage.groups[0]) | {line["entry"] for res in results_of(stage.rounds) for line in res}
        return standings_tiers(stage, sorted(members))[0]
    by_place: dict[int, list[int]] = defaultdict(list)
    keys: dict[int, tuple[float, ...]] = {}
    for members in stage.groups:
        tiers, group_keys = standings_tiers(stage, members)
        keys.update(group_keys)
        for place, e in shared_places(tiers):
            by_place[place].append(e)
    out: Tiers = []
    for place in sorted(by_place):
        for key in sorted({keys[e] for e in by_place[place]}, reverse=True):
            out.append([e for e in by_place[place] if keys[e] == key])
    return out


def parse_ref(ref: str) -> tuple[str, int]:
    if ref in ("GF", "GF2", "3P"):
        return ref, 0
    match = re.fullmatch(r"([WL])(\d+)-\d+", ref)
    assert match, ref
    return match.group(1), int(match.group(2))


def bracket_stage(stage: StageLog) -> Tiers:
    """By the round an entry went out in: the champion, the runner-up (the loser of the
    deciding final), the third-place match's winner and loser when it is played, then the
    losers of each earlier round sharing a place (double elimination: of each losers-bracket
    round), latest first; entries out by a double forfeit right after the losers of their
    round. A winners-bracket double forfeit of a double elimination counts as the losers-
    bracket round it would have dropped into (round 1 → 1, round r → 2(r−1))."""
    double = stage.format == "double_elimination"
    played = [(t["bracket"], t["result"]) for r in stage.rounds for t in r.tables.values() if t["result"]]
    refs = {ref for ref, _ in played}
    only_winners = not any(ref.startswith(("L", "GF")) for ref in refs)
    last_w = max((parse_ref(ref)[1] for ref in refs if ref.startswith("W")), default=0)
    deciding = "GF2" if "GF2" in refs else "GF" if "GF" in refs and not only_winners else f"W{last_w}-1"
    exit_key: dict[int, tuple[float, int]] = {}
    for ref, res in played:
        winners = [line["entry"] for line in res if line["placement"] == 1 and not line.get("forfeit")]
        losers = [line["entry"] for line in res if line["entry"] not in winners]
        forfeited = not winners
        side, rnd = parse_ref(ref)
        if ref == deciding:
            key: tuple[float, int] = (10_000, 0 if forfeited else 1)
        elif ref == "3P":
            if forfeited:
                key = (last_w - 1, 0)  # both semi-final losers out: with the round's losers
            else:
                exit_key.update({w: (last_w - 0.5, 1) for w in winners})
                key = (last_w - 0.5, 0)
        elif ref == "GF":
            continue  # the winners-bracket champion lost once: it plays the reset
        elif double and side == "W" and not only_winners:
            if not forfeited:
                continue  # a winners-bracket loser drops to the losers bracket
            key = (1 if rnd == 1 else 2 * (rnd - 1), 0)
        else:
            key = (rnd, 0 if forfeited else 1)
        for e in losers:
            exit_key[e] = key
    everyone = set(stage.entrants) | {line["entry"] for _, res in played for line in res}
    out: Tiers = [[e] for e in sorted(everyone - set(exit_key))]  # the champion
    assert len(out) <= 1, ("more than one entry never went out", out)
    for key in sorted(set(exit_key.values()), reverse=True):
        out.append(sorted(e for e, k in exit_key.items() if k == key))
    return out


def by_tables_stage(stage: StageLog, gone: set[int]) -> Tiers:
    """Bust-out order: the later the round an entry went out in (its last table), the
    better; then its placement at that table, equal placements at different tables sharing;
    an entry withdrawn counts as last at the last table it sat at."""
    last: dict[int, tuple[int, int]] = {}
    for rnd in stage.rounds:
        for t in rnd.tables.values():
            for line in t["result"] or []:
                placement = len(t["seats"]) if line["entry"] in gone else line["placement"]
                last[line["entry"]] = (rnd.number, placement)
    keyed: dict[tuple[int, int], list[int]] = defaultdict(list)
    for e, (rnd_number, placement) in last.items():
        keyed[(-rnd_number, placement)].append(e)
    return [sorted(keyed[k]) for k in sorted(keyed)]


def oracle_places(tournament: Tournament) -> dict[int, int]:
    """Everyone who played, by the docs' final ranking: the last stage's tiers, then those
    out in each earlier stage (later first), the disqualified last, sharing that place."""
    status = dict(Entry.objects.filter(tournament=tournament).values_list("pk", "status"))
    gone = {e for e, s in status.items() if s in (Entry.WITHDRAWN, Entry.DISQUALIFIED)}
    out: Tiers = []
    seen: set[int] = set()
    for played in reversed(read_log(tournament.pk)):
        if played.format in ("swiss", "round_robin"):
            tiers = points_stage(played)
        elif played.format in ("single_elimination", "double_elimination"):
            tiers = bracket_stage(played)
        else:
            tiers = by_tables_stage(played, gone)
        for tier in tiers:
            fresh = [e for e in tier if e not in seen]
            if fresh:
                out.append(fresh)
                seen.update(fresh)
    disqualified = [e for tier in out for e in tier if status[e] == Entry.DISQUALIFIED]
    out = [kept for tier in out if (kept := [e for e in tier if e not in disqualified])]
    if disqualified:
        out.append(disqualified)
    return {e: place for place, e in shared_places(out)}


# ---------------------------------------------------------------- driving a tournament


PATTERNS = ("random", "even", "seats", "cycles")


def beats(a: int, b: int) -> bool:
    """Rock, paper, scissors by entry id: every three classes make a cycle, so groups and
    Swiss fields end in circles of entries equal on every criterion."""
    if a % 3 == b % 3:
        return a < b
    return (a - b) % 3 == 1


def scripted_result(table: Table, pattern: str, rng: random.Random) -> list[dict[str, Any]]:
    """A result for `table`: the seats still in play placed by the pattern (random figures;
    even figures, every win alike; seat order, so that round robins cycle; rock, paper,
    scissors by id with even figures), then every forfeited seat placed last at the table."""
    seats = list(table.seats.order_by("index"))
    playing = [s.entry_id for s in seats if not s.forfeited]
    if pattern == "cycles":
        playing.sort(key=lambda e: -sum(beats(e, other) for other in playing if other != e))
    elif pattern != "seats":
        rng.shuffle(playing)
    size = len(seats)
    lines = []
    for place, entry in enumerate(playing, start=1):
        if pattern == "random":
            dice, eliminations = (rng.randint(1, 5) if place == 1 else 0), rng.randint(0, 1)
        else:
            dice, eliminations = (5 if place == 1 else 0), (len(playing) - 1 if place == 1 else 0)
        lines.append({"entry": entry, "placement": place, "dice_left": dice, "eliminations": eliminations})
    for s in seats:
        if s.forfeited:
            lines.append(
                {"entry": s.entry_id, "placement": size, "dice_left": 0, "eliminations": 0, "forfeit": True}
            )
    return lines


def fault(run: Any, table: Table, faults: float) -> None:
    """A withdrawal, a no-show at the table, a disqualification or a reinstatement, each
    now and then (`faults`: how often anything happens)."""
    rng = run.rng
    if rng.random() >= faults:
        return
    seated = [s.entry for s in table.seats.select_related("entry") if not s.forfeited]
    kind = rng.choice(("withdraw", "withdraw", "forfeit", "disqualify", "reinstate"))
    try:
        if kind == "reinstate":
            out = list(Entry.objects.filter(tournament_id=run.pk, status=Entry.WITHDRAWN))
            if out:
                reinstate(rng.choice(out).pk, run.organiser)
        elif seated:
            entry = rng.choice(seated)
            if kind == "withdraw":
                withdraw(entry.pk, run.organiser)
            elif kind == "forfeit":
                forfeit_table(table.pk, entry.pk, run.organiser)
            else:
                disqualify(entry.pk, run.organiser, "oracle fault")
    except TournamentError as exc:
        allowed = ("seat-not-in-play", "table-finished", "reinstate-too-late", "entry-out-of-stage")
        assert exc.code in allowed or exc.code.startswith("entry-"), exc.code


def play(run: Any, pattern: str, faults: float, teams: bool = False) -> None:
    for _ in range(400):
        tournament = run.refresh()
        if tournament.status == Tournament.FINISHED:
            return
        rnd = tournament.rounds.order_by("-number").first()
        assert rnd is not None
        for table in rnd.tables.filter(status=Table.PLAYING).order_by("number"):
            fault(run, table, faults)
            table.refresh_from_db()
            if table.status != Table.PLAYING:
                continue  # a withdrawal ended its match: production recorded it
            with transaction.atomic():
                current = locked(run.pk)
                result = scripted_result(table, pattern, run.rng)
                table_steps.finish_table(current, table, result, match_version=None, actor="test")
                finished = table_steps.finish_round_if_done(current, table.round)
                table_steps.standings_after(current, table.round, finished)
            if teams:
                substitution(run, table)
        advance(run.pk)
    raise AssertionError("the tournament does not finish")


def oracle_members(tournament_id: int) -> dict[int, list[str]]:
    """Who plays for each team, from the log alone: the members its tables seated (the
    `round-created` tables' `members`, its forfeited seats aside), by their first table,
    then its members after every substitution (`registered`, `member-substituted`)."""
    # The log names a member with an account by its player id (`{"player": "p7"}`), a
    # guest by its name (`{"name", "guest"}`); older events by the name (a string, or
    # `{"name", "user"}` in a substitution). A player id is shown by its account's
    # username, kept outside the log.
    labels = {f"p{pk}": username for pk, username in Player.objects.values_list("pk", "user__username")}

    def shown(member: Any) -> str:
        if isinstance(member, str):
            return member
        return labels[member["player"]] if "player" in member else str(member["name"])

    played: dict[int, list[str]] = defaultdict(list)
    current: dict[int, list[str]] = {}
    for recorded in TournamentEvent.objects.filter(tournament_id=tournament_id).order_by("version"):
        data = recorded.payload
        if recorded.type == "registered":
            current[int(data["entry"])] = [shown(m) for m in data["members"]]
        elif recorded.type == "member-substituted":
            names = current[int(data["entry"])]
            names[names.index(shown(data["out"]))] = shown(data["in"])  # older: {name, user}
        elif recorded.type == "round-created":
            for table in sorted(data["tables"], key=lambda t: t["table"]):
                for entry in table["seats"]:
                    if entry in table["forfeits"]:
                        continue
                    names = played[entry]
                    names.extend(m for m in map(shown, table["members"][str(entry)]) if m not in names)
    out = {}
    for entry, names in current.items():
        out[entry] = list(played.get(entry, []))
        out[entry].extend(m for m in names if m not in out[entry])
    return out


def substitution(run: Any, table: Table) -> None:
    """Now and then a team seated at this table, once it has finished, replaces a member."""
    if run.rng.random() >= 0.3:
        return
    seat = run.rng.choice(list(table.seats.select_related("entry")))
    members = list(seat.entry.members.values_list("name", flat=True))
    try:
        substitute(seat.entry_id, run.organiser, run.rng.choice(members), f"Sub {next(_substitutes)}")
    except TournamentError as exc:
        # out of play, or at a table of a later round of its own (a walkover at once)
        assert exc.code in ("entry-not-playing", "substitution-table-playing", "tournament-finished"), (
            exc.code
        )


# ---------------------------------------------------------------- what every output shows


def shown_places(tournament: Tournament, members: dict[int, list[str]] | None = None) -> dict[int, int]:
    """The places of the API's ranking, after checking that the log, the standings JSON,
    the CSV, the XLSX and the printed page all say the same (and, for teams, list the
    `members` the oracle read for each)."""
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    base = f"/api/tournaments/{tournament.pk}"
    ranking = client.get(f"{base}/ranking").json()["ranking"]
    if members is not None:
        check_members(client, base, ranking, members)
    placed = {item["entry"]: item["place"] for item in ranking}
    finished = TournamentEvent.objects.get(tournament=tournament, type="tournament-finished").payload
    assert {entry: place for place, entry in finished["places"]} == placed
    assert [item["place"] for item in ranking] == sorted(placed.values())
    assert client.get(f"{base}/standings").json()["final_ranking"] == ranking
    by_name = {item["name"]: item["place"] for item in ranking}
    rows = list(csv.reader(io.StringIO(client.get(f"{base}/standings/csv").content.decode("utf-8"))))
    assert [(r[1], int(r[0])) for r in rows[1:]] == [(n, p) for n, p in by_name.items()]
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"{base}/standings/xlsx").content))
    sheet = list(book.worksheets[0].iter_rows(values_only=True))[1:]
    assert [(r[1], int(r[0])) for r in sheet] == list(by_name.items())
    page = client.get(f"{base}/standings/print").content.decode("utf-8")
    body = page[page.index("<tbody") : page.index("</tbody>")]
    printed = re.findall(r"<tr><td class=\"num\">(\d+)</td><td>([^<]+)</td>", body)
    assert [(n, int(p)) for p, n in printed] == list(by_name.items())
    return placed


def check_members(
    client: APIClient, base: str, ranking: list[dict[str, Any]], members: dict[int, list[str]]
) -> None:
    """Each team's members, as the oracle read them, on the ranking, the standings JSON,
    and in the Members column of the CSV, the XLSX and the printed page."""
    assert {item["entry"]: item["members"] for item in ranking} == {
        e: members[e] for e in (i["entry"] for i in ranking)
    }
    for row in client.get(f"{base}/standings").json()["standings"]:
        assert row["members"] == members[row["entry"]]
    listed = [(item["name"], ", ".join(members[item["entry"]])) for item in ranking]
    rows = list(csv.reader(io.StringIO(client.get(f"{base}/standings/csv").content.decode("utf-8"))))
    assert rows[0][2] == "Members" and [(r[1], r[2]) for r in rows[1:]] == listed
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"{base}/standings/xlsx").content))
    sheet = list(book.worksheets[0].iter_rows(values_only=True))[1:]
    assert [(r[1], r[2]) for r in sheet] == listed
    page = client.get(f"{base}/standings/print").content.decode("utf-8")
    body = page[page.index("<tbody") : page.index("</tbody>")]
    printed = re.findall(r"<tr><td class=\"num\">\d+</td><td>([^<]+)</td><td>([^<]*)</td>", body)
    assert printed == listed


# ---------------------------------------------------------------- random tournaments


@st.composite
def tournaments(draw: st.DrawFn, largest: int) -> tuple[list[dict[str, Any]], int]:
    """A stage plan that the platform accepts for `size` entries, 2 ≤ size ≤ `largest`."""
    kind = draw(
        st.sampled_from(
            ("swiss", "round_robin", "single", "double", "tables", "final", "groups+bracket", "swiss+tables")
        )
    )
    low = {"groups+bracket": 4, "swiss+tables": 4}.get(kind, 2)
    high = 6 if kind == "final" else largest
    size = draw(st.integers(low, high))
    if kind == "swiss":
        return [
            stage("swiss", rounds=draw(st.integers(2, 4)), table_size=draw(st.sampled_from((2, 3, 4))))
        ], size
    if kind == "round_robin":
        groups = draw(st.integers(max(1, -(-size // 8)), max(1, size // 2)))
        return [stage("round_robin", groups=groups, table_size=2)], size
    if kind == "single":
        return [stage("single_elimination", third_place=draw(st.booleans()))], size
    if kind == "double":
        return [stage("double_elimination", grand_final_reset=draw(st.booleans()))], size
    if kind == "tables":
        table = draw(st.sampled_from((3, 4, 6)))
        return [
            stage("table_elimination", table_size=table, advance_per_table=draw(st.integers(1, table - 1)))
        ], size
    if kind == "final":
        return [stage("final_table")], size
    if kind == "groups+bracket":
        groups = draw(st.integers(max(2, -(-size // 8)), size // 2))
        per_group = draw(st.integers(1, max(1, size // groups - 1)))
        wildcards = draw(st.integers(0, 1)) if per_group * groups + 1 < size else 0
        advance_to = {"per_group": per_group, "wildcards": wildcards}
        playoff = draw(st.sampled_from(("single_elimination", "double_elimination")))
        return [
            stage("round_robin", "groups", groups=groups, table_size=2, advance=advance_to),
            stage(playoff, "playoffs"),
        ], size
    overall = draw(st.integers(2, size - 1))
    return [
        stage(
            "swiss", "swiss", rounds=2, table_size=draw(st.sampled_from((2, 4))), advance={"overall": overall}
        ),
        stage("table_elimination", "final", table_size=6, advance_per_table=3),
    ], size


def check_against_oracle(
    plan: list[dict[str, Any]], size: int, pattern: str, faults: float, seed: int
) -> None:
    run = organise("dudo", plan, size, seed)
    play(run, pattern, faults)
    tournament = run.refresh()
    assert tournament.status == Tournament.FINISHED
    expected = oracle_places(tournament)
    assert shown_places(tournament) == expected, (plan, size, pattern)
    # What the example exercised (`--hypothesis-show-statistics`).
    event("+".join(s["format"] for s in plan))
    event("shared places" if len(set(expected.values())) < len(expected) else "no shared place")
    statuses = set(Entry.objects.filter(tournament=tournament).values_list("status", flat=True))
    event("faults: " + (", ".join(sorted(statuses & {Entry.WITHDRAWN, Entry.DISQUALIFIED})) or "none"))


SETTINGS = {
    "deadline": None,
    "derandomize": True,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
}


@pytest.mark.first  # the longest test outside the SQLite run: begun last, the run waited for it
@settings(max_examples=20, **SETTINGS)
@given(
    shape=tournaments(largest=64),
    pattern=st.sampled_from(PATTERNS),
    faults=st.sampled_from((0.0, 0.05, 0.15)),
)
def test_the_final_ranking_is_the_docs_ranking(
    shape: tuple[list[dict[str, Any]], int], pattern: str, faults: float
) -> None:
    plan, size = shape
    check_against_oracle(plan, size, pattern, faults, seed=900_000 + next(_examples))


@pytest.mark.sqlite_too
@settings(max_examples=8, **SETTINGS)
@given(
    shape=tournaments(largest=SQLITE_LIMIT),
    pattern=st.sampled_from(PATTERNS),
    faults=st.sampled_from((0.0, 0.1)),
)
def test_the_final_ranking_is_the_docs_ranking_on_small_fields(
    shape: tuple[list[dict[str, Any]], int], pattern: str, faults: float
) -> None:
    plan, size = shape
    check_against_oracle(plan, size, pattern, faults, seed=950_000 + next(_examples))


def organise_teams(plan: list[dict[str, Any]], size: int, seed: int) -> Run:
    """`size` Alalay teams of three (an account and two guests each), ranked on the oracle's
    criteria (the Dudo chain, named in the standings settings), started at once."""
    users = get_user_model()
    organiser = users.objects.create(username=f"organiser-{seed}")
    club = create_club(f"Club {seed}", f"club-{seed}", organiser)
    tournament = create_tournament(
        club.pk,
        organiser,
        name=f"Teams {seed}",
        ruleset="alalay",
        entry_type=Tournament.TEAM,
        team_size=3,
        stages=plan,
        standings={"tiebreaks": [c for c in CRITERIA]},
        seeding_method="rating",
        turn_seconds=600,
    )
    entries = []
    for i in range(1, size + 1):
        users.objects.create(username=f"t{seed}-{i}")
        members = [{"username": f"t{seed}-{i}"}, f"Guest {i}a", f"Guest {i}b"]
        entries.append(
            register(tournament.pk, organiser, name=f"T{i:02d}", members=members, rating=1000.0 - i)
        )
    start_tournament(tournament.pk, organiser)
    return Run(tournament, organiser, random.Random(seed), entries)


@settings(max_examples=8, **SETTINGS)
@given(
    shape=tournaments(largest=24),
    pattern=st.sampled_from(PATTERNS),
    faults=st.sampled_from((0.0, 0.1)),
)
def test_the_final_ranking_of_teams_is_the_docs_ranking(
    shape: tuple[list[dict[str, Any]], int], pattern: str, faults: float
) -> None:
    plan, size = shape
    run = organise_teams(plan, size, seed=980_000 + next(_examples))
    play(run, pattern, faults, teams=True)
    tournament = run.refresh()
    assert tournament.status == Tournament.FINISHED
    expected = oracle_places(tournament)
    assert shown_places(tournament, oracle_members(tournament.pk)) == expected, (plan, size, pattern)
    event("+".join(s["format"] for s in plan))
    event(
        "substituted"
        if TournamentEvent.objects.filter(tournament=tournament, type="member-substituted").exists()
        else "no substitution"
    )
