"""The seasons' and leagues' API routes, mounted by `tournaments.api.urls` under /api/."""

from django.urls import path

from tournaments.seasons import api

urlpatterns = [
    path("seasons", api.SeasonsView.as_view(), name="seasons"),
    path("seasons/<str:season_id>", api.SeasonView.as_view(), name="season"),
    path("seasons/<str:season_id>/standings", api.SeasonStandingsView.as_view(), name="season-standings"),
    path("seasons/<str:season_id>/standings/csv", api.SeasonCsvView.as_view(), name="season-standings-csv"),
    path(
        "seasons/<str:season_id>/standings/xlsx", api.SeasonXlsxView.as_view(), name="season-standings-xlsx"
    ),
    path("seasons/<str:season_id>/final", api.SeasonFinalView.as_view(), name="season-final"),
    path("leagues", api.LeaguesView.as_view(), name="leagues"),
    path("leagues/<str:league_id>", api.LeagueView.as_view(), name="league"),
    path("leagues/<str:league_id>/clubs", api.LeagueClubsView.as_view(), name="league-clubs"),
    path(
        "leagues/<str:league_id>/clubs/<str:club_id>/<str:answer>",
        api.LeagueAnswerView.as_view(),
        name="league-club-answer",
    ),
    path("leagues/<str:league_id>/roles", api.LeagueRolesView.as_view(), name="league-roles"),
]
