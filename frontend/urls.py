from django.contrib.auth import views as auth_views
from django.urls import path

from frontend import (
    account_views,
    evening_views,
    notice_views,
    open_table_views,
    season_views,
    seat_views,
    talk_views,
    views,
)
from frontend.limits import login_limited, signup_limited

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    path("tables/new/", open_table_views.table_new, name="table-new"),
    path("tables/<int:table_id>/", open_table_views.table_page, name="open-table"),
    path("matches/<str:match_id>/", views.match, name="match"),
    path("matches/<str:match_id>/replay", views.replay, name="replay"),
    path("seat/<str:token>/", seat_views.seat_link, name="seat-link"),
    path("seat/<str:token>/qr.svg", seat_views.seat_qr, name="seat-link-qr"),
    path("clubs/", views.clubs, name="clubs"),
    path("clubs/new/", evening_views.club_new, name="club-new"),
    path("clubs/<int:club_id>/", views.club, name="club"),
    path("clubs/<int:club_id>/manage/", evening_views.club_manage, name="club-manage"),
    path("tournaments/<int:tournament_id>/", views.tournament, name="tournament"),
    path("seasons/<int:season_id>/", season_views.season, name="season"),
    path("clubs/<int:club_id>/seasons/new/", season_views.season_new, name="season-new"),
    path("organise/", views.organise, name="organise"),
    path("organise/<int:tournament_id>/entries/", evening_views.desk, name="desk"),
    path("scorekeeper/", views.scorekeeper, name="scorekeeper"),
    path("scorekeeper/tables/<int:table_id>/", views.scorekeeper_table, name="scorekeeper-table"),
    path("disputes/", views.disputes, name="disputes"),
    path("disputes/<int:dispute_id>/", views.dispute, name="dispute"),
    path("talk/reports/", talk_views.reports, name="talk-reports"),
    path("me/", views.profile, name="profile"),
    path("me/notices/", notice_views.notice_settings, name="notice-settings"),
    path("sw.js", notice_views.service_worker, name="service-worker"),
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
    path("account/", account_views.account, name="account"),
    path("account/delete/", account_views.delete, name="account-delete"),
    path("account/verify/<str:token>/", account_views.verify_email, name="verify-email"),
    path("account/password-reset/", account_views.password_reset, name="password-reset"),
    path(
        "account/reset/<str:uidb64>/<str:token>/",
        account_views.password_reset_confirm,
        name="password-reset-confirm",
    ),
    path("ratings/", views.ratings, name="ratings"),
]
