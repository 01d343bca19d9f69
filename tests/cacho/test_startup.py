"""What a serving process loads at its start (cacho.services.startup): after it, the first
move that ends a match imports nothing (its listeners, the tournaments' results step and
what that imports, are loaded already). A process of its own: this one has imported
everything long ago."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.test_foundation.helpers import ROOT, clean_env

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
    env = clean_env(tmp_path, DJANGO_SETTINGS_MODULE="project.settings")
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout[-3000:]
