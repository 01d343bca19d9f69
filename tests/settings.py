"""The test processes' settings: the project's own, on this pytest-xdist worker's Redis
database (tests/workers.py), with passwords hashed quickly (tests/hashers.py). Servers and
workers that tests start use the project's settings module, with the same REDIS_URL in
their environment."""

from django.conf import global_settings

from tests import workers

workers.use_own_redis()

from project.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["tests.hashers.QuickPBKDF2PasswordHasher", *global_settings.PASSWORD_HASHERS]

# Its `flush` empties only what a test wrote to (tests/quick_flush).
INSTALLED_APPS = [*INSTALLED_APPS, "tests.quick_flush"]  # noqa: F405
