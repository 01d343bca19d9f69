"""Routes of live play under /api/ (the match socket itself is in `cacho.routing`)."""

from django.urls import path

from cacho.live import views

app_name = "cacho-live"

urlpatterns = [
    path("me/matches", views.MyMatchesView.as_view(), name="my-matches"),
    path("matches/<str:match_id>/presence", views.PresenceLogView.as_view(), name="match-presence"),
]
