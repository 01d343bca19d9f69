"""`python -m cacho replay FILE|-`: replay a match record with the engine alone."""

from __future__ import annotations

import json
import sys

from cacho.engine.errors import RecordFormatError
from cacho.engine.record import replay_record_text

USAGE = "usage: python -m cacho replay FILE|-"


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "replay":
        print(USAGE, file=sys.stderr)
        return 2
    source = argv[1]
    try:
        if source == "-":
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {source}: {exc}", file=sys.stderr)
        return 2
    try:
        outcome = replay_record_text(text)
    except RecordFormatError as exc:
        print(f"not a match record ({exc.code}): {exc.message}", file=sys.stderr)
        return 2
    print(json.dumps(outcome, ensure_ascii=False, indent=2))
    return 0 if outcome.get("valid") else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
