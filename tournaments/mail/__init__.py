"""Outgoing mail, the one way the platform writes to a person.

    from tournaments.mail import send_mail_after_commit, site_url

    send_mail_after_commit("table_ready", user, {"link": site_url("/matches/…/")})

The message is stored in the caller's transaction and delivered once it commits, by the
Celery task `tournaments.deliver_mail` (retried with backoff), or by a thread of the
serving process on the default install; never inside the request. Templates:
``tournaments/templates/mail/<kind>.subject.txt``, ``<kind>.txt`` and ``<kind>.html``,
rendered in the recipient's language ({% translate %}: Spanish and English).
docs/accounts.md describes the setting (`EMAIL_URL`) and the rules.
"""

from tournaments.mail.outbox import UNVERIFIED_KINDS, send_mail_after_commit, site_url, spoken

__all__ = ["UNVERIFIED_KINDS", "send_mail_after_commit", "site_url", "spoken"]
