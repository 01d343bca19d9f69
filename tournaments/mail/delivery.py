"""Delivering a stored message: render its templates in its language and hand it to the
mail backend (`EMAIL_URL`). At most once: a delivery claims the row first, and a row sent
is never claimed again.

With Celery (`REDIS_URL`) the task `tournaments.deliver_mail` retries with backoff and the
beat's `tournaments.sweep_mail` queues what was lost; on the default install (tasks run
in-process) one daemon thread of the serving process delivers them in turn and retries,
so that a slow or absent mail server never holds a request.
"""

from __future__ import annotations

import heapq
import logging
import smtplib
import threading
import time
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import connections
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.utils import timezone, translation

from tournaments.mail.models import OutgoingMail

logger = logging.getLogger(__name__)

CLAIM_SECONDS = 600  # a delivery that held a row this long died with its worker
MAX_ATTEMPTS = 8
BACKOFF_SECONDS = (5, 30, 120, 600, 1800, 3600, 3600)  # before the 2nd, 3rd, … attempt


class Refused(Exception):
    """The server refused the message for good (every recipient refused): no retry."""


def render(mail: OutgoingMail) -> EmailMultiAlternatives:
    context = {**mail.context, "site_url": settings.CACHO_SITE_URL, "LANGUAGE_CODE": mail.language}
    with translation.override(mail.language):
        subject = " ".join(render_to_string(f"mail/{mail.kind}.subject.txt", context).split())
        text = render_to_string(f"mail/{mail.kind}.txt", context)
        html = render_to_string(f"mail/{mail.kind}.html", context)
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [mail.to])
    message.attach_alternative(html, "text/html")
    message.extra_headers["Auto-Submitted"] = "auto-generated"
    return message


def _claim(mail_id: int) -> bool:
    now = timezone.now()
    stale = now - timedelta(seconds=CLAIM_SECONDS)
    return bool(
        OutgoingMail.objects.filter(pk=mail_id, sent_at__isnull=True, failed_at__isnull=True)
        .filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=stale))
        .update(claimed_at=now, attempts=F("attempts") + 1)
    )


def deliver(mail_id: int, *, last_try: bool = False) -> bool:
    """Send the message if nobody has; True once sent by this call. A failure to reach
    the server raises (the caller retries) and releases the row; a refusal, or any
    failure on the last try, gives the message up."""
    if not _claim(mail_id):
        return False
    rows = OutgoingMail.objects.filter(pk=mail_id)
    mail = rows.get()
    try:
        message = render(mail)
        if not message.send():
            raise Refused("the backend sent nothing")
    except smtplib.SMTPRecipientsRefused as exc:
        rows.update(claimed_at=None, failed_at=timezone.now(), last_error=str(exc)[:500])
        logger.warning("mail %s to a refused address given up", mail_id)
        return False
    except Exception as exc:
        gone = (
            last_try or mail.attempts >= MAX_ATTEMPTS or not isinstance(exc, (OSError, smtplib.SMTPException))
        )
        rows.update(claimed_at=None, last_error=repr(exc)[:500], failed_at=timezone.now() if gone else None)
        if gone:
            logger.exception("mail %s given up after %s attempts", mail_id, mail.attempts)
            return False
        raise
    rows.update(claimed_at=None, sent_at=timezone.now(), last_error="")
    return True


@shared_task(name="tournaments.deliver_mail", bind=True, ignore_result=True, max_retries=MAX_ATTEMPTS - 1)
def deliver_mail(self, mail_id: int) -> bool:  # type: ignore[no-untyped-def]
    """Deliver the stored message `mail_id` (idempotent); retried with backoff."""
    try:
        return deliver(int(mail_id), last_try=self.request.retries >= self.max_retries)
    except (OSError, smtplib.SMTPException) as exc:
        wait = BACKOFF_SECONDS[min(self.request.retries, len(BACKOFF_SECONDS) - 1)]
        raise self.retry(exc=exc, countdown=wait) from exc


IN_PROCESS_TRIES = 5


class InProcess:
    """The default install's deliverer: one daemon thread that sends the queued messages
    one after another (a round drawn for a hundred players opens one SMTP connection at a
    time, not a hundred) and tries a failed one again later (`BACKOFF_SECONDS`)."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int, int]] = []  # (when, mail id, attempt), a heap
        self._changed = threading.Condition()
        self._busy = False
        self._thread: threading.Thread | None = None

    def put(self, mail_id: int, attempt: int = 0, wait: float = 0.0) -> None:
        with self._changed:
            heapq.heappush(self._due, (time.monotonic() + wait, mail_id, attempt))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="cacho-mail", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def _take(self) -> tuple[int, int]:
        with self._changed:
            while True:
                now = time.monotonic()
                if self._due and self._due[0][0] <= now:
                    _, mail_id, attempt = heapq.heappop(self._due)
                    self._busy = True
                    return mail_id, attempt
                self._changed.wait(timeout=(self._due[0][0] - now) if self._due else 60.0)

    def _run(self) -> None:
        while True:
            mail_id, attempt = self._take()
            try:
                deliver(mail_id, last_try=attempt == IN_PROCESS_TRIES - 1)
            except Exception:
                logger.warning("mail %s: attempt %s failed, tried again later", mail_id, attempt + 1)
                if attempt + 1 < IN_PROCESS_TRIES:
                    self.put(mail_id, attempt + 1, BACKOFF_SECONDS[attempt])
            finally:
                connections.close_all()  # this thread's own: nothing held between messages
                with self._changed:
                    self._busy = False
                    self._changed.notify_all()

    def settle(self, timeout: float = 10.0) -> None:
        """Wait until nothing due now is waiting or being sent (tests, a command about to
        exit); later retries stay queued."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._busy or (self._due and self._due[0][0] <= time.monotonic()):
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._changed.wait(timeout=min(left, 0.05))


IN_PROCESS = InProcess()


def queue(mail_id: int) -> None:
    """Hand the stored message to its deliverer (after the commit that stored it)."""
    if deliver_mail.app.conf.task_always_eager:  # the default install: no worker
        IN_PROCESS.put(mail_id)
    else:
        deliver_mail.delay(mail_id)


def settle(timeout: float = 10.0) -> None:
    """Wait for the in-process deliveries due now."""
    IN_PROCESS.settle(timeout)


@shared_task(name="tournaments.sweep_mail", ignore_result=True)
def sweep_mail() -> int:
    """Queue again the messages whose task was lost (a broker or worker failure): neither
    sent nor given up, older than a claim. Answers how many."""
    old = timezone.now() - timedelta(seconds=CLAIM_SECONDS)
    lost = OutgoingMail.objects.filter(
        sent_at__isnull=True, failed_at__isnull=True, created_at__lt=old
    ).filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=old))
    ids = list(lost.values_list("pk", flat=True)[:500])
    for mail_id in ids:
        queue(mail_id)
    return len(ids)
