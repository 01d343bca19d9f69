from django.contrib.auth import views as auth_views
from django.urls import path

from frontend.evening import club_pages, desk_pages
from frontend.limits import login_limited, signup_limited
from frontend.pages import accounts, notices, open_tables, seasons, seats, site, talk

app_name = "frontend"

urlpatterns = [
    path("", site.home, name="home"),
    path("tables/new/", open_tables.table_new, name="table-new"),
    path("tables/<int:table_id>/", open_tables.table_page, name="open-table"),
    path("matches/<str:match_id>/", site.match, name="match"),
    path("matches/<str:match_id>/replay", site.replay, name="replay"),
    path("seat/<str:token>/", seats.seat_link, name="seat-link"),
    path("seat/<str:token>/qr.svg", seats.seat_qr, name="seat-link-qr"),
    path("clubs/", site.clubs, name="clubs"),
    path("clubs/new/", club_pages.club_new, name="club-new"),
    path("clubs/<int:club_id>/", site.club, name="club"),
    path("clubs/<int:club_id>/manage/", club_pages.club_manage, name="club-manage"),
    path("tournaments/<int:tournament_id>/", site.tournament, name="tournament"),
    path("seasons/<int:season_id>/", seasons.season, name="season"),
    path("clubs/<int:club_id>/seasons/new/", seasons.season_new, name="season-new"),
    path("organise/", site.organise, name="organise"),
    path("organise/<int:tournament_id>/entries/", desk_pages.desk, name="desk"),
    path("scorekeeper/", site.scorekeeper, name="scorekeeper"),
    path("scorekeeper/tables/<int:table_id>/", site.scorekeeper_table, name="scorekeeper-table"),
    path("disputes/", site.disputes, name="disputes"),
    path("disputes/<int:dispute_id>/", site.dispute, name="dispute"),
    path("talk/reports/", talk.reports, name="talk-reports"),
    path("me/", site.profile, name="profile"),
    path("me/notices/", notices.notice_settings, name="notice-settings"),
    path("sw.js", notices.service_worker, name="service-worker"),
    path("signup/", signup_limited(site.signup), name="signup"),
    path(
        "login/",
        login_limited(
            auth_views.LoginView.as_view(template_name="frontend/login.html", next_page="frontend:profile")
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(next_page="frontend:home"), name="logout"),
    path("players/<str:username>/", site.player, name="player"),
    path("account/", accounts.account, name="account"),
    path("account/delete/", accounts.delete, name="account-delete"),
    path("account/verify/<str:token>/", accounts.verify_email, name="verify-email"),
    path("account/password-reset/", accounts.password_reset, name="password-reset"),
    path(
        "account/reset/<str:uidb64>/<str:token>/",
        accounts.password_reset_confirm,
        name="password-reset-confirm",
    ),
    path("ratings/", site.ratings, name="ratings"),
]
