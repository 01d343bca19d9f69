"""The account pages: its settings (display name, email, password, sign out everywhere),
deleting it, following an email's verification link, and the password reset by email.
Thin: the steps and their refusals are `tournaments.accounts.services` and
`tournaments.leaving.deletion`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from frontend.labels.site import labels
from frontend.pages.account_forms import DeleteAccountForm, EmailChangeForm, ProfileForm, ResetRequestForm
from tournaments.accounts import services
from tournaments.accounts.models import account_of
from tournaments.errors import TournamentError
from tournaments.leaving.deletion import delete_account


def _page(request: HttpRequest, template: str, status: int = 200, **context: Any) -> HttpResponse:
    context.setdefault("labels", labels())
    return render(request, f"frontend/{template}", context, status=status)


def _message(
    request: HttpRequest,
    title: str,
    text: str,
    *,
    status: int = 200,
    kind: str = "done",
    again: dict[str, str] | None = None,
) -> HttpResponse:
    """A step's outcome; `again` (url, label) offers the way to start it over."""
    return _page(request, "account_message.html", status, title=title, text=text, kind=kind, again=again)


def _refused(form: Form, error: TournamentError) -> int:
    """The refusal on the form (on its field where one is to blame); its HTTP status."""
    field = error.field if error.field in form.fields else None
    form.add_error(field, error.message)
    return error.status


def _client(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR") or "unknown")


# ---------------------------------------------------------------- the account's settings

ACTIONS = ("profile", "email", "password", "verify", "sign-out-everywhere")


@login_required(login_url="frontend:login")
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    user = request.user
    acc = account_of(user)
    action = request.POST.get("action") if request.method == "POST" else None
    profile = ProfileForm(
        request.POST if action == "profile" else None,
        initial={"display_name": acc.display_name, "language": acc.language},
    )
    email = EmailChangeForm(request.POST if action == "email" else None)
    password = PasswordChangeForm(user, request.POST if action == "password" else None)
    password.fields["old_password"].widget.attrs.pop("autofocus", None)  # the page opens at its top
    status, done = 200, request.GET.get("done", "")
    try:
        if action == "profile" and profile.is_valid():
            services.set_profile(user, **profile.cleaned_data)
            return redirect(reverse("frontend:account") + "?done=profile")
        if action == "email" and email.is_valid():
            try:
                services.change_email(
                    user,
                    email.cleaned_data["email"],
                    email.cleaned_data["current_password"],
                    language=get_language(),
                )
            except TournamentError as error:
                status = _refused(email, error)
            else:
                return redirect(reverse("frontend:account") + "?done=email")
        if action == "password" and password.is_valid():
            try:
                services.change_password(
                    user, password.cleaned_data["old_password"], password.cleaned_data["new_password1"]
                )
            except TournamentError as error:
                status = _refused(password, error)
            else:
                update_session_auth_hash(request, user)  # this device stays signed in; the others not
                return redirect(reverse("frontend:account") + "?done=password")
        if action == "verify":
            services.send_verification(user, language=get_language())
            return redirect(reverse("frontend:account") + "?done=verify")
        if action == "sign-out-everywhere":
            services.sign_out_everywhere(user)
            logout(request)
            return _message(
                request,
                _("Signed out everywhere"),
                _("Every device signed in to your account is signed out, this one too."),
            )
    except TournamentError as error:  # a limit on resending the verification
        return _message(request, _("Not now"), error.message, status=error.status, kind="error")
    if action and status == 200:
        status = 400
    return _page(
        request,
        "account.html",
        status,
        account=acc,
        profile=profile,
        email=email,
        password=password,
        done=done if done in ACTIONS else "",
    )


@login_required(login_url="frontend:login")
@require_http_methods(["GET", "POST"])
def delete(request: HttpRequest) -> HttpResponse:
    """Deleting the account: what goes and what stays, then the password and a tick."""
    form = DeleteAccountForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                number = delete_account(request.user, form.cleaned_data["password"])
            except TournamentError as error:
                status = _refused(form, error)
            else:
                logout(request)
                return _message(
                    request,
                    _("Account deleted"),
                    _(
                        "Your account and its personal data are deleted. The tournaments and "
                        "matches you played show you as deleted player %(n)d."
                    )
                    % {"n": number},
                )
    return _page(request, "account_delete.html", status, form=form)


def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link of a verification email (a GET: mail clients open links)."""
    try:
        user = services.verify_email(token)
    except TournamentError as error:
        again = {"url": reverse("frontend:account"), "label": _("Send the confirmation link again")}
        return _message(
            request, _("Email not confirmed"), error.message, status=error.status, kind="error", again=again
        )
    return _message(
        request, _("Email confirmed"), _("%(email)s is confirmed for your account.") % {"email": user.email}
    )


# ---------------------------------------------------------------- password reset by email


@require_http_methods(["GET", "POST"])
def password_reset(request: HttpRequest) -> HttpResponse:
    form = ResetRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.request_password_reset(
                form.cleaned_data["email"], _client(request), language=get_language()
            )
        except TournamentError as error:
            return _page(request, "password_reset.html", _refused(form, error), form=form)
        # The same answer whether or not an account has that address.
        return _message(
            request,
            _("Check your email"),
            _(
                "If an account has this confirmed address, a link to choose a new password is on its way."
                " It works once, for a limited time."
            ),
        )
    return _page(request, "password_reset.html", 400 if request.method == "POST" else 200, form=form)


@require_http_methods(["GET", "POST"])
def password_reset_confirm(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    try:
        user = services.user_of_reset_link(uidb64, token)
    except TournamentError as error:
        again = {"url": reverse("frontend:password-reset"), "label": _("Ask for a new link")}
        return _message(request, _("Link not valid"), error.message, status=400, kind="error", again=again)
    form = SetPasswordForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.reset_password(uidb64, token, form.cleaned_data["new_password1"])
        except TournamentError as error:
            return _page(request, "password_reset_confirm.html", _refused(form, error), form=form)
        return redirect(reverse("frontend:login") + "?reset=1")
    return _page(
        request,
        "password_reset_confirm.html",
        400 if request.method == "POST" else 200,
        form=form,
        user_name=user,
    )
