"""The Celery tasks of the tournaments, found here by Celery's autodiscovery. They live
beside the steps they run (take ids, never model instances; idempotent):

* `tournaments.record_match(match_id)`: record a finished match's table
  (`services.results`; queued by the match server's finished-match listener);
* `tournaments.advance_tournament(tournament_id)`: draw the next round once the latest has
  finished (`services.lifecycle`; queued after the commit that finishes a round);
* `tournaments.rate_match(match_id)`: the ratings after a table finished or was ruled on
  (`ratings.projection`; queued after that commit);
* `tournaments.sweep()`: the safety net (beat, every few seconds, `tournaments/celery.py`).
"""

from __future__ import annotations

from tournaments.ratings.projection import rate_match_task
from tournaments.services.lifecycle import advance_tournament
from tournaments.services.results import record_match_task, sweep

__all__ = ["advance_tournament", "rate_match_task", "record_match_task", "sweep"]
