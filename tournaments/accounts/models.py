"""What an account holds beside Django's user: its verified address, the address it asked
to move to, its display name and language."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class Account(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="account"
    )
    display_name = models.CharField(max_length=64, blank=True, default="")
    language = models.CharField(max_length=8, blank=True, default="")  # of its mail; empty: the site's
    # The user's email is verified while it equals this (a link mailed to it was followed).
    verified_email = models.EmailField(blank=True, default="")
    # An address the user asked to move to: it replaces the email once its link is followed.
    pending_email = models.EmailField(blank=True, default="")

    def __str__(self) -> str:
        return f"account {self.user_id}"

    @property
    def email_verified(self) -> bool:
        email = (self.user.email or "").strip().lower()
        return bool(email) and email == self.verified_email.strip().lower()


def account_of(user: Any) -> Account:
    account, _ = Account.objects.get_or_create(user=user)
    return account
