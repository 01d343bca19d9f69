"""Routes of the match API, mounted under /api/ by the project's URLconf."""

from django.urls import path

from cacho.api import views

app_name = "cacho-api"

urlpatterns = [
    path("matches", views.MatchListView.as_view(), name="matches"),
    path("matches/import", views.ImportView.as_view(), name="match-import"),
    path("matches/<str:match_id>", views.MatchDetailView.as_view(), name="match"),
    path("matches/<str:match_id>/seats/<int:index>", views.SeatView.as_view(), name="match-seat"),
    path("matches/<str:match_id>/commands", views.CommandView.as_view(), name="match-commands"),
    path("matches/<str:match_id>/events", views.EventsView.as_view(), name="match-events"),
    path("matches/<str:match_id>/record", views.RecordView.as_view(), name="match-record"),
    path("matches/<str:match_id>/verify", views.VerifyView.as_view(), name="match-verify"),
]
