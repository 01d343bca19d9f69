"""Outgoing mail through a real SMTP server: stored in the caller's transaction, sent after
the commit (never when it rolls back), once, in the recipient's language, text and HTML;
unverified addresses receive the verification alone; a server that is down is retried."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from tests.accounts.smtp import Mailbox
from tournaments.mail import send_mail_after_commit
from tournaments.mail.delivery import deliver, deliver_mail, settle
from tournaments.mail.models import OutgoingMail

pytestmark = [pytest.mark.sqlite_too]

INVITE = {"club": "Club Potosí", "role": "player", "inviter": "ana", "link": "http://testserver/signup/"}


def test_a_message_leaves_after_the_commit_in_spanish_by_default(
    committed_db: None, mailbox: Mailbox
) -> None:
    with transaction.atomic():
        mail = send_mail_after_commit("club_invitation", "newcomer@example.org", INVITE)
        assert mail is not None
        assert mailbox.to("newcomer@example.org") == []  # not inside the transaction
    [received] = mailbox.wait_for("newcomer@example.org")
    assert received.subject == "Cacho: Club Potosí te invita"
    assert "ana te invita al club Club Potosí en Cacho, como jugador." in received.text
    assert "http://testserver/signup/" in received.links()
    assert 'href="http://testserver/signup/"' in received.html
    assert '<html lang="es">' in received.html
    assert received.sender == "noreply@cacho.test"
    settle()
    mail.refresh_from_db()
    assert mail.sent_at is not None and mail.attempts == 1


def test_english_when_asked(committed_db: None, mailbox: Mailbox) -> None:
    send_mail_after_commit("club_invitation", "guest@example.org", INVITE, language="en")
    [received] = mailbox.wait_for("guest@example.org")
    assert received.subject == "Cacho: Club Potosí invites you"
    assert "ana invites you to the club Club Potosí on Cacho, as player." in received.text
    assert '<html lang="en">' in received.html


def test_a_rolled_back_transaction_sends_nothing(committed_db: None, mailbox: Mailbox) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        send_mail_after_commit("club_invitation", "ghost@example.org", INVITE)
        raise RuntimeError("the caller failed")
    send_mail_after_commit("club_invitation", "witness@example.org", INVITE)
    mailbox.wait_for("witness@example.org")
    settle()
    assert mailbox.to("ghost@example.org") == []
    assert not OutgoingMail.objects.filter(to="ghost@example.org").exists()


def test_an_unverified_address_receives_the_verification_alone(
    committed_db: None, mailbox: Mailbox, make_user: Any
) -> None:
    unverified = make_user("lucho")
    verified = make_user("rosa", verified=True)
    assert send_mail_after_commit("club_invitation", unverified, INVITE) is None
    assert send_mail_after_commit("club_invitation", unverified.email, INVITE) is None  # the address too
    verify = {"username": "lucho", "link": "http://testserver/v/", "days": 3}
    assert send_mail_after_commit("verify_email", unverified, verify) is not None
    assert send_mail_after_commit("club_invitation", verified, INVITE) is not None
    mailbox.wait_for(verified.email)
    [only] = mailbox.wait_for(unverified.email)
    settle()
    assert only.subject == "Cacho: confirma tu dirección de correo"
    assert len(mailbox.to(unverified.email)) == 1
    assert OutgoingMail.objects.filter(to=unverified.email).count() == 1


def test_delivered_once_whoever_runs_it_again(committed_db: None, mailbox: Mailbox) -> None:
    mail = send_mail_after_commit("club_invitation", "once@example.org", INVITE)
    assert mail is not None
    mailbox.wait_for("once@example.org")
    settle()
    assert deliver(mail.pk) is False
    assert deliver_mail.apply(args=(mail.pk,)).get() is False  # a redelivered task
    assert len(mailbox.to("once@example.org")) == 1


def test_a_server_that_is_down_is_tried_again(committed_db: None, mailbox: Mailbox, settings: Any) -> None:
    port = settings.EMAIL_PORT
    with transaction.atomic():
        mail = OutgoingMail.objects.create(
            kind="club_invitation", to="later@example.org", context=INVITE, language="en"
        )
    settings.EMAIL_PORT = 1  # nothing listens there
    with pytest.raises(OSError):
        deliver(mail.pk)
    mail.refresh_from_db()
    assert mail.sent_at is None and mail.failed_at is None and mail.claimed_at is None
    assert mail.attempts == 1 and "Connection refused" in mail.last_error
    settings.EMAIL_PORT = port
    assert deliver_mail.apply(args=(mail.pk,)).get() is True  # the task's next try
    mailbox.wait_for("later@example.org")
    mail.refresh_from_db()
    assert mail.sent_at is not None and mail.attempts == 2 and mail.last_error == ""


def test_a_refused_address_is_given_up(committed_db: None, mailbox: Mailbox) -> None:
    mailbox.refuse.add("nobody@example.org")
    with transaction.atomic():
        mail = OutgoingMail.objects.create(
            kind="club_invitation", to="nobody@example.org", context=INVITE, language="es"
        )
    assert deliver(mail.pk) is False
    mail.refresh_from_db()
    assert mail.failed_at is not None and mail.sent_at is None
    assert deliver(mail.pk) is False  # not tried again
    assert mail.attempts == 1


def test_the_sweep_queues_what_was_lost(committed_db: None, mailbox: Mailbox) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.mail.delivery import sweep_mail

    with transaction.atomic():  # stored, its task lost: never queued
        lost = OutgoingMail.objects.create(
            kind="club_invitation", to="lost@example.org", context=INVITE, language="en"
        )
        OutgoingMail.objects.filter(pk=lost.pk).update(created_at=timezone.now() - timedelta(hours=1))
        fresh = OutgoingMail.objects.create(
            kind="club_invitation", to="fresh@example.org", context=INVITE, language="en"
        )
    assert sweep_mail() == 1
    mailbox.wait_for("lost@example.org")
    settle()
    assert mailbox.to("fresh@example.org") == []  # its own task may still be on its way
    fresh.refresh_from_db()
    assert fresh.attempts == 0


def test_the_default_install_tries_again_in_process(
    committed_db: None, mailbox: Mailbox, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No worker: the serving process's mail thread retries after its backoff (shortened
    here) once the server is back."""
    from tournaments.mail import delivery

    monkeypatch.setattr(delivery, "BACKOFF_SECONDS", (0.3, 0.3, 0.3, 0.3))
    port, settings.EMAIL_PORT = settings.EMAIL_PORT, 1  # down
    mail = send_mail_after_commit("club_invitation", "patient@example.org", INVITE)
    assert mail is not None
    settle()  # the first attempt, failed
    mail.refresh_from_db()
    assert mail.attempts >= 1 and mail.sent_at is None and mail.failed_at is None
    settings.EMAIL_PORT = port  # back
    mailbox.wait_for("patient@example.org")
    settle()
    mail.refresh_from_db()
    assert mail.sent_at is not None and mail.attempts >= 2
    assert len(mailbox.to("patient@example.org")) == 1
