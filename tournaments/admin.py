"""Admin for clubs and members. Tournaments, entries, their log and projections are
read-only here: every change to them goes through the write path (`tournaments.services`,
the API and the pages), which records it in the tournament's log."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import (
    Club,
    ClubEvent,
    ClubInvitation,
    Entry,
    EntryMember,
    Membership,
    Round,
    Stage,
    StandingRow,
    Table,
    TableSeat,
    Tournament,
    TournamentEvent,
)


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]


class EntryMemberInline(admin.TabularInline):
    model = EntryMember
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Entry)
class EntryAdmin(ReadOnly):
    list_display = ["name", "tournament", "status", "seed", "rating", "is_bot"]
    list_filter = ["status", "is_bot"]
    search_fields = ["name", "tournament__name"]
    inlines = [EntryMemberInline]


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0
    can_delete = False
    readonly_fields = ["number", "name", "format", "params", "status"]
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(ReadOnly):
    list_display = ["name", "club", "game", "ruleset", "status", "version", "created_at"]
    list_filter = ["status", "game", "club"]
    search_fields = ["name"]
    exclude = ["draw_seed"]  # the draw's secret, until the start reveals it in the log
    inlines = [StageInline]


@admin.register(TournamentEvent)
class TournamentEventAdmin(ReadOnly):
    list_display = ["tournament", "version", "type", "actor", "recorded_at"]
    list_filter = ["type"]


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    can_delete = False
    readonly_fields = ["index", "entry"]


@admin.register(Table)
class TableAdmin(ReadOnly):
    list_display = ["round", "number", "match_id", "status"]
    list_filter = ["status"]
    inlines = [TableSeatInline]


@admin.register(Round)
class RoundAdmin(ReadOnly):
    list_display = ["tournament", "number", "stage", "stage_round", "status"]


@admin.register(StandingRow)
class StandingRowAdmin(ReadOnly):
    list_display = ["tournament", "rank", "entry", "points", "tiebreak"]


@admin.register(ClubEvent)
class ClubEventAdmin(ReadOnly):
    list_display = ["club", "version", "type", "actor", "recorded_at"]
    list_filter = ["type"]


@admin.register(ClubInvitation)
class ClubInvitationAdmin(ReadOnly):
    list_display = ["club", "email", "role", "status", "created_at"]
    list_filter = ["status", "role"]
    search_fields = ["email", "club__name"]
