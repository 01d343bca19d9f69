"""What a serving process loads at its start (cacho.services.startup): after it, the first
move that ends a match imports nothing (its listeners, the tournaments' results step and
what that imports, are loaded already). A process of its own: this one has imported
everything long ago."""

from __future__ import annotations

from pathlib import Path

from tests.test_foundation.helpers import clean_env, django_says

PROBE = """
import sys, django
django.setup()
from cacho.services import finished
from cacho.services.startup import load_write_path
load_write_path()
before = set(sys.modules)
finished.listeners()
print(sorted(set(sys.modules) - before))
"""


def test_after_start_up_a_match_end_imports_nothing(tmp_path: Path) -> None:
    assert django_says(clean_env(tmp_path), PROBE) == "[]"
