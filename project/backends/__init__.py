"""The connections under the project: the PostgreSQL backend with a checked pool, and the
Celery broker's Redis transport."""
