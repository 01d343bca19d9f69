"""Routes of the tournaments API, mounted under /api/ by the project's URLconf."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from tournaments.api import (
    accounts,
    appeals,
    at_time,
    clock,
    clubs,
    console,
    desk,
    disputes,
    integrity,
    lobby,
    open_tables,
    physical,
    ratings,
    seat_links,
    teams,
    views,
)
from tournaments.seasons.urls import urlpatterns as season_urls

app_name = "tournaments-api"

router = SimpleRouter(trailing_slash=False)
router.register("clubs", views.ClubViewSet, basename="club")
router.register("tournaments", views.TournamentViewSet, basename="tournament")
router.register("entries", views.EntryViewSet, basename="entry")

urlpatterns = [
    path("rulesets", views.RulesetsView.as_view(), name="rulesets"),
    path("open-tables", open_tables.OpenTablesView.as_view(), name="open-tables"),
    path("open-tables/<str:table_id>", open_tables.OpenTableView.as_view(), name="open-table"),
    *(
        path(f"open-tables/<str:table_id>/{action}", view.as_view(), name=f"open-table-{action}")
        for action, view in open_tables.ACTIONS.items()
    ),
    path("matches/<str:match_id>/open-table", open_tables.MatchOpenTableView.as_view(), name="match-table"),
    path("me/memberships", views.MyMembershipsView.as_view(), name="my-memberships"),
    path("me/account", accounts.MyAccountView.as_view(), name="my-account"),
    path("me/account/password", accounts.MyPasswordView.as_view(), name="my-account-password"),
    path("me/account/email", accounts.MyEmailView.as_view(), name="my-account-email"),
    path("me/account/verify-email", accounts.MyVerificationView.as_view(), name="my-account-verify-email"),
    path(
        "me/account/sign-out-everywhere",
        accounts.SignOutEverywhereView.as_view(),
        name="my-account-sign-out-everywhere",
    ),
    path("account/password-reset", accounts.PasswordResetView.as_view(), name="account-password-reset"),
    path(
        "account/password-reset/confirm",
        accounts.PasswordResetConfirmView.as_view(),
        name="account-password-reset-confirm",
    ),
    path("account/verify-email", accounts.VerifyEmailView.as_view(), name="account-verify-email"),
    path("matches/<str:match_id>/disputes", disputes.MatchDisputesView.as_view(), name="match-disputes"),
    path("disputes", disputes.DisputeQueueView.as_view(), name="disputes"),
    path("signals", integrity.SignalsView.as_view(), name="signals"),
    path("disputes/<str:dispute_id>", disputes.DisputeView.as_view(), name="dispute"),
    path("disputes/<str:dispute_id>/signals", integrity.DisputeSignalsView.as_view(), name="dispute-signals"),
    path(
        "disputes/<str:dispute_id>/comments", disputes.DisputeCommentView.as_view(), name="dispute-comments"
    ),
    path("disputes/<str:dispute_id>/pause", disputes.DisputePauseView.as_view(), name="dispute-pause"),
    path("disputes/<str:dispute_id>/resume", disputes.DisputeResumeView.as_view(), name="dispute-resume"),
    path(
        "disputes/<str:dispute_id>/withdraw", disputes.DisputeWithdrawView.as_view(), name="dispute-withdraw"
    ),
    path("disputes/<str:dispute_id>/preview", disputes.RulingPreviewView.as_view(), name="dispute-preview"),
    path("disputes/<str:dispute_id>/rule", disputes.RulingView.as_view(), name="dispute-rule"),
    path("disputes/<str:dispute_id>/claim", appeals.DisputeClaimView.as_view(), name="dispute-claim"),
    path("disputes/<str:dispute_id>/assign", appeals.DisputeAssignView.as_view(), name="dispute-assign"),
    path("disputes/<str:dispute_id>/notes", appeals.DisputeNotesView.as_view(), name="dispute-notes"),
    path("disputes/<str:dispute_id>/appeal", appeals.DisputeAppealView.as_view(), name="dispute-appeal"),
    path("tournaments/<str:tournament_id>/draw-now", appeals.DrawNowView.as_view(), name="draw-now"),
    path("rounds/<str:round_id>/appeal", appeals.RoundAppealView.as_view(), name="round-appeal"),
    path("rounds/<str:round_id>/hold-draw", appeals.HoldDrawView.as_view(), name="round-hold-draw"),
    path("rounds/<str:round_id>/release-draw", appeals.ReleaseDrawView.as_view(), name="round-release-draw"),
    path("lobby", lobby.LobbyView.as_view(), name="lobby"),
    path("me/match-history", lobby.MyMatchHistoryView.as_view(), name="my-match-history"),
    path("players/<str:username>", lobby.PlayerView.as_view(), name="player"),
    path("players/<str:username>/matches", lobby.PlayerMatchesView.as_view(), name="player-matches"),
    path("players/<str:username>/ratings", ratings.PlayerRatingsView.as_view(), name="player-ratings"),
    path("ratings", ratings.LeaderboardView.as_view(), name="ratings"),
    path(
        "tournaments/<str:tournament_id>/platform-ratings",
        ratings.TournamentRatingsView.as_view(),
        name="platform-ratings",
    ),
    # A club evening (before the router: these paths share its prefixes)
    path("clubs/<str:club_id>/members", clubs.ClubMembersView.as_view(), name="club-members"),
    path("clubs/<str:club_id>/members/<str:username>", clubs.ClubMemberView.as_view(), name="club-member"),
    path(
        "clubs/<str:club_id>/invitations/<str:invitation_id>",
        clubs.ClubInvitationView.as_view(),
        name="club-invitation",
    ),
    path("clubs/<str:club_id>/log", clubs.ClubLogView.as_view(), name="club-log"),
    path("clubs/<str:club_id>/signals", integrity.ClubSignalsView.as_view(), name="club-signals"),
    path("tournaments/<str:tournament_id>/entries/bulk", desk.BulkEntriesView.as_view(), name="entries-bulk"),
    path("tournaments/<str:tournament_id>/seeds", desk.SeedsView.as_view(), name="seeds"),
    path(
        "tournaments/<str:tournament_id>/check-in/close",
        desk.CloseCheckInView.as_view(),
        name="check-in-close",
    ),
    path("tournaments/<str:tournament_id>/console", console.ConsoleView.as_view(), name="console"),
    path(
        "tournaments/<str:tournament_id>/clock",
        clock.TournamentClockView.as_view(),
        name="tournament-clock",
    ),
    path("tournaments/<str:tournament_id>/print/<str:kind>", desk.PrintView.as_view(), name="print"),
    path("rounds/<str:round_id>/clock", clock.RoundClockView.as_view(), name="round-clock"),
    path("rounds/<str:round_id>/call-time", at_time.CallTimeView.as_view(), name="round-call-time"),
    path("matches/<str:match_id>/clock", clock.MatchClockView.as_view(), name="match-clock"),
    path("entries/<str:entry_id>/disqualify", desk.EntryDisqualifyView.as_view(), name="entry-disqualify"),
    path("entries/<str:entry_id>/claim", desk.EntryClaimView.as_view(), name="entry-claim"),
    path("entries/<str:entry_id>/substitute", teams.EntrySubstituteView.as_view(), name="entry-substitute"),
    path(
        "entries/<str:entry_id>/undo-check-in",
        desk.EntryUndoCheckInView.as_view(),
        name="entry-undo-check-in",
    ),
    path("me/scorekeeping", physical.MyTablesView.as_view(), name="my-scorekeeping"),
    path("tables/<str:table_id>/physical", physical.MakePhysicalView.as_view(), name="table-physical"),
    path("tables/<str:table_id>/online", physical.MakeOnlineView.as_view(), name="table-online"),
    path("tables/<str:table_id>/sheet", physical.SheetView.as_view(), name="table-sheet"),
    path("tables/<str:table_id>/entries", physical.EntryView.as_view(), name="table-entries"),
    path("tables/<str:table_id>/check", physical.CheckView.as_view(), name="table-check"),
    path("tables/<str:table_id>/confirm", physical.ConfirmView.as_view(), name="table-confirm"),
    path("tables/<str:table_id>/import", physical.ImportView.as_view(), name="table-import"),
    path("seat-links/claim", seat_links.SeatLinkClaimView.as_view(), name="seat-link-claim"),
    path(
        "tables/<str:table_id>/seat-links", seat_links.TableSeatLinksView.as_view(), name="table-seat-links"
    ),
    path(
        "tables/<str:table_id>/seat-links/<str:entry_id>/reissue",
        seat_links.SeatLinkReissueView.as_view(),
        name="seat-link-reissue",
    ),
    *season_urls,
    *router.urls,
    path("matches/<str:match_id>/tournament", views.MatchTournamentView.as_view(), name="match-tournament"),
]
