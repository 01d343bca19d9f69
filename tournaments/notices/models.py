"""The notices' rows: a player's choices, the notices themselves (the bell's list and the
key that makes each delivery happen once), the browsers that receive push, and the match
pages whose tab is hidden (the "your turn" notice is for those)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class NoticeSettings(models.Model):
    """A player's channels per kind (`{kind: {"in_app", "email", "push"}}`; a kind not
    named keeps its defaults, `tournaments.notices.kinds`) and the language their email and
    push notices are written in (the site's language when they last saved or subscribed)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    choices = models.JSONField(default=dict, blank=True)
    language = models.CharField(max_length=8, blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"notice settings of {self.user_id}"


class Notice(models.Model):
    """One notice to one player. `key` names what it is about (`table-ready:<table id>`):
    one notice per user and key, so a repeated task adds nothing. The text is written when
    shown, in the reader's language, from `kind` and `params` (names and numbers only)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=32)
    key = models.CharField(max_length=120)
    params = models.JSONField(default=dict, blank=True)
    link = models.CharField(max_length=300, blank=True, default="")
    in_app = models.BooleanField(default=True)  # shown in the bell
    email = models.BooleanField(default=False)  # to be emailed
    push = models.BooleanField(default=False)  # to be pushed
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # Each channel is claimed once (UPDATE … WHERE … IS NULL) before it is sent: a repeated
    # or retried task never sends it twice.
    emailed_at = models.DateTimeField(null=True, blank=True)
    pushed_at = models.DateTimeField(null=True, blank=True)
    announced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="tournaments_notice_once")]
        indexes = [models.Index(fields=["user", "read_at"], name="tournaments_notice_unread")]

    def __str__(self) -> str:
        return f"notice {self.pk} ({self.kind}) to {self.user_id}"


class PushSubscription(models.Model):
    """A browser that receives this player's push notices (its Push API subscription)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    failures = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"


class HiddenTab(models.Model):
    """A player's match page whose tab is hidden (the page says so as it hides and shows):
    their turn there is pushed to them."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match_id = models.UUIDField()
    since = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "match_id"], name="tournaments_hiddentab_one")]
        indexes = [models.Index(fields=["match_id"], name="tournaments_hiddentab_match")]

    def __str__(self) -> str:
        return f"{self.user_id} away from {self.match_id}"
