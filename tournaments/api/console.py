"""The organiser console's API: the tournament, what the caller may do, the entries
counted by status, the rounds, and the round in play with its clock, its appeal period and
its tables (each with its state, open disputes and guest seat links)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import matches
from tournaments.api import serializers as s
from tournaments.api.base import ERRORS, ApiView, object_id
from tournaments.clubs.roles import DESK, has_role
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Dispute, Entry, Membership, Table, Tournament
from tournaments.services import appeals, clock, seat_link_desk
from tournaments.services.entries import late_entry_stage


class ConsoleTableSerializer(s.TableSerializer):
    """A table as the console shows it: the table's own JSON (every field the tournaments API
    gives a table) with its state and its open disputes."""

    state = serializers.SerializerMethodField(help_text="waiting, playing, finished or disputed")
    open_disputes = serializers.SerializerMethodField()
    waiting_for = serializers.SerializerMethodField(
        help_text="Guest entries at this online table whose player has not opened the seat link yet."
    )
    seat_links = serializers.SerializerMethodField(
        help_text="Organisers and referees only: each guest seat's link, QR code and status."
    )

    class Meta(s.TableSerializer.Meta):
        fields = [*s.TableSerializer.Meta.fields, "state", "open_disputes", "waiting_for", "seat_links"]

    def get_waiting_for(self, table: Table) -> list[int]:
        return list(self.context.get("waiting_for", {}).get(table.pk, []))

    def get_seat_links(self, table: Table) -> list[dict[str, object]]:
        return list(self.context.get("seat_links", {}).get(table.pk, []))

    def _open(self, table: Table) -> int:
        return int(self.context.get("disputes", {}).get(table.pk, 0))

    def get_seats(self, table: Table) -> list[dict[str, object]]:
        # The entry's status beside its name: the console marks a withdrawn, no-show or
        # disqualified entry wherever it names it.
        return [
            {
                "index": seat.index,
                "entry": seat.entry_id,
                "name": seat.entry.name,
                "status": seat.entry.status,
                "forfeited": seat.forfeited,
            }
            for seat in table.seats.all()
        ]

    def get_open_disputes(self, table: Table) -> int:
        return self._open(table)

    def get_state(self, table: Table) -> str:
        if self._open(table):
            return "disputed"
        if table.status == Table.FINISHED:
            return "finished"
        return "playing" if table.match_id in self.context.get("under_way", set()) else "waiting"


COUNTED = [code for code, _name in Entry.STATUS_CHOICES]


def console_data(tournament: Tournament, request: Request) -> dict[str, Any]:
    user = request.user
    rounds = list(tournament.rounds.select_related("stage").order_by("number"))
    current = rounds[-1] if rounds else None
    counts = dict.fromkeys(COUNTED, 0)
    for code in tournament.entries.values_list("status", flat=True):
        counts[code] = counts.get(code, 0) + 1
    body: dict[str, Any] = {
        "tournament": s.TournamentSerializer(tournament, context={"request": request}).data,
        "can": {
            "manage": has_role(user, tournament.club_id, Membership.MANAGERS),
            "desk": has_role(user, tournament.club_id, DESK),
        },
        "counts": {**counts, "total": sum(counts.values())},
        "late_entry": _late_entry_open(tournament),
        "rounds": [
            {
                "id": r.pk,
                "number": r.number,
                "stage": r.stage.number,
                "stage_name": r.stage.name,
                "stage_round": r.stage_round,
                "status": r.status,
                "time_called_at": r.time_called_at.isoformat() if r.time_called_at else None,
            }
            for r in rounds
        ],
        "round": None,
    }
    if current is not None:
        names = dict(tournament.entries.values_list("pk", "name"))
        statuses = dict(tournament.entries.values_list("pk", "status"))
        tables = list(current.tables.prefetch_related("seats__entry").order_by("number"))
        open_disputes: dict[int, int] = {}
        for table_id in Dispute.objects.filter(table__in=tables, status=Dispute.OPEN).values_list(
            "table_id", flat=True
        ):
            open_disputes[table_id] = open_disputes.get(table_id, 0) + 1
        live = [t.match_id for t in tables if t.match_id and t.status == Table.PLAYING]
        context = {"disputes": open_disputes, "under_way": matches.under_way_among(live) if live else set()}
        # The director's links first: showing them makes any that are missing.
        context["seat_links"] = seat_link_desk.rows_for(
            tables, user, tournament.club_id, request.build_absolute_uri
        )
        context["waiting_for"] = seat_link_desk.waiting_entries(tables)
        body["round"] = {
            "id": current.pk,
            "number": current.number,
            "stage": current.stage.number,
            "stage_name": current.stage.name,
            "stage_round": current.stage_round,
            "status": current.status,
            "byes": [
                {"entry": b, "name": names.get(int(b), ""), "status": statuses.get(int(b), "")}
                for b in current.byes
            ],
            "clock": clock.clock_view(current),
            "appeal": appeals.view(current),  # the appeal period before the next draw
            "time_called_at": current.time_called_at.isoformat() if current.time_called_at else None,
            "time_policy": current.tournament.time_policy or matches.time_policies(tournament.ruleset)[0],
            "tables": ConsoleTableSerializer(tables, many=True, context=context).data,
        }
    return body


def _late_entry_open(tournament: Tournament) -> bool:
    if tournament.status != Tournament.RUNNING:
        return False
    try:
        late_entry_stage(tournament)
    except TournamentError:
        return False
    return True


class ConsoleView(ApiView):
    @extend_schema(
        operation_id="tournament_console",
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        description=(
            "The organiser console's view: the tournament, what the caller may do (`can`), the "
            "entries counted by status, whether a late entry is open, the rounds, and the round in "
            "play with its clock and its tables (each with `state`: waiting, playing, finished or "
            "disputed). Public: it shows what the tournament page shows."
        ),
    )
    def get(self, request: Request, tournament_id: str) -> Response:
        tournament = Tournament.objects.filter(pk=object_id(tournament_id, _("No such tournament."))).first()
        if tournament is None:
            raise NotFound(_("No such tournament."))
        return Response(console_data(tournament, request))
