"""Routes of the tournaments API, mounted under /api/ by the project's URLconf."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from tournaments.api import views

app_name = "tournaments-api"

router = SimpleRouter(trailing_slash=False)
router.register("clubs", views.ClubViewSet, basename="club")
router.register("tournaments", views.TournamentViewSet, basename="tournament")
router.register("entries", views.EntryViewSet, basename="entry")

urlpatterns = [
    path("rulesets", views.RulesetsView.as_view(), name="rulesets"),
    path("me/memberships", views.MyMembershipsView.as_view(), name="my-memberships"),
    *router.urls,
]
