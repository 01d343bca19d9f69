"""Shared pytest setup. Kept minimal: engine tests are pure and never touch a database;
pytest-django only opens one for tests marked `django_db`."""
