"""The account pages' forms (frontend.pages.accounts): input checks only; the steps are
`tournaments.accounts.services`."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class ResetRequestForm(forms.Form):
    email = forms.EmailField(label=_("Email"), max_length=254)


class EmailChangeForm(forms.Form):
    email = forms.EmailField(label=_("New email"), max_length=254)
    current_password = forms.CharField(
        label=_("Current password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=64,
        required=False,
        help_text=_("How other players see you; empty: your username."),
    )
    language = forms.ChoiceField(
        label=_("Language of my emails"),
        choices=[("", _("The site's"))] + [(code, name) for code, name in settings.LANGUAGES],
        required=False,
    )


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    confirm = forms.BooleanField(
        label=_("I understand that my account is deleted for good."),
        required=True,
    )
