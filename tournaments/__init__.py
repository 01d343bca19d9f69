"""The Django project (settings, URLs, ASGI/WSGI, Celery) and the competition layer."""

from tournaments.celery import app as celery_app

__all__ = ["celery_app"]
