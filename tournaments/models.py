"""Clubs, memberships, tournaments, stages, rounds, tables and the tournament event log.

The write path is `tournaments.services`: nothing else changes these rows. A `Table`
refers to one `cacho` match by its id (`match_id`); `cacho` never imports this app.
`TournamentEvent` is append-only and hash-chained per tournament; standings rows
(`StandingRow`) and table results are projections rebuilt from the events
(`manage.py rebuild_tournament_projections`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.chained_log import ChainedEvent


class Tournament(models.Model):
    DRAFT = "draft"
    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"
    STATUS_CHOICES = [
        (DRAFT, _("draft")),
        (REGISTRATION, _("registration open")),
        (RUNNING, _("running")),
        (FINISHED, _("finished")),
    ]
    GAME_CHOICES = [("dudo", _("Dudo family")), ("alalay", _("Cacho Alalay"))]
    INDIVIDUAL = "individual"
    PAIR = "pair"
    TEAM = "team"
    ENTRY_CHOICES = [(INDIVIDUAL, _("individual")), (PAIR, _("pair")), (TEAM, _("team"))]
    SEEDING_CHOICES = [("manual", _("manual")), ("rating", _("by rating")), ("draw", _("random draw"))]

    club = models.ForeignKey("tournaments.Club", on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(_("name"), max_length=160)
    game = models.CharField(_("game"), max_length=16, choices=GAME_CHOICES)
    ruleset = models.CharField(_("ruleset"), max_length=32)
    options = models.JSONField(_("options"), default=dict, blank=True)
    options_hash = models.CharField(max_length=64, blank=True, default="")
    turn_seconds = models.PositiveIntegerField(_("turn time (s)"), default=30)
    entry_type = models.CharField(_("entry type"), max_length=16, choices=ENTRY_CHOICES, default=INDIVIDUAL)
    team_size = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=REGISTRATION)
    checkin_deadline = models.DateTimeField(_("check-in deadline"), null=True, blank=True)
    seeding = models.CharField(_("seeding"), max_length=16, choices=SEEDING_CHOICES, default="draw")
    # The committed draw: the secret stays here until the draw; the commitment is public at once.
    draw_seed = models.CharField(max_length=128, blank=True, default="")
    draw_commitment = models.CharField(max_length=64, blank=True, default="")
    # Standings: {"scale": "table_size"|"fixed"|"reported", "fixed": [...],
    #             "tiebreaks": [...], "bye_points": x}
    standings_config = models.JSONField(default=dict, blank=True)
    # The chain of stages as configured: [{"name", "format", "params"}]; Stage rows are made at start.
    stage_plan = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=0)
    head_hash = models.CharField(max_length=64, blank=True, default="")
    # The last failure to record a result or advance (cleared by the next success): shown
    # to the organisers; the sweep retries.
    projection_error = models.TextField(blank=True, default="")
    projection_error_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # How long after its match ends a table of a stage's last round can be disputed (the
    # tables of earlier rounds can be until the stage's next round is drawn).
    appeal_minutes = models.PositiveIntegerField(_("appeal window (minutes)"), default=15)
    # How long a finished round's tables may be appealed before the next round is drawn
    # (0: drawn at once); the director may draw early (`services.appeals`).
    round_appeal_minutes = models.PositiveIntegerField(_("appeal period between rounds (minutes)"), default=2)
    # Played at physical tables: each table's scorekeeper enters what happens (docs/physical.md).
    physical = models.BooleanField(_("physical tables"), default=False)
    # Its finished tables count for the players' ratings (docs/ratings.md).
    rated = models.BooleanField(_("rated"), default=True)
    # Rounds at time (docs/rules.md §9.1): how a table still playing when time is called is
    # decided ("" is the game's default), and whether the round clock calls time at zero.
    time_policy = models.CharField(_("at time"), max_length=32, blank=True, default="")
    call_time_automatically = models.BooleanField(_("call time automatically"), default=False)
    # The seated players' table talk (docs/table-talk.md); the spectators' chat is always on.
    player_chat = models.BooleanField(_("players' chat"), default=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """One competitor: an individual, a pair or a team (with named members)."""

    REGISTERED = "registered"
    CHECKED_IN = "checked_in"
    ACTIVE = "active"
    WITHDRAWN = "withdrawn"
    NO_SHOW = "no_show"
    DISQUALIFIED = "disqualified"  # out of play by a ruling; ranked after everyone else
    ELIMINATED = "eliminated"
    FINISHED = "finished"  # played to the end of the tournament
    STATUS_CHOICES = [
        (REGISTERED, _("registered")),
        (CHECKED_IN, _("checked in")),
        (ACTIVE, _("playing")),
        (WITHDRAWN, _("withdrawn")),
        (NO_SHOW, _("no-show")),
        (DISQUALIFIED, _("disqualified")),
        (ELIMINATED, _("eliminated")),
        (FINISHED, pgettext_lazy("entry status", "finished")),
    ]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    name = models.CharField(_("name"), max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    is_bot = models.BooleanField(default=False)
    rating = models.FloatField(null=True, blank=True)
    seed = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=REGISTERED)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_after_round = models.PositiveIntegerField(null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed", "id"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="tournaments_entry_unique_name"),
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=Q(user__isnull=False),
                name="tournaments_entry_one_per_user",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class EntryMember(models.Model):
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["entry", "id"]

    def __str__(self) -> str:
        return self.name


class Stage(models.Model):
    PENDING = "pending"
    RUNNING = "running"
    FINISHED = "finished"
    STATUS_CHOICES = [(PENDING, _("pending")), (RUNNING, _("running")), (FINISHED, _("finished"))]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=80)
    format = models.CharField(max_length=32)
    params = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=PENDING)
    # Entry ids in this stage's seeding order (set when it starts) and its precomputed plan.
    entrants = models.JSONField(default=list, blank=True)
    plan = models.JSONField(default=dict, blank=True)
    ranking = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournaments_stage_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} / {self.name}"


class Round(models.Model):
    PLAYING = "playing"
    FINISHED = "finished"
    STATUS_CHOICES = [(PLAYING, _("playing")), (FINISHED, _("finished"))]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()  # across the tournament, from 1
    stage_round = models.PositiveIntegerField()  # within the stage, from 1
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=PLAYING)
    byes = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The round clock (a projection of the log's clock events, `services.clock`): its length
    # with every extension, the time used before the last start or resume, and since when it
    # runs (null while paused or not started).
    clock_seconds = models.PositiveIntegerField(null=True, blank=True)
    clock_used_ms = models.BigIntegerField(default=0)
    clock_running_since = models.DateTimeField(null=True, blank=True)
    # When time was called on the round (docs/tournaments.md, "Rounds at time"); null before.
    time_called_at = models.DateTimeField(null=True, blank=True)
    # The appeal period after the round finished (`services.appeals`): the next round is
    # drawn at `draw_at` (null: at once), not while a referee holds the draw.
    draw_at = models.DateTimeField(null=True, blank=True)
    draw_held_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournaments_round_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} R{self.number}"


class Table(models.Model):
    """A tournament table, played as one `cacho` match (referenced by id, never imported back)."""

    PLAYING = "playing"
    FINISHED = "finished"
    STATUS_CHOICES = [(PLAYING, _("playing")), (FINISHED, _("finished"))]

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    group = models.PositiveSmallIntegerField(default=1)
    bracket_ref = models.CharField(max_length=16, blank=True, default="")
    match_id = models.UUIDField(null=True, blank=True, db_index=True)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=PLAYING)
    # Projection of the match's result: [{"entry": id, "placement", "dice_left", "eliminations", ...}]
    result = models.JSONField(default=list, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A physical table: its scorekeeper enters the match; its players confirm the sheet.
    physical = models.BooleanField(default=False)
    # Projection of the log's `sheet-confirmed` events at the match's current version:
    # [{"entry": id, "version": match version, "how": "password"|"session"|"name", "at"}].
    confirmations = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="tournaments_table_number")]

    def __str__(self) -> str:
        return f"{self.round} T{self.number}"


class TableSeat(models.Model):
    """An entry's seat at a table. `match_seat` is its seat's index in the table's match; an
    entry withdrawn before the table was drawn keeps its seat (fixed schedules, brackets)
    but forfeits it: `forfeited`, no seat in the match. One that leaves the match through
    a withdrawal or a forfeit at the desk keeps its `match_seat` and is `forfeited` too."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    match_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    forfeited = models.BooleanField(default=False)
    # A pair's or team's members when the table was drawn, in the order they take its turns:
    # [{"name", "user": id or null}] (empty for an individual). Substitutions change the
    # entry's members for later tables, never who played this one.
    members = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="tournaments_seat_index"),
            models.UniqueConstraint(fields=["table", "entry"], name="tournaments_seat_entry"),
        ]


class TournamentEvent(ChainedEvent):
    """Append-only, hash-chained per tournament; written only by `tournaments.services`."""

    OWNER = "tournament"
    OWNER_KEY = "tournament"

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="events")

    class Meta:
        ordering = ["tournament", "version"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "version"], name="tournaments_event_version")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}#{self.version} {self.type}"


class StandingRow(models.Model):
    """Projection: each stage's standings, per group (rewritten whenever a table finishes).
    `tiebreak_against` / `tiebreak_values`: the tie this row won (the entry just below and
    the two values that split them), for a reason written in the reader's language."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standing_rows")
    stage = models.PositiveSmallIntegerField(default=1)
    group = models.PositiveSmallIntegerField(default=1)
    position = models.PositiveIntegerField()
    rank = models.PositiveIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    played = models.PositiveIntegerField(default=0)
    points = models.FloatField(default=0)
    values = models.JSONField(default=dict)
    tiebreak = models.CharField(max_length=32, blank=True, default="")
    tiebreak_reason = models.CharField(max_length=255, blank=True, default="")
    tiebreak_against = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    tiebreak_values = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "stage", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "stage", "position"], name="tournaments_standing_position"
            )
        ]


class Dispute(models.Model):
    """A dispute filed on a tournament table's match, pinned to a round, a turn or an event
    version. A projection of the tournament log's dispute events (filed, commented, paused,
    resumed, ruled): its trail is those events; this row is what the queue reads."""

    OPEN = "open"
    RULED = "ruled"
    WITHDRAWN = "withdrawn"
    STATUS_CHOICES = [(OPEN, _("open")), (RULED, _("ruled")), (WITHDRAWN, _("withdrawn"))]
    REASON_CHOICES = [
        ("wrong-result", _("wrong result")),
        ("misclick", _("misclick")),
        ("timeout", _("disconnection or timeout")),
        ("collusion", _("suspected collusion")),
        ("scorekeeping", _("scorekeeping error")),
        ("other", _("other")),
    ]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="disputes")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="disputes")
    match_id = models.UUIDField(db_index=True)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="disputes_filed"
    )
    reason = models.CharField(_("reason"), max_length=16, choices=REASON_CHOICES)
    text = models.TextField(_("what happened"), blank=True, default="")
    pinned_round = models.PositiveIntegerField(null=True, blank=True)
    pinned_turn = models.PositiveIntegerField(null=True, blank=True)
    pinned_version = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=OPEN)
    paused = models.BooleanField(default=False)
    # {"kind", "params", "reason", "by", "at"} once ruled
    ruling = models.JSONField(null=True, blank=True)
    filed_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # The referee handling it (claimed or assigned), and the ruled dispute it appeals.
    assigned_to = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    appeal_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="appeals"
    )

    class Meta:
        ordering = ["-filed_at"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        indexes = [models.Index(fields=["tournament", "status"], name="tournaments_dispute_open")]

    def __str__(self) -> str:
        return f"{self.tournament_id}: dispute {self.pk} on table {self.table_id}"


class SeatLink(models.Model):
    """A guest entry's way to its seat at an online table (`tournaments.seat_links`): a
    single-use link whose token is stored only as its sha256 (`token_hash`). The token is
    derived from `salt` with the server's secret key, so the director's pages can show the
    link again while the database alone never holds it. One link of a seat is live
    (`active`, `claimed`) at a time; a re-issued one leaves the old one `revoked`."""

    ACTIVE = "active"
    CLAIMED = "claimed"
    REVOKED = "revoked"
    STATUS_CHOICES = [(ACTIVE, _("waiting for the player")), (CLAIMED, _("claimed")), (REVOKED, _("revoked"))]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_links")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seat_links")
    salt = models.CharField(max_length=32)
    token_hash = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=ACTIVE)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "entry", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "entry"],
                condition=~Q(status="revoked"),
                name="tournaments_seatlink_one_live",
            )
        ]

    def __str__(self) -> str:
        return f"seat link {self.pk}: entry {self.entry_id} at table {self.table_id} ({self.status})"


from tournaments.accounts.models import Account  # noqa: E402,F401  (accounts, mail: docs/accounts.md)
from tournaments.appeals.models import RefereeNote  # noqa: E402,F401  (referee-only notes)
from tournaments.clubs.models import Club, ClubEvent, ClubInvitation, Membership  # noqa: E402,F401  (clubs)
from tournaments.mail.models import OutgoingMail  # noqa: E402,F401
from tournaments.notices.models import HiddenTab, Notice, NoticeSettings, PushSubscription  # noqa: E402,F401
from tournaments.open_tables.models import OpenSeat, OpenTable  # noqa: E402,F401  (docs/lobby.md, open tables)
from tournaments.ratings.models import PlayerRating, RatedMatch, RatingChange  # noqa: E402,F401  (docs/ratings.md)
from tournaments.seasons.models import League, Season  # noqa: E402,F401  (docs/seasons.md)
