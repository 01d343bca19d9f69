"""Input and output shapes of the tournaments API. Validation of shape only: every rule is
checked by the write path (`tournaments.services`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments import matches
from tournaments.models import Club, Entry, Membership, Round, Table, Tournament, TournamentEvent
from tournaments.services.clubs import has_role


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
    physical = serializers.BooleanField(
        required=False, default=False, help_text="played at physical tables, entered by scorekeepers"
    )
    rated = serializers.BooleanField(
        required=False, default=True, help_text="its finished tables count for the players' ratings"
    )


class TournamentUpdate(serializers.Serializer):
    name = serializers.CharField(max_length=160, required=False)
    options = serializers.DictField(required=False)
    turn_seconds = serializers.IntegerField(required=False, min_value=5, max_value=3600)
    checkin_deadline = serializers.DateTimeField(required=False, allow_null=True)
    appeal_minutes = serializers.IntegerField(required=False, help_text="0 to 1440; may change at any time")
    physical = serializers.BooleanField(required=False, help_text="physical tables; until the start")
    rated = serializers.BooleanField(required=False, help_text="rated tables; until the start")


class TournamentSerializer(serializers.ModelSerializer):
    traits = serializers.SerializerMethodField(
        help_text="What the pages draw differently for this game (standing, bids, scoresheet, terms)."
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
            "seeding",
            "draw_commitment",
            "standings_config",
            "stage_plan",
            "appeal_minutes",
            "physical",
            "rated",
            "version",
            "head_hash",
            "created_at",
            "started_at",
            "finished_at",
            "problem",
        ]
        read_only_fields = fields

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
    members = serializers.ListField(child=serializers.CharField(max_length=64), required=False, default=list)
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


class RankingSerializer(serializers.Serializer):
    finished = serializers.BooleanField()
    head_hash = serializers.CharField(help_text="The tournament log's head: the ranking it was computed at.")
    ranking = PlacingSerializer(many=True)


class EntrySerializer(serializers.ModelSerializer):
    members = serializers.SlugRelatedField(many=True, read_only=True, slug_field="name")
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
        ]

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
        fields = ["id", "number", "stage", "stage_round", "status", "byes", "tables"]


class EventSerializer(serializers.ModelSerializer):
    class Meta:
        model = TournamentEvent
        fields = ["version", "type", "payload", "actor", "recorded_at", "hash"]


class StartInput(serializers.Serializer):
    manual_order = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


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


class RulesetSerializer(serializers.Serializer):
    ruleset = serializers.CharField(help_text="The code to send as a tournament's `ruleset`.")
    game = serializers.ChoiceField(choices=["dudo", "alalay"])
    name = serializers.CharField()
    description = serializers.CharField()
    options = RulesetOptionSerializer(many=True)
    main_format = serializers.CharField(help_text="The stage format an event of this game usually plays.")
    playoff_format = serializers.CharField(help_text="The stage format its playoffs usually play.")


class MyMembershipSerializer(serializers.Serializer):
    club = ClubSerializer()
    roles = serializers.ListField(
        child=serializers.CharField(),
        help_text="Every role the user holds in the club: owner, organiser, referee, scorekeeper, player.",
    )
    role_names = serializers.ListField(child=serializers.CharField(), help_text="The roles, translated.")
    manages = serializers.BooleanField(help_text="Owner or organiser: may create and run tournaments.")
