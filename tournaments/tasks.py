"""The Celery tasks of the tournaments, found here by Celery's autodiscovery. They live
beside the steps they run (take ids, never model instances; idempotent):

* `tournaments.record_match(match_id)`: record a finished match's table
  (`services.results`; queued by the match server's finished-match listener);
* `tournaments.advance_tournament(tournament_id)`: draw the next round once the latest has
  finished (`services.lifecycle`; queued after the commit that finishes a round);
* `tournaments.rate_match(match_id)`: the ratings after a table finished or was ruled on
  (`ratings.projection`; queued after that commit);
* `tournaments.refresh_seasons(tournament_id)`: the seasons counting a tournament after its
  final ranking changed (`seasons.projection`; queued after that commit);
* `tournaments.sweep()`: the safety net (beat, every few seconds, `project/celery.py`).
* `tournaments.deliver_mail(mail_id)`, `tournaments.sweep_mail()`: outgoing mail
  (`tournaments.mail.delivery`).
* `tournaments.notify_round_drawn(round_id)`, `tournaments.notify_ruled(dispute_id, effect)`,
  `tournaments.deliver_notices(notice_ids)`: the players' notices (`tournaments.notices`).
"""

from __future__ import annotations

from tournaments.mail.delivery import deliver_mail, sweep_mail
from tournaments.notices.delivery import deliver_notice, deliver_notices
from tournaments.notices.triggers import notify_round_drawn, notify_ruled
from tournaments.ratings.projection import rate_match_task
from tournaments.seasons.projection import refresh_seasons_task
from tournaments.services.lifecycle import advance_tournament
from tournaments.services.results import record_match_task, sweep

__all__ = [
    "advance_tournament",
    "deliver_mail",
    "deliver_notice",
    "deliver_notices",
    "notify_round_drawn",
    "notify_ruled",
    "rate_match_task",
    "record_match_task",
    "refresh_seasons_task",
    "sweep",
    "sweep_mail",
]
