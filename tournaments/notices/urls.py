"""Routes of the notices and of a player's leaving (data export, deletion) under /api/."""

from django.urls import path

from tournaments.leaving.api import MyAccountDeletionView, MyDataExportView
from tournaments.notices import api

urlpatterns = [
    path("me/notices", api.NoticesView.as_view(), name="me-notices"),
    path("me/notices/read", api.NoticesReadView.as_view(), name="me-notices-read"),
    path("me/notice-settings", api.NoticeSettingsView.as_view(), name="me-notice-settings"),
    path("me/push-subscriptions", api.PushSubscriptionsView.as_view(), name="me-push-subscriptions"),
    path("me/hidden-tab", api.HiddenTabView.as_view(), name="me-hidden-tab"),
    path("me/export", MyDataExportView.as_view(), name="me-export"),
    path("me/delete", MyAccountDeletionView.as_view(), name="me-delete"),
]
