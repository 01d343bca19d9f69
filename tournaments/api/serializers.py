"""Input and output shapes of the tournaments API. Validation of shape only: every rule is
checked by the write path (`tournaments.services`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import Club, Entry, Membership, Round, Table, Tournament, TournamentEvent


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]
        read_only_fields = ["id", "created_at"]


class MemberInput(serializers.Serializer):
    user = serializers.IntegerField()
    role = serializers.ChoiceField(choices=[r for r, _ in Membership.ROLE_CHOICES])


class MembershipSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "club", "user", "username", "role"]


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


class TournamentUpdate(serializers.Serializer):
    name = serializers.CharField(max_length=160, required=False)
    options = serializers.DictField(required=False)
    turn_seconds = serializers.IntegerField(required=False, min_value=5, max_value=3600)
    checkin_deadline = serializers.DateTimeField(required=False, allow_null=True)


class TournamentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = [
            "id",
            "club",
            "name",
            "game",
            "ruleset",
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
            "version",
            "head_hash",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


class EntryInput(serializers.Serializer):
    name = serializers.CharField(max_length=64)
    members = serializers.ListField(child=serializers.CharField(max_length=64), required=False, default=list)
    rating = serializers.FloatField(required=False, allow_null=True)
    user = serializers.IntegerField(required=False, allow_null=True)


class EntrySerializer(serializers.ModelSerializer):
    members = serializers.SlugRelatedField(many=True, read_only=True, slug_field="name")

    class Meta:
        model = Entry
        fields = [
            "id",
            "tournament",
            "name",
            "user",
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

    class Meta:
        model = Table
        fields = ["id", "number", "group", "bracket_ref", "match_id", "status", "result", "seats"]

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


class MyMembershipSerializer(serializers.Serializer):
    club = ClubSerializer()
    roles = serializers.ListField(
        child=serializers.CharField(),
        help_text="Every role the user holds in the club: owner, organiser, referee, scorekeeper, player.",
    )
    role_names = serializers.ListField(child=serializers.CharField(), help_text="The roles, translated.")
    manages = serializers.BooleanField(help_text="Owner or organiser: may create and run tournaments.")
