"""Celery tasks of the tournaments. They take ids, never model instances, and are idempotent.

* `advance_tournament(tournament_id)`: create the next round when the latest is finished
  (scheduled with `transaction.on_commit` when a round finishes; repeated or late
  deliveries do nothing: `services.advance` checks the round under the row lock).
* `project_results()`: move the results projection forward (beat runs it every few
  seconds, see `tournaments/celery.py`); it is checkpointed, so overlaps are harmless
  (the checkpoint row is locked).
"""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tournaments.advance_tournament", ignore_result=True)
def advance_tournament(tournament_id: int) -> int | None:
    from tournaments.services import advance

    return advance(int(tournament_id))


@shared_task(name="tournaments.project_results", ignore_result=True)
def project_results() -> int:
    from tournaments.projections import project_results as run

    return run()
