"""The API of a club evening: a club's members, invitations and log; the desk's bulk
registration, seeding, disqualification, claims and check-in corrections; the console's
view of the round in play; the round clock; the printables. Thin views over
`tournaments.services` (`members`, `desk`, `clock`) and `tournaments.reads.printables`; errors as
everywhere in this API (`{"code", "message"}`)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import matches
from tournaments.api import serializers as s
from tournaments.api.views import ERRORS, exception_handler
from tournaments.clubs import members
from tournaments.clubs.roles import DESK, has_role
from tournaments.models import ClubInvitation, Dispute, Entry, Membership, Round, Table, Tournament
from tournaments.reads import printables
from tournaments.services import appeals, clock, desk, seat_link_desk
from tournaments.services.entries import late_entry_stage
from tournaments.services.errors import NotFound, TournamentError

ROLE_CODES = [code for code, _name in Membership.ROLE_CHOICES]


class Base(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_exception_handler(self) -> Any:
        return exception_handler

    @staticmethod
    def valid(serializer: type[serializers.Serializer], request: Request) -> dict[str, Any]:
        data = serializer(data=request.data)
        data.is_valid(raise_exception=True)
        return dict(data.validated_data)


def _id(value: Any, what: str = "") -> int:
    if not str(value).isdigit():
        raise NotFound(what or _("Not found."))
    return int(value)


# ---------------------------------------------------------------- shapes


class MemberAddInput(serializers.Serializer):
    username = serializers.CharField(max_length=150, required=False, allow_blank=True)
    email = serializers.CharField(max_length=254, required=False, allow_blank=True)
    role = serializers.CharField(max_length=16, help_text="owner, organiser, referee, scorekeeper or player")


class RolesInput(serializers.Serializer):
    roles = serializers.ListField(
        child=serializers.CharField(max_length=16),
        max_length=len(ROLE_CODES),
        allow_empty=True,
        help_text="Every role the member is to hold: owner, organiser, referee, scorekeeper, player.",
    )


class MemberSerializer(serializers.Serializer):
    user = serializers.IntegerField()
    username = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())
    since = serializers.DateTimeField()


class InvitationSerializer(serializers.ModelSerializer):
    role = serializers.CharField()
    status = serializers.CharField(help_text="pending, accepted or cancelled")

    class Meta:
        model = ClubInvitation
        fields = ["id", "email", "role", "status", "created_at"]


class ClubEventSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.DictField()
    actor = serializers.CharField()
    actor_name = serializers.CharField(allow_blank=True)
    recorded_at = serializers.DateTimeField()


class BulkInput(serializers.Serializer):
    names = serializers.CharField(
        max_length=40000, allow_blank=True, trim_whitespace=False, help_text="One name per line."
    )


class RefusalSerializer(serializers.Serializer):
    line = serializers.IntegerField(help_text="The line's number in the paste, from 1.")
    name = serializers.CharField()
    code = serializers.CharField()
    message = serializers.CharField()


class BulkSerializer(serializers.Serializer):
    registered = s.EntrySerializer(many=True)
    refused = RefusalSerializer(many=True)
    blank = serializers.IntegerField(help_text="Blank lines skipped.")


class SeedsInput(serializers.Serializer):
    order = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=5000)


class DisqualifyInput(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class ClaimInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class ClockInput(serializers.Serializer):
    action = serializers.ChoiceField(choices=list(clock.ACTIONS))
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="start: start even though guest seats wait for their player (`unclaimed-guest-seats`).",
    )
    minutes = serializers.FloatField(
        required=False,
        allow_null=True,
        help_text="start: the round's length; extend: more (or, negative, less).",
    )


class ClockSerializer(serializers.Serializer):
    round_id = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(choices=["none", "idle", "running", "paused", "finished"])
    seconds = serializers.IntegerField(allow_null=True, help_text="Its length, extensions included.")
    remaining_ms = serializers.IntegerField(help_text="Left at `server_time`; negative in overtime.")
    ends_at = serializers.DateTimeField(allow_null=True)
    server_time = serializers.DateTimeField()


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


# ---------------------------------------------------------------- clubs


def _member_rows(found: dict[str, Any]) -> dict[str, Any]:
    return {
        "members": MemberSerializer(found["members"], many=True).data,
        "invitations": InvitationSerializer(found["invitations"], many=True).data,
    }


class ClubMembersView(Base):
    permission_classes = [permissions.IsAuthenticated]  # the list is for the club's managers

    @extend_schema(operation_id="club_members", responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request, club_id: str) -> Response:
        """The members (each with every role held) and pending invitations (owners, organisers)."""
        return Response(_member_rows(members.members_of(club_id, request.user)))

    @extend_schema(
        operation_id="club_member_add",
        request=MemberAddInput,
        responses={201: OpenApiTypes.OBJECT, **ERRORS},
        description=(
            "Give a role to the account named by `username` or by `email` (owners, organisers; "
            "a user may join as a player). An email with no account is invited: the role is "
            "granted when an account with that email signs up. Answers `{kind: member|invitation}`."
        ),
    )
    def post(self, request: Request, club_id: str) -> Response:
        data = self.valid(MemberAddInput, request)
        found = members.add_member(
            _id(club_id, _("No such club.")),
            request.user,
            role=data["role"],
            username=data.get("username"),
            email=data.get("email"),
        )
        if isinstance(found, ClubInvitation):
            body = {"kind": "invitation", **InvitationSerializer(found).data}
        else:
            body = {
                "kind": "member",
                "user": found.user_id,
                "username": found.user.get_username(),
                "role": found.role,
            }
        return Response(body, status=status.HTTP_201_CREATED)


class ClubMemberView(Base):
    @extend_schema(
        operation_id="club_member_roles",
        request=RolesInput,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        description="Set every role the member holds (owners, organisers; only owners touch the owner role).",
    )
    def put(self, request: Request, club_id: str, username: str) -> Response:
        data = self.valid(RolesInput, request)
        roles = members.set_roles(_id(club_id, _("No such club.")), request.user, username, data["roles"])
        return Response({"username": username, "roles": roles})

    @extend_schema(operation_id="club_member_remove", request=None, responses={204: None, **ERRORS})
    def delete(self, request: Request, club_id: str, username: str) -> Response:
        """Remove the member from the club (all roles); anyone may leave a club."""
        members.remove_member(_id(club_id, _("No such club.")), request.user, username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubInvitationView(Base):
    @extend_schema(
        operation_id="club_invitation_cancel", request=None, responses={200: InvitationSerializer, **ERRORS}
    )
    def delete(self, request: Request, club_id: str, invitation_id: str) -> Response:
        invitation = members.cancel_invitation(_id(club_id, _("No such club.")), request.user, invitation_id)
        return Response(InvitationSerializer(invitation).data)


class ClubLogView(Base):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="club_log", responses={200: ClubEventSerializer(many=True), **ERRORS})
    def get(self, request: Request, club_id: str) -> Response:
        """The club's log, newest first (owners, organisers)."""
        found = members.members_of(club_id, request.user)
        events = list(found["club"].events.order_by("-version")[:500])
        names = members.actor_names(e.actor for e in events)
        rows = [
            {
                "version": e.version,
                "type": e.type,
                "payload": e.payload,
                "actor": e.actor,
                "actor_name": names.get(e.actor, ""),
                "recorded_at": e.recorded_at,
            }
            for e in events
        ]
        return Response(ClubEventSerializer(rows, many=True).data)


# ---------------------------------------------------------------- the desk


class BulkEntriesView(Base):
    @extend_schema(
        operation_id="tournament_entries_bulk",
        request=BulkInput,
        responses={200: BulkSerializer, **ERRORS},
        description=(
            "Register one guest entry per line (organisers). Blank lines are skipped; a name given "
            "twice, taken already or invalid is refused on its line (`refused`), the rest are "
            "registered. While the tournament runs, each is a late entry where the format allows."
        ),
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        data = self.valid(BulkInput, request)
        result = desk.register_many(_id(tournament_id, _("No such tournament.")), request.user, data["names"])
        return Response(BulkSerializer(result).data)


class SeedsView(Base):
    @extend_schema(
        operation_id="tournament_seeds",
        request=SeedsInput,
        responses={200: s.EntrySerializer(many=True), **ERRORS},
        description="The manual seeding order, top seed first: every registered entry once (organisers).",
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        data = self.valid(SeedsInput, request)
        tid = _id(tournament_id, _("No such tournament."))
        desk.set_seeds(tid, request.user, data["order"])
        rows = (
            Entry.objects.filter(tournament_id=tid).prefetch_related("members__user").order_by("seed", "pk")
        )
        return Response(s.EntrySerializer(rows, many=True).data)


class EntryDisqualifyView(Base):
    @extend_schema(
        operation_id="entry_disqualify",
        request=DisqualifyInput,
        responses={200: s.EntrySerializer, **ERRORS},
        description=(
            "Disqualify an entry (organisers, referees), with its reason: it leaves its live tables "
            "(forfeits), is drawn no more and is ranked after every other entry. Only organisers "
            "lift it (reinstate)."
        ),
    )
    def post(self, request: Request, entry_id: str) -> Response:
        data = self.valid(DisqualifyInput, request)
        entry = desk.disqualify(_id(entry_id, _("No such entry.")), request.user, data["reason"])
        return Response(s.EntrySerializer(entry).data)


class EntryClaimView(Base):
    @extend_schema(
        operation_id="entry_claim",
        request=ClaimInput,
        responses={200: s.EntrySerializer, **ERRORS},
        description="Link a guest entry to the account named by `username` (organisers).",
    )
    def post(self, request: Request, entry_id: str) -> Response:
        data = self.valid(ClaimInput, request)
        entry = desk.claim_entry(_id(entry_id, _("No such entry.")), request.user, data["username"])
        return Response(s.EntrySerializer(entry).data)


class CloseCheckInView(Base):
    @extend_schema(
        operation_id="tournament_check_in_close",
        request=None,
        responses={200: s.TournamentSerializer, **ERRORS},
        description=(
            "Close check-in now, before its deadline (organisers): the deadline becomes now and "
            "the start drops the entries not checked in. Logged (`check-in-closed`)."
        ),
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        tid = _id(tournament_id, _("No such tournament."))
        tournament = desk.close_check_in(tid, request.user)
        return Response(s.TournamentSerializer(tournament, context={"request": request}).data)


class EntryUndoCheckInView(Base):
    @extend_schema(
        operation_id="entry_undo_check_in", request=None, responses={200: s.EntrySerializer, **ERRORS}
    )
    def post(self, request: Request, entry_id: str) -> Response:
        """Undo a check-in made by mistake (organisers, referees), before the start."""
        entry = desk.undo_check_in(_id(entry_id, _("No such entry.")), request.user)
        return Response(s.EntrySerializer(entry).data)


# ---------------------------------------------------------------- the console and the clock


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


class ConsoleView(Base):
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
        tournament = Tournament.objects.filter(pk=_id(tournament_id, _("No such tournament."))).first()
        if tournament is None:
            raise NotFound(_("No such tournament."))
        return Response(console_data(tournament, request))


class RoundClockView(Base):
    @extend_schema(operation_id="round_clock", responses={200: ClockSerializer, **ERRORS})
    def get(self, request: Request, round_id: str) -> Response:
        rnd = Round.objects.filter(pk=_id(round_id, _("No such round."))).first()
        if rnd is None:
            raise NotFound(_("No such round."))
        return Response(clock.clock_view(rnd))

    @extend_schema(
        operation_id="round_clock_act",
        request=ClockInput,
        responses={200: ClockSerializer, **ERRORS},
        description=(
            "Start (`minutes`), pause, resume, extend (`minutes`, negative to take time back) or "
            "reset the round's clock (organisers, referees). Each action is logged. Starting the "
            "clock while guest seats of the round's online tables wait for their player answers "
            "409 `unclaimed-guest-seats` with `seats` ([{table, entry, name}]) and changes "
            "nothing; send `confirm: true` to start anyway."
        ),
    )
    def post(self, request: Request, round_id: str) -> Response:
        data = self.valid(ClockInput, request)
        if data["action"] == "start" and not data["confirm"]:
            try:
                seat_link_desk.warn_on_clock_start(round_id, request.user, data.get("minutes"))
            except seat_link_desk.UnclaimedSeats as warning:
                body = {"code": warning.code, "message": warning.message, "seats": warning.seats}
                return Response(body, status=warning.status)
        rnd = clock.act(round_id, request.user, data["action"], data.get("minutes"))
        return Response(clock.clock_view(rnd))


class TournamentClockView(Base):
    @extend_schema(operation_id="tournament_clock", responses={200: ClockSerializer, **ERRORS})
    def get(self, request: Request, tournament_id: str) -> Response:
        """The clock of the tournament's latest round (`state: none` before the first round)."""
        return Response(clock.clock_view(clock.latest_round(tournament_id)))


class MatchClockView(Base):
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="match_clock", responses={200: ClockSerializer})
    def get(self, request: Request, match_id: str) -> Response:
        """The clock of the round this match is a table of (`state: none` for a casual match)."""
        return Response(clock.clock_view(clock.round_of_match(match_id)))


# ---------------------------------------------------------------- printables


class PrintView(Base):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="tournament_print",
        responses={(200, "text/html"): OpenApiTypes.STR, **ERRORS},
        parameters=[OpenApiParameter("round", int, description="The round's number; default: the latest.")],
        description=(
            "A print-ready page for a round: `cards` (a card per table: table, seats, ruleset, "
            "round), `pairings` (the wall list, by name and by table), `sheets` (blank Cacho "
            "Alalay score sheets with the players' names) or `slips` (result slips)."
        ),
    )
    def get(self, request: Request, tournament_id: str, kind: str) -> HttpResponse:
        if kind not in printables.KINDS:
            raise NotFound(_("No such printable."))
        sheet = printables.round_sheet(tournament_id, request.query_params.get("round"))
        if kind in ("cards", "slips"):
            links = seat_link_desk.print_rows(sheet.round, request.user, request.build_absolute_uri)
            printables.with_seat_links(sheet, links)
        if kind == "sheets" and not sheet.traits["scoresheet"]:
            raise TournamentError("sheets-alalay-only", _("Score sheets are for Cacho Alalay tables."))
        context = {
            "sheet": sheet,
            "kind": kind,
            "title": printables.titles()[kind],
            "titles": printables.titles(),
            "boxes": printables.alalay_boxes(sheet.traits) if sheet.traits["scoresheet"] else {},
            "rounds": list(sheet.tournament.rounds.order_by("number").values_list("number", flat=True)),
        }
        return render(request._request, f"tournaments/print/{kind}.html", context)
