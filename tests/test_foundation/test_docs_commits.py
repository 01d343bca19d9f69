"""Every commit the docs cite exists in this repository's history: a figure "measured on
commit X" must be one a reader can check out."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from tests import needs

ROOT = Path(__file__).resolve().parents[2]
CITED = re.compile(r"\bcommits?\s+`?([0-9a-f]{7,40})\b|\bat `?([0-9a-f]{7,40})\b|\(([0-9a-f]{7,40}) removed")


def test_every_commit_the_docs_cite_exists() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        needs.missing("not a git checkout")
    cited = {
        (path.name, found)
        for path in sorted((ROOT / "docs").glob("*.md"))
        for match in CITED.finditer(path.read_text())
        for found in match.groups()
        if found
    }
    assert cited, "the pattern finds the docs' citations"
    missing = [
        f"{name}: {commit}"
        for name, commit in sorted(cited)
        if subprocess.run(
            ["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=ROOT, capture_output=True
        ).returncode
    ]
    assert missing == [], missing
