from django.contrib.auth import views as auth_views
from django.urls import path

from frontend import views

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    path("matches/<str:match_id>/", views.match, name="match"),
    path("matches/<str:match_id>/replay", views.replay, name="replay"),
    path("clubs/", views.clubs, name="clubs"),
    path("clubs/<int:club_id>/", views.club, name="club"),
    path("tournaments/<int:tournament_id>/", views.tournament, name="tournament"),
    path("organise/", views.organise, name="organise"),
    path("scorekeeper/", views.scorekeeper, name="scorekeeper"),
    path("me/", views.profile, name="profile"),
    path("signup/", views.signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="frontend/login.html", next_page="frontend:profile"),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(next_page="frontend:home"), name="logout"),
]
