"""Admin: matches and seats are browsable; events are read-only (the log is append-only)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from cacho.models import Event, Match, MatchSummary, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "ruleset", "status", "version", "created_at", "finished_at")
    list_filter = ("status", "ruleset", "imported")
    readonly_fields = (
        "game",
        "ruleset",
        "options",
        "options_hash",
        "version",
        "last_hash",
        "pending_scope",
        "turn_key",
        "deadline_ms",
        "imported",
    )
    inlines = [SeatInline]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("position", "stream", "version", "type", "recorded_at")
    list_filter = ("type",)
    search_fields = ("stream__id",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [field.name for field in Event._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(MatchSummary)
class MatchSummaryAdmin(admin.ModelAdmin):
    list_display = ("match", "status", "version", "to_act", "last_event_at")
