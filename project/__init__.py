"""The Django project: settings, URLs, the ASGI/WSGI entry points, the Celery app, and the
edge every request and socket meets before the apps (`cacho`, `tournaments`, `frontend`)."""

from project.celery import app as celery_app

__all__ = ["celery_app"]
