"""Routes of table talk under /api/ (its socket frames travel on the match socket)."""

from django.urls import path

from cacho.talk import views

app_name = "cacho-talk"

urlpatterns = [
    path("matches/<str:match_id>/chat", views.ChatView.as_view(), name="chat"),
    path("matches/<str:match_id>/chat/mutes", views.MuteView.as_view(), name="chat-mutes"),
    path("matches/<str:match_id>/chat/reports", views.ReportView.as_view(), name="chat-reports"),
    path("talk/reports", views.QueueView.as_view(), name="talk-queue"),
    path("talk/reports/<int:report_id>/resolve", views.ResolveView.as_view(), name="talk-resolve"),
    path("talk/phrases", views.PhrasesView.as_view(), name="talk-phrases"),
]
