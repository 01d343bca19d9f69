"""Admin: matches and seats are browsable; events are read-only (the log is append-only).

No admin page carries a die: an event's payload holds the dice of every seat (and a
round's seed once revealed), and site staff status grants no referee's view
(docs/disputes.md), so the event pages show its type and chain but never its payload or
metadata; seeds and snapshots are not registered at all. A referee reviews a match on its
review page."""

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

    # The payload and metadata stay out: they hold hidden dice (and a ruling's adjusted ones).
    fields = ("stream", "version", "type", "schema_version", "command_id", "recorded_at", "hash")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return list(self.fields)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(MatchSummary)
class MatchSummaryAdmin(admin.ModelAdmin):
    list_display = ("match", "status", "version", "to_act", "last_event_at")
