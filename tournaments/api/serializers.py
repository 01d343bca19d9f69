"""Input and output shapes of the tournaments API. Validation of shape only: every rule is
checked by the write path (`tournaments.services`)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cacho.engine.games import GAMES
from tournaments import matches
from tournaments.clubs.roles import has_role
from tournaments.models import Club, Entry, Membership, Round, Table, Tournament, TournamentEvent


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "description", "created_at"]
        read_only_fields = ["id", "created_at"]
        extra_kwargs = {"slug": {"required": False, "allow_blank": True, "validators": []}}


class ClubUpdate(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    slug = serializers.CharField(max_length=80, required=False)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)


class StageInput(serializers.Serializer):
    name = serializers.CharField(max_length=80, required=False)
    format = serializers.CharField(max_length=32)
    params = serializers.DictField(required=False)


class TournamentInput(serializers.Serializer):
    club = serializers.IntegerField()
    name = serializers.CharField(max_length=160)
    ruleset = serializers.CharField(max_length=32)
    options = serializers.DictField(required=False)
    turn_seconds = serializers.IntegerField(required=False, default=30)
    entry_type = serializers.ChoiceField(
        choices=[c for c, _ in Tournament.ENTRY_CHOICES], default="individual"
    )
    team_size = serializers.IntegerField(required=False, default=1)
    checkin_deadline = serializers.DateTimeField(required=False, allow_null=True)
    seeding = serializers.ChoiceField(choices=[c for c, _ in Tournament.SEEDING_CHOICES], default="draw")
    standings = serializers.DictField(required=False)
    stages = StageInput(many=True, required=False)
    appeal_minutes = serializers.IntegerField(
        required=False, default=15, help_text="how long a finished last round may be disputed (0 to 1440)"
    )
    round_appeal_minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="how long a finished round's tables may be disputed before the next round is drawn "
        "(0 to 1440; 0 draws at once; the site's default, 2 unless configured, when left out)",
    )
    physical = serializers.BooleanField(
        required=False, default=False, help_text="played at physical tables, entered by scorekeepers"
    )
    rated = serializers.BooleanField(
        required=False, default=True, help_text="its finished tables count for the players' ratings"
    )
    time_policy = serializers.CharField(
        max_length=32,
        required=False,
        default="",
        allow_blank=True,
        help_text="how a table still playing at time is decided: '' (the game's default), dice-left, "
        "two-more-rounds, sudden-death (bidding); sheet-as-it-stands, finish-round-of-turns (alalay)",
    )
    call_time_automatically = serializers.BooleanField(
        required=False, default=False, help_text="the round clock calls time at zero"
    )
    player_chat = serializers.BooleanField(
        required=False, default=False, help_text="the seated players' table talk (off by default)"
    )


class TournamentUpdate(serializers.Serializer):
    name = serializers.CharField(max_length=160, required=False)
    options = serializers.DictField(required=False)
    turn_seconds = serializers.IntegerField(required=False, min_value=5, max_value=3600)
    checkin_deadline = serializers.DateTimeField(required=False, allow_null=True)
    appeal_minutes = serializers.IntegerField(required=False, help_text="0 to 1440; may change at any time")
    round_appeal_minutes = serializers.IntegerField(
        required=False, help_text="the appeal period between rounds, 0 to 1440; may change at any time"
    )
    physical = serializers.BooleanField(required=False, help_text="physical tables; until the start")
    rated = serializers.BooleanField(required=False, help_text="rated tables; until the start")
    time_policy = serializers.CharField(
        max_length=32, required=False, allow_blank=True, help_text="the time policy; until the start"
    )
    call_time_automatically = serializers.BooleanField(
        required=False, help_text="the round clock calls time at zero; until the start"
    )
    player_chat = serializers.BooleanField(required=False, help_text="the players' table talk; any time")


class TournamentSerializer(serializers.ModelSerializer):
    traits = serializers.SerializerMethodField(
        help_text="What the pages draw differently for this game (standing, bids, scoresheet, terms)."
    )
    checkin_open = serializers.SerializerMethodField(
        help_text="Check-in is open now: a deadline is set and has not passed (the server's clock)."
    )
    problem = serializers.SerializerMethodField(
        help_text="For the club's organisers: the last failure to record a result or draw a round "
        "(retried every few seconds), or null."
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "club",
            "name",
            "game",
            "ruleset",
            "traits",
            "options",
            "options_hash",
            "turn_seconds",
            "entry_type",
            "team_size",
            "status",
            "checkin_deadline",
            "checkin_open",
            "seeding",
            "draw_commitment",
            "standings_config",
            "stage_plan",
            "appeal_minutes",
            "round_appeal_minutes",
            "physical",
            "rated",
            "time_policy",
            "call_time_automatically",
            "player_chat",
            "version",
            "head_hash",
            "created_at",
            "started_at",
            "finished_at",
            "problem",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.BooleanField())
    def get_checkin_open(self, tournament: Tournament) -> bool:
        # By the server's clock: a page's own clock may be off by more than a close takes.
        deadline = tournament.checkin_deadline
        if tournament.status != Tournament.REGISTRATION or deadline is None:
            return False
        return timezone.now() <= deadline

    @extend_schema_field(serializers.DictField())
    def get_traits(self, tournament: Tournament) -> dict[str, object]:
        return matches.traits(tournament.ruleset)

    @extend_schema_field(serializers.DictField(allow_null=True))
    def get_problem(self, tournament: Tournament) -> dict[str, object] | None:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if not tournament.projection_error or not has_role(user, tournament.club_id, Membership.MANAGERS):
            return None
        return {"message": tournament.projection_error, "at": tournament.projection_error_at}


class EntryInput(serializers.Serializer):
    name = serializers.CharField(
        max_length=64, required=False, allow_blank=True, help_text="Default: the account's username."
    )
    members = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        default=list,
        help_text="A pair's or team's members in turn order: a guest's name, {\"name\": …}, or "
        '{"username": …} of an account.',
    )
    rating = serializers.FloatField(required=False, allow_null=True)
    username = serializers.CharField(
        max_length=150,
        required=False,
        allow_blank=True,
        help_text="The account that plays. Without it an organiser registers a guest (no account), "
        "a player registers themself.",
    )


class EntryUpdate(serializers.Serializer):
    name = serializers.CharField(max_length=64, required=False)
    rating = serializers.FloatField(required=False, allow_null=True)


class ForfeitInput(serializers.Serializer):
    table = serializers.IntegerField(help_text="The id of the table in play.")


class PlacingSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="Shared places repeat: 1, 2, 3, 3, 5.")
    entry = serializers.IntegerField()
    name = serializers.CharField()
    members = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="A pair's or team's players (who sat at its tables, then those yet to play); "
        "absent for individuals.",
    )
    decided_at_time = serializers.IntegerField(
        required=False,
        help_text="How many of the entry's tables time decided (docs/rules.md §9.1); absent: none.",
    )


class RankingSerializer(serializers.Serializer):
    finished = serializers.BooleanField()
    head_hash = serializers.CharField(help_text="The tournament log's head: the ranking it was computed at.")
    ranking = PlacingSerializer(many=True)


class MemberSerializer(serializers.Serializer):
    name = serializers.CharField()
    username = serializers.CharField(source="user.username", allow_null=True, default=None)


class EntrySerializer(serializers.ModelSerializer):
    members = serializers.SlugRelatedField(
        many=True, read_only=True, slug_field="name", help_text="A pair's or team's members, in turn order."
    )
    lineup = MemberSerializer(
        source="members",
        many=True,
        read_only=True,
        help_text="The members with their accounts (null: a guest).",
    )
    username = serializers.CharField(
        source="user.username", read_only=True, allow_null=True, default=None, help_text="null: a guest"
    )

    class Meta:
        model = Entry
        fields = [
            "id",
            "tournament",
            "name",
            "user",
            "username",
            "is_bot",
            "rating",
            "seed",
            "status",
            "checked_in_at",
            "withdrawn_after_round",
            "members",
            "lineup",
        ]
        read_only_fields = fields


class TableSeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()


class TableSerializer(serializers.ModelSerializer):
    seats = serializers.SerializerMethodField()
    scorekeeper_url = serializers.SerializerMethodField(
        help_text="A physical table's scorekeeper screen (null for an online table)."
    )
    decided_at_time = serializers.SerializerMethodField(
        help_text="The table ended at time, decided by the tournament's time policy (docs/rules.md §9.1)."
    )

    class Meta:
        model = Table
        fields = [
            "id",
            "number",
            "group",
            "bracket_ref",
            "match_id",
            "status",
            "result",
            "seats",
            "physical",
            "scorekeeper_url",
            "decided_at_time",
        ]

    def get_decided_at_time(self, table: Table) -> bool:
        return any(isinstance(row, dict) and row.get("at_time") for row in table.result or [])

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_scorekeeper_url(self, table: Table) -> str | None:
        return f"/scorekeeper/tables/{table.pk}/" if table.physical else None

    @extend_schema_field(TableSeatSerializer(many=True))
    def get_seats(self, table: Table) -> list[dict[str, object]]:
        return [{"index": s.index, "entry": s.entry_id, "name": s.entry.name} for s in table.seats.all()]


class RoundSerializer(serializers.ModelSerializer):
    tables = TableSerializer(many=True, read_only=True)
    stage = serializers.IntegerField(source="stage.number", read_only=True)

    class Meta:
        model = Round
        fields = ["id", "number", "stage", "stage_round", "status", "byes", "time_called_at", "tables"]


class EventSerializer(serializers.ModelSerializer):
    class Meta:
        model = TournamentEvent
        fields = ["version", "type", "payload", "actor", "recorded_at", "hash"]


class StartInput(serializers.Serializer):
    manual_order = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
    close_check_in = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Before the check-in deadline: close check-in and start in one step (both logged).",
    )


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(
        required=False, help_text="the field to change, when one is to blame: `stages[0].params.advance`"
    )


class RulesetOptionSerializer(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField(help_text="A short title, in the request's language.")
    type = serializers.ChoiceField(choices=["boolean", "choice"])
    values = serializers.ListField(child=serializers.JSONField(), help_text="The allowed values.")
    value_labels = serializers.DictField(
        child=serializers.CharField(), help_text="Names of enumerated values, by value."
    )
    default = serializers.JSONField()
    help = serializers.CharField(help_text="What the option means, in plain language.")


class RulesetTimePolicySerializer(serializers.Serializer):
    value = serializers.CharField(help_text="The code to send as a tournament's `time_policy`.")
    label = serializers.CharField(help_text="A short title, in the request's language.")
    help = serializers.CharField(help_text="What happens at a table still playing, in plain language.")
    default = serializers.BooleanField(help_text="The game's default (a tournament that names none).")


class RulesetSerializer(serializers.Serializer):
    ruleset = serializers.CharField(help_text="The code to send as a tournament's `ruleset`.")
    game = serializers.ChoiceField(choices=list(GAMES))
    name = serializers.CharField()
    description = serializers.CharField()
    options = RulesetOptionSerializer(many=True)
    main_format = serializers.CharField(help_text="The stage format an event of this game usually plays.")
    playoff_format = serializers.CharField(help_text="The stage format its playoffs usually play.")
    time_policies = RulesetTimePolicySerializer(
        many=True, help_text="How a table still playing at time may be decided, the default first."
    )
    team_seats = serializers.BooleanField(
        help_text="Whether its tournaments take pairs and teams (`entry_type` pair or team)."
    )


class MyMembershipSerializer(serializers.Serializer):
    club = ClubSerializer()
    roles = serializers.ListField(
        child=serializers.CharField(),
        help_text="Every role the user holds in the club: owner, organiser, referee, scorekeeper, player.",
    )
    role_names = serializers.ListField(child=serializers.CharField(), help_text="The roles, translated.")
    manages = serializers.BooleanField(help_text="Owner or organiser: may create and run tournaments.")
