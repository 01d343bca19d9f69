from django.contrib.auth import views as auth_views
from django.urls import path

from frontend import evening_views, seat_views, views
from frontend.limits import login_limited, signup_limited

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    path("matches/<str:match_id>/", views.match, name="match"),
    path("matches/<str:match_id>/replay", views.replay, name="replay"),
    path("seat/<str:token>/", seat_views.seat_link, name="seat-link"),
    path("seat/<str:token>/qr.svg", seat_views.seat_qr, name="seat-link-qr"),
    path("clubs/", views.clubs, name="clubs"),
    path("clubs/new/", evening_views.club_new, name="club-new"),
    path("clubs/<int:club_id>/", views.club, name="club"),
    path("clubs/<int:club_id>/manage/", evening_views.club_manage, name="club-manage"),
    path("tournaments/<int:tournament_id>/", views.tournament, name="tournament"),
    path("organise/", views.organise, name="organise"),
    path("organise/<int:tournament_id>/entries/", evening_views.desk, name="desk"),
    path("scorekeeper/", views.scorekeeper, name="scorekeeper"),
    path("scorekeeper/tables/<int:table_id>/", views.scorekeeper_table, name="scorekeeper-table"),
    path("disputes/", views.disputes, name="disputes"),
    path("disputes/<int:dispute_id>/", views.dispute, name="dispute"),
    path("me/", views.profile, name="profile"),
    path("signup/", signup_limited(views.signup), name="signup"),
    path(
        "login/",
        login_limited(
            auth_views.LoginView.as_view(template_name="frontend/login.html", next_page="frontend:profile")
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(next_page="frontend:home"), name="logout"),
    path("players/<str:username>/", views.player, name="player"),
    path("ratings/", views.ratings, name="ratings"),
]
