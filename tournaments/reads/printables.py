"""What a club evening prints for a round, gathered once for the server-rendered print pages
(`templates/tournaments/print/`): table cards to stand on each table, the pairings list for
the wall (by name and by table), blank Cacho Alalay score sheets with the players' names,
and result slips the table fills in and signs. Read-only; in the request's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.edge.inputs import plain_digits
from cacho.engine.alalay.scorecard import GRANDE_POINTS, MIDDLE_POINTS, NUMBER_BOXES
from tournaments import matches
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Round, Tournament
from tournaments.reads import catalogue

KINDS = ("cards", "pairings", "sheets", "slips")
DIE_FACES = "⚀⚁⚂⚃⚄⚅"


@dataclass(frozen=True)
class Seat:
    number: int  # from 1: the order of play at the table (seat 1 opens)
    name: str
    entry: int
    forfeited: bool = False
    # A pair's or team's members at this table, in the order they throw.
    members: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The name, with a pair's or team's members: "Reds (ana, Caro)"."""
        return f"{self.name} ({', '.join(self.members)})" if self.members else self.name


@dataclass(frozen=True)
class PrintTable:
    number: int
    group: int
    bracket_ref: str
    seats: tuple[Seat, ...]
    finished: bool
    # The director's print only: each guest seat's link and QR code (services.seat_links).
    seat_links: tuple[dict[str, Any], ...] = ()

    @property
    def playing(self) -> tuple[Seat, ...]:
        return tuple(s for s in self.seats if not s.forfeited)


@dataclass(frozen=True)
class WallLine:
    name: str
    table: int | None
    seat: int | None
    bye: bool = False


@dataclass
class RoundSheet:
    tournament: Tournament
    club: str
    ruleset: str
    traits: dict[str, Any]  # the game's (cacho.engine.traits): a scoresheet, bids, the standing
    round: Round
    stage_name: str
    tables: list[PrintTable] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)
    generated_at: Any = None

    @property
    def wall(self) -> list[WallLine]:
        """Everyone of the round by name: where they sit, or their bye."""
        lines = [WallLine(s.label, t.number, s.number) for t in self.tables for s in t.playing]
        lines += [WallLine(name, None, None, bye=True) for name in self.byes]
        return sorted(lines, key=lambda line: line.name.casefold())


def _box_hint(box: str) -> str:
    """What a box scores, as the printed sheet says it (the engine's points, docs/rules.md §8)."""
    if box in NUMBER_BOXES:
        face = NUMBER_BOXES.index(box) + 1
        return f"{face} × {DIE_FACES[face - 1]}"
    if box in MIDDLE_POINTS:
        de_mano, de_huevo = MIDDLE_POINTS[box]
        return f"{de_mano} / {de_huevo}"
    return str(GRANDE_POINTS)


def alalay_boxes(traits: dict[str, Any]) -> dict[str, list[tuple[str, str, str]]]:
    """The scorecard's boxes by column, as the table writes them (the game's traits,
    `sheet_columns` and `sheet_foot`): (id, name, what it scores)."""
    names = catalogue.box_names()
    left, middle, right = (
        [(box, names[box], _box_hint(box)) for box in column] for column in traits["sheet_columns"]
    )
    grandes = [(box, names[box], _box_hint(box)) for box in traits["sheet_foot"]]
    return {"left": left, "middle": middle, "right": right, "grandes": grandes}


def round_sheet(tournament_id: Any, number: Any = None) -> RoundSheet:
    """The round `number` of the tournament (default: the latest drawn), ready to print."""
    if not plain_digits(tournament_id):
        raise NotFound(_("No such tournament."))
    tournament = Tournament.objects.select_related("club").filter(pk=int(tournament_id)).first()
    if tournament is None:
        raise NotFound(_("No such tournament."))
    rounds = tournament.rounds.select_related("stage")
    if number in (None, ""):
        rnd = rounds.order_by("-number").first()
        if rnd is None:
            raise TournamentError(
                "round-not-drawn", _("No round has been drawn yet: start the tournament first.")
            )
    else:
        if not plain_digits(number):
            raise TournamentError("round-invalid", _("A round is given by its number, from 1."))
        rnd = rounds.filter(number=int(number)).first()
        if rnd is None:
            raise TournamentError(
                "round-unknown", _("This tournament has no round %(n)s.") % {"n": number}, 404
            )
    names = dict(tournament.entries.values_list("pk", "name"))
    sheet = RoundSheet(
        tournament=tournament,
        club=tournament.club.name,
        ruleset=catalogue.ruleset_names().get(tournament.ruleset, tournament.ruleset),
        traits=matches.traits(tournament.ruleset),
        round=rnd,
        stage_name=rnd.stage.name,
        byes=sorted((names.get(int(b), str(b)) for b in rnd.byes), key=str.casefold),
        generated_at=timezone.now(),
    )
    for table in rnd.tables.prefetch_related("seats__entry").order_by("number"):
        seats = tuple(
            Seat(s.index + 1, s.entry.name, s.entry_id, s.forfeited, tuple(m["name"] for m in s.members))
            for s in table.seats.order_by("index")
        )
        sheet.tables.append(
            PrintTable(table.number, table.group, table.bracket_ref, seats, table.status == "finished")
        )
    return sheet


def with_seat_links(sheet: RoundSheet, links: dict[int, list[dict[str, Any]]]) -> RoundSheet:
    """The sheet with each table's seat links (`links` by table number)."""
    sheet.tables = [replace(t, seat_links=tuple(links.get(t.number, ()))) for t in sheet.tables]
    return sheet


def titles() -> dict[str, str]:
    return {
        "cards": _("Table cards"),
        "pairings": _("Pairings"),
        "sheets": _("Alalay score sheets"),
        "slips": _("Result slips"),
    }
