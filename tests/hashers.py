"""A password hasher for the test processes: PBKDF2 as deployed, with few iterations.

PBKDF2 at Django's iterations costs about a quarter of a second a password on this machine,
and the suite's fixtures make thousands of accounts. The hash keeps Django's format
(`pbkdf2_sha256$<iterations>$…`), which records its iterations: the servers and workers
the tests start, with the project's own hashers, check these passwords as they are."""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1_000
